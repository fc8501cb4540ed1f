import Foundation  // test-only: JSON of the pymavlink report, file paths
@testable import FollowCore
@testable import MAVLink
@testable import Links
@testable import Simulation
import TestSupport
import Testing

/// `followme sim --protocol mavlink` against two independent ground stations over loopback UDP:
/// pymavlink (a child process, Tests/SimulationTests/SimulatorServer/sim_mavlink_gcs.py) and our own codec.
@Suite("Simulator MAVLink Copter (UDP)", .serialized, .timeLimit(.minutes(2)))
struct SimulatorMAVLinkTests {
    @Test("pymavlink flies the real followme sim --protocol mavlink: heartbeat, GUIDED, ARM, TAKEOFF, set-points, LAND")
    func pymavlinkGroundStation() async throws {
        // Given the built simulator as a MAVLink Copter on any free port, its nose pointing east
        let python = try pymavlinkPython()
        let sim = try ChildProcess(name: "sim", executable: FollowMeBinary.url.path, arguments: [
            "sim", "--protocol", "mavlink", "--mavlink-port", "0", "--at-port", "0", "--navdata-port", "0",
            "--nmea-port", "0", "--nose-heading-deg", "90", "--json",
        ])
        defer { _ = sim.stop() }
        let started = await eventually(seconds: 20) { sim.stdoutLines.lines.first?.contains("listening") == true }
        try #require(started, "sim did not start: \(sim.stderrText.text.suffix(2000))")
        let listening = try JSONSerialization.jsonObject(with: Data(try #require(sim.stdoutLines.lines.first).utf8)) as? [String: Any]
        #expect(listening?["protocol"] as? String == "mavlink")
        let port = try #require(listening?["mavlink_port"] as? Int)
        #expect(port > 0)

        // When pymavlink runs the whole flight against it
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sim_mavlink_gcs.py").path
        let gcs = try await Blocking.run { Result { try ChildProcess.run(python, [script, String(port)], timeoutSeconds: 90) } }.get()
        try #require(gcs.exitCode == 0, "sim_mavlink_gcs.py: \(gcs.stderr.suffix(2000))")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(gcs.stdout.utf8)) as? [String: Any])
        reportMeasurement("pymavlink ground station report", gcs.stdout)
        let acks = report["acks"] as? [String: Int]
        let steps = report["steps"] as? [String: [String: Any]]
        func step(_ name: String, _ key: String) -> Double? { (steps?[name]?[key] as? NSNumber)?.doubleValue }
        func flag(_ name: String, _ key: String) -> Bool? { steps?[name]?[key] as? Bool }

        // Then pymavlink decoded a MAVLink 2 ArduPilot quadrotor (system 1, component 1) in STABILIZE, on the ground
        let heartbeat = report["heartbeat"] as? [String: Int]
        #expect(heartbeat?["type"] == 2 && heartbeat?["autopilot"] == 3 && heartbeat?["mavlink_version"] == 3)
        #expect(heartbeat?["srcSystem"] == 1 && heartbeat?["srcComponent"] == 1 && heartbeat?["frame_version"] == 2)
        #expect(step("start", "custom_mode") == 0 && step("start", "landed_state") == 1 && flag("start", "armed") == false)
        // And ARM in STABILIZE was refused (MAV_RESULT_FAILED 4); GUIDED, ARM, TAKEOFF, the interval and LAND accepted
        #expect(acks?["arm_in_stabilize"] == 4)
        #expect(acks?["guided"] == 0 && acks?["arm"] == 0 && acks?["takeoff"] == 0 && acks?["interval"] == 0 && acks?["land"] == 0)
        let texts = report["statustexts"] as? [String] ?? []
        #expect(texts.contains("Arm: Mode not armable"))
        // And after TAKEOFF 3 m: GUIDED (4), armed, ACTIVE, IN_AIR (2) at about 3 m
        #expect(step("airborne", "custom_mode") == 4 && flag("airborne", "armed") == true && step("airborne", "system_status") == 4)
        #expect(step("airborne", "landed_state") == 2)
        #expect(abs((step("airborne", "relative_alt_m") ?? 0) - 3) < 0.3)
        // And GLOBAL_POSITION_INT came at the 10 Hz asked for
        let rate = (report["global_position_rate_hz"] as? NSNumber)?.doubleValue ?? 0
        #expect(rate >= 8.5 && rate <= 11.5, "GLOBAL_POSITION_INT at \(rate) Hz")
        // And LOCAL_NED x = 2 m/s moved it north; BODY_NED x = 2 m/s moved it along its nose (east)
        let north = report["local_north_moved"] as? [String: Double]
        #expect((north?["north_m"] ?? 0) > 3 && abs(north?["east_m"] ?? 99) < 0.3, "LOCAL_NED north moved \(north ?? [:])")
        #expect(abs((step("after_local_north", "vx_north") ?? 0) - 2) < 0.1)
        let body = report["body_forward_moved"] as? [String: Double]
        #expect((body?["east_m"] ?? 0) > 3 && (body?["east_m"] ?? 0) > 2 * (body?["north_m"] ?? 99), "BODY_NED forward moved \(body ?? [:])")
        #expect(abs((step("after_body_forward", "vy_east") ?? 0) - 2) < 0.1)
        // And 6.5 s without set-points stopped it (guided timeout), still in the air
        #expect(abs(step("after_silence", "vy_east") ?? 9) < 0.1 && abs(step("after_silence", "vx_north") ?? 9) < 0.1)
        #expect(texts.contains { $0.contains("timeout") })
        // And LAND (9): LANDING (4) on the way down, then ON_GROUND (1), disarmed, STANDBY (3)
        #expect(step("landing", "custom_mode") == 9 && step("landing", "landed_state") == 4)
        #expect(step("landed", "landed_state") == 1 && flag("landed", "armed") == false && step("landed", "system_status") == 3)
        #expect(step("landed", "relative_alt_m") == 0)
    }

    @Test("our codec as the ground station: the first HEARTBEAT's source gets telemetry; GUIDED, arm, take-off, BODY_NED; the mavlink silence fault")
    func codecGroundStation() async throws {
        // Given an in-process simulator as a MAVLink Copter with a control port, nose north
        try await withSimulator(.mavlinkAnyPorts(controlPort: 0)) { server in
            let port = try #require(server.ports.mavlinkPort)
            let gcs = try CodecGroundStation(port: port)
            // When nothing has said HEARTBEAT yet, nothing comes
            #expect(try gcs.collect(seconds: 1.2).isEmpty)
            // When a command comes before any HEARTBEAT, its ACK comes back, but no telemetry
            #expect(try gcs.command(.setMessageInterval, [Float(SysStatus.messageID), 0]) == .accepted)
            #expect(try gcs.collect(seconds: 1.2).isEmpty)
            // When the ground station sends its HEARTBEAT
            gcs.send(Heartbeat { $0.type = .init(.gcs); $0.autopilot = .init(.invalid); $0.mavlinkVersion = 3 })
            let first = try gcs.collect(seconds: 1.5)
            // Then HEARTBEAT, GLOBAL_POSITION_INT (4 Hz), ATTITUDE, SYS_STATUS and EXTENDED_SYS_STATE come back to it
            let kinds = Set(first.map(\.messageID))
            #expect(kinds.isSuperset(of: [Heartbeat.messageID, GlobalPositionInt.messageID, Attitude.messageID,
                                          SysStatus.messageID, ExtendedSysState.messageID]))
            #expect(first.allSatisfy { $0.systemID == 1 && $0.componentID == 1 })
            let sequences = first.map(\.sequence)
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 }, "sequence \(sequences)")

            // When it sets GUIDED, arms and takes off to 2 m
            #expect(try gcs.command(.doSetMode, [1, 4]) == .accepted)
            #expect(try gcs.command(.componentArmDisarm, [1]) == .accepted)
            #expect(try gcs.command(.navTakeoff, [0, 0, 0, .nan, .nan, .nan, 2]) == .accepted)
            let airborne = await eventually(timeoutSeconds: 10) {
                (try? await server.snapshot())?.mavlinkState?.landed == "in-air"
            }
            #expect(airborne)
            // And flies 1.5 m/s to the right in BODY_NED for 2 s (nose north: east)
            let before = try await server.snapshot()
            let end = monotonicSeconds() + 2
            while monotonicSeconds() < end {
                gcs.send(SetPositionTargetLocalNED {
                    $0.velocityNEDMetersPerSecond = [0, 1.5, 0]
                    $0.typeMask = .velocityAndYawRate
                    $0.target = MAVLinkTarget(system: 1, component: 1)
                    $0.coordinateFrame = .init(.bodyNED)
                })
                _ = try gcs.collect(seconds: 0.1)
            }
            let after = try await server.snapshot()
            // Then the ground truth moved east, and the status JSON says GUIDED, armed
            let moved = after.positionPlane - before.positionPlane
            #expect(moved.east > 1.5 && abs(moved.north) < 0.2, "moved \(moved)")
            #expect(after.flightPhase == .flying && abs(after.altitudeMeters - 2) < 0.3)
            #expect(after.mavlinkJSON?.contains("\"mode\":\"GUIDED\",\"armed\":true") == true, "\(after.mavlinkJSON ?? "nil")")

            // When the control port silences the MAVLink stream
            let control = try SimControl(port: try #require(server.ports.controlPort))
            try control.send(["command": "silence", "stream": "mavlink", "on": true])
            _ = try gcs.collect(seconds: 0.3)
            // Then nothing arrives, although it still flies
            #expect(try gcs.collect(seconds: 1.5).isEmpty)
            try control.send(["command": "silence", "stream": "mavlink", "on": false])
            #expect(try !gcs.collect(seconds: 1.2).isEmpty)

            // When the control port's land fault fires, the copter goes to LAND on its own
            try control.send(["command": "land"])
            let landing = try gcs.collect(seconds: 1.2).compactMap { try? Heartbeat(frame: $0) }
            #expect(landing.last?.customMode == ArduCopterMode.land.rawValue)
        }
    }

    @Test("two ground stations (FollowMe 245, a pilot's 255): both get telemetry; the second's DO_SET_MODE LOITER is obeyed and acknowledged to it only; the control port's pilot-mode")
    func secondGroundStationAndPilot() async throws {
        try await withSimulator(.mavlinkAnyPorts(controlPort: 0)) { server in
            let port = try #require(server.ports.mavlinkPort)
            // Given FollowMe's station (system 245 = SYSID_MYGCS) and a pilot's (255), both saying HEARTBEAT
            let followMe = try CodecGroundStation(port: port, systemID: 245)
            let pilot = try CodecGroundStation(port: port, systemID: 255)
            let beat = Heartbeat { $0.type = .init(.gcs); $0.autopilot = .init(.invalid); $0.mavlinkVersion = 3 }
            followMe.send(beat)
            pilot.send(beat)
            // Then both get the Copter's telemetry (the second does not take it from the first)
            #expect(try followMe.collect(seconds: 1.5).contains { $0.messageID == Heartbeat.messageID })
            #expect(try pilot.collect(seconds: 0.1).contains { $0.messageID == Heartbeat.messageID })

            // When FollowMe takes off in GUIDED to 2 m
            #expect(try followMe.command(.doSetMode, [1, 4]) == .accepted)
            #expect(try followMe.command(.componentArmDisarm, [1]) == .accepted)
            #expect(try followMe.command(.navTakeoff, [0, 0, 0, .nan, .nan, .nan, 2]) == .accepted)
            let airborne = await eventually(timeoutSeconds: 10) {
                followMe.send(beat)
                return (try? await server.snapshot())?.mavlinkState?.landed == "in-air"
            }
            #expect(airborne)
            _ = try followMe.collect(seconds: 0.2)
            // And the pilot's station sends DO_SET_MODE LOITER
            #expect(try pilot.command(.doSetMode, [1, Float(ArduCopterMode.loiter.rawValue)]) == .accepted)
            // Then the Copter is in LOITER, FollowMe sees it in the HEARTBEAT, and the ACK went to the pilot only
            let seen = try followMe.collect(seconds: 1.2)
            #expect(seen.compactMap { try? Heartbeat(frame: $0) }.last?.customMode == ArduCopterMode.loiter.rawValue)
            #expect(!seen.contains { $0.messageID == CommandAck.messageID })
            let status = try await server.snapshot()
            #expect(status.mavlinkState?.mode == "LOITER")
            #expect(status.mavlinkJSON?.contains("\"ground_stations\":2") == true, "\(status.mavlinkJSON ?? "nil")")

            // When the RC pilot flips the switch (control port): BRAKE is obeyed, STABILIZE in the air refused
            let control = try SimControl(port: try #require(server.ports.controlPort))
            #expect(try control.send(["command": "pilot-mode", "mode": "BRAKE"])["ok"] as? Bool == true)
            #expect(try await server.snapshot().mavlinkState?.mode == "BRAKE")
            #expect(throws: (any Error).self) { try control.send(["command": "pilot-mode", "mode": "STABILIZE"]) }
            #expect(throws: (any Error).self) { try control.send(["command": "pilot-mode", "mode": "CIRCLE"]) }
            #expect(try await server.snapshot().mavlinkJSON?.contains("\"pilot_mode_changes\":1") == true)
        }
    }

    @Test("--protocol ardrone (the default) binds no MAVLink port and prints no mavlink_port")
    func ardroneUnchanged() async throws {
        try await withSimulator(.loopbackAnyPorts()) { server in
            #expect(server.ports.mavlinkPort == nil)
            let line = server.ports.jsonLine(configuration: server.configuration)
            #expect(!line.contains("mavlink") && !line.contains("protocol"))
            let snapshot = try await server.snapshot()
            #expect(snapshot.mavlinkJSON == nil)
        }
    }
}

