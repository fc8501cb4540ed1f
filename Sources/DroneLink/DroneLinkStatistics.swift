import ARDroneProtocol
import Observations

/// Counters of one link since `start()`; a value snapshot.
public struct DroneLinkStatistics: Sendable, Equatable {
    /// AT commands handed to the socket (each has its own sequence number).
    public var commandsSent = 0
    /// AT datagrams handed to the socket (ticks plus immediate sends).
    public var datagramsSent = 0
    /// Of those, sent by `sendNow()` / `setDesired(…, sendImmediately: true)`.
    public var immediateDatagramsSent = 0
    /// Ticks that ran more than one tick interval after their deadline (the event loop thread was
    /// starved; those ticks' slots are skipped, not sent in a burst).
    public var ticksLate = 0
    /// The largest delay between a tick's deadline and when it ran, seconds.
    public var maxTickLatenessSeconds = 0.0
    /// Datagrams the socket refused to send.
    public var sendFailures = 0
    /// Datagrams not sent because encoding failed (should stay 0).
    public var encodingFailures = 0
    /// `01 00 00 00` navdata triggers sent to the navdata port.
    public var navdataTriggersSent = 0
    /// `AT*COMWDG` commands sent (navdata showed com watchdog bit 30).
    public var comWatchdogResetsSent = 0

    /// Navdata datagrams read from the socket, accepted or not.
    public var navdataDatagramsRead = 0
    /// Navdata packets accepted.
    public var navdataReceived = 0
    /// Dropped: not from the drone's address and navdata port.
    public var droppedUnexpectedSource = 0
    /// Dropped: sequence number not above the last accepted one.
    public var droppedSequenceNotIncreasing = 0
    /// Dropped: decoder error (breakdown in `droppedMalformedByKind`).
    public var droppedMalformed = 0
    /// Malformed drops per decoder error kind.
    public var droppedMalformedByKind: [NavdataDecodingError.Kind: Int] = [:]
    /// Backwards jumps to a small sequence number accepted as a drone restart.
    public var sequenceRestarts = 0
    /// Times navdata was reported lost.
    public var navdataLosses = 0
    /// Whether navdata is currently lost.
    public var navdataLost = false
    /// Accepted navdata per second over the last statistics interval.
    public var navdataRateHz = 0.0
    /// When the last accepted navdata arrived.
    public var lastNavdataAt: MonotonicTime?

    /// `AT*CONFIG` writes acknowledged.
    public var configurationsAcknowledged = 0
    /// `AT*CONFIG` re-sends after an ACK timeout.
    public var configurationRetries = 0
    /// `AT*CONFIG` writes given up.
    public var configurationFailures = 0
    /// Writes still queued or in flight.
    public var configurationsPending = 0

    /// Events dropped because the consumer of `events` fell more than the buffer behind.
    public var eventsDropped = 0
    /// Link sockets that closed under the link (e.g. NIO closes a UDP channel on a send error
    /// other than EMSGSIZE/EHOSTUNREACH) and were re-bound, see `DroneLinkEvent.socketClosed`.
    public var socketsClosed = 0
    public var socketsReopened = 0
    /// Bootstrap redone after navdata fell back to bootstrap mode (`DroneLinkEvent.bootstrapFallback`).
    public var bootstrapRedos = 0

    public init() {}

    /// All navdata drops together.
    public var navdataDropped: Int { droppedUnexpectedSource + droppedSequenceNotIncreasing + droppedMalformed }
}
