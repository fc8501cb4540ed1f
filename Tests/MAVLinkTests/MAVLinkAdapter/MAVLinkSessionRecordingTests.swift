@testable import FollowCore
@testable import MAVLink
import Testing

/// The vehicle's camera records FollowMe's own flight (docs/mavlink.md §7.15): CAMERA_INFORMATION asked with
/// MAV_CMD_REQUEST_MESSAGE once the flight is ours; VIDEO_START_CAPTURE once it flies IN_AIR in our mode;
/// VIDEO_STOP_CAPTURE on the ground, or at once when a pilot or a failsafe takes it; "no camera" said once.
@Suite("MAVLinkSession: record with the vehicle's camera")
struct MAVLinkSessionRecordingTests {
    /// A camera as ArduPilot relays a MAVLink camera's (flags `flags`).
    static func information(_ flags: MAVLinkBitmask<CameraCapability> = [.captureVideo, .captureImage]) -> CameraInformation {
        CameraInformation {
            $0.flags = flags
            $0.vendorName = MAVLinkText("Acme")
            $0.modelName = MAVLinkText("Cam")
        }
    }

    /// The `.camera` events reported, in order.
    static func cameraStates(_ h: SessionHarness) -> [CameraRecordingState] {
        h.events.compactMap { if case .camera(let state, _, _) = $0 { state } else { nil } }
    }

    static func cameraReasons(_ h: SessionHarness) -> [String] {
        h.events.compactMap { if case .camera(_, let reason, _) = $0 { reason } else { nil } }
    }

    /// ArduPilot flying IN_AIR in GUIDED, FollowMe's own flight, its CAMERA_INFORMATION asked and answered with
    /// `flags` (ACK then the message, as ArduPilot sends them).
    static func flyingWithCamera(_ flags: MAVLinkBitmask<CameraCapability> = [.captureVideo, .captureImage]) -> SessionHarness {
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        h.ackCamera()
        h.receive(information(flags))
        return h
    }

    @Test("a camera that records video: asked once ours, started when following begins, stopped on the ground, each said once")
    func startsAndStops() throws {
        // Given FollowMe's own flight (armed by it), before take-off
        var h = SessionHarness()
        h.readyToArm()
        h.run(0.2)
        #expect(h.cameraCommandIDs.isEmpty, "nothing asked before the flight is ours")
        h.armByUs()
        h.run(0.1)
        // Then CAMERA_INFORMATION is asked of the autopilot with REQUEST_MESSAGE (param1 259)
        let ask = try #require(h.allCommands.last { $0.command.rawValue == 512 })
        #expect(ask.params[0] == 259 && ask.target == MAVLinkTarget(system: 1, component: 1))
        // When it answers with a camera that records video
        h.ackCamera()
        h.receive(Self.information())
        h.run(2)
        // Then it is ready, and nothing starts on the ground
        #expect(Self.cameraStates(h) == [.ready])
        #expect(!h.cameraCommandIDs.contains(2500))
        // When the vehicle flies IN_AIR in GUIDED, only hovering (no motion, no person: a bare take-off): no start
        h.vehicleSays(armed: true, landed: .inAir, relativeAltitudeMeters: 3, status: .active)
        h.run(1)
        #expect(!h.cameraCommandIDs.contains(2500))
        // When the flight follows (it commands motion): VIDEO_START_CAPTURE (stream 0, no status stream) to the autopilot
        h.fly(true, motion: .stop)
        h.run(0.1)
        let start = try #require(h.allCommands.last { $0.command.rawValue == 2500 })
        #expect(start.params == [0, 0, 0, 0, 0, 0, 0] && start.target == MAVLinkTarget(system: 1, component: 1))
        h.ackCamera()
        h.run(3)
        #expect(Self.cameraStates(h) == [.ready, .recording])
        #expect(h.cameraCommandIDs.filter { $0 == 2500 }.count == 1, "one start: \(h.cameraCommandIDs)")
        // When the flight lands (our LAND, then the vehicle in LAND): still recording through the descent
        h.fly(false)
        h.run(SessionHarness.tick)
        #expect(h.commandIDs.last == 176)
        h.vehicleSays(mode: ArduCopterMode.land.rawValue, landed: .landing)
        h.run(2)
        #expect(!h.cameraCommandIDs.contains(2501), "the landing is filmed")
        // Then on the ground: VIDEO_STOP_CAPTURE, and stopped once accepted
        h.vehicleSays(landed: .onGround, relativeAltitudeMeters: 0)
        h.run(0.1)
        #expect(h.cameraCommandIDs.filter { $0 == 2501 }.count == 1)
        h.ackCamera()
        h.run(3)
        #expect(Self.cameraStates(h) == [.ready, .recording, .stopped])
        #expect(h.cameraCommandIDs.filter { $0 == 2501 }.count == 1, "stopped once: \(h.cameraCommandIDs)")
        #expect(Self.cameraReasons(h).last?.contains("landed") == true)
    }

