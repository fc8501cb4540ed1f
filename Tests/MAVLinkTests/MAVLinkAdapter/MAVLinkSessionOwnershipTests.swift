@testable import FollowCore
@testable import MAVLink
import Testing


/// FollowMe commands only the flight it owns (docs/mavlink.md §7.14): one it armed or took off in this
/// run, or one found armed in our mode at connect (its own before a restart). Anything else airborne
/// is watched: no set-point, no mode change, no LAND — whatever the flight asks.
@Suite("Ownership: only FollowMe's own flight is commanded")
struct MAVLinkSessionOwnershipTests {
    /// Connected and configured, disarmed on the ground in `mode`; what was sent so far is forgotten.
    static func waitingOnTheGround(mode: ArduCopterMode = .stabilize) -> SessionHarness {
        var h = SessionHarness()
        h.connectAndConfigure(mode: mode.rawValue)
        h.run(1)
        h.clear()
        return h
    }

    /// Flight commands and set-points sent (the message rates and parameter reads are not).
    static func flightCommands(_ h: SessionHarness) -> [UInt16] { h.commandIDs.filter { $0 != 511 } }

    @Test("preflight: a pilot arms and flies in LOITER; the flight asks to fly (an adopting core), then to land: nothing is sent, .released once",
          arguments: [ArduCopterMode.loiter, .guided])
    func pilotFliesWhileWeWait(mode: ArduCopterMode) {
        // Given FollowMe waiting on the ground (e.g. for START)
        var h = Self.waitingOnTheGround(mode: mode)
        // When a pilot arms and takes off, and the flight wants to fly it, then lands it after its hold clock
        h.vehicleSays(armed: true, landed: .onGround)
        h.run(1)
        h.vehicleSays(landed: .inAir, relativeAltitudeMeters: 5)
        h.fly(true, motion: MotionCommand(velocity: PlaneVector(east: 2, north: 0), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.run(10)
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(10)
        // Then no command and no set-point reached the pilot's vehicle (the old session: LAND 5 s after "not in control")
        #expect(Self.flightCommands(h).isEmpty, "\(h.commandIDs)")
        #expect(h.setpoints.isEmpty)
        #expect(h.session.owner == .someoneElse)
        let released = h.events.filter { if case .released = $0 { true } else { false } }
        #expect(released.count == 1)
        #expect(!h.events.contains { if case .control(false, _, _) = $0 { true } else { false } })
    }

    @Test("after FollowMe's own flight landed and disarmed, a pilot's new flight gets nothing (the old session: LAND at once)",
          arguments: [false, true])
    func pilotFliesAfterOurFlight(flightStillWantsToFly: Bool) {
        // Given our own flight, landed by us and disarmed
        var h = SessionHarness.landSent()
        #expect(h.session.owner == .followMe)
        h.ack()
        h.vehicleSays(mode: ArduCopterMode.land.rawValue)
        h.run(1)
        h.vehicleSays(armed: false, landed: .onGround, relativeAltitudeMeters: 0)
        h.run(1)
        #expect(h.session.owner == FlightOwner.none)
        h.clear()
        // When a pilot arms in LOITER and lifts off while the flight stays landed (or, an adopting core, then wants to fly it)
        h.session.setDesired(LinkCommand.landed)
        h.vehicleSays(mode: ArduCopterMode.loiter.rawValue, armed: true, landed: .onGround)
        h.run(0.5)
        h.vehicleSays(landed: .inAir, relativeAltitudeMeters: 4)
        h.run(0.2)
        h.session.setDesired(LinkCommand(flying: flightStillWantsToFly))
        h.run(10)
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(5)
        // Then nothing is sent to it
        #expect(Self.flightCommands(h).isEmpty, "\(h.commandIDs)")
        #expect(h.setpoints.isEmpty)
        #expect(h.session.owner == .someoneElse)
    }

    @Test("disarm ends ownership and resets the flight's counters: a control mode refused three times in one flight is asked again in the next")
    func disarmResets() {
        // Given a PX4 flight of ours whose OFFBOARD was refused three times (not asked again in that flight)
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.flyingInControl(.px4, motion: nil)
        h.vehicleSays(mode: PX4Mode.autoLoiter.customMode)
        h.session.notBefore[.setMode(AutopilotProfile(.px4).control)] = .distantFuture
        h.session.controlRefusals = MAVLinkSession.maxControlRefusals
        // When it is disarmed
        h.vehicleSays(armed: false, landed: .onGround, relativeAltitudeMeters: 0)
        h.run(0.2)
        // Then the counters start over
        #expect(h.session.owner == FlightOwner.none)
        #expect(h.session.controlRefusals == 0)
        #expect(h.session.notBefore[.setMode(AutopilotProfile(.px4).control)] == nil)
        #expect(h.session.flight == MAVLinkSession.FlightProgress())
    }

    @Test("restart: found armed in GUIDED in the air → watched while the flight stays on the ground; adopted once it flies it: set-points, and its LAND goes out")
    func adoptedInGuided() {
        var h = SessionHarness()
        h.someoneElseFlies(mode: .guided)
        #expect(h.session.owner == .foundInOurMode)
        h.fly(false)
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(1)
        #expect(Self.flightCommands(h).isEmpty, "\(h.commandIDs)")
        #expect(h.setpoints.isEmpty)
        h.fly(true, motion: MotionCommand(velocity: PlaneVector(east: 1, north: 0), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.run(1)
        #expect(h.session.owner == .adopted)
        #expect(!h.setpoints.isEmpty)
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(0.2)
        #expect(h.commandIDs.contains(176), "\(h.commandIDs)")
    }

    @Test("adopted after a restart: no descent is commanded before its height frame is latched (the first GLOBAL_POSITION_INT once it is ours), then the core's climb as it is")
    func adoptedNoDescentBeforeItsFrame() {
        var h = SessionHarness()
        h.someoneElseFlies(mode: .guided)
        h.clear()
        // The core, adopting it, asks for a 1 m/s descent (its height may still be the autopilot's moving relative_alt)
        h.fly(true, motion: MotionCommand(velocity: PlaneVector(east: 1, north: 0), climbMetersPerSecond: -1, yawRateDegreesPerSecond: 0))
        var output = MAVLinkSessionOutput()
        h.session.sendSetpoint(now: h.now, output: &output)
        h.collect(output)
        #expect(h.session.owner == .adopted)
        #expect(h.setpoints.last?.velocityNEDMetersPerSecond == [0, 1, 0], "\(String(describing: h.setpoints.last?.velocityNEDMetersPerSecond))")
        // Once the vehicle's next position latched the frame: the descent goes out
        h.run(0.2)
        #expect((h.setpoints.last?.velocityNEDMetersPerSecond[2] ?? 0) > 0.5, "\(String(describing: h.setpoints.last?.velocityNEDMetersPerSecond))")
    }

    @Test("ArduPilot: the pilot switches to LOITER on the ground after our ARM: the vehicle is theirs — their take-off then gets no LAND and no DISARM")
    func groundSwitchAfterOurArmMakesItTheirs() {
        var h = SessionHarness()
        h.readyToArm()
        #expect(h.commandIDs.last == 400, "\(h.commandIDs)")
        h.ack()
        h.vehicleSays(armed: true)
        h.run(0.2)
        #expect(h.session.owner == .followMe)
        // The pilot flips to LOITER on the ground
        h.vehicleSays(mode: ArduCopterMode.loiter.rawValue)
        h.run(0.2)
        #expect(h.events.contains { if case .released = $0 { true } else { false } })
        #expect(h.session.owner == .someoneElse)
        // The core: released, then preflight once telemetry shows it on the ground
        h.session.setDesired(LinkCommand(flying: false, released: true))
        h.run(0.2)
        h.session.setDesired(LinkCommand(flying: false))
        h.run(0.2)
        h.clear()
        // The pilot takes off in LOITER: EXTENDED_SYS_STATE says TAKEOFF before the core's next decision
        h.receive(SessionHarness.landed(.takeoff))
        h.run(1)
        #expect(!h.commandIDs.contains(176) && !h.commandIDs.contains(400),
                "sent to the pilot's vehicle: \(h.commands.map { ($0.command.rawValue, Array($0.params.prefix(2))) })")
    }

    @Test("PX4: the pilot switches to POSCTL on the ground after our ARM: no NAV_TAKEOFF, released")
    func px4GroundSwitchAfterOurArm() {
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.connectAndConfigure(.px4, mode: PX4Mode.autoLoiter.customMode)
        h.fly(true)
        h.armByUs()
        h.clear()
        h.vehicleSays(mode: PX4Mode(mainMode: 3).customMode, armed: true)   // POSCTL, the pilot's
        h.run(1)
        #expect(!h.commandIDs.contains(22), "NAV_TAKEOFF sent after the pilot's POSCTL: \(h.commandIDs)")
        #expect(h.events.contains { if case .released = $0 { true } else { false } })
    }

    @Test("PX4: a HEARTBEAT sampled before commander switched to AUTO.TAKEOFF (still Hold) while it lifts off does not release our own take-off")
    func px4StaleHeartbeatAfterTakeoffAck() {
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.connectAndConfigure(.px4, mode: PX4Mode.autoLoiter.customMode)
        h.fly(true)
        h.armByUs()
        h.vehicleSays(armed: true)
        for _ in 0..<90 where !h.commandIDs.contains(22) { h.run(SessionHarness.tick) }
        #expect(h.commandIDs.contains(22))
        h.vehicle = nil   // hand-driven from here
        h.ack()
        h.now = h.now.adding(seconds: 0.05)
        h.receive(SessionHarness.heartbeat(.px4, mode: PX4Mode.autoLoiter.customMode, armed: true))
        h.now = h.now.adding(seconds: 0.5)
        // lifting off: landed TAKEOFF, 0.4 m, before the next HEARTBEAT (1 Hz)
        h.receive(SessionHarness.landed(.takeoff))
        h.receive(SessionHarness.position(relativeAltitudeMeters: 0.4, mslMeters: 480.4))
        #expect(!h.events.contains { if case .released = $0 { true } else { false } }, "\(h.events)")
    }
}
