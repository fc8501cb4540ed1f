@testable import FollowCore
import Foundation
@testable import MAVLink
@testable import Links
import NIOCore
import Testing
import TestSupport

/// The link over real UDP on 127.0.0.1 against `AutopilotPeer`, bytes checked with the MAVLink codec.
@Suite("MAVLinkLink over loopback UDP against a scripted autopilot", .serialized)
struct MAVLinkLinkTests {
    /// A started link talking to `peer`, recording its events.
    struct Rig {
        let link: MAVLinkLink
        let peer: AutopilotPeer
        let events: EventRecorder<LinkEvent>

        static func start(_ autopilot: MAVLinkLinkConfiguration.Autopilot = .ardupilot, parameters: [String: Float]? = nil,
                          type: MAVType = .quadrotor) async throws -> Rig {
            let peer = try AutopilotPeer(autopilot: autopilot == .px4 ? .px4 : .ardupilotmega,
                                         customMode: autopilot == .px4 ? PX4Mode(mainMode: 3).customMode : 0)
            peer.state.withLock { s in
                if let parameters { s.parameters.merge(parameters) { _, given in given } }
                s.type = type
            }
            let configuration = try MAVLinkLinkConfiguration(
                address: "127.0.0.1", port: peer.port, autopilot: autopilot,
                setpoints: VelocitySetpointLimits(follow: FollowParameters()), takeoffAltitudeMeters: 3)
            let events = EventRecorder<LinkEvent>()
            let link = MAVLinkLink(configuration: configuration, eventHandler: { events.append($0) })
            try await link.start()
            let local = try #require(await link.localAddress()?.port)
            peer.attach(linkPort: local)
            return Rig(link: link, peer: peer, events: events)
        }

        func shutdown() async {
            await link.stop()
            peer.stop()
        }

        func has(_ predicate: @escaping (LinkEvent) -> Bool) -> Bool { events.events.contains(where: predicate) }
    }

    @Test("on the wire: HEARTBEAT from 245/190 (GCS 6, INVALID 8) about once a second, sequence numbers counting up")
    func heartbeatOnTheWire() async throws {
        let rig = try await Rig.start()
        _ = await eventually(timeoutSeconds: 5) { rig.peer.received.filter { $0.frame.messageID == 0 }.count >= 3 }
        await rig.shutdown()
        let heartbeats = rig.peer.received.filter { $0.frame.messageID == 0 }
        #expect(heartbeats.count >= 3)
        #expect(heartbeats.allSatisfy { $0.frame.systemID == 245 && $0.frame.componentID == 190 && $0.frame.version == .v2 })
        let first = try #require(heartbeats.first?.message as? Heartbeat)
        #expect(first.type.rawValue == 6 && first.autopilot.rawValue == 8)
        let sequences = rig.peer.received.map(\.frame.sequence)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        if heartbeats.count >= 3 {
            let period = heartbeats[2].at.seconds(since: heartbeats[1].at)
            #expect(period > 0.8 && period < 1.3, "heartbeat period \(period) s")
        }
    }

    @Test("ArduPilot over UDP: rates, GUIDED, ARM, NAV_TAKEOFF, set-points ≥ 10 Hz in LOCAL_NED, then LAND on flying false")
    func ardupilotFlight() async throws {
        let rig = try await Rig.start()
        // Given the vehicle connected and configured
        let configured = await eventually(timeoutSeconds: 5) {
            rig.has { if case .configurationComplete(let failed, _) = $0 { failed.isEmpty } else { false } }
        }
        #expect(configured)
        // When the owner wants to fly forward
        rig.link.send(LinkCommand(flying: true, motion: MotionCommand(velocity: PlaneVector(east: 0, north: 1.5), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)), immediately: false,
                      reflecting: nil)
        let flying = await eventually(timeoutSeconds: 8) { rig.peer.setpoints.count >= 40 }
        #expect(flying)
        // Then the commands on the wire, in order: SET_MESSAGE_INTERVAL for the rates not already seen
        // (GLOBAL_POSITION_INT arrives at 10 Hz on its own here), DO_SET_MODE GUIDED, ARM, NAV_TAKEOFF 3 m
        let intervals = rig.peer.commands.prefix { $0.command.rawValue == 511 }
        #expect(Set(intervals.map(\.params[0])).isSubset(of: [33, 30, 1, 245]) && intervals.count >= 3)
        let commands = Array(rig.peer.commands.dropFirst(intervals.count))
        #expect(commands.map(\.command.rawValue) == [176, 400, 22])
        #expect(commands.count == 3 && Array(commands[0].params.prefix(2)) == [1, 4] && commands[2].params[6] == 3)
        #expect(commands.allSatisfy { $0.target == MAVLinkTarget(system: 1, component: 1) })
        // and the set-points: frame LOCAL_NED (1), mask 0x05C7, north = the core's 1.5 m/s as is, at the tick rate
        let setpoints = rig.peer.setpoints
        #expect(setpoints.allSatisfy { $0.0.coordinateFrame.rawValue == 1 && $0.0.typeMask.rawValue == 0x05C7 })
        #expect(setpoints.last!.0.velocityNEDMetersPerSecond == [1.5, 0, 0])
        let span = setpoints.last!.1.seconds(since: setpoints[setpoints.count - 31].1)
        #expect(span < 3, "30 set-points took \(span) s (≥ 10 Hz means < 3 s)")
        // When the owner wants it down: DO_SET_MODE LAND (9)
        rig.link.send(LinkCommand(flying: false, land: true), immediately: false, reflecting: nil)
        let landing = await eventually(timeoutSeconds: 5) { rig.peer.commands.last.map { $0.command.rawValue == 176 && $0.params[1] == 9 } == true }
        #expect(landing)
        let statistics = try #require(await rig.link.linkStatistics())
        #expect(statistics.counts[.telemetryReceived] > 0 && statistics.counts[.datagramsSent] >= 47)
        await rig.shutdown()
    }

