/// `"kind":"link"`: something the drone link observed (`event`: `connected`, `navdata-lost`,
/// `navdata-restored`, `config-ack`, `config-failed`, `config-complete`, `flying-cleared`,
/// `socket-closed`, `socket-reopened`, `bootstrap-fallback`, `statistics` (periodic),
/// `statistics-final` (at exit)). Each event writes only its own fields; the statistics lines
/// flatten their parts (link counters, dropped log lines, heading screen, per-receiver fix screen)
/// into the one object, in that order.
public struct FlightLinkRecord: Codable, Sendable, Hashable {
    public static let kind = "link"
    public var t: Double? = nil
    public var kind: String = Self.kind
    public var event: String? = nil
    public var wasFlying: Bool? = nil
    public var silenceSeconds: Double? = nil
    /// Config writes: `category:name` and its value.
    public var key: String? = nil
    public var value: String? = nil
    public var reason: String? = nil
    /// `at` or `navdata`.
    public var socket: String? = nil
    public var error: String? = nil
    public var localPort: Int? = nil
    public var samePort: Bool? = nil
    public var attempts: Int? = nil
    public var downSeconds: Double? = nil
    /// Config complete: the keys given up, comma-separated (empty: all acknowledged).
    public var failed: String? = nil
    public var link: LinkStatisticsRecord? = nil
    public var dropped: DroppedLogLinesRecord? = nil
    public var headingReportsRejected: Int? = nil
    public var headingReanchored: Int? = nil
    /// The person's 3-D fixes whose altitude the rate gate ignored (`PersonAltitudeFilter.spikesRejected`):
    /// written while `altitude_mode = "person"` reads them.
    public var targetAltitudeSpikesRejected: Int? = nil
    public var targetFixes: FixScreenRecord? = nil
    public var onboardFixes: FixScreenRecord? = nil

    enum CodingKeys: String, CodingKey {
        case t, kind, event, wasFlying = "was_flying", silenceSeconds = "silence_s", key, value, reason, socket, error
        case localPort = "local_port", samePort = "same_port", attempts, downSeconds = "down_s", failed
        case headingReportsRejected = "heading_reports_rejected", headingReanchored = "heading_reanchored"
        case targetAltitudeSpikesRejected = "target_altitude_spikes_rejected"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(t, forKey: .t)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(event, forKey: .event)
        try c.encodeIfPresent(wasFlying, forKey: .wasFlying)
        try c.encodeIfPresent(silenceSeconds, forKey: .silenceSeconds)
        try c.encodeIfPresent(key, forKey: .key)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(socket, forKey: .socket)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(localPort, forKey: .localPort)
        try c.encodeIfPresent(samePort, forKey: .samePort)
        try c.encodeIfPresent(attempts, forKey: .attempts)
        try c.encodeIfPresent(downSeconds, forKey: .downSeconds)
        try c.encodeIfPresent(failed, forKey: .failed)
        // The parts, flattened into this object.
        try link?.encode(to: encoder)
        try dropped?.encode(to: encoder)
        try c.encodeIfPresent(headingReportsRejected, forKey: .headingReportsRejected)
        try c.encodeIfPresent(headingReanchored, forKey: .headingReanchored)
        try c.encodeIfPresent(targetAltitudeSpikesRejected, forKey: .targetAltitudeSpikesRejected)
        try targetFixes?.encode(to: encoder, prefix: "target")
        try onboardFixes?.encode(to: encoder, prefix: "onboard")
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        t = try c.decodeIfPresent(Double.self, forKey: .t)
        kind = try c.decode(String.self, forKey: .kind)
        event = try c.decodeIfPresent(String.self, forKey: .event)
        wasFlying = try c.decodeIfPresent(Bool.self, forKey: .wasFlying)
        silenceSeconds = try c.decodeIfPresent(Double.self, forKey: .silenceSeconds)
        key = try c.decodeIfPresent(String.self, forKey: .key)
        value = try c.decodeIfPresent(String.self, forKey: .value)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        socket = try c.decodeIfPresent(String.self, forKey: .socket)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        localPort = try c.decodeIfPresent(Int.self, forKey: .localPort)
        samePort = try c.decodeIfPresent(Bool.self, forKey: .samePort)
        attempts = try c.decodeIfPresent(Int.self, forKey: .attempts)
        downSeconds = try c.decodeIfPresent(Double.self, forKey: .downSeconds)
        failed = try c.decodeIfPresent(String.self, forKey: .failed)
        headingReportsRejected = try c.decodeIfPresent(Int.self, forKey: .headingReportsRejected)
        headingReanchored = try c.decodeIfPresent(Int.self, forKey: .headingReanchored)
        targetAltitudeSpikesRejected = try c.decodeIfPresent(Int.self, forKey: .targetAltitudeSpikesRejected)
        let statistics = event == "statistics" || event == "statistics-final"
        link = statistics ? try LinkStatisticsRecord(from: decoder) : nil
        dropped = statistics ? try? DroppedLogLinesRecord(from: decoder) : nil
        targetFixes = statistics ? try? FixScreenRecord(from: decoder, prefix: "target") : nil
        onboardFixes = statistics ? try? FixScreenRecord(from: decoder, prefix: "onboard") : nil
    }

