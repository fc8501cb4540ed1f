import FollowCore

/// Counters of one link since `start()`; a value snapshot.
public struct DroneLinkStatistics: Sendable, Equatable {
    /// What the link counts (`counts[.datagramsSent]`):
    /// - `commandsSent`: AT commands handed to the socket (each has its own sequence number);
    ///   `datagramsSent`: AT datagrams handed to the socket (ticks plus immediate sends);
    ///   `immediateDatagramsSent`: of those, sent by `sendNow()` / `setDesired(…, sendImmediately: true)`;
    /// - `ticksLate`: ticks that ran more than one tick interval after their deadline (the event loop
    ///   thread was starved; those ticks' slots are skipped, not sent in a burst);
    /// - `sendFailures`: datagrams the socket refused to send; `encodingFailures`: datagrams not sent
    ///   because encoding failed (should stay 0);
    /// - `navdataTriggersSent`: `01 00 00 00` navdata triggers sent to the navdata port;
    ///   `comWatchdogResetsSent`: `AT*COMWDG` commands sent (navdata showed com watchdog bit 30);
    /// - `navdataDatagramsRead`: navdata datagrams read from the socket, accepted or not;
    ///   `navdataReceived`: navdata packets accepted;
    /// - dropped navdata: `droppedUnexpectedSource` (not from the drone's address and navdata port),
    ///   `droppedSequenceNotIncreasing` (sequence number not above the last accepted one),
    ///   `droppedMalformed` (decoder error; breakdown in `droppedMalformedByKind`);
    /// - `sequenceRestarts`: backwards jumps to a small sequence number accepted as a drone restart;
    ///   `navdataLosses`: times navdata was reported lost;
    /// - `AT*CONFIG` writes: `configurationsAcknowledged`, `configurationRetries` (re-sends after an
    ///   ACK timeout), `configurationFailures` (given up);
    /// - `eventsDropped`: events dropped because the consumer of `events` fell more than the buffer behind;
    /// - `socketsClosed`, `socketsReopened`: link sockets that closed under the link (e.g. NIO closes a
    ///   UDP channel on a send error other than EMSGSIZE/EHOSTUNREACH) and were re-bound, see
    ///   `DroneLinkEvent.socketClosed`;
    /// - `bootstrapRedos`: bootstrap redone after navdata fell back to bootstrap mode
    ///   (`DroneLinkEvent.bootstrapFallback`).
    public enum Counter: CaseIterable, Sendable, Hashable {
        case commandsSent, datagramsSent, immediateDatagramsSent, ticksLate, sendFailures, encodingFailures
        case navdataTriggersSent, comWatchdogResetsSent
        case navdataDatagramsRead, navdataReceived
        case droppedUnexpectedSource, droppedSequenceNotIncreasing, droppedMalformed
        case sequenceRestarts, navdataLosses
        case configurationsAcknowledged, configurationRetries, configurationFailures
        case eventsDropped, socketsClosed, socketsReopened, bootstrapRedos
    }

    /// The event counters, all 0 at `start()`.
    public var counts = Counts<Counter>()
    /// The largest delay between a tick's deadline and when it ran, seconds.
    public var maxTickLatenessSeconds = 0.0
    /// Malformed drops per decoder error kind.
    public var droppedMalformedByKind: [NavdataDecodingError.Kind: Int] = [:]
    /// Whether navdata is currently lost.
    public var telemetryLost = false
    /// Accepted navdata per second over the last statistics interval.
    public var navdataRateHz = 0.0
    /// When the last accepted navdata arrived.
    public var lastNavdataAt: MonotonicTime?
    /// `AT*CONFIG` writes still queued or in flight (a level, not a count of events).
    public var configurationsPending = 0

    public init() {}

    /// All navdata drops together.
    public var navdataDropped: Int {
        counts[.droppedUnexpectedSource] + counts[.droppedSequenceNotIncreasing] + counts[.droppedMalformed]
    }
}
