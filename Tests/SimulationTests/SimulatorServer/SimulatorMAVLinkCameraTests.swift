@testable import FollowCore
@testable import MAVLink
@testable import Links
@testable import Simulation
import TestSupport
import Testing

/// The product's MAVLink link records with the simulated Copter's camera over loopback UDP (docs/mavlink.md
/// §7.15, §8.7): the Copter answers as ArduPilot's AP_Camera does — CAM1_TYPE 6, a MAVLink camera that records
/// video, or CAM1_TYPE 0, none — and its status says whether it records and who sent camera commands.
@Suite("MAVLinkLink and the simulated Copter's camera (UDP)", .serialized, .timeLimit(.minutes(2)))
struct SimulatorMAVLinkCameraTests {
    /// FollowMe's system id (the link's default).
    static let followMe = "245"

    /// The simulated Copter with `cameraType` (CAM1_TYPE), on loopback with a control port.
    static func simulator(cameraType: Int) -> SimulatorConfiguration {
        var configuration = SimulatorConfiguration.mavlinkAnyPorts(controlPort: 0)
        configuration.mavlinkCopter.cameraType = cameraType
        return configuration
    }

    /// A MAVLinkLink at the simulator's Copter (ArduPilot, 2 m take-off), started.
    static func link(_ server: SimulatorServer, dryRun: Bool = false, events: EventRecorder<LinkEvent>) async throws -> MAVLinkLink {
        var configuration = try MAVLinkLinkConfiguration(
            address: "127.0.0.1", port: try #require(server.ports.mavlinkPort), autopilot: .ardupilot,
            setpoints: VelocitySetpointLimits(follow: FollowParameters()), takeoffAltitudeMeters: 2)
        configuration.dryRun = dryRun
        let link = MAVLinkLink(configuration: configuration, eventHandler: { events.append($0) })
        try await link.start()
        return link
    }

    /// The Copter's `mavlink` status object.
    static func copter(_ control: SimControl) throws -> [String: Any] {
        try control.status().raw["mavlink"] as? [String: Any] ?? [:]
    }

    /// Camera-protocol commands the Copter received from `system`.
    static func cameraCommands(_ copter: [String: Any], from system: String = followMe) -> Int {
        (copter["camera_commands_by_system"] as? [String: Any])?[system] as? Int ?? 0
    }

    static func cameraStates(_ events: EventRecorder<LinkEvent>) -> [CameraRecordingState] {
        events.events.compactMap { if case .camera(let state, _, _) = $0 { state } else { nil } }
    }

    /// Configured, then asked to fly and follow (standing still: `MotionCommand.stop`): waits until `condition`.
    static func takeOff(_ link: MAVLinkLink, _ events: EventRecorder<LinkEvent>, _ control: SimControl,
                        until condition: @escaping @Sendable ([String: Any]) -> Bool) async -> Bool {
        let configured = await eventually(timeoutSeconds: 10) {
            events.events.contains { if case .configurationComplete(let failed, _) = $0 { failed.isEmpty } else { false } }
        }
        guard configured else { return false }
        link.send(LinkCommand(flying: true, motion: .stop), immediately: false, reflecting: nil)
        return await eventually(timeoutSeconds: 25) { (try? copter(control)).map(condition) ?? false }
    }

