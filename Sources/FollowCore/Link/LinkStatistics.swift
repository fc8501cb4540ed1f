/// A link's counters since `start()` in the vocabulary every link shares: exactly what the flight
/// log's statistics lines carry (`LinkStatisticsRecord`), a value snapshot.
///
/// "Telemetry" is the drone's state reports: navdata packets for the AR.Drone, MAVLink messages
/// for an autopilot. A link without a notion (e.g. bootstrap redos on MAVLink) leaves it at 0.
public struct LinkStatistics: Sendable, Equatable {
    /// What the link counts (`counts[.datagramsSent]`):
    /// - `datagramsSent`: datagrams handed to the socket; `commandsSent`: commands in them
    ///   (AT commands, MAVLink messages);
    /// - `telemetryDatagramsRead`: telemetry datagrams read, accepted or not; `telemetryReceived`:
    ///   telemetry accepted;
    /// - dropped telemetry: `droppedUnexpectedSource` (not from the drone), `droppedMalformed`
    ///   (the decoder refused it), `droppedSequence` (sequence number not above the last one);
    /// - `sequenceRestarts`: backwards sequence jumps accepted as a drone restart;
    ///   `telemetryLosses`: times telemetry was reported lost;
    /// - `ticksLate`: ticks that ran more than one interval after their deadline;
    ///   `sendFailures`: datagrams the socket refused; `eventsDropped`: events a slow consumer lost;
    /// - `socketsClosed`, `socketsReopened`: sockets that closed under the link and were bound again;
    ///   `bootstrapRedos`: the drone's configuration redone after it fell back (AR.Drone bootstrap).
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
