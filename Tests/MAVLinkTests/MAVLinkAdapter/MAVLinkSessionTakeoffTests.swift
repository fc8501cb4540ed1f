@testable import FollowCore
import Foundation
@testable import MAVLink
import Testing


/// The take-off sequences per autopilot (docs/mavlink.md §7.3), with a scripted vehicle.
@Suite("MAVLinkSession: take-off per autopilot")
struct MAVLinkSessionTakeoffTests {
    @Test("ArduPilot: GUIDED → ARM → NAV_TAKEOFF (relative altitude) → set-points once IN_AIR, body frame, velocity + yaw rate")
    func ardupilot() {
        // Given a configured ArduPilot Copter on the ground in STABILIZE
        var h = SessionHarness()
        h.connectAndConfigure()
        h.clear()
        // When the owner wants to fly
        h.fly(true)
        h.run(SessionHarness.tick)
        // Then the first command is DO_SET_MODE custom mode GUIDED (param1 1 = custom mode enabled, param2 4)
        #expect(h.commandIDs == [176])
        #expect(Array(h.commands[0].params.prefix(3)) == [1, 4, 0])
        #expect(h.commands[0].target == MAVLinkTarget(system: 1, component: 1))
        h.ack()
        h.vehicleSays(mode: ArduCopterMode.guided.rawValue)
        h.run(SessionHarness.tick)
        // then ARM (400, param1 1, never forced)
        #expect(h.commandIDs.last == 400)
        #expect(Array(h.commands.last!.params.prefix(2)) == [1, 0])
        h.ack()
        h.vehicleSays(armed: true)
        h.run(SessionHarness.tick)
        // then NAV_TAKEOFF with param7 = 3 m above home
        #expect(h.commandIDs.last == 22)
        #expect(h.commands.last!.params[6] == 3)
        #expect(h.setpoints.isEmpty, "no set-point before the take-off")
        h.ack()
        // While ArduPilot flies its own take-off (TAKEOFF) no set-point may interrupt it
        h.vehicleSays(landed: .takeoff, relativeAltitudeMeters: 1)
        h.run(1)
        #expect(h.setpoints.isEmpty)
        #expect(h.commandIDs == [176, 400, 22], "nothing is sent twice: \(h.commandIDs)")
        // Once IN_AIR, a set-point every tick carrying the pilot command
        h.vehicleSays(landed: .inAir, relativeAltitudeMeters: 3)
        h.fly(true, motion: MotionCommand(velocity: PlaneVector(east: -1, north: 3), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.run(1)
        #expect(h.setpoints.count >= 29)
        let last = h.setpoints.last!
        #expect(last.coordinateFrame.known == .localNED)
        #expect(last.typeMask.rawValue == 0x05C7)
        #expect(last.target == MAVLinkTarget(system: 1, component: 1))
        // The core's velocity as is: north 3, east −1 (no tilt model, no rotation through a heading)
        #expect(last.velocityNEDMetersPerSecond == [3, -1, 0])
        #expect(h.commandIDs == [176, 400, 22])
    }

    @Test("PX4: set-points stream (hold) before ARM → NAV_TAKEOFF (AMSL) → OFFBOARD once AUTO.LOITER and IN_AIR")
    func px4() {
        // Given a configured PX4 vehicle on the ground in POSCTL, 480 m above sea level
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.connectAndConfigure(.px4)
        h.clear()
        // When the owner wants to fly
        h.fly(true, motion: MotionCommand(velocity: PlaneVector(east: 2, north: 0), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0))
        h.run(0.99)
        // Then set-points stream at once, holding (the pilot command is not flown before OFFBOARD),
        // for a second before anything else
        #expect(h.setpoints.count >= 29)
        #expect(h.setpoints.allSatisfy { $0.velocityNEDMetersPerSecond == [0, 0, 0] })
        #expect(h.commands.isEmpty)
        // and then the first command is ARM
        h.run(0.05)
        #expect(h.commandIDs == [400])
        h.ack()
        h.vehicleSays(armed: true)
        h.run(SessionHarness.tick)
        // then NAV_TAKEOFF to home MSL + 3 m (PX4 reads param7 as AMSL)
        #expect(h.commandIDs.last == 22)
        #expect(h.commands.last!.params[6] == 483)
        h.ack()
        // PX4 flies AUTO.TAKEOFF: no OFFBOARD yet
        h.vehicleSays(mode: PX4Mode.autoTakeoff.customMode, landed: .takeoff, relativeAltitudeMeters: 1)
        h.run(0.5)
        h.vehicleSays(relativeAltitudeMeters: 2)
        h.run(0.5)
        #expect(h.commandIDs == [400, 22])
        // Take-off done: at 3 m (its position, 10 Hz, is ahead of its HEARTBEAT), AUTO.LOITER, IN_AIR →
        // DO_SET_MODE OFFBOARD (param2 main 6, param3 sub 0)
        h.vehicle?.position = SessionHarness.position(relativeAltitudeMeters: 3, mslMeters: 483)
        h.vehicleSays()
        h.vehicleSays(mode: PX4Mode.autoLoiter.customMode, landed: .inAir)
        h.run(SessionHarness.tick)
        #expect(h.commandIDs == [400, 22, 176])
        #expect(Array(h.commands.last!.params.prefix(3)) == [1, 6, 0])
        h.ack()
        h.vehicleSays(mode: PX4Mode.offboard.customMode)
        h.clear()
        h.run(0.5)
        // In OFFBOARD the set-points carry the motion command (2 m/s east)
        #expect(h.setpoints.count >= 14)
        #expect(h.setpoints.last!.velocityNEDMetersPerSecond[1] > 1.5)
        #expect(h.commands.isEmpty)
    }

    @Test("PX4 without a GLOBAL_POSITION_INT yet: no ARM, no NAV_TAKEOFF (its altitude would be 3 m above sea level, not above home)")
    func px4WaitsForPosition() {
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.receive(SessionHarness.heartbeat(.px4, mode: PX4Mode(mainMode: 3).customMode))
        h.receive(SessionHarness.landed(.onGround))
        h.fly(true)
        for _ in 0..<30 {
            h.run(0.1)
            h.receive(SessionHarness.heartbeat(.px4, mode: PX4Mode(mainMode: 3).customMode))
            h.receive(SessionHarness.landed(.onGround))
        }
        #expect(!h.commandIDs.contains(400) && !h.commandIDs.contains(22), "\(h.commandIDs)")
        h.receive(SessionHarness.position())
        h.run(0.1)
        #expect(h.commandIDs.last == 400)
    }
}