    @Test("a Copter with a camera: recording once it flies IN_AIR in GUIDED (not before), stopped once landed; said ready, recording, stopped")
    func recordsTheFlight() async throws {
        try await withSimulator(Self.simulator(cameraType: MAVLinkCopter.mavlinkCameraType)) { server in
            let control = try SimControl(port: try #require(server.ports.controlPort))
            let events = EventRecorder<LinkEvent>()
            let link = try await Self.link(server, events: events)
            defer { Task { await link.stop() } }
            // When FollowMe takes it off
            let recording = await Self.takeOff(link, events, control) { $0["camera_recording"] as? Bool == true }
            let copter = try Self.copter(control)
            // Then the camera records, and only once the Copter flies at its height (following begins)
            #expect(recording, "copter: \(copter)")
            #expect(copter["landed_state"] as? String == "in-air" && copter["mode"] as? String == "GUIDED", "\(copter)")
            let saidRecording = await eventually(timeoutSeconds: 3) { Self.cameraStates(events) == [.ready, .recording] }
            #expect(saidRecording, "\(Self.cameraStates(events))")
            // When the flight lands
            link.send(.landed, immediately: true, reflecting: nil)
            let stopped = await eventually(timeoutSeconds: 25) {
                (try? Self.copter(control)).map { $0["camera_recording"] as? Bool == false && $0["armed"] as? Bool == false } ?? false
            }
            // Then the recording stopped once it was down: one ask, one start, one stop
            let after = try Self.copter(control)
            #expect(stopped, "copter: \(after)")
            let saidStopped = await eventually(timeoutSeconds: 3) { Self.cameraStates(events) == [.ready, .recording, .stopped] }
            #expect(saidStopped, "\(Self.cameraStates(events))")
            #expect(Self.cameraCommands(after) == 3, "\(after)")
            await link.stop()
        }
    }

    @Test("a pilot takes the Copter (LOITER): the recording stops at once, in the air; no other command reaches the pilot's flight")
    func pilotTakesOver() async throws {
        try await withSimulator(Self.simulator(cameraType: MAVLinkCopter.mavlinkCameraType)) { server in
            let control = try SimControl(port: try #require(server.ports.controlPort))
            let events = EventRecorder<LinkEvent>()
            let link = try await Self.link(server, events: events)
            defer { Task { await link.stop() } }
            let recording = await Self.takeOff(link, events, control) { $0["camera_recording"] as? Bool == true }
            #expect(recording)
            let commandsBefore = (try Self.copter(control)["commands_by_system"] as? [String: Any])?[Self.followMe] as? Int ?? 0
            // When the pilot switches to LOITER
            _ = try control.send(["command": "pilot-mode", "mode": "LOITER"])
            // Then the link releases it and stops the recording it started, while the Copter is still airborne in LOITER
            let stopped = await eventually(timeoutSeconds: 5) {
                (try? Self.copter(control)).map { $0["camera_recording"] as? Bool == false } ?? false
            }
            let copter = try Self.copter(control)
            #expect(stopped, "copter: \(copter)")
            #expect(copter["mode"] as? String == "LOITER" && copter["landed_state"] as? String == "in-air", "\(copter)")
            #expect(events.events.contains { if case .released = $0 { true } else { false } })
            // And even when the flight wants it down, only the stop went to the pilot's flight
            link.send(.landed, immediately: true, reflecting: nil)
            try await Task.sleep(for: .seconds(2))
            let later = try Self.copter(control)
            let commandsAfter = (later["commands_by_system"] as? [String: Any])?[Self.followMe] as? Int ?? 0
            #expect(commandsAfter == commandsBefore + 1, "\(later)")
            #expect(later["mode"] as? String == "LOITER")
            let saidStopped = await eventually(timeoutSeconds: 3) { Self.cameraStates(events) == [.ready, .recording, .stopped] }
            #expect(saidStopped, "\(Self.cameraStates(events))")
            await link.stop()
        }
    }

    @Test("a dry run sends no camera command, even to a flight in GUIDED it adopts")
    func dryRunSendsNothing() async throws {
        try await withSimulator(Self.simulator(cameraType: MAVLinkCopter.mavlinkCameraType)) { server in
            let control = try SimControl(port: try #require(server.ports.controlPort))
            // Given a Copter a pilot's station took off and left in GUIDED (as FollowMe's own flight before a restart)
            _ = try control.send(["command": "pilot-takeoff", "meters": 2, "mode": "GUIDED"])
            let inGuided = await eventually(timeoutSeconds: 15) {
                (try? Self.copter(control)).map { $0["mode"] as? String == "GUIDED" && $0["landed_state"] as? String == "in-air" } ?? false
            }
            #expect(inGuided)
            // When a dry run connects and its flight echoes "flying" (it adopts the flight) for 6 s
            let events = EventRecorder<LinkEvent>()
            let link = try await Self.link(server, dryRun: true, events: events)
            defer { Task { await link.stop() } }
            let connected = await eventually(timeoutSeconds: 5) {
                events.events.contains { if case .connected = $0 { true } else { false } }
            }
            #expect(connected)
            link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
            try await Task.sleep(for: .seconds(6))
            // Then the Copter heard no camera command from FollowMe, and does not record
            let copter = try Self.copter(control)
            #expect(Self.cameraCommands(copter) == 0, "\(copter)")
            #expect(copter["camera_recording"] as? Bool == false)
            #expect(Self.cameraStates(events).isEmpty)
            await link.stop()
        }
    }

    @Test("a Copter without a camera (CAM1_TYPE 0): 'none' said once, asked twice, never started")
    func noCamera() async throws {
        try await withSimulator(Self.simulator(cameraType: 0)) { server in
            let control = try SimControl(port: try #require(server.ports.controlPort))
            let events = EventRecorder<LinkEvent>()
            let link = try await Self.link(server, events: events)
            defer { Task { await link.stop() } }
            let airborne = await Self.takeOff(link, events, control) {
                $0["landed_state"] as? String == "in-air" && $0["mode"] as? String == "GUIDED"
            }
            #expect(airborne)
            let saidNone = await eventually(timeoutSeconds: 8) { Self.cameraStates(events) == [.none] }
            try await Task.sleep(for: .seconds(2))
            let copter = try Self.copter(control)
            #expect(saidNone && Self.cameraStates(events) == [.none], "\(Self.cameraStates(events))")
            #expect(Self.cameraCommands(copter) == 2, "two REQUEST_MESSAGEs, no start: \(copter)")
            let reason = events.events.compactMap { if case .camera(_, let reason, _) = $0 { reason } else { nil } }.first
            #expect(reason?.contains("no camera FollowMe can drive") == true, "\(reason ?? "nil")")
            await link.stop()
        }
    }
}
