import Geometry

/// The validated FollowMe configuration, one value per key of `followme.toml`.
///
/// The safety gate: the only ways to get one are ``parse(toml:path:)`` (every key type-checked,
/// range-checked and cross-checked, all problems reported at once) and ``defaults``. Fields are
/// read-only outside this module, so no code can fly on a value that skipped validation.
/// Ranges live next to each field as `…Range` constants; the documented file is `etc/followme.toml`.
public struct FollowMeConfiguration: Sendable, Equatable {
    /// `[gpsd]`: the default gpsd both receivers are read from.
    public internal(set) var gpsd: GPSD
    /// `[target]`: the GPS puck carried by the person the drone follows.
    public package(set) var target: Target
    /// `[onboard]`: the GPS receiver (with compass) riding on the drone.
    public package(set) var onboard: Onboard
    /// `[drone]`: how to reach the AR.Drone 2.0 and its hard limits.
    public internal(set) var drone: Drone
    /// `[follow]`: the follow geometry and the control limits sent to the drone.
    public internal(set) var follow: Follow
    /// `[failsafe]`: staleness timeouts and safety margins.
    public internal(set) var failsafe: Failsafe
    /// `[log]`: the optional flight log.
    public internal(set) var log: Log

    init(gpsd: GPSD, target: Target, onboard: Onboard, drone: Drone, follow: Follow, failsafe: Failsafe, log: Log) {
        self.gpsd = gpsd
        self.target = target
        self.onboard = onboard
        self.drone = drone
        self.follow = follow
        self.failsafe = failsafe
        self.log = log
    }

    /// Every key at its documented per-key default.
    ///
    /// Not flyable on its own: both receivers then read the same gpsd with no device path, which
    /// `parse` rejects (the fixes could not be told apart). The shipped `etc/followme.toml` is these
    /// defaults plus `target.device = "/dev/gpstarget"` and `onboard.device = "/dev/gpsonboard"`.
    /// Flight code must take a configuration from `parse(toml:path:)`.
    public static let defaults = FollowMeConfiguration(
        gpsd: GPSD(host: "127.0.0.1", port: 2947),
        target: Target(device: nil, host: "127.0.0.1", port: 2947),
        onboard: Onboard(device: nil, host: "127.0.0.1", port: 2947, mountOffsetDegrees: 90),
        drone: Drone(address: "192.168.1.1", atPort: 5556, navdataPort: 5554, outdoor: true, altitudeMaxMeters: 10),
        follow: Follow(
            standoffMeters: 11, altitudeMeters: 3, maxTiltDegrees: 20,
            maxYawRateDegreesPerSecond: 120, maxClimbMetersPerSecond: 0.7
        ),
        failsafe: Failsafe(
            targetTimeoutSeconds: 1.5, landAfterSeconds: 10, onboardTimeoutSeconds: 1.5,
            headingTimeoutSeconds: 1.5, navdataTimeoutSeconds: 0.5, minBatteryPercent: 25,
            geofenceMeters: 1000, maxTargetDistanceMeters: 50, minSeparationMeters: 3, gpsRelativeErrorMeters: 4,
            takeOffTimeoutSeconds: 5, climbTimeoutSeconds: 20, lowBatteryConfirmSeconds: 2, criticalBatteryPercent: 15,
            maxEphMeters: 100, maxFixLagSeconds: 1.5
        ),
        log: Log(path: nil)
    )
}