    /// A line of `event` at `t`: the writer then sets only the fields that event has.
    public init(t: Double? = nil, event: String? = nil) {
        self.t = t
        self.event = event
    }
}

/// The drone link's counters on a statistics line (what was sent, what navdata was dropped and why).
public struct LinkStatisticsRecord: Codable, Sendable, Hashable {
    public var datagramsSent: Int? = nil
    public var commandsSent: Int? = nil
    public var navdataRead: Int? = nil
    public var navdataReceived: Int? = nil
    public var droppedUnexpectedSource: Int? = nil
    public var droppedMalformed: Int? = nil
    public var droppedSequence: Int? = nil
    public var sequenceRestarts: Int? = nil
    public var navdataLosses: Int? = nil
    public var navdataRateHz: Double? = nil
    public var ticksLate: Int? = nil
    public var maxTickLatenessSeconds: Double? = nil
    public var sendFailures: Int? = nil
    public var eventsDropped: Int? = nil
    public var socketsClosed: Int? = nil
    public var socketsReopened: Int? = nil
    public var bootstrapRedos: Int? = nil

    enum CodingKeys: String, CodingKey {
        case datagramsSent = "datagrams_sent", commandsSent = "commands_sent", navdataRead = "navdata_read"
        case navdataReceived = "navdata_received", droppedUnexpectedSource = "dropped_unexpected_source"
        case droppedMalformed = "dropped_malformed", droppedSequence = "dropped_sequence"
        case sequenceRestarts = "sequence_restarts", navdataLosses = "navdata_losses", navdataRateHz = "navdata_rate_hz"
        case ticksLate = "ticks_late", maxTickLatenessSeconds = "max_tick_lateness_s", sendFailures = "send_failures"
        case eventsDropped = "events_dropped", socketsClosed = "sockets_closed", socketsReopened = "sockets_reopened"
        case bootstrapRedos = "bootstrap_redos"
    }

    /// Every counter absent; the flight's `LinkStatisticsRecord(_:)` sets them.
    public init() {}
}

/// Log lines (stderr) and flight-log lines dropped because their writer could not keep up, and
/// log lines still waiting for a stalled stderr.
public struct DroppedLogLinesRecord: Codable, Sendable, Hashable {
    public var logLines: Int = 0
    public var logLinesWaiting: Int = 0
    public var flightLogLines: Int = 0

    enum CodingKeys: String, CodingKey {
        case logLines = "log_lines_dropped", logLinesWaiting = "log_lines_waiting"
        case flightLogLines = "flight_log_lines_dropped"
    }

    public init(logLines: Int = 0, logLinesWaiting: Int = 0, flightLogLines: Int = 0) {
        self.logLines = logLines
        self.logLinesWaiting = logLinesWaiting
        self.flightLogLines = flightLogLines
    }
}

/// What one receiver's fix screen did so far, written as `<role>_<field>` fields, `fields` in order.
public struct FixScreenRecord: Sendable, Hashable {
    /// The field names after `<role>_`, in the order written: fixes accepted, refused as outliers,
    /// refused for a time in the future, ignored as stale, refused for their `eph`; clock re-anchors.
    public static let fields = ["fixes_accepted", "fixes_outliers", "fixes_future_time", "fixes_stale",
                                "fixes_refused_eph", "clock_reanchors"]
    /// One count per field, in `fields` order.
    public var counts: [Int]

    /// `counts` must have one count per field.
    public init(counts: [Int]) {
        precondition(counts.count == Self.fields.count, "one count per FixScreenRecord.fields entry")
        self.counts = counts
    }

    /// The count of one field (`fixes_accepted`, …), nil for an unknown field.
    public subscript(field: String) -> Int? { Self.fields.firstIndex(of: field).map { counts[$0] } }

    func encode(to encoder: any Encoder, prefix: String) throws {
        var c = encoder.container(keyedBy: NamedKey.self)
        for (field, count) in zip(Self.fields, counts) { try c.encode(count, forKey: NamedKey(prefix + "_" + field)) }
    }

    init(from decoder: any Decoder, prefix: String) throws {
        let c = try decoder.container(keyedBy: NamedKey.self)
        self.init(counts: try Self.fields.map { try c.decode(Int.self, forKey: NamedKey(prefix + "_" + $0)) })
    }
}

/// A coding key made at run time (`target_fixes_accepted`, …).
struct NamedKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// `"kind":"log","event":"final"` (the last line): log lines dropped over the whole flight.
public struct FlightLogFinalRecord: Codable, Sendable, Hashable {
    public static let kind = "log"
    public var t: Double? = nil
    public var kind: String = Self.kind
    public var event: String = "final"
    public var dropped: DroppedLogLinesRecord? = nil

    enum CodingKeys: String, CodingKey { case t, kind, event }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(t, forKey: .t)
        try c.encode(kind, forKey: .kind)
        try c.encode(event, forKey: .event)
        try dropped?.encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        t = try c.decodeIfPresent(Double.self, forKey: .t)
        kind = try c.decode(String.self, forKey: .kind)
        event = try c.decode(String.self, forKey: .event)
        dropped = try? DroppedLogLinesRecord(from: decoder)
    }

    public init(t: Double? = nil, kind: String = Self.kind, event: String = "final", dropped: DroppedLogLinesRecord? = nil) {
        self.t = t
        self.kind = kind
        self.event = event
        self.dropped = dropped
    }
}
