/// What any drone link reports to the flight, in order, on the flight's executor (docs/architecture.md
/// §3); `at` is monotonic.
public enum LinkEvent: Sendable, Equatable {
    /// The drone's state, whatever the link. `sequence`: the link's packet counter, if it has one.
    case telemetry(DroneTelemetry, sequence: Int?)
    /// An autopilot's own position or heading, handled like an onboard receiver's `GPSEvent`.
    case onboard(GPSEvent)
    /// The first telemetry arrived; `droneWasFlying`: already airborne; `desiredFlying`: the link adopted that.
    case connected(droneWasFlying: Bool, desiredFlying: Bool, at: MonotonicTime)
    /// No accepted telemetry for the link's silence bound since `lastReceivedAt`.
    case telemetryLost(lastReceivedAt: MonotonicTime, at: MonotonicTime)
    /// Telemetry flows again after `.telemetryLost`; `silenceSeconds`: how long it was missing.
    case telemetryRestored(silenceSeconds: Double, at: MonotonicTime)
    /// The drone acknowledged a configuration write (`key` = `value`) after `attempts` sends.
    case configurationAcknowledged(key: String, value: String, attempts: Int, at: MonotonicTime)
    /// The link gave up on a configuration write: flight limits may not be what the config says.
    case configurationFailed(key: String, value: String, reason: String, at: MonotonicTime)
    /// The configuration must be written again (`reason`); take-off waits for `.configurationComplete`.
    case configurationPending(reason: String, at: MonotonicTime)
    /// Every queued configuration write was handled; `failedKeys` empty: all acknowledged.
    case configurationComplete(failedKeys: [String], at: MonotonicTime)
    /// The link cleared "flying" on its own (e.g. the drone reported an emergency).
    case flyingCleared(reason: String, at: MonotonicTime)
    /// Airborne, the vehicle left the link's mode for `mode` (a pilot or its failsafe): the link commands
    /// nothing from now on (MAVLink only).
    case released(mode: String, reason: String, at: MonotonicTime)
    /// The vehicle's flight is one a previous FollowMe flew: its frame, instead of the adoption's (MAVLink only).
    case flightResumed(FlightFrame, at: MonotonicTime)
    /// Whether the link controls the airborne vehicle (its set-points are flown).
    case control(inControl: Bool, reason: String, at: MonotonicTime)
    /// The autopilot's horizontal shaping limits read from its parameters (nil: its default stands).
    case vehicleBraking(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?, at: MonotonicTime)
    /// A link socket (`socket`: the link's name for it) closed under the link; it is being reopened.
    case socketClosed(socket: String, error: String?, at: MonotonicTime)
    /// The socket is bound again after `attempts` binds; `samePort`: on its previous local port.
    case socketReopened(socket: String, localPort: Int, samePort: Bool, attempts: Int, downSeconds: Double,
                        at: MonotonicTime)
    /// The vehicle's camera changed state as the link drives it (`reason`: for a person); each state once
    /// per change, so "no camera" is said once (MAVLink: docs/mavlink.md §7.15; the AR.Drone's video
    /// recorder with `[video] record`: docs/video.md §3).
    case camera(state: CameraRecordingState, reason: String, at: MonotonicTime)
    /// A message for a person (e.g. MAVLink STATUSTEXT); `severity` on the sender's scale, if it has one.
    case notice(text: String, severity: Int?, at: MonotonicTime)
    /// A periodic snapshot of the link's counters.
    case statistics(LinkStatistics)
}
