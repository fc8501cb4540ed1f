import Foundation
import ShellSupport

// The flight log's one record schema (`followme run --flight-log FILE`): one JSON object per line,
// `{"t":…,"kind":…,…}`. `FlightRecorder` writes these types (through `JSONLineEncoder`, keys in
// declaration order), `FlightLog` / `FlightLogReport` and the fault suite's reader decode them
// (`JSONDecoder`). Field names and key order are an interface: users' scripts read the lines.
//
// Every field but `kind` is optional when decoding: the readers take what they need from a line
// and skip it otherwise (a hand-edited or foreign file); the recorder always writes `t` (monotonic
// seconds) and every field its line kind has.

/// The two fields every line starts with; decode it first to dispatch on `kind`.
public struct FlightLogHead: Codable, Sendable, Hashable {
    public var t: Double?
    public var kind: String?

    /// Decodes the head of one line; nil if it is not a JSON object (with these two, if present, typed).
    public static func decode(_ line: Data, with decoder: JSONDecoder) -> FlightLogHead? {
        try? decoder.decode(FlightLogHead.self, from: line)
    }
}

/// `"kind":"start"`: the parameters the flight flies with.
public struct FlightStartRecord: Codable, Sendable, Hashable {
    public static let kind = "start"
    public var t: Double?
    public var kind = Self.kind
    public var standoffMeters: Double?
    public var altitudeMeters: Double?
    public var minSeparationMeters: Double?
    public var mountOffsetDegrees: Double?
    public var dryRun: Bool?

    enum CodingKeys: String, CodingKey {
        case t, kind
        case standoffMeters = "standoff_m", altitudeMeters = "altitude_m", minSeparationMeters = "min_separation_m"
        case mountOffsetDegrees = "mount_offset_deg", dryRun = "dry_run"
    }

    public init(t: Double, standoffMeters: Double, altitudeMeters: Double, minSeparationMeters: Double,
                mountOffsetDegrees: Double, dryRun: Bool) {
        self.t = t
        self.standoffMeters = standoffMeters
        self.altitudeMeters = altitudeMeters
        self.minSeparationMeters = minSeparationMeters
        self.mountOffsetDegrees = mountOffsetDegrees
        self.dryRun = dryRun
    }
}

/// `"kind":"gps"`: one gpsd event as `GPSEventRecord`, with what the follow core made of a fix.
public struct FlightGPSRecord: Codable, Sendable, Hashable {
    public static let kind = "gps"
    public var t: Double?
    public var kind = Self.kind
    public var event: GPSEventRecord?
    /// `accepted`, `initialised`, `rejected-outlier`, `ignored-out-of-order`, `ignored-duplicate`, …
    public var verdict: String?

    public init(t: Double, event: GPSEventRecord, verdict: String?) {
        self.t = t
        self.event = event
        self.verdict = verdict
    }

    /// Whether the follow core refused the fix (an outlier, out of order, a duplicate, …).
    public var wasRefused: Bool { verdict.map { $0.hasPrefix("rejected") || $0.hasPrefix("ignored") } ?? false }
}

/// `"kind":"navdata"` (at most every 0.5 s): the drone's telemetry.
public struct FlightNavdataRecord: Codable, Sendable, Hashable {
    public static let kind = "navdata"
    public var t: Double?
    public var kind = Self.kind
    /// The link's packet sequence number, when it has one.
    public var seq: Int?
    /// The flight state (`landed`, `takingOff`, `hovering`, `flying`, `landing`, `unknown`).
    public var flight: String?
    public var battery: Double?
    /// Altitude, metres.
    public var alt: Double?
    /// Yaw, degrees.
    public var yaw: Double?
    /// Body velocity forward / right, m/s.
    public var vx: Double?
    public var vy: Double?
    public var emergency: Bool?

    public init(t: Double, seq: Int?, flight: String, battery: Double, alt: Double, yaw: Double?, vx: Double?,
                vy: Double?, emergency: Bool) {
        self.t = t
        self.seq = seq
        self.flight = flight
        self.battery = battery
        self.alt = alt
        self.yaw = yaw
        self.vx = vx
        self.vy = vy
        self.emergency = emergency
    }
}

/// `"kind":"transition"`: a flight state change (`FlightState.name`s and the reason's name).
public struct FlightTransitionRecord: Codable, Sendable, Hashable {
    public static let kind = "transition"
    public var t: Double?
    public var kind = Self.kind
    public var from: String?
    public var to: String?
    public var reason: String?

    public init(t: Double, from: String, to: String, reason: String) {
        self.t = t
        self.from = from
        self.to = to
        self.reason = reason
    }
}

/// `"kind":"command"` (on every intent change, else at most every 0.1 s): what went to the link.
public struct FlightCommandRecord: Codable, Sendable, Hashable {
    public static let kind = "command"
    public var t: Double?
    public var kind = Self.kind
    public var state: String?
    public var intent: String?
    /// REF bit 9 as sent (in a dry run: as adopted, not as the core wants).
    public var sentFlying: Bool?
    /// Pilot fractions in [−1, 1]; absent when hovering (`hover` true).
    public var roll: Double?
    public var pitch: Double?
    public var gaz: Double?
    public var yaw: Double?
    public var hover: Bool?
    /// Distance to the target, metres, and its bearing relative to the nose, degrees, while following.
    public var dist: Double?
    public var relBearing: Double?
    /// Dry run only: true, and whether the core would have flown.
    public var dryRun: Bool?
    public var wouldFly: Bool?

    enum CodingKeys: String, CodingKey {
        case t, kind, state, intent, sentFlying = "sent_flying", roll, pitch, gaz, yaw, hover, dist
        case relBearing = "rel_bearing", dryRun = "dry_run", wouldFly = "would_fly"
    }

    public init(t: Double, state: String, intent: String, sentFlying: Bool) {
        self.t = t
        self.state = state
        self.intent = intent
        self.sentFlying = sentFlying
    }
}

/// `"kind":"shutdown"`: SIGTERM/SIGINT arrived; the landing starts.
public struct FlightShutdownRecord: Codable, Sendable, Hashable {
    public static let kind = "shutdown"
    public var t: Double?
    public var kind = Self.kind

    public init(t: Double) { self.t = t }
}
