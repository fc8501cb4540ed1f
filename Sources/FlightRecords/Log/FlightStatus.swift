import Foundation
import FollowCore

/// What a running flight looks like right now: the snapshot `followme run` builds every 0.25 s
/// and hands to its terminal status line and to the read-only status socket
/// (`followme run --status-socket PATH`, `[status] socket`), where `followme watch` reads it.
///
/// One JSON object per line on the socket (`followme watch --json` prints them). The keys are an
/// interface for scripts: snake_case with the unit in the name, absent values omitted. Times are
/// the flight loop's monotonic seconds (`t`, the same clock as the flight log's `t`); ages are
/// seconds before `t`.
public struct FlightStatus: SortedJSONLine, Sendable, Hashable {
    /// The flight loop's monotonic time when the snapshot was built, seconds.
    public var t: Double = 0
    /// Seconds since `followme run` started its flight loop.
    public var flightSeconds: Double = 0
    /// The flight state's name, with its reason for holds and landings (`holding(target-stale)`).
    public var state: String = ""
    /// The reason of the transition into `state` (`prerequisites-met`, `hold:target-stale`), if any.
    public var reason: String?
    /// Monotonic time of that transition, seconds.
    public var stateSinceT: Double?
    /// A dry run (`--no-takeoff`): nothing is sent that would move the drone.
    public var dryRun: Bool = false
    /// The standoff the drone keeps from the person, metres.
    public var standoffMeters: Double?
    /// The drone to the person, from the latest fix of each receiver.
    public var person: PersonBearing?
    /// The person's receiver (the target) and the drone's (onboard).
    public var target: ReceiverStatus?
    public var onboard: ReceiverStatus?
    /// How old each receiver's latest fix was on arrival, milliseconds, as the flight dated it; its
    /// source, `clock` (measured) or `config`; and which samples, or why not measured
    /// (docs/gps-latency.md §3). Absent before the receiver's first fix.
    public var targetLatencyMilliseconds: Double?
    public var targetLatencySource: String?
    public var targetLatencyReason: String?
    public var onboardLatencyMilliseconds: Double?
    public var onboardLatencySource: String?
    public var onboardLatencyReason: String?
    /// The drone's nose heading, degrees clockwise from true north [0, 360).
    public var headingDegrees: Double?
    /// Seconds since the last heading report from the onboard receiver.
    public var headingAgeSeconds: Double?
    /// The drone's navdata: altitude above ground (metres), battery (%), its own flight state.
    public var altitudeMeters: Double?
    public var batteryPercent: Double?
    public var droneState: String?
    public var emergency: Bool?
    /// Seconds since the last navdata.
    public var navdataAgeSeconds: Double?
    /// Accepted navdata per second over the link's last statistics interval (about 1 s).
    public var navdataHertz: Double?
    /// AT commands sent per second over the link's last statistics interval.
    public var commandsPerSecond: Double?
    /// The wind the failsafe sees, while airborne (absent on the ground).
    public var wind: Wind?
    /// The most recent transitions, oldest first (at most `FlightStatus.transitionsKept`).
    public var transitions: [Transition] = []
    /// In preflight: the prerequisites not met yet (`heading`, `navdata`, `start`, …), each by name.
    public var waiting: [String]?
    /// The closest the drone may come to the person (`[failsafe] min_separation_m`), metres.
    public var minSeparationMeters: Double?
    /// The geofence radius around home (`[failsafe] geofence_m`), metres.
    public var geofenceMeters: Double?
    /// The take-off (or adoption) point, the geofence's centre; absent before take-off.
    public var home: Position?
    /// `"auto"` or `"start"` (`[follow] takeoff`): whether the flight waits for the operator's START.
    public var takeoff: String?
    /// The latest operator command (HOLD, RESUME, LAND, START), its source and what it got.
    public var operatorCommand: OperatorCommandStatus?
    /// Where round the person the drone follows now: the configured mode, or the operator's change.
    public var follow: FollowModeStatus?
    /// The vehicle's camera as the link drives it: `none` (no camera FollowMe can drive), `ready`, `recording`,
    /// `stopped`, `refused` (`CameraRecordingState`); absent before the link knows (and on an AR.Drone).
    public var camera: String?
    /// Why, for a person (what the camera answered).
    public var cameraReason: String?
    /// Monotonic time the camera entered `camera`'s state, seconds (the link's report of it, the flight
    /// log's clock); absent with `camera`.
    public var cameraSinceT: Double?
    /// How long the current recording has run, seconds (`t` − `camera_since_t`): present only while
    /// `camera` is `recording`.
    public var cameraRecordingSeconds: Double?