    @Test("PX4 over UDP: set-points before ARM, NAV_TAKEOFF at AMSL, OFFBOARD after the take-off")
    func px4Flight() async throws {
        let rig = try await Rig.start(.px4)
        _ = await eventually(timeoutSeconds: 5) { rig.has { if case .configurationComplete = $0 { true } else { false } } }
        rig.link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
        let offboard = await eventually(timeoutSeconds: 8) { rig.peer.commands.contains { $0.command.rawValue == 176 } }
        await rig.shutdown()
        #expect(offboard)
        let received = rig.peer.received
        let firstSetpoint = try #require(received.firstIndex { $0.frame.messageID == 84 })
        let arm = try #require(received.firstIndex { ($0.message as? CommandLong)?.command.rawValue == 400 })
        #expect(firstSetpoint < arm, "set-points stream before ARM")
        let commands = rig.peer.commands.map(\.command.rawValue).filter { $0 != 511 }
        #expect(commands == [400, 22, 176])
        #expect(rig.peer.commands.first { $0.command.rawValue == 22 }?.params[6] == 483)
        #expect(Array(rig.peer.commands.last!.params.prefix(3)) == [1, 6, 0])
    }

    @Test("a refused ARM over UDP is reported as a notice and asked again after the back-off")
    func refusedArm() async throws {
        let rig = try await Rig.start()
        rig.peer.state.withLock { $0.armsToDeny = 1 }
        _ = await eventually(timeoutSeconds: 5) { rig.has { if case .configurationComplete = $0 { true } else { false } } }
        rig.link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
        let armed = await eventually(timeoutSeconds: 8) { rig.peer.state.withLock { $0.armed } }
        await rig.shutdown()
        #expect(armed)
        #expect(rig.has { if case .notice(let text, _, _) = $0 { text.contains("ARM") && text.contains("DENIED") } else { false } })
        #expect(rig.peer.commands.filter { $0.command.rawValue == 400 }.count == 2)
    }

    @Test("datagrams from another address are dropped and counted; a silent vehicle is reported lost, then restored")
    func sourceAndSilence() async throws {
        let rig = try await Rig.start()
        _ = await eventually(timeoutSeconds: 5) { rig.has { if case .connected = $0 { true } else { false } } }
        // A stranger on loopback sends a vehicle HEARTBEAT to the link
        let stranger = try LoopbackUDPSocket()
        let local = try #require(await rig.link.localAddress()?.port)
        stranger.send(Heartbeat { $0.type = .init(.quadrotor); $0.autopilot = .init(.ardupilotmega) }.encoded(sequence: 0, systemID: 1, componentID: 1),
                      toPort: local)
        let dropped = await eventually(timeoutSeconds: 3) {
            (await rig.link.linkStatistics())?.counts[.droppedUnexpectedSource] ?? 0 >= 1
        }
        #expect(dropped)
        // The vehicle falls silent, then talks again
        rig.peer.state.withLock { $0.silent = true }
        let lost = await eventually(timeoutSeconds: 3) { rig.has { if case .telemetryLost = $0 { true } else { false } } }
        rig.peer.state.withLock { $0.silent = false }
        let restored = await eventually(timeoutSeconds: 3) { rig.has { if case .telemetryRestored = $0 { true } else { false } } }
        await rig.shutdown()
        #expect(lost && restored)
    }
}

/// The socket closing under the link (SwiftNIO closes a UDP channel on e.g. ENETUNREACH).
@Suite("MAVLinkLink socket recovery (loopback UDP)", .serialized)
struct MAVLinkLinkRecoveryTests {
    @Test("a socket closed under the link: .socketClosed, re-bound on the same local port (.socketReopened), traffic resumes")
    func rebind() async throws {
        let rig = try await MAVLinkLinkTests.Rig.start()
        _ = await eventually(timeoutSeconds: 5) { rig.has { if case .connected = $0 { true } else { false } } }
        let port = try #require(await rig.link.localAddress()?.port)
        // When the link's socket closes under it
        let channel = try #require(await rig.link.snapshot { $0.channel })
        try await channel.close()
        let reopened = await eventually(timeoutSeconds: 5) {
            rig.has { if case .socketReopened = $0 { true } else { false } }
        }
        #expect(reopened)
        // Then it was reported, bound again on the same port, and HEARTBEATs reach the vehicle again
        #expect(rig.has { if case .socketClosed(socket: "mavlink", _, _) = $0 { true } else { false } })
        #expect(rig.has { if case .socketReopened("mavlink", port, true, _, _, _) = $0 { true } else { false } })
        let heartbeatsBefore = rig.peer.received.filter { $0.frame.messageID == 0 }.count
        let resumed = await eventually(timeoutSeconds: 3) {
            rig.peer.received.filter { $0.frame.messageID == 0 }.count >= heartbeatsBefore + 2
        }
        let statistics = try #require(await rig.link.linkStatistics())
        await rig.shutdown()
        #expect(resumed)
        #expect(statistics.counts[.socketsClosed] == 1 && statistics.counts[.socketsReopened] == 1)
    }
}
