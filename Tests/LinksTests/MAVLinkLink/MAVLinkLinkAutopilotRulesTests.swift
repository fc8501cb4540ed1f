@testable import FollowCore
import Foundation
@testable import MAVLink
@testable import Links
import Testing
import TestSupport

/// What ArduPilot and PX4 require of a ground station (docs/mavlink.md §7.7–§7.12), over real loopback
/// UDP against `AutopilotPeer`.
@Suite("MAVLinkLink over loopback UDP: what ArduPilot and PX4 require of a ground station", .serialized)
struct MAVLinkLinkAutopilotRulesTests {
    typealias Rig = MAVLinkLinkTests.Rig

    static func configured(_ rig: Rig) async -> Bool {
        await eventually(timeoutSeconds: 5) { rig.has { if case .configurationComplete = $0 { true } else { false } } }
    }

    /// Configured, asked to fly, and streaming set-points (in the air in GUIDED).
    static func flying(_ rig: Rig) async -> Bool {
        _ = await configured(rig)
        rig.link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
        return await eventually(timeoutSeconds: 8) { rig.peer.setpoints.count >= 5 }
    }

    @Test("3. ArduCopter with FS_GCS_ENABLE 0 (its default): the configuration fails on FS_GCS_ENABLE, naming SYSID_MYGCS")
    func gcsFailsafeOff() async throws {
        let rig = try await Rig.start(parameters: ["FS_GCS_ENABLE": 0, "SYSID_MYGCS": 255])
        let complete = await eventually(timeoutSeconds: 8) {
            rig.has { if case .configurationComplete(let failed, _) = $0 { failed == ["FS_GCS_ENABLE"] } else { false } }
        }
        await rig.shutdown()
        #expect(complete)
        #expect(rig.has { if case .configurationFailed("FS_GCS_ENABLE", "0", let reason, _) = $0 { reason.contains("SYSID_MYGCS") } else { false } })
        #expect(rig.peer.received.contains { ($0.message as? ParamRequestRead)?.parameterID.string == "FS_GCS_ENABLE" })
    }

    @Test("3. PX4 with COM_OBL_RC_ACT 4 (Land) and COM_OF_LOSS_T 1 s: configured")
    func px4OffboardLossOn() async throws {
        let rig = try await Rig.start(.px4)
        let complete = await eventually(timeoutSeconds: 8) {
            rig.has { if case .configurationComplete(let failed, _) = $0 { failed.isEmpty } else { false } }
        }
        await rig.shutdown()
        #expect(complete)
    }

    @Test("6. DO_SET_MODE ACKs addressed to another station do not confirm our LAND: it is re-sent")
    func otherStationsAcks() async throws {
        let rig = try await Rig.start()
        let flying = await Self.flying(rig)
        #expect(flying)
        // The vehicle now answers DO_SET_MODE to QGroundControl (255/190), and does not change mode
        rig.peer.state.withLock { $0.setModeAckTarget = MAVLinkTarget(system: 255, component: 190) }
        rig.link.send(LinkCommand(flying: false), immediately: false, reflecting: nil)
        let resent = await eventually(timeoutSeconds: 5) {
            rig.peer.commands.filter { $0.command.rawValue == 176 && $0.params[1] == 9 }.count >= 2
        }
        await rig.shutdown()
        #expect(resent)
    }

    @Test("1. a pilot's LOITER, or the autopilot's own RTL, in flight: .released, set-points stop, and no LAND when the flight then wants it down",
          arguments: [ArduCopterMode.loiter, .rtl])
    func released(mode: ArduCopterMode) async throws {
        let rig = try await Rig.start()
        let flying = await Self.flying(rig)
        #expect(flying)
        // When the vehicle leaves GUIDED (the pilot's switch, or its own failsafe)
        rig.peer.state.withLock { $0.customMode = mode.rawValue }
        let released = await eventually(timeoutSeconds: 3) {
            rig.has { if case .released(let m, _, _) = $0 { m == "\(mode)".uppercased() } else { false } }
        }
        #expect(released)
        let setpoints = rig.peer.setpoints.count, commands = rig.peer.commands.count
        // And the flight then lands (its hold expired, SIGTERM): nothing goes to the vehicle
        rig.link.send(LinkCommand(flying: false, land: true), immediately: false, reflecting: nil)
        try await Task.sleep(for: .seconds(2))
        await rig.shutdown()
        #expect(rig.peer.commands.count == commands, "\(rig.peer.commands.dropFirst(commands).map(\.command.rawValue))")
        #expect(rig.peer.setpoints.count <= setpoints + 1)
        #expect(rig.peer.state.withLock { $0.customMode } == mode.rawValue)
    }

    @Test("7. a Plane is never the vehicle: no .connected, no command, a notice")
    func plane() async throws {
        let rig = try await Rig.start(type: .fixedWing)
        let noticed = await eventually(timeoutSeconds: 3) {
            rig.has { if case .notice(let text, _, _) = $0 { text.contains("not a multirotor") } else { false } }
        }
        try await Task.sleep(for: .milliseconds(500))
        await rig.shutdown()
        #expect(noticed)
        #expect(!rig.has { if case .connected = $0 { true } else { false } })
        #expect(rig.peer.commands.isEmpty)
    }

    @Test("7. two vehicles on the link and target_system 0: configuration fails on target_system, no flight command")
    func twoVehicles() async throws {
        let rig = try await Rig.start()
        rig.peer.state.withLock { $0.secondVehicleSystem = 2 }
        let failed = await eventually(timeoutSeconds: 5) {
            rig.has { if case .configurationFailed("target_system", _, _, _) = $0 { true } else { false } }
        }
        rig.link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
        try await Task.sleep(for: .seconds(2))
        await rig.shutdown()
        #expect(failed)
        #expect(rig.peer.commands.allSatisfy { $0.command.rawValue == 511 }, "\(rig.peer.commands.map(\.command.rawValue))")
    }

    @Test("8. battery −1 and CRITICAL reach the core's telemetry")
    func batteryUnknownAndCritical() async throws {
        let rig = try await Rig.start()
        _ = await Self.configured(rig)
        rig.peer.state.withLock { ($0.batteryPercent, $0.systemStatus) = (-1, .critical) }
        let seen = await eventually(timeoutSeconds: 3) {
            rig.has { if case .telemetry(let t, _) = $0 { t.batteryUnknown && t.critical } else { false } }
        }
        await rig.shutdown()
        #expect(seen)
    }

    @Test("10. a vehicle that reboots (time_boot_ms back) is asked its message rates again")
    func reboot() async throws {
        let rig = try await Rig.start()
        _ = await Self.configured(rig)
        let before = rig.peer.commands.filter { $0.command.rawValue == 511 }.count
        rig.peer.state.withLock { $0.bootMilliseconds = 3_000 }
        let again = await eventually(timeoutSeconds: 5) { rig.peer.commands.filter { $0.command.rawValue == 511 }.count > before }
        await rig.shutdown()
        #expect(again)
        #expect(rig.has { if case .configurationPending = $0 { true } else { false } })
    }

    @Test("10. ARM answered IN_PROGRESS, ACCEPTED 2 s later: sent once")
    func inProgress() async throws {
        let rig = try await Rig.start()
        rig.peer.state.withLock { $0.armInProgressSeconds = 2 }
        _ = await Self.configured(rig)
        rig.link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
        let tookOff = await eventually(timeoutSeconds: 8) { rig.peer.commands.contains { $0.command.rawValue == 22 } }
        await rig.shutdown()
        #expect(tookOff)
        #expect(rig.peer.commands.filter { $0.command.rawValue == 400 }.count == 1)
    }
}
