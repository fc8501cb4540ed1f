/// A link's counters since `start()` in every link's vocabulary (the flight log's statistics lines);
/// "telemetry" is telemetry or MAVLink messages; a counter a link has no notion of stays 0.
public struct LinkStatistics: Sendable, Equatable {
    /// What the link counts (`counts[.datagramsSent]`): sends, telemetry read and accepted, telemetry
    /// dropped (foreign source, malformed, sequence), sequence restarts, losses, late ticks, send
    /// failures, dropped events, sockets closed and reopened, AR.Drone bootstrap redos.
    public enum Counter: CaseIterable, Sendable, Hashable {
        case datagramsSent, commandsSent, telemetryDatagramsRead, telemetryReceived
        case droppedUnexpectedSource, droppedMalformed, droppedSequence, sequenceRestarts, telemetryLosses
        case ticksLate, sendFailures, eventsDropped, socketsClosed, socketsReopened, bootstrapRedos
    }

    /// The event counters, all 0 at `start()`.
    public var counts = Counts<Counter>()
    /// Accepted telemetry per second over the link's last statistics interval, hertz.
    public var telemetryRateHz = 0.0
    /// The largest delay between a tick's deadline and when it ran, seconds.
    public var maxTickLatenessSeconds = 0.0

    public init() {}
}
