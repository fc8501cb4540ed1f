import ARDrone
@testable import FollowCore

/// A controller with the AR.Drone link's tilt loop beside it, as a flight runs them (issue 25): each
/// output's motion goes through the link's `PCMDTranslator`, and the tilt it commanded comes back to
/// the controller (`noteCommandedTilt`) before the next tick — what `FlightLoop` and the bench do.
@dynamicMemberLookup
struct LinkedController {
    var controller: FollowController
    var translator: PCMDTranslator

    init(_ controller: FollowController) {
        self.controller = controller
        translator = PCMDTranslator(parameters: controller.parameters, tuning: controller.tuning)
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

    /// The link's side of one command: its PCMD (nil = hover), the tilt reported back.
    mutating func send(_ motion: MotionCommand?, at now: MonotonicTime) -> PilotCommand? {
        let (pilot, report) = translator.translate(LinkCommand(flying: true, motion: motion), at: now)
        if case .commandSent(let tilt, _) = report { controller.noteCommandedTilt(tilt) }
        return pilot
    }
}

/// A controller's output and the PCMD the link made of it.
@dynamicMemberLookup
struct LinkedOutput {
    var output: FollowOutput
    var pilot: PilotCommand?

    subscript<T>(dynamicMember keyPath: KeyPath<FollowOutput, T>) -> T { output[keyPath: keyPath] }
}
