@testable import FollowCore
import Foundation
@testable import MAVLink
import Testing


/// What the session must never do, and what it does when the vehicle refuses, falls silent or is
/// taken over (docs/mavlink.md §7.3, §7.5).
@Suite("MAVLinkSession: safety rules")
struct MAVLinkSessionSafetyTests {
    @Test("never arms, takes off or changes mode while flying is false (ArduPilot and PX4, 30 s in GUIDED / POSCTL)",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func neverArmsWhileNotFlying(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a configured vehicle on the ground, ready, in its own control mode
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        let control = SessionHarness.control(autopilot)
        h.connectAndConfigure(control.heartbeat, mode: control.mode)
        h.clear()
        // When 30 s pass with flying false and a pilot command set
        h.fly(false, motion: MotionCommand(velocity: PlaneVector(east: 6, north: 6), climbMetersPerSecond: 1, yawRateDegreesPerSecond: 90))
        h.run(30)
        // Then no command and no set-point went out, only heartbeats
        #expect(h.commands.isEmpty)
        #expect(h.setpoints.isEmpty)
        #expect(h.heartbeats.count >= 29)
    }

    @Test("a refused ARM (DENIED) is reported, not re-sent for 2 s, then asked again while flying is wanted")
    func refusedArmRetried() {
        // Given ArduPilot in GUIDED, disarmed, the owner wanting to fly
        var h = SessionHarness()
        h.readyToArm()
        #expect(h.commandIDs == [400])
        // When the autopilot refuses to arm
        h.ack(.denied)
        // Then a notice says so, naming the command and the result
        #expect(h.notices.contains { $0.contains("ARM") && $0.contains("DENIED") })
        // and nothing is re-sent within the 2 s back-off
        h.run(1.9)
        #expect(h.commandIDs == [400])
        // then ARM is asked again
        h.run(0.2)
        #expect(h.commandIDs == [400, 400])
    }

    @Test("a refused ARM is not asked again once flying is no longer wanted")
    func refusedArmNotRetriedWhenLanding() {
        var h = SessionHarness()
        h.readyToArm()
        h.ack(.temporarilyRejected)
        // When the owner gives up flying
        h.fly(false)
        h.run(10)
        // Then ARM was sent once only
        #expect(h.commandIDs == [400])
    }

    @Test("an unanswered command is re-sent every second (confirmation 0, 1, 2, …) five times, then reported and backed off")
    func unansweredRetries() {
        var h = SessionHarness()
        h.readyToArm()
        h.run(4.5)
        #expect(h.commandIDs == [400, 400, 400, 400, 400])
        #expect(h.commands.map(\.confirmation) == [0, 1, 2, 3, 4])
        // (each wait is 31 ticks of 1/30 s: the first tick at or past 1 s)
        h.run(1)
        #expect(h.notices.contains { $0.contains("ARM") && $0.contains("not answered after 5 sends") })
        #expect(h.commandIDs.count == 5)
        h.run(2)
        #expect(h.commandIDs.count == 6, "asked again after the back-off")
    }

    @Test("land: flying false while airborne → DO_SET_MODE LAND (ArduPilot 9, PX4 AUTO.LAND 4/6), hold set-points until the mode shows",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func land(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a vehicle flying in our mode
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.flyingInControl(autopilot, motion: MotionCommand(velocity: PlaneVector(east: 0, north: 6), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.clear()
        // When the owner wants it down
        h.fly(false, motion: MotionCommand(velocity: PlaneVector(east: 0, north: 6), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.run(SessionHarness.tick)
        // Then LAND is asked for, and the set-points hold (zero) meanwhile
        #expect(h.commandIDs == [176])
        let expected: [Float] = autopilot == .px4 ? [1, 4, 6] : [1, 9, 0]
        #expect(Array(h.commands[0].params.prefix(3)) == expected)
        #expect(h.setpoints.last?.velocityNEDMetersPerSecond == [0, 0, 0])
        h.ack()
        let land = autopilot == .px4 ? PX4Mode.autoLand.customMode : ArduCopterMode.land.rawValue
        h.vehicleSays(mode: land, landed: .landing)
        h.clear()
        h.run(1)
        // and once the vehicle is in LAND: no set-point, no command
        #expect(h.setpoints.isEmpty && h.commands.isEmpty)
        // A pilot who then switches to another mode is not overruled
        h.vehicleSays(mode: autopilot == .px4 ? PX4Mode(mainMode: 3).customMode : ArduCopterMode.loiter.rawValue)
        h.run(3)
        #expect(h.commands.isEmpty)
    }

    @Test("hold: pilot nil in flight → zero velocity, zero yaw rate set-points every tick")
    func hold() {
        var h = SessionHarness()
        h.flyingInControl(motion: nil)
        h.clear()
        h.run(1)
        #expect(h.setpoints.count >= 29)
        #expect(h.setpoints.allSatisfy { $0.velocityNEDMetersPerSecond == [0, 0, 0] && $0.yawRateRadiansPerSecond == 0 })
    }

    @Test("telemetry silent 1 s → .telemetryLost, set-points hold, no new command; back → .telemetryRestored with the silence")
    func telemetryLostAndRestored() {
        var h = SessionHarness()
        h.flyingInControl(motion: MotionCommand(velocity: PlaneVector(east: 0, north: 6), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        // When the vehicle falls silent
        let talking = h.vehicle
        h.vehicle = nil
        h.clear()
        h.run(1.5)
        // Then telemetry is reported lost once, and the set-points after it hold
        let lost = h.events.filter { if case .telemetryLost = $0 { true } else { false } }
        #expect(lost.count == 1)
        #expect(h.setpoints.last?.velocityNEDMetersPerSecond == [0, 0, 0])
        #expect(h.session.statistics.counts[.telemetryLosses] == 1)
        // When it talks again
        h.vehicle = talking
        h.clear()
        h.run(0.2)
        let restored = h.events.compactMap { if case .telemetryRestored(let s, _) = $0 { s } else { nil } }
        #expect(restored.count == 1)
        #expect(restored.first.map { $0 > 1.4 && $0 < 1.8 } == true, "\(restored)")
        #expect(h.setpoints.last.map { $0.velocityNEDMetersPerSecond[0] > 5 } == true, "flying the motion command again")
    }

    static let north6 = MotionCommand(velocity: PlaneVector(east: 0, north: 6), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)

    @Test("a vehicle that leaves GUIDED in the air (a pilot's LOITER, the autopilot's own RTL or LAND) is released: .released, no set-points, no DO_SET_MODE, and no LAND even when the flight lands",
          arguments: [ArduCopterMode.loiter, .rtl, .land, .brake])
    func released(mode: ArduCopterMode) {
        // Given a vehicle following in GUIDED
        var h = SessionHarness()
        h.flyingInControl(motion: Self.north6)
        h.clear()
        // When a pilot (or the autopilot's failsafe) switches it to another mode
        h.vehicleSays(mode: mode.rawValue)
        h.run(5)
        // Then the link says it is released, naming the mode, and commands nothing
        let name = "\(mode)".uppercased()
        #expect(h.events.contains { if case .released(let m, let reason, _) = $0 { m == name && reason.contains(name) } else { false } })
        #expect(h.setpoints.isEmpty)
        #expect(h.commands.isEmpty)
        // And when the flight then wants it down (its hold expired, SIGTERM, a battery rule), no LAND
        // replaces the pilot's or the autopilot's choice (the old link sent DO_SET_MODE LAND here)
        h.fly(false)
        h.run(10)
        #expect(h.commands.isEmpty, "\(h.commandIDs)")
        #expect(h.setpoints.isEmpty)
    }

    @Test("the owner's release (LinkCommand.released) stops every command, LAND and set-points included, in our mode too")
    func ownerReleases() {
        var h = SessionHarness()
        h.flyingInControl(motion: Self.north6)
        h.clear()
        h.session.setDesired(LinkCommand(flying: false, released: true))
        h.run(5)
        #expect(h.commands.isEmpty && h.setpoints.isEmpty, "\(h.commandIDs)")
    }

    @Test("EMERGENCY from the vehicle clears flying (.flyingCleared), never arms, asks for LAND while armed")
    func emergency() {
        var h = SessionHarness()
        h.connectAndConfigure(mode: ArduCopterMode.guided.rawValue)
        h.fly(true)
        h.armByUs()
        h.clear()
        h.vehicleSays(armed: true, landed: .inAir, relativeAltitudeMeters: 3, status: .emergency)
        h.run(SessionHarness.tick)
        #expect(h.events.contains { if case .flyingCleared = $0 { true } else { false } })
        #expect(h.commandIDs.last == 176)
        #expect(Array(h.commands.last!.params.prefix(2)) == [1, 9])
        #expect(!h.commandIDs.contains(400))
    }

    @Test("a vehicle whose HEARTBEAT names another autopilot gets no flight command, and the configuration fails")
    func autopilotMismatch() {
        // Given FollowMe configured for PX4 and an ArduPilot vehicle (PX4's OFFBOARD 6 is ArduPilot's RTL)
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.connectAndConfigure(.ardupilotmega)
        h.fly(true)
        h.run(3)
        #expect(!h.commandIDs.contains(400) && !h.commandIDs.contains(176) && !h.commandIDs.contains(22))
        #expect(h.setpoints.isEmpty)
        #expect(h.events.contains { if case .configurationFailed(let key, _, _, _) = $0 { key == "autopilot" } else { false } })
        #expect(h.events.contains { if case .configurationComplete(let failed, _) = $0 { failed.contains("autopilot") } else { false } })
    }

    @Test("connecting to an armed vehicle adopts flying: .connected(wasFlying, desiredFlying) and no LAND")
    func connectWhileFlying() {
        var h = SessionHarness()
        h.someoneElseFlies(mode: .loiter)
        #expect(h.events.contains { if case .connected(true, true, _) = $0 { true } else { false } })
        h.run(3)
        #expect(!h.commandIDs.contains(176))
        // And it is someone else's (armed in LOITER, not GUIDED): released, so not even a flight that
        // wants it down lands it (the old link sent LAND as soon as the flight said flying false)
        #expect(h.events.contains { if case .released(let mode, _, _) = $0 { mode == "LOITER" } else { false } })
        h.fly(false)
        h.run(5)
        #expect(!h.commandIDs.contains(176), "\(h.commandIDs)")
    }
}

/// Adopting "flying" at connect only keeps a flying vehicle from being landed; it never starts a take-off.
@Suite("MAVLinkSession: adopted flying never takes off")
struct MAVLinkSessionAdoptionTests {
    @Test("an armed vehicle on the ground at connect (armed by someone else) gets no SET_MODE, ARM or NAV_TAKEOFF until the flight asks",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func armedOnGroundIsNotTakenOff(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a vehicle already armed on the ground in our mode when the link first hears it
        let control = SessionHarness.control(autopilot)
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.vehicle = (SessionHarness.heartbeat(control.heartbeat, mode: control.mode, armed: true), SessionHarness.landed(.onGround),
                     SessionHarness.position())
        h.vehicleSays()
        #expect(h.events.contains { if case .connected(true, true, _) = $0 { true } else { false } })
        // When 5 s pass and the flight has not sent a command
        h.run(5)
        // Then no flight command went out (message rates only)
        #expect(h.commands.allSatisfy { $0.command.rawValue == MAVCommand.setMessageInterval.rawValue }, "\(h.commandIDs)")
        // and once the flight asks to fly, the take-off goes on from where the vehicle is
        h.fly(true)
        h.run(2)
        #expect(h.commandIDs.contains(22))
    }

    /// A vehicle whose telemetry is lost may still hear us (a lost downlink). The flight's failsafe for
    /// lost telemetry is hold, then land (as with the AR.Drone's lost navdata); the link must then send
    /// LAND without telemetry, or the vehicle hovers on in GUIDED/OFFBOARD while followme believes it
    /// is landing (docs/mavlink.md §7.5; end to end: MAVLinkFailsafeTests "telemetry-silent").
    @Test("telemetry lost: no command while flying is wanted; flying false → DO_SET_MODE LAND sent blind, re-sent while unanswered",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func landsBlind(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a vehicle flying in our mode that then falls silent for 1.5 s
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.flyingInControl(autopilot, motion: MotionCommand(velocity: PlaneVector(east: 0, north: 6), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.vehicle = nil
        h.clear()
        h.run(1.5)
        #expect(h.events.contains { if case .telemetryLost = $0 { true } else { false } })
        // Then nothing but set-points and heartbeats go to a vehicle we cannot see while flying is wanted
        #expect(h.commands.isEmpty, "\(h.commandIDs)")

        // When the flight lands (still no telemetry)
        h.clear()
        h.fly(false)
        h.run(3)
        // Then LAND goes out at once, in the autopilot's own mode numbers, and again while no ACK comes
        let landMode: [Float] = autopilot == .px4 ? [1, 4, 6, 0, 0, 0, 0] : [1, 9, 0, 0, 0, 0, 0]
        let setModes = h.commands.filter { $0.command.rawValue == MAVCommand.doSetMode.rawValue }
        #expect(setModes.count >= 2, "\(h.commandIDs)")
        #expect(setModes.allSatisfy { $0.params == landMode }, "\(setModes.map(\.params))")
        #expect(h.commands.allSatisfy { $0.command.rawValue == MAVCommand.doSetMode.rawValue }, "\(h.commandIDs)")
    }

    @Test("blind LANDs are bounded: at most 10 in a minute of silence, then one notice and no more",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func blindLandIsBounded(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a silent vehicle the flight wants down
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.flyingInControl(autopilot, motion: MotionCommand.stop)
        h.vehicle = nil
        h.run(1.5)
        h.clear()
        h.fly(false)
        // When a minute passes without telemetry
        h.run(60)
        // Then LAND went out a bounded number of times (the old link re-sent it every few seconds, forever)
        let lands = h.commands.filter { $0.command.rawValue == MAVCommand.doSetMode.rawValue }
        #expect(lands.count == 10, "\(lands.count) LANDs")
        let notices = h.events.filter { if case .notice(let text, _, _) = $0 { text.contains("without telemetry") } else { false } }
        #expect(notices.count == 1)
    }
}

