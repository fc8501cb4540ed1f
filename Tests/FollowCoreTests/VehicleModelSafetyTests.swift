import ARDrone
@testable import FollowCore
import MAVLink
import Testing

/// Bad input reaching a family's vehicle model is ignored: a nonsense limit from the vehicle never
/// weakens (or poisons) the braking the separation rules count on, and the AR.Drone's model never
/// hands its link a PCMD that is not finite and inside ±1.
@Suite("Vehicle models: bad input is ignored")
struct VehicleModelSafetyTests {
    @Test("an autopilot's reported limits that are not finite and positive leave its braking and standoff rule as they were", arguments: [
        (Double.nan, Double.nan), (-2.5, 5), (0, 0), (Double.infinity, -Double.infinity),
    ])
    func nonsenseReportedLimits(_ limits: (acceleration: Double, jerk: Double)) throws {
        let follow = FollowParameters(standoffMeters: 12)
        var machine = try FlightStateMachine(follow: follow, failsafe: .defaults, vehicle: .velocityLoop(.arduCopterDefaults))
        let before = machine.controller.stopping
        machine.handle(.vehicleBraking(accelerationMetersPerSecondSquared: limits.acceleration,
                                       jerkMetersPerSecondCubed: limits.jerk), now: .zero)
        #expect(machine.controller.stopping == before)
        let model = try #require(machine.controller.vehicle as? AutopilotVehicleModel)
        #expect(model.response == .arduCopterDefaults)
        let expected = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: FailsafeParameters.defaults.protectedRadiusMeters, follow: follow, tuning: ControllerTuning(),
            vehicle: .velocityLoop(.arduCopterDefaults))
        #expect(machine.shortestDefensibleStandoffMeters == expected)
    }

    @Test("a motion that is not finite gets no PCMD: hover, and the tilt loop starts again from level")
    func nonFiniteMotionHovers() {
        var model = TiltVehicleModel(follow: FollowParameters(standoffMeters: 6))
        let drone = PlaneState(position: .zero, velocity: .zero)
        let context = MotionContext(predictedDrone: drone, dronePositionPlane: .zero, noseHeadingDegrees: 0,
                                    intervalSeconds: 1.0 / 30, escaping: false, keepOffPersonPlane: nil,
                                    keepOffStopPointPlane: nil, keepOffRadiusMeters: 6, windEstimate: .zero)
        let north = MotionCommand(velocity: PlaneVector(east: 0, north: 3), climbMetersPerSecond: 0,
                                  yawRateDegreesPerSecond: 0, context: context)
        for _ in 0..<30 { _ = model.setpoint(for: LinkCommand(flying: true, motion: north)) }
        #expect(model.loop.lastCommand.pitch < 0)
        for bad in [Double.nan, .infinity] {
            var motion = north
            motion.velocity = PlaneVector(east: bad, north: 3)
            motion.yawRateDegreesPerSecond = bad
            let setpoint = model.setpoint(for: LinkCommand(flying: true, motion: motion))
            #expect(setpoint == nil, "\(bad): \(setpoint.map { "\($0.pilot)" } ?? "")")
            #expect(model.loop.lastCommand == .zero)
        }
    }
}