    @Test("a pilot takes the vehicle (LOITER): VIDEO_STOP_CAPTURE at once, and nothing else goes to the pilot's flight")
    func stopsWhenReleased() {
        // Given our flight recording
        var h = Self.flyingWithCamera()
        h.run(0.2)
        h.ackCamera()
        h.run(0.5)
        #expect(Self.cameraStates(h) == [.ready, .recording])
        h.clear()
        // When a pilot switches to LOITER in the air
        h.vehicleSays(mode: ArduCopterMode.loiter.rawValue)
        h.run(0.1)
        // Then the recording FollowMe started is stopped, still airborne, and no flight command goes out
        #expect(h.cameraCommandIDs == [2501])
        h.ackCamera()
        h.fly(false)
        h.run(5)
        #expect(h.cameraCommandIDs == [2501] && h.commands.isEmpty && h.setpoints.isEmpty, "\(h.allCommands.map(\.command.rawValue))")
        #expect(Self.cameraStates(h) == [.stopped])
        #expect(Self.cameraReasons(h).first?.contains("released") == true)
    }

    @Test("no camera configured (ArduPilot CAM1_TYPE 0: REQUEST_MESSAGE ACCEPTED, no CAMERA_INFORMATION): asked twice, then 'none' once, never started")
    func noCameraConfigured() {
        // Given our flight airborne in GUIDED
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        // When every REQUEST_MESSAGE is ACCEPTED and nothing follows
        for _ in 0..<10 {
            if h.allCommands.last?.command.rawValue == 512 { h.ackCamera() }
            h.run(0.5)
        }
        h.run(20)
        // Then it was asked twice, "none" was said once, and no VIDEO_START_CAPTURE went out
        #expect(h.cameraCommandIDs == [512, 512], "\(h.cameraCommandIDs)")
        #expect(Self.cameraStates(h) == [.none])
        #expect(Self.cameraReasons(h).first?.contains("CAM1_TYPE 0") == true)
    }

    @Test("REQUEST_MESSAGE refused (an ArduPilot before 4.4: UNSUPPORTED): 'none' at once, not asked again", arguments: [MAVResult.unsupported, .failed, .denied])
    func requestRefused(result: MAVResult) {
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        h.ackCamera(result)
        h.run(10)
        #expect(h.cameraCommandIDs == [512])
        #expect(Self.cameraStates(h) == [.none])
    }

    @Test("REQUEST_MESSAGE never answered: five sends, then 'none'")
    func requestUnanswered() {
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        h.run(10)
        #expect(h.cameraCommandIDs == [512, 512, 512, 512, 512])
        #expect(Self.cameraStates(h) == [.none])
        #expect(Self.cameraReasons(h).first?.contains("not answered after 5 sends") == true)
    }

    @Test("a camera without CAPTURE_VIDEO (ArduPilot's servo, relay or mount back-ends: image only): 'none', never started")
    func imageOnlyCamera() {
        var h = Self.flyingWithCamera([.captureImage])
        h.run(5)
        #expect(!h.cameraCommandIDs.contains(2500))
        #expect(Self.cameraStates(h) == [.none])
        #expect(Self.cameraReasons(h).first?.contains("does not record video") == true)
    }

    @Test("VIDEO_START_CAPTURE refused: 'refused' once, never asked again in this flight")
    func startRefused() {
        var h = Self.flyingWithCamera()
        h.run(0.2)
        h.ackCamera(.failed)
        h.run(10)
        #expect(h.cameraCommandIDs.filter { $0 == 2500 }.count == 1)
        #expect(Self.cameraStates(h) == [.ready, .refused])
    }

