import Foundation
import FollowCore
import Links

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
    public var t: Double? = nil
    public var kind: String? = nil

    /// Decodes the head of one line; nil if it is not a JSON object (with these two, if present, typed).
    public static func decode(_ line: Data, with decoder: JSONDecoder) -> FlightLogHead? {
        try? decoder.decode(FlightLogHead.self, from: line)
    }
}

/// `"kind":"start"`: the parameters the flight flies with.
public struct FlightStartRecord: Codable, Sendable, Hashable {
    public static let kind = "start"
    public var t: Double? = nil
    public var kind: String = Self.kind
    public var standoffMeters: Double? = nil
    public var altitudeMeters: Double? = nil
    public var minSeparationMeters: Double? = nil
    public var mountOffsetDegrees: Double? = nil
    public var dryRun: Bool? = nil
    /// The followme version that flew (`FollowMeVersion.current`, what `followme --version` prints).
    public var softwareVersion: String? = nil
    /// The config file it flew with, and that config as `followme config check` prints it (every
    /// key, defaults filled in: what flew, even if the file changed since).
    public var configPath: String? = nil
    public var config: String? = nil

    enum CodingKeys: String, CodingKey {
        case t, kind
        case standoffMeters = "standoff_m", altitudeMeters = "altitude_m", minSeparationMeters = "min_separation_m"
        case mountOffsetDegrees = "mount_offset_deg", dryRun = "dry_run"
        case softwareVersion = "software_version", configPath = "config_path", config
    }
}

/// `"kind":"gps"`: one gpsd event as `GPSEventRecord`, with what the follow core made of a fix.
public struct FlightGPSRecord: Codable, Sendable, Hashable {
    public static let kind = "gps"
    public var t: Double? = nil
    public var kind: String = Self.kind
    public var event: GPSEventRecord? = nil
    /// `accepted`, `initialised`, `rejected-outlier`, `ignored-out-of-order`, `ignored-duplicate`, …
    public var verdict: String? = nil

    /// Whether the follow core refused the fix (an outlier, out of order, a duplicate, …).
    public var wasRefused: Bool { Self.refuses(verdict) }

    /// Whether a verdict is a refusal (`rejected-…`, `ignored-…`).
    public static func refuses(_ verdict: String?) -> Bool {
        verdict.map { $0.hasPrefix("rejected") || $0.hasPrefix("ignored") } ?? false
    }
}

/// `"kind":"navdata"` (at most every 0.5 s): the drone's telemetry.
public struct FlightNavdataRecord: Codable, Sendable, Hashable {
    public static let kind = "navdata"
    public var t: Double? = nil
    public var kind: String = Self.kind
    /// The link's packet sequence number, when it has one.
    public var seq: Int? = nil
    /// The flight state (`landed`, `takingOff`, `hovering`, `flying`, `landing`, `unknown`).
    public var flight: String? = nil
    public var battery: Double? = nil
    /// Altitude, metres.
    public var alt: Double? = nil
    /// Yaw, degrees.
    public var yaw: Double? = nil
    /// Body velocity forward / right, m/s.
    public var vx: Double? = nil
    public var vy: Double? = nil
    public var emergency: Bool? = nil
}

/// `"kind":"transition"`: a flight state change (`FlightState.name`s and the reason's name).
public struct FlightTransitionRecord: Codable, Sendable, Hashable {
    public static let kind = "transition"
    public var t: Double? = nil
    public var kind: String = Self.kind
    public var from: String? = nil
    public var to: String? = nil
    public var reason: String? = nil
}

/// `"kind":"command"` (on every intent change, else at most every 0.1 s): what went to the link.
public struct FlightCommandRecord: Codable, Sendable, Hashable {
    public static let kind = "command"
    public var t: Double? = nil
    public var kind: String = Self.kind
    public var state: String? = nil
    public var intent: String? = nil
    /// REF bit 9 as sent (in a dry run: as adopted, not as the core wants).
    public var sentFlying: Bool? = nil
    /// AR.Drone PCMD fractions in [−1, 1]; absent when hovering (`hover` true) and for an autopilot.
    public var roll: Double? = nil
    public var pitch: Double? = nil
    public var gaz: Double? = nil
    public var yaw: Double? = nil
    public var hover: Bool? = nil
    /// The motion the core asked for (`MotionCommand`, every drone): velocity east and north, m/s,
    /// climb, m/s (up), yaw rate, degrees/s (clockwise). Absent when hovering and in older logs.
    public var velocityEast: Double? = nil
    public var velocityNorth: Double? = nil
    public var climb: Double? = nil
    public var yawRate: Double? = nil
    /// Distance to the target, metres, and its bearing relative to the nose, degrees, while following.
    public var dist: Double? = nil
    public var relBearing: Double? = nil
    /// Dry run only: true, and whether the core would have flown.
    public var dryRun: Bool? = nil
    public var wouldFly: Bool? = nil
    /// While airborne: the wind failsafe's fast estimate (`WindMonitor.lastWind`), m/s, the compass
    /// direction the air moves towards, degrees [0, 360), and the share of the tilt authority
    /// c2·sin(max tilt) it takes (1 = full tilt only just holds; docs/stopping-model.md §6).
    /// Absent on the ground and in logs written before they existed.
    public var windMetersPerSecond: Double? = nil
    public var windTowardsDegrees: Double? = nil
    public var windAuthority: Double? = nil

    enum CodingKeys: String, CodingKey {
        case t, kind, state, intent, sentFlying = "sent_flying", roll, pitch, gaz, yaw, hover, dist
        case relBearing = "rel_bearing", dryRun = "dry_run", wouldFly = "would_fly"
        case windMetersPerSecond = "wind_mps", windTowardsDegrees = "wind_towards_deg", windAuthority = "wind_authority"
        case velocityEast = "cmd_ve_mps", velocityNorth = "cmd_vn_mps", climb = "cmd_climb_mps", yawRate = "cmd_yaw_rate_dps"
    }
}

/// `"kind":"shutdown"`: SIGTERM/SIGINT arrived; the landing starts.
public struct FlightShutdownRecord: Codable, Sendable, Hashable {
    public static let kind = "shutdown"
    public var t: Double? = nil
    public var kind: String = Self.kind
}

extension FlightStartRecord: Configurable { public static var defaults: Self { Self() } }
extension FlightGPSRecord: Configurable { public static var defaults: Self { Self() } }
extension FlightNavdataRecord: Configurable { public static var defaults: Self { Self() } }
extension FlightTransitionRecord: Configurable { public static var defaults: Self { Self() } }
extension FlightCommandRecord: Configurable { public static var defaults: Self { Self() } }
extension FlightShutdownRecord: Configurable { public static var defaults: Self { Self() } }
