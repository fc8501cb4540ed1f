import FollowCore

/// The AR.Drone link's side of the flight's command: each `LinkCommand` the flight hands the link →
/// the PCMD it sends (the core's motion through `TiltLoop`) and what it reports back
/// (`LinkEvent.commandSent`: the tilt commanded, for the core's latency prediction and wind observers,
/// and the PCMD, for the flight log). One per link; `DroneLink` (Links/ARDrone/DroneControlLink.swift)
/// and the bench's simulated AR.Drone (Simulation/Bench/BenchLink.swift) run the same value.
///
/// A hover (no motion: PCMD flag 0, the firmware holds position) resets the tilt loop to level, or,
/// while the drone is airborne above `seedMinimumAltitudeMeters` with the flight wanting it airborne,
/// seeds it from the attitude the latest telemetry reports, so the next PCMD ramps from the attitude
/// the firmware flew (`TiltLoop.seed`) — as the core seeds its own copy while taking off
/// (`FollowController.observeHover`). Both are reported, so the core's copy is the link's.
public struct PCMDTranslator: Sendable, Hashable {
    public private(set) var loop: TiltLoop
    /// The attitude of the latest telemetry that may seed the loop (airborne, above the minimum
    /// altitude, both angles known), degrees; nil otherwise.
    public private(set) var hoverAttitude: HoverAttitude?

    /// Navdata pitch (positive = nose up) and roll (positive = right down), degrees.
    public struct HoverAttitude: Sendable, Hashable {
        public var pitchDegrees: Double
        public var rollDegrees: Double
    }

    /// Height above which a hover's attitude seeds the loop, metres (the core's take-off rule, 0.2 m).
    public static let seedMinimumAltitudeMeters = 0.2

    public init(loop: TiltLoop) {
        self.loop = loop
    }

    /// Built from the flight's parameters, as the core's controller is.
    public init(parameters: FollowParameters, tuning: ControllerTuning) {
        self.init(loop: TiltLoop(parameters: parameters, tuning: tuning))
    }

    /// One telemetry packet as the link delivers it to the flight.
    public mutating func observe(_ telemetry: DroneTelemetry) {
        if telemetry.flightState.isAirborne, telemetry.altitudeMeters > Self.seedMinimumAltitudeMeters,
           let pitch = telemetry.pitchDegrees, let roll = telemetry.rollDegrees {
            hoverAttitude = HoverAttitude(pitchDegrees: pitch, rollDegrees: roll)
        } else {
            hoverAttitude = nil
        }
    }

    /// The PCMD for `command` (nil = hover) and the report of what it commands. A PCMD that is not
    /// valid (a non-finite value) is not sent: hover, and the loop starts from level.
    public mutating func translate(_ command: LinkCommand, at now: MonotonicTime) -> (pilot: PilotCommand?, report: LinkEvent) {
        var pilot: PilotCommand?
        if let motion = command.motion, let context = motion.context {
            let made = loop.translate(motion, context: context)
            if made.isValid { pilot = made } else { loop.reset() }
        } else if command.flying, let attitude = hoverAttitude {
            loop.seed(pitchDegrees: attitude.pitchDegrees, rollDegrees: attitude.rollDegrees)
        } else {
            loop.reset()
        }
        return (pilot, .commandSent(loop.lastCommandedTilt(pilot: pilot), at: now))
    }
}
