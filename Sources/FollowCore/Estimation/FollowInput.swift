/// Something the shell learned. Everything the state machine knows arrives this way.
public enum FollowInput: Sendable {
    /// A fix from either receiver (routed by `GPSFix.role`).
    case fix(GPSFix)
    /// A heading report; only `.onboard` reports are the drone's heading.
    case heading(HeadingReport)
    /// One navdata packet.
    case telemetry(DroneTelemetry)
    /// SIGTERM or an operator's stop: land (or, before take-off, stay on the ground).
    case shutdownRequested
    /// Whether the drone's configuration writes (navdata demo, altitude limits, …) are in place.
    /// Anything but `.done` blocks take-off (`Prerequisites.droneConfigured`); the machine starts
    /// as `.done` so callers that configure nothing (the bench, pure tests) fly as before.
    case droneConfiguration(DroneConfigurationStatus)
    /// The link says the vehicle left FollowMe's control while airborne (a pilot, or the autopilot's
    /// own failsafe): → `FlightState.released`, for good in this run.
    case vehicleReleased(ReleaseReason)
    /// Whether the link controls the airborne vehicle (its set-points are flown). False → hold
    /// `notInControl`, then land; the AR.Drone link never says false.
    case vehicleControl(inControl: Bool)
    /// An autopilot's horizontal shaping limits read from the vehicle (nil: its default stands): the
    /// stopping model counts on them from now on, and a standoff they cannot defend keeps the drone
    /// on the ground (`Prerequisites.braking`).
    case vehicleBraking(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?)
    /// The adopted flight is one a FollowMe before this one flew (`LinkEvent.flightResumed`): its home and
    /// the person's rise since its take-off replace the ones taken at adoption.
    case flightResumed(FlightFrame)
    /// The tilt the link commanded for the last decision (`LinkEvent.commandSent`: the AR.Drone's
    /// tilt loop runs at the link): what the latency prediction and the wind observers read next tick.
    case commandedTilt(CommandedTilt)
    /// The person in the field (or anyone they gave the pairing to) asks to hold, resume or land
    /// (`OperatorCommand`): it wins over following and the hold clock, never over an emergency, and
    /// never over a pilot or autopilot that took the vehicle (`FlightState.released`).
    case operatorCommand(OperatorCommand)
    /// The operator changes the follow mode, angle or orbit direction (`FollowModeChange`): taken while
    /// the follower may fly (preflight to holding), refused from landing on and when released.
    case followModeChange(FollowModeChange)
}

/// The state of the drone's configuration writes, as the link reports it.
public enum DroneConfigurationStatus: Sendable, Hashable {
    /// Writes sent (e.g. after a bootstrap or reboot), not all acknowledged yet.
    case pending
    /// Every write acknowledged.
    case done
    /// A write still failed after its retries; `key` is the AT*CONFIG key (e.g. `control:altitude_max`).
    case failed(key: String)
}

/// What became of one input (for counters and the log).
public enum InputOutcome: Sendable, Hashable {
    case fix(ReceiverRole, FixVerdict)
    case headingAccepted
    /// A heading from the person's receiver, which says nothing about the drone.
    case headingIgnored
    /// An onboard heading that disagrees with the navdata-propagated heading; not used
    /// (`Navigator.rejectedHeadingReports` counts them).
    case headingRejected
    case telemetryAccepted
    /// Navdata stamped before the last packet's time; dropped.
    case telemetryOutOfOrder
    case shutdownNoted
    case droneConfigurationNoted
    case releaseNoted
    case controlNoted
    case brakingNoted
    case flightResumeNoted
    case commandedTiltNoted
    /// What became of an operator's command (`OperatorCommand.Outcome`).
    case operatorCommand(OperatorCommand, OperatorCommand.Outcome)
    /// What became of an operator's change of follow mode (the commands' outcomes).
    case followModeChange(FollowModeChange, OperatorCommand.Outcome)
}

/// The output of one control tick.
public struct FlightDecision: Sendable, Hashable {
    /// What to send to the drone this tick.
    public var command: DroneCommand
    /// The state after this tick.
    public var state: FlightState
    /// The transition this tick made, if any (at most one per tick).
    public var transition: FlightTransition?
    /// What the follower aimed at, when it produced a following command.
    public var follow: FollowOutput?
}
