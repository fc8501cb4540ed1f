import Telemetry

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
}

/// What became of one input (for counters and the log).
public enum InputOutcome: Sendable, Hashable {
    case fix(ReceiverRole, FixVerdict)
    case headingAccepted
    /// A heading from the person's receiver, which says nothing about the drone.
    case headingIgnored
    case telemetryAccepted
    /// Navdata stamped before the last packet's time; dropped.
    case telemetryOutOfOrder
    case shutdownNoted
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
