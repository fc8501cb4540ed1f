/// Something the shell learned. Everything the state machine knows arrives this way.
public enum FollowInput: Sendable {
    /// A fix from either receiver (routed by `GPSFix.role`).
    case fix(GPSFix)
    /// A heading report; only `.onboard` reports are the drone's heading.
    case heading(HeadingReport)
    /// One telemetry packet.
    case telemetry(DroneTelemetry)
    /// SIGTERM or an operator's stop: land (or, before take-off, stay on the ground).
    case shutdownRequested
    /// Whether the drone's configuration writes are in place; anything but `.done` blocks take-off
    /// (`Prerequisites.droneConfigured`). The machine starts as `.done`.
    case droneConfiguration(DroneConfigurationStatus)
    /// The vehicle left FollowMe's control while airborne: → `FlightState.released`, for the run.
    case vehicleReleased(ReleaseReason)
    /// Whether the link controls the airborne vehicle; false → hold `notInControl`, then land.
    case vehicleControl(inControl: Bool)
    /// An autopilot's horizontal shaping limits read from the vehicle (nil: its default stands); a
    /// standoff they cannot defend keeps the drone on the ground (`Prerequisites.braking`).
    case vehicleBraking(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?)
    /// The adopted flight is one a previous FollowMe flew: its home and the person's rise replace those taken at adoption.
    case flightResumed(FlightFrame)
    /// An operator's command (`OperatorCommand`): wins over following and the hold clock, never over an
    /// emergency or a released vehicle.
    case operatorCommand(OperatorCommand)
    /// An operator's change of follow mode; refused from landing on and when released.
    case followModeChange(FollowModeChange)
}

/// The state of the drone's configuration writes, as the link reports it.
public enum DroneConfigurationStatus: Sendable, Hashable {
    /// Writes sent (e.g. after a bootstrap or reboot), not all acknowledged yet.
    case pending
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
    /// An onboard heading that disagrees with the vehicle-yaw-propagated heading; not used.
    case headingRejected
    case telemetryAccepted
    /// Telemetry stamped before the last packet's time; dropped.
    case telemetryOutOfOrder
    case shutdownNoted
    case droneConfigurationNoted
    case releaseNoted
    case controlNoted
    case brakingNoted
    case flightResumeNoted
    /// What became of an operator's command (`OperatorCommand.Outcome`).
    case operatorCommand(OperatorCommand, OperatorCommand.Outcome)
    /// What became of an operator's change of follow mode (the commands' outcomes).
    case followModeChange(FollowModeChange, OperatorCommand.Outcome)
}

/// The output of one control tick.
public struct FlightDecision: Sendable, Hashable {
    public var command: DroneCommand
    public var state: FlightState
    /// The transition this tick made, if any (at most one per tick).
    public var transition: FlightTransition?
    /// What the follower aimed at, when it produced a following command.
    public var follow: FollowOutput?
}