/// A gpsd daemon address: what `gps_open(host, port, …)` takes.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// DNS name, IPv4 or IPv6 address.
    public let host: String
    /// TCP port, 1–65535.
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// True when both name the same daemon. Loopback spellings (`localhost`, `127.x.x.x`, `::1`)
    /// count as one host, and names compare case-insensitively: erring towards "same" only ever
    /// asks for explicit device paths, never lets two receivers be confused.
    func isSameDaemon(as other: GPSDEndpoint) -> Bool {
        guard port == other.port else { return false }
        let a = host.lowercased(), b = other.host.lowercased()
        return a == b || (Self.isLoopback(a) && Self.isLoopback(b))
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Limits that come from gpsd's `gps.h`.
enum GPSDLimits {
    /// Longest device path gpsd can report back: `char path[GPS_PATH_MAX]` with `GPS_PATH_MAX 128`
    /// includes the NUL (gps.h:95, 2245). A longer path could never match a fix's device.
    static let devicePathMaxBytes = 127
    /// TCP/UDP port numbers.
    static let portRange: ClosedRange<Int> = 1...65535
}

extension FollowMeConfiguration {
    /// `[gpsd]`: the gpsd both receivers use unless `[target]` / `[onboard]` name their own.
    public struct GPSD: Sendable, Equatable {
        /// gpsd host (DNS name, IPv4 or IPv6); default "127.0.0.1".
        public internal(set) var host: String
        /// gpsd TCP port, 1–65535; default 2947 (gpsd's `DEFAULT_GPSD_PORT`, docs/gpsd.md §1.1).
        public internal(set) var port: Int

        public var endpoint: GPSDEndpoint { GPSDEndpoint(host: host, port: port) }
    }

    /// `[target]`: the person's GPS puck.
    public struct Target: Sendable, Equatable {
        /// Exact gpsd device path of the puck (e.g. "/dev/gpstarget"); `nil` (file: "") = any device
        /// on that gpsd. gpsd matches paths as strings: a symlink and its target differ (docs/gpsd.md §1.3).
        public package(set) var device: String?
        /// gpsd host; defaults to `[gpsd] host`.
        public internal(set) var host: String
        /// gpsd TCP port; defaults to `[gpsd] port`.
        public internal(set) var port: Int
        /// Fix rate to ask gpsd to run the puck at (`?DEVICE` cycle); default `.max`. See ``ReceiverRate``.
        public internal(set) var rate: ReceiverRate = .max

        public var endpoint: GPSDEndpoint { GPSDEndpoint(host: host, port: port) }

        /// The fix rate the shortest-standoff rule may count on, Hz: a numeric `rate_hz`, else 1
        /// (what any puck delivers; "max" is only known once gpsd has answered).
        public var assumedFixRateHz: Double {
            if case .hertz(let hz) = rate { return hz }
            return 1
        }
    }

    /// `[onboard]`: the receiver on the drone, which also supplies the heading (gpsd ATT).
    public struct Onboard: Sendable, Equatable {
        /// Exact gpsd device path of the onboard receiver; `nil` (file: "") = any device on that gpsd.
        public package(set) var device: String?
        /// gpsd host; defaults to `[gpsd] host` (may be a second gpsd running on the drone).
        public internal(set) var host: String
        /// gpsd TCP port; defaults to `[gpsd] port`.
        public internal(set) var port: Int
        /// Degrees clockwise from the receiver's heading to the drone's nose, normalised to [0, 360).
        /// Drone nose heading = receiver heading + this. Default 90 (receiver mounted sideways).
        public internal(set) var mountOffsetDegrees: Double
        /// Fix rate to ask gpsd for; default `.device` (leave the drone's receiver as its integrator set
        /// it up: it may feed other equipment, and it already runs faster than a puck). See ``ReceiverRate``.
        public internal(set) var rate: ReceiverRate = .device

        public var endpoint: GPSDEndpoint { GPSDEndpoint(host: host, port: port) }
    }

    /// `[drone]`: the AR.Drone 2.0 link and its hard limits.
    public struct Drone: Sendable, Equatable {
        /// Drone IPv4 address or hostname; default "192.168.1.1" (the drone's own access point).
        public internal(set) var address: String
        /// UDP port of the AT command channel; default 5556 (docs/ardrone-protocol.md §1.1, config.h AT_PORT).
        public internal(set) var atPort: Int
        /// UDP port of the navdata channel; default 5554 (docs/ardrone-protocol.md §1.1, config.h NAVDATA_PORT).
        public internal(set) var navdataPort: Int
        /// Selects the drone's outdoor limit set (`control:outdoor`, docs/ardrone-protocol.md §4); default true.
        public internal(set) var outdoor: Bool
        /// Altitude ceiling, metres above take-off, 1–100; default 10. Sent as `control:altitude_max` (mm);
        /// 100 m is the SDK's `no_altitude_limit` (docs/ardrone-protocol.md §4).
        public internal(set) var altitudeMaxMeters: Double

        public static let altitudeMaxMetersRange: ClosedRange<Double> = 1...100

        /// `altitudeMaxMeters` in millimetres, as `control:altitude_max` takes it (int mm).
        public var altitudeMaxMillimeters: Int { Int((altitudeMaxMeters * 1000).rounded()) }
    }

    /// `[follow]`: where the drone flies relative to the person, and how hard it may manoeuvre.
    public struct Follow: Sendable, Equatable {
        /// Horizontal distance kept from the person, metres, 2–50; default 11. At least
        /// `min_separation_m + gps_relative_error_m + 0.5 +` the room a walker heading at the drone
        /// takes before it has backed away to their pace (FollowCore `StoppingModel`,
        /// docs/stopping-model.md §4): 10.34 m with the other defaults.
        public internal(set) var standoffMeters: Double
        /// Flight altitude above take-off, metres, 1–`drone.altitude_max_m`; default 3.
        public internal(set) var altitudeMeters: Double
        /// Maximum tilt (roll/pitch), degrees, 3–30; default 20. Sent as `control:euler_angle_max`, whose
        /// settable range is 0–0.52 rad = 30° (docs/dynamics-and-follow.md §1.1, config_keys.h).
        public internal(set) var maxTiltDegrees: Double
        /// Maximum yaw rate, degrees/second, 40–350; default 120. Sent as `control:control_yaw`;
        /// 40–350 °/s is the SDK's recommended range (docs/ardrone-protocol.md §4).
        public internal(set) var maxYawRateDegreesPerSecond: Double
        /// Maximum climb/descent rate, m/s, 0.2–2.0; default 0.7. Sent as `control:control_vz_max`
        /// (mm/s), recommended 200–2000 mm/s (docs/ardrone-protocol.md §4).
        public internal(set) var maxClimbMetersPerSecond: Double

        public static let standoffMetersRange: ClosedRange<Double> = 2...50
        /// Static bounds; the upper bound is further limited by `drone.altitude_max_m`.
        public static let altitudeMetersRange: ClosedRange<Double> = 1...100
        public static let maxTiltDegreesRange: ClosedRange<Double> = 3...30
        public static let maxYawRateDegreesPerSecondRange: ClosedRange<Double> = 40...350
        public static let maxClimbMetersPerSecondRange: ClosedRange<Double> = 0.2...2.0

        /// `maxTiltDegrees` in radians, as `control:euler_angle_max` takes it.
        public var maxTiltRadians: Double { radians(fromDegrees: maxTiltDegrees) }
        /// `maxYawRateDegreesPerSecond` in rad/s, as `control:control_yaw` takes it.
        public var maxYawRateRadiansPerSecond: Double { radians(fromDegrees: maxYawRateDegreesPerSecond) }
        /// `maxClimbMetersPerSecond` in mm/s, as `control:control_vz_max` takes it.
        public var maxClimbMillimetersPerSecond: Double { maxClimbMetersPerSecond * 1000 }
    }

    /// `[failsafe]`: when telemetry counts as stale and the margins that make the drone hold or land.
    public struct Failsafe: Sendable, Equatable {
        /// Target fix older than this → stop following and hover, seconds, 0.2–10; default 1.5.
        public internal(set) var targetTimeoutSeconds: Double
        /// No target fix for this long → land, seconds, 1–120, > `targetTimeoutSeconds`; default 10.
        public internal(set) var landAfterSeconds: Double
        /// Onboard fix older than this → hover, seconds, 0.2–10; default 1.5.
        public internal(set) var onboardTimeoutSeconds: Double
        /// Onboard heading (gpsd ATT) older than this → hover, seconds, 0.2–10; default 1.5.
        public internal(set) var headingTimeoutSeconds: Double
        /// No navdata for this long → link lost, seconds, 0.1–5; default 0.5. The drone's own com
        /// watchdog fires at 2 s (docs/ardrone-protocol.md §2.2).
        public internal(set) var navdataTimeoutSeconds: Double
        /// Battery at or below this → land, percent, 5–90; default 25 (navdata `vbat_flying_percentage`).
        public internal(set) var minBatteryPercent: Int
        /// Radius of the allowed flight area around the take-off point, metres, 10–2000; default 1000
        /// (the ground unit travels with the person: the fence bounds the area, and a 5-minute jog
        /// must fit). Reaching 90 % of it is a named hold.
        public internal(set) var geofenceMeters: Double
        /// Drone–person distance beyond which the drone stops following and holds (then lands),
        /// metres, 10–500; default 50 (ArduPilot's `FOLL_DIST_MAX` idea; within sight and the Wi-Fi
        /// range of the ground unit the person carries).
        public internal(set) var maxTargetDistanceMeters: Double
        /// Closer than this to the person → back off/hold, metres, 1–(`follow.standoff_m` − 0.5 −
        /// `gpsRelativeErrorMeters`); default 3.
        public internal(set) var minSeparationMeters: Double
        /// How far the two receivers' measured offset may be off the truth, metres, 0–20; default 4.
        /// The drone keeps `minSeparationMeters` + this from the *measured* person.
        public internal(set) var gpsRelativeErrorMeters: Double
        /// Navdata must confirm lift-off (TRANS_TAKEOFF, flying or hovering) this soon after REF
        /// take-off, seconds, 1–30; default 5. Otherwise the take-off is abandoned (landed, no retry).
        public internal(set) var takeOffTimeoutSeconds: Double
        /// Longest climb to `follow.altitude_m` before holding where it got to (then landing after
        /// `land_after_s`), seconds, 5–120; default 20.
        public internal(set) var climbTimeoutSeconds: Double
        /// Battery must stay under `min_battery_pct` this long before the drone lands for it,
        /// seconds, 0–30; default 2 (the reading sags under load).
        public internal(set) var lowBatteryConfirmSeconds: Double
        /// Battery under this lands at once, percent, 0–90; default 15. The lower of this and
        /// `min_battery_pct` applies (so a low `min_battery_pct` needs no second edit).
        public internal(set) var criticalBatteryPercent: Int
        /// Fixes whose gpsd `eph` exceeds this are refused, metres, 5–1000; default 100 (gpsd's `eph`
        /// for NMEA receivers is an HDOP-based guess: ≈ 17 m under open sky).
        public internal(set) var maxEphMeters: Double
        /// A fix whose receiver time lags the stream's clock by more than this is stale (a backlog),
        /// seconds, 0.2–10; default 1.5.
        public internal(set) var maxFixLagSeconds: Double

        public static let targetTimeoutSecondsRange: ClosedRange<Double> = 0.2...10
        public static let landAfterSecondsRange: ClosedRange<Double> = 1...120
        public static let onboardTimeoutSecondsRange: ClosedRange<Double> = 0.2...10
        public static let headingTimeoutSecondsRange: ClosedRange<Double> = 0.2...10
        public static let navdataTimeoutSecondsRange: ClosedRange<Double> = 0.1...5
        public static let minBatteryPercentRange: ClosedRange<Int> = 5...90
        public static let geofenceMetersRange: ClosedRange<Double> = 10...2000
        public static let maxTargetDistanceMetersRange: ClosedRange<Double> = 10...500
        /// Static bounds; the upper bound is further limited to `follow.standoff_m` − ``separationMarginMeters``
        /// − `gps_relative_error_m`.
        public static let minSeparationMetersRange: ClosedRange<Double> = 1...49.5
        public static let gpsRelativeErrorMetersRange: ClosedRange<Double> = 0...20
        public static let takeOffTimeoutSecondsRange: ClosedRange<Double> = 1...30
        public static let climbTimeoutSecondsRange: ClosedRange<Double> = 5...120
        public static let lowBatteryConfirmSecondsRange: ClosedRange<Double> = 0...30
        public static let criticalBatteryPercentRange: ClosedRange<Int> = 0...90
        public static let maxEphMetersRange: ClosedRange<Double> = 5...1000
        public static let maxFixLagSecondsRange: ClosedRange<Double> = 0.2...10
        /// How far inside the standoff the minimum separation must stay, metres: GPS noise alone moves the
        /// measured distance by about this much, so a tighter margin would trip the separation failsafe at rest.
        public static let separationMarginMeters: Double = 0.5
    }

    /// `[log]`: the flight log.
    public struct Log: Sendable, Equatable {
        /// Flight-log file path; `nil` (file: "") = no flight log.
        public internal(set) var path: String?
    }
}

extension FollowMeConfiguration {
    /// `rate_hz`: the fix rate FollowMe asks gpsd to run a receiver at (gpsd `?DEVICE` cycle).
    ///
    /// Asking never fails a flight: a receiver or gpsd driver that cannot change its rate (plain
    /// NMEA, a read-only gpsd) keeps its own, and `followme gps` shows what each receiver delivers.
    public enum ReceiverRate: Sendable, Equatable, CustomStringConvertible {
        /// `"max"`: the fastest rate gpsd reports for the device, at most 10 Hz.
        case max
        /// `"device"`: send nothing; the receiver keeps the rate it is configured for.
        case device
        /// A number: this many fixes per second, 0.5–20 (``hertzRange``); slowed to the device's fastest.
        case hertz(Double)

        /// Our choice: below 0.5 Hz fixes arrive slower than any useful `failsafe.target_timeout_s`
        /// allows; 20 Hz is the fastest consumer GNSS modules navigate (u-blox F9 data sheets).
        public static let hertzRange: ClosedRange<Double> = 0.5...20

        /// The TOML value: `"max"`, `"device"` or the number.
        public var description: String {
            switch self {
            case .max: return "\"max\""
            case .device: return "\"device\""
            case .hertz(let hz): return String(hz)
            }
        }
    }
}