/// The Python with pymavlink: `FOLLOWME_PYMAVLINK_PYTHON`, else `.build/pymavlink-venv/bin/python3`
/// (installed by `scripts/ensure-deps.sh --test`), as Tests/MAVLinkTests finds it.
private func pymavlinkPython() throws -> String {
    let python = ProcessInfo.processInfo.environment["FOLLOWME_PYMAVLINK_PYTHON"]
        ?? RepositoryRoot.file(".build/pymavlink-venv/bin/python3").path
    try #require(FileManager.default.isExecutableFile(atPath: python),
                 "\(python): run scripts/ensure-deps.sh --test (installs pymavlink) or set FOLLOWME_PYMAVLINK_PYTHON")
    return python
}

/// A ground station made of our codec and a plain loopback UDP socket (system `systemID`, default
/// 255, component 190).
final class CodecGroundStation: @unchecked Sendable {
    private let socket: LoopbackUDPSocket
    private let port: Int
    private let systemID: UInt8
    private var parser = MAVLinkParser()
    private var sequence: UInt8 = 0

    init(port: Int, systemID: UInt8 = 255) throws {
        socket = try LoopbackUDPSocket()
        self.port = port
        self.systemID = systemID
    }

    func send(_ message: some MAVLinkMessage) {
        socket.send(message.encoded(sequence: sequence, systemID: systemID, componentID: 190), toPort: port)
        sequence &+= 1
    }