    @Test("VIDEO_START_CAPTURE unanswered: re-sent with confirmation counting, five sends, then 'refused'")
    func startUnanswered() {
        var h = Self.flyingWithCamera()
        h.run(10)
        let starts = h.allCommands.filter { $0.command.rawValue == 2500 }
        #expect(starts.map(\.confirmation) == [0, 1, 2, 3, 4])
        #expect(Self.cameraStates(h) == [.ready, .refused])
    }

    @Test("a dry run sends no camera message at all, even for a vehicle it adopted flying in GUIDED")
    func dryRunSendsNothing() {
        // Given a dry run and a vehicle found armed, IN_AIR in GUIDED (FollowMe's own flight before a restart)
        var configuration = SessionHarness.configuration()
        configuration.dryRun = true
        var h = SessionHarness(configuration)
        h.vehicle = (SessionHarness.heartbeat(mode: ArduCopterMode.guided.rawValue, armed: true, status: .active),
                     SessionHarness.landed(.inAir), SessionHarness.position(relativeAltitudeMeters: 5))
        h.vehicleSays()
        // When the flight echoes "flying" (a dry run adopts it) for 20 s
        h.fly(true)
        h.run(20)
        // Then no REQUEST_MESSAGE, VIDEO_START or VIDEO_STOP went out, and nothing was reported
        #expect(h.session.owner == .adopted, "the flight is ours: only the dry run holds the camera back")
        #expect(h.cameraCommandIDs.isEmpty)
        #expect(Self.cameraStates(h).isEmpty)
    }

    @Test("someone else's flight: no camera message at all")
    func someoneElsesFlight() {
        var h = SessionHarness()
        h.someoneElseFlies(mode: .loiter)
        h.fly(true)
        h.run(10)
        #expect(h.cameraCommandIDs.isEmpty)
    }

    @Test("a camera component of the vehicle (PX4's: HEARTBEAT type CAMERA from component 100): asked, started and ACKed there")
    func cameraComponent() throws {
        // Given our flight, whose autopilot said it has no camera
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        h.ackCamera(.unsupported)
        h.run(0.5)
        #expect(Self.cameraStates(h) == [.none])
        let droppedBefore = h.session.statistics.counts[.droppedUnexpectedSource]
        // When a camera component of the vehicle's system sends its HEARTBEAT
        h.receive(Heartbeat {
            $0.type = .init(.camera)
            $0.autopilot = .init(.invalid)
        }, component: 100)
        h.run(0.1)
        // Then it is asked for its CAMERA_INFORMATION, which it answers from its own component
        let ask = try #require(h.allCommands.last)
        #expect(ask.command.rawValue == 512 && ask.target == MAVLinkTarget(system: 1, component: 100))
        h.ackCamera(component: 100)
        h.receive(Self.information(), component: 100)
        h.run(0.1)
        // And the start goes to it; its ACK (from component 100) counts, the autopilot's would not
        let start = try #require(h.allCommands.last)
        #expect(start.command.rawValue == 2500 && start.target.component == 100)
        h.ackCamera(component: 1)
        #expect(Self.cameraStates(h) == [.none, .ready])
        h.ackCamera(component: 100)
        #expect(Self.cameraStates(h) == [.none, .ready, .recording])
        // And the camera's frames are not the vehicle's: not counted as dropped
        #expect(h.session.statistics.counts[.droppedUnexpectedSource] == droppedBefore)
    }

    @Test("telemetry lost: no camera message; the stop goes out once it returns")
    func telemetryLost() {
        var h = Self.flyingWithCamera()
        h.run(0.2)
        h.ackCamera()
        h.run(0.5)
        let vehicle = h.vehicle
        // When the vehicle falls silent, then is heard again on the ground
        h.vehicle = nil
        h.clear()
        h.run(3)
        #expect(h.cameraCommandIDs.isEmpty)
        h.vehicle = vehicle
        h.vehicleSays(landed: .onGround, relativeAltitudeMeters: 0)
        h.run(0.1)
        #expect(h.cameraCommandIDs == [2501])
    }
}
