/// What any drone link reports to the flight, in order, on the flight's executor
/// (docs/architecture.md §3). Each case carries the time the link observed it (`at`), monotonic.
public enum LinkEvent: Sendable, Equatable {
    /// The drone's state, whatever the link. `sequence`: the link's packet counter, if it has one.
    case telemetry(DroneTelemetry, sequence: Int?)
    /// A position or nose heading estimated on board (an autopilot's own fix): handled exactly like
    /// an onboard receiver's `GPSEvent` from gpsd. The AR.Drone link never sends it.
    case onboard(GPSEvent)
    /// The first telemetry arrived and commands start now. `droneWasFlying`: it was already
    /// airborne; `desiredFlying`: the link adopted that (it keeps it flying instead of landing it).
    case connected(droneWasFlying: Bool, desiredFlying: Bool, at: MonotonicTime)
    /// No accepted telemetry for the link's silence bound since `lastReceivedAt`.
    case telemetryLost(lastReceivedAt: MonotonicTime, at: MonotonicTime)
    /// Telemetry flows again after `.telemetryLost`; `silenceSeconds`: how long it was missing.
    case telemetryRestored(silenceSeconds: Double, at: MonotonicTime)
    /// The drone acknowledged a configuration write (`key` = `value`) after `attempts` sends.
    case configurationAcknowledged(key: String, value: String, attempts: Int, at: MonotonicTime)
    /// The link gave up on a configuration write: flight limits may not be what the config says.
    case configurationFailed(key: String, value: String, reason: String, at: MonotonicTime)
    /// The drone's configuration must be written again (the AR.Drone fell back to bootstrap
    /// navdata: `reason` says why); take-off waits for the next `.configurationComplete`.
    case configurationPending(reason: String, at: MonotonicTime)
    /// Every queued configuration write was handled; `failedKeys` empty: all acknowledged.
    case configurationComplete(failedKeys: [String], at: MonotonicTime)
    /// The link cleared "flying" on its own (e.g. the drone reported an emergency).
    case flyingCleared(reason: String, at: MonotonicTime)
    /// Airborne, the vehicle is flown by someone else now: it left the link's mode for `mode` (a pilot,
    /// or the autopilot's own failsafe), or it was found flying in another mode at connect. The link
    /// commands nothing from now on (no set-point, no LAND) until the flight ends (MAVLink only).
    case released(mode: String, reason: String, at: MonotonicTime)
    /// The vehicle's flight is the one a FollowMe before this one flew (restarted in flight: the same
    /// vehicle, boot and frame record): its frame, to go on with instead of the adoption's (MAVLink only).
    case flightResumed(FlightFrame, at: MonotonicTime)
    /// Whether the link controls the airborne vehicle (its set-points are flown): false when, airborne
    /// and ours, it stays out of the link's mode (e.g. OFFBOARD/GUIDED refused); true when back in it.
    case control(inControl: Bool, reason: String, at: MonotonicTime)
    /// The autopilot's own horizontal shaping limits, read from its parameters (nil: not answered, its
    /// default stands): what it brakes with, for the flight's stopping model (docs/stopping-model.md §7).
    case vehicleBraking(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?, at: MonotonicTime)
    /// A link socket (`socket`: the link's name for it) closed under the link; it is being reopened.
    case socketClosed(socket: String, error: String?, at: MonotonicTime)
    /// The socket is bound again after `attempts` binds; `samePort`: on its previous local port.
    case socketReopened(socket: String, localPort: Int, samePort: Bool, attempts: Int, downSeconds: Double,
                        at: MonotonicTime)
    /// Something the drone or the link says that a person should read (e.g. a MAVLink STATUSTEXT or
    /// a refused command). `severity`: the sender's own scale if it has one (MAVLink: 0 emergency …
    /// 7 debug), nil otherwise.
    case notice(text: String, severity: Int?, at: MonotonicTime)
    /// A periodic snapshot of the link's counters.
    case statistics(LinkStatistics)
    /// What the link made of the command it was just handed and sent (a link that closes the velocity
    /// loop itself: the AR.Drone's tilt loop): the tilt commanded, for the core's latency prediction
    /// and wind observers, and the PCMD sent, for the flight log. Returned by `DroneControlLink.send`,
    /// so the flight has it before its next decision.
    case commandSent(CommandedTilt, at: MonotonicTime)
}