    /// Every checked frame received in the next `seconds`.
    func collect(seconds: Double) throws -> [MAVLinkFrame] {
        var frames: [MAVLinkFrame] = []
        let end = monotonicSeconds() + seconds
        while monotonicSeconds() < end {
            guard let datagram = try? socket.receive(timeoutSeconds: max(0.01, end - monotonicSeconds())) else { continue }
            for case .frame(let frame) in parser.parse(datagram) { frames.append(frame) }
        }
        return frames
    }

    /// COMMAND_LONG to system 1; the COMMAND_ACK result (nil if none within 2 s).
    func command(_ command: MAVCommand, _ params: [Float]) throws -> MAVResult? {
        send(CommandLong {
            $0.params = params + Array(repeating: 0, count: 7 - params.count)
            $0.command = .init(command)
            $0.target = MAVLinkTarget(system: 1, component: 1)
        })
        let end = monotonicSeconds() + 2
        while monotonicSeconds() < end {
            for frame in try collect(seconds: 0.1) {
                if let ack = try? CommandAck(frame: frame), ack.command.known == command { return ack.result.known }
            }
        }
        return nil
    }
}

extension SimulatorConfiguration {
    /// A MAVLink Copter simulator on loopback, every port any free one (control port only if given).
    static func mavlinkAnyPorts(noseHeadingDegrees: Double = 0, controlPort: Int? = nil) -> SimulatorConfiguration {
        var configuration = loopbackAnyPorts()
        configuration.droneProtocol = .mavlink
        configuration.mavlinkPort = 0
        configuration.controlPort = controlPort
        configuration.initialNoseHeadingDegrees = noseHeadingDegrees
        return configuration
    }
}

extension SimulatorSnapshot {
    /// The copter's mode and landed state from `mavlinkJSON` (nil for the AR.Drone).
    var mavlinkState: (mode: String, landed: String)? {
        guard let json = mavlinkJSON, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let mode = object["mode"] as? String, let landed = object["landed_state"] as? String else { return nil }
        return (mode, landed)
    }
}