    /// How many transitions a snapshot carries: our choice, what fits a 24-line terminal.
    public static let transitionsKept = 8

    public init() {}

    /// Bearing and distance from the drone's receiver to the person's.
    public struct PersonBearing: Codable, Sendable, Hashable {
        /// Horizontal distance, metres.
        public var distanceMeters: Double = 0
        /// Compass bearing from the drone to the person, degrees clockwise from true north [0, 360).
        public var bearingDegrees: Double = 0
        /// The person relative to the drone's nose, degrees (−180, 180], positive to the right.
        public var relativeBearingDegrees: Double?

        enum CodingKeys: String, CodingKey {
            case distanceMeters = "distance_m", bearingDegrees = "bearing_deg", relativeBearingDegrees = "relative_bearing_deg"
        }
    }

    /// One receiver's latest fix (or why there is none).
    public struct ReceiverStatus: Codable, Sendable, Hashable {
        /// gpsd's fix mode of the latest fix (2 or 3), if there was one.
        public var mode: Int? = nil
        /// gpsd's horizontal error estimate of the latest fix, metres.
        public var ephMeters: Double?
        /// Seconds since the latest fix arrived.
        public var ageSeconds: Double?
        public var latitudeDegrees: Double?
        public var longitudeDegrees: Double?
        /// Why the receiver reports no fix now (`no-fix`, `device-gone`, …), nil while it delivers.
        public var lost: String?
        /// From the receiver's latest gpsd SKY: satellites used in the solution and in view, and the
        /// horizontal dilution of precision (nil until a SKY said so).
        public var satellitesUsed: Int?
        public var satellitesVisible: Int?
        public var hdop: Double?

        enum CodingKeys: String, CodingKey {
            case mode, ephMeters = "eph_m", ageSeconds = "age_s", latitudeDegrees = "lat", longitudeDegrees = "lon", lost
            case satellitesUsed = "sats_used", satellitesVisible = "sats_seen", hdop
        }
    }

    /// The wind failsafe's view (FollowCore `WindMonitor`, docs/stopping-model.md §6): the flight
    /// log's three command-line fields and the saturation clock.
    public struct Wind: Codable, Sendable, Hashable {
        /// The fast wind estimate, m/s.
        public var windMetersPerSecond: Double = 0
        /// Where the air moves towards, compass degrees [0, 360).
        public var windTowardsDegrees: Double = 0
        /// Share of the tilt authority c2·sin(max tilt) the estimate takes (1 = full tilt only just holds).
        public var windAuthority: Double = 0
        /// The saturation clock, seconds: counts up while full tilt loses ground; at
        /// `[failsafe] wind_saturation_s` the drone lands. Runs back down at half speed once the wind is
        /// within reach again (a leaky clock), so it reaches 0 only after a while.
        public var saturatedSeconds: Double = 0

        /// Share of the authority from which the watch screen warns: our choice, well before the
        /// failsafe's 95 % (`WindMonitor.saturationFraction`), so a person sees it coming.
        public static let warningAuthority = 0.8
        /// Share from which the one-line status mentions the wind: our choice, half the authority
        /// (below it the wind costs the follower little; the line stays short).
        public static let statusLineAuthority = 0.5

        /// Whether the screen shows the wind as a warning: near the tilt limit, or saturating.
        public var isWarning: Bool { windAuthority >= Self.warningAuthority || saturatedSeconds > 0 }

        enum CodingKeys: String, CodingKey {
            case windMetersPerSecond = "wind_mps", windTowardsDegrees = "wind_towards_deg", windAuthority = "wind_authority"
            case saturatedSeconds = "saturated_s"
        }
    }

    /// A point on the globe, degrees.
    public struct Position: Codable, Sendable, Hashable {
        public var latitudeDegrees: Double = 0
        public var longitudeDegrees: Double = 0

        enum CodingKeys: String, CodingKey { case latitudeDegrees = "lat", longitudeDegrees = "lon" }
    }

