import ARDrone
@testable import FollowCore

/// A controller whose every output goes through its vehicle model's set-point step, as
/// `FlightLoopCore` sends each command: the PCMD the AR.Drone's tilt loop makes of it (nil for an
/// autopilot, whose link flies the motion itself).
@dynamicMemberLookup
struct LinkedController {
    var controller: FollowController

    init(_ controller: FollowController) {
        self.controller = controller
    }

    subscript<T>(dynamicMember keyPath: KeyPath<FollowController, T>) -> T { controller[keyPath: keyPath] }

    mutating func follow(
        target: PlaneState, targetLastFix: PlaneVector? = nil, separationUncertaintyMeters: Double = 0,
        motion: TargetMotion, drone: PlaneState, noseHeadingDegrees: Double, altitudeMeters: Double, home: PlaneVector?,
        now: MonotonicTime
    ) -> LinkedOutput {
        let out = controller.follow(target: target, targetLastFix: targetLastFix,
                                    separationUncertaintyMeters: separationUncertaintyMeters, motion: motion, drone: drone,
                                    noseHeadingDegrees: noseHeadingDegrees, altitudeMeters: altitudeMeters, home: home, now: now)
        return LinkedOutput(output: out, pilot: send(out.motion, at: now))
    }

    /// One command's set-point: its PCMD (nil = hover).
    mutating func send(_ motion: MotionCommand?, at now: MonotonicTime) -> PilotCommand? {
        controller.vehicle.setpoint(for: LinkCommand(flying: true, motion: motion))?.pilot
    }
}

/// A controller's output and the PCMD the link made of it.
@dynamicMemberLookup
struct LinkedOutput {
    var output: FollowOutput
    var pilot: PilotCommand?

    subscript<T>(dynamicMember keyPath: KeyPath<FollowOutput, T>) -> T { output[keyPath: keyPath] }
}