    /// An operator's command as the flight took it.
    public struct OperatorCommandStatus: Codable, Sendable, Hashable {
        /// Monotonic time it arrived, seconds.
        public var t: Double = 0
        /// `hold`, `resume`, `land`, `start`.
        public var command: String = ""
        /// Where it came from (`cli uid=1000`, `web 192.0.2.7`, `watch uid=1000`).
        public var source: String = ""
        /// `accepted`, `already`, `refused:<state>`, `refused:waiting <prerequisites>` (`OperatorCommand.Outcome`).
        public var outcome: String = ""
    }

    /// The follow mode in use (`[follow] mode`, changed in flight by `followme mode` or the cockpit).
    public struct FollowModeStatus: Codable, Sendable, Hashable {
        /// `leash`, `angle`, `orbit`.
        public var mode: String = ""
        /// The angle mode's angle from the person's direction of travel, degrees (0 in front, 180 behind).
        public var angleDegrees: Double = 0
        /// The orbit's sense: `clockwise`, `counterclockwise`.
        public var orbitDirection: String = ""

        enum CodingKeys: String, CodingKey {
            case mode, angleDegrees = "angle_deg", orbitDirection = "orbit_direction"
        }

        /// The screens' words: `leash`, `angle 90°`, `orbit clockwise`.
        public var summary: String {
            switch mode {
            case "angle": "angle \(Int(angleDegrees.rounded()))°"
            case "orbit": "orbit \(orbitDirection)"
            default: mode
            }
        }
    }

    /// One flight state transition.
    public struct Transition: Codable, Sendable, Hashable {
        /// Monotonic time, seconds (the flight log's `t`).
        public var t: Double = 0
        public var from: String = ""
        public var to: String = ""
        public var reason: String = ""
    }

    enum CodingKeys: String, CodingKey {
        case t, flightSeconds = "flight_s", state, reason, stateSinceT = "state_since_t", dryRun = "dry_run"
        case standoffMeters = "standoff_m", person, target, onboard
        case targetLatencyMilliseconds = "target_latency_ms", targetLatencySource = "target_latency_source"
        case targetLatencyReason = "target_latency_reason"
        case onboardLatencyMilliseconds = "onboard_latency_ms", onboardLatencySource = "onboard_latency_source"
        case onboardLatencyReason = "onboard_latency_reason"
        case headingDegrees = "heading_deg", headingAgeSeconds = "heading_age_s"
        case altitudeMeters = "altitude_m", batteryPercent = "battery_pct", droneState = "drone_state", emergency
        case navdataAgeSeconds = "navdata_age_s", navdataHertz = "navdata_hz", commandsPerSecond = "commands_per_s"
        case transitions, wind, waiting, minSeparationMeters = "min_separation_m", geofenceMeters = "geofence_m", home
        case takeoff, operatorCommand = "operator", follow, camera, cameraReason = "camera_reason"
        case cameraSinceT = "camera_since_t", cameraRecordingSeconds = "camera_recording_s"
    }

    /// The one-line terminal status of `followme run` (stderr on a terminal), without control characters.
    public var statusLine: String {
        var s = state
        if let p = person { s += String(format: " | dist %.1fm", p.distanceMeters) }
        func age(_ r: ReceiverStatus?) -> String { r?.ageSeconds.map { String(format: "%.1fs", $0) } ?? "-" }
        s += " | target \(age(target)) | onboard \(age(onboard))"
        if let b = batteryPercent, let a = altitudeMeters { s += String(format: " | batt %.0f%% alt %.1fm", b, a) }
        if let w = wind, w.windAuthority >= Wind.statusLineAuthority {
            s += String(format: " | wind %.1fm/s %.0f%%", w.windMetersPerSecond, w.windAuthority * 100)
        }
        return s
    }

    /// Decodes one line of the status socket; nil if it is not a status object.
    public static func decode(jsonLine: some StringProtocol) -> FlightStatus? { decodeLine(jsonLine) }
}

/// Built by the flight (FlightService `FlightStatusTracker`) field by field: `FlightStatus.Wind { $0.windAuthority = … }`.
extension FlightStatus.PersonBearing: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus.ReceiverStatus: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus.Wind: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus.Transition: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus.Position: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus.OperatorCommandStatus: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus.FollowModeStatus: Configurable { public static var defaults: Self { Self() } }
extension FlightStatus: Configurable { public static var defaults: Self { Self() } }
