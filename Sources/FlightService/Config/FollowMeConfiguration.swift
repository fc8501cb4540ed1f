import FollowCore

/// The validated FollowMe configuration, one value per key of `followme.toml`.
///
/// The safety gate: the only ways to get one are ``parse(toml:path:)`` (every key type-checked,
/// range-checked and cross-checked, all problems reported at once) and ``defaults``. Fields are
/// read-only outside this module, so no code can fly on a value that skipped validation.
/// Each key (name, unit, range, default, help, field) is one row of `ConfigKeys.all`; numeric keys the
/// flight core reads take its own `FollowParameters.Spec` / `FailsafeParameters.Spec` (declared once).
/// The stored fields' initial values are placeholders: ``defaults`` sets each to its row's default.
/// The documented file is `etc/followme.toml`; the key table docs/config-keys.md.
public struct FollowMeConfiguration: Sendable, Equatable {
    /// `[gpsd]`: the default gpsd both receivers are read from.
    public internal(set) var gpsd: GPSD
    /// `[target]`: the GPS puck carried by the person the drone follows.
    public package(set) var target: Target
    /// `[onboard]`: the GPS receiver (with compass) riding on the drone.
    public package(set) var onboard: Onboard
    /// `[drone]`: which link flies the drone (`protocol`), how to reach an AR.Drone 2.0, and its hard limits.
    public internal(set) var drone: Drone
    /// `[mavlink]`: how to reach a PX4 or ArduPilot autopilot; read only when `drone.protocol` is
    /// "mavlink" (otherwise it holds the defaults, whatever the file says: see ``unusedKeyNotes``).
    public internal(set) var mavlink: MAVLink
    /// `[follow]`: the follow geometry and the control limits sent to the drone.
    public internal(set) var follow: Follow
    /// `[failsafe]`: staleness timeouts and safety margins.
    public internal(set) var failsafe: Failsafe
    /// `[log]`: where flight logs go, and how many are kept.
    public internal(set) var log: Log
    /// `[status]`: the live status socket `followme watch` reads.
    public internal(set) var status: Status
    /// `[web]`.
    public internal(set) var web: Web

    /// Every field at its placeholder; only ``defaults`` starts from here.
    init() {
        (gpsd, target, onboard, drone, mavlink) = (GPSD(), Target(), Onboard(), Drone(), MAVLink())
        (follow, failsafe, log, status, web) = (Follow(), Failsafe(), Log(), Status(), Web())
    }

    /// Every key at its declared default (its `ConfigKeys` row).
    ///
    /// Not flyable on its own: both receivers then read the same gpsd with no device path, which
    /// `parse` rejects (the fixes could not be told apart). The shipped `etc/followme.toml` is these
    /// defaults plus `target.device = "/dev/gpstarget"` and `onboard.device = "/dev/gpsonboard"`.
    /// Flight code must take a configuration from `parse(toml:path:)`.
    public static let defaults: FollowMeConfiguration = {
        var configuration = FollowMeConfiguration()
        for key in ConfigKeys.all { key.applyDefault(&configuration) }
        return configuration
    }()
}

/// A gpsd daemon address: what `gps_open(host, port, …)` takes.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// DNS name, IPv4 or IPv6 address.
    public let host: String
    /// TCP port, 1–65535.
    public let port: Int

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
        /// gpsd host (DNS name, IPv4 or IPv6).
        public internal(set) var host: String = ""
        /// gpsd TCP port.
        public internal(set) var port: Int = 0

        public var endpoint: GPSDEndpoint { GPSDEndpoint(host: host, port: port) }
    }

    /// `[target]`: the person's GPS puck.
    public struct Target: Sendable, Equatable {
        /// Exact gpsd device path of the puck (e.g. "/dev/gpstarget"); `nil` (file: "") = any device
        /// on that gpsd. gpsd matches paths as strings: a symlink and its target differ (docs/gpsd.md §1.3).
        public package(set) var device: String? = nil
        /// gpsd host; defaults to `[gpsd] host`.
        public internal(set) var host: String = ""
        /// gpsd TCP port; defaults to `[gpsd] port`.
        public internal(set) var port: Int = 0
        /// Fix rate to ask gpsd to run the puck at (`?DEVICE` cycle). See ``ReceiverRate``.
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
        public package(set) var device: String? = nil
        /// gpsd host; defaults to `[gpsd] host` (may be a second gpsd running on the drone).
        public internal(set) var host: String = ""
        /// gpsd TCP port; defaults to `[gpsd] port`.
        public internal(set) var port: Int = 0
        /// Degrees clockwise from the receiver's heading to the drone's nose, normalised to [0, 360).
        /// Drone nose heading = receiver heading + this. Default 90 (receiver mounted sideways).
        public internal(set) var mountOffsetDegrees: Double = 0
        /// Fix rate to ask gpsd for. See ``ReceiverRate``.
        public internal(set) var rate: ReceiverRate = .max

        public var endpoint: GPSDEndpoint { GPSDEndpoint(host: host, port: port) }
    }

    /// `[drone]`: which link flies the drone, the AR.Drone 2.0 link, and the hard limits.
    public struct Drone: Sendable, Equatable {
        /// Which drone link `followme run` flies with. `address`, `at_port`, `navdata_port` and `outdoor` are
        /// the AR.Drone's and unused with `.mavlink`; `altitude_max_m` still caps `follow.altitude_m`.
        public internal(set) var linkProtocol: LinkProtocol = .ardrone
        /// Drone IPv4 address or hostname.
        public internal(set) var address: String = ""
        /// UDP port of the AT command channel.
        public internal(set) var atPort: Int = 0
        /// UDP port of the navdata channel.
        public internal(set) var navdataPort: Int = 0
        /// Selects the drone's outdoor limit set (`control:outdoor`, docs/ardrone-protocol.md §4).
        public internal(set) var outdoor: Bool = false
        /// Altitude ceiling above take-off (`drone.altitude_max_m`'s row in `ConfigKeys`). Sent as `control:altitude_max` (mm).
        public internal(set) var altitudeMaxMeters: Double = 0

        /// `altitudeMaxMeters` in millimetres, as `control:altitude_max` takes it (int mm).
        public var altitudeMaxMillimeters: Int { Int((altitudeMaxMeters * 1000).rounded()) }
    }

    /// `[drone] protocol`: the wire protocol of the drone link.
    public enum LinkProtocol: String, Sendable, Equatable, CaseIterable {
        /// Parrot AR.Drone 2.0: AT commands and navdata over UDP (`[drone]`, docs/ardrone-protocol.md).
        case ardrone
        /// A PX4 or ArduPilot multicopter over MAVLink v2 on UDP (`[mavlink]`, docs/mavlink.md).
        case mavlink
    }

    /// `[follow]`: where the drone flies relative to the person, and how hard it may manoeuvre.
    /// Unit, range and default of each key: `FollowParameters.Spec` (the flight core's, declared once).
    public struct Follow: Sendable, Equatable {
        /// Horizontal distance kept from the person. At least `min_separation_m + gps_relative_error_m +
        /// 0.5 +` the room a walker heading at the drone takes before it has backed away to their pace
        /// (FollowCore `StoppingModel`, docs/stopping-model.md §4): 10.34 m with the other defaults.
        public internal(set) var standoffMeters: Double = 0
        /// Flight altitude above take-off; at most `drone.altitude_max_m`.
        public internal(set) var altitudeMeters: Double = 0
        /// Maximum tilt (roll/pitch). Sent as `control:euler_angle_max`, whose settable range is
        /// 0–0.52 rad = 30° (docs/dynamics-and-follow.md §1.1, config_keys.h).
        public internal(set) var maxTiltDegrees: Double = 0
        /// Maximum yaw rate. Sent as `control:control_yaw`; 40–350 °/s is the SDK's recommended range
        /// (docs/ardrone-protocol.md §4).
        public internal(set) var maxYawRateDegreesPerSecond: Double = 0
        /// Maximum climb/descent rate. Sent as `control:control_vz_max` (mm/s), recommended
        /// 200–2000 mm/s (docs/ardrone-protocol.md §4).
        public internal(set) var maxClimbMetersPerSecond: Double = 0
        /// When the drone takes off: as soon as every preflight prerequisite holds, or on the
        /// operator's START (the cockpit, `followme start`).
        public internal(set) var takeoff: TakeOff = .auto
        /// Where round the person the standoff is kept: `FollowCore.FollowMode`.
        public internal(set) var mode: FollowMode = .leash
        /// `mode = "angle"`: degrees clockwise from the person's direction of travel (PX4 `FLW_TGT_FA`).
        public internal(set) var angleDegrees: Double = 0
        /// The standoff point's speed round the person: the orbit's, the angle mode's bound.
        public internal(set) var orbitSpeedMetersPerSecond: Double = 0
        /// `mode = "orbit"`: which way round, seen from above.
        public internal(set) var orbitDirection: OrbitDirection = .clockwise
        /// Where the nose points while following: at the person, or along the flight (`FollowCore.YawMode`).
        public internal(set) var yaw: YawMode = .facePerson
        /// What `altitudeMeters` is measured from: take-off, or the person (`FollowCore.AltitudeMode`).
        public internal(set) var altitudeMode: AltitudeMode = .takeoff
        /// `altitude_mode = "person"`: the lowest the drone flies above take-off; at most `drone.altitude_max_m`.
        public internal(set) var altitudeMinMeters: Double = 0

        /// `[follow] takeoff`.
        public enum TakeOff: String, Sendable, Equatable, CaseIterable {
            /// As soon as every preflight prerequisite holds (every file written before START existed).
            case auto
            /// Only on the operator's START, given when every prerequisite holds.
            case start
        }

        /// `maxTiltDegrees` in radians, as `control:euler_angle_max` takes it.
        public var maxTiltRadians: Double { radians(fromDegrees: maxTiltDegrees) }
        /// `maxYawRateDegreesPerSecond` in rad/s, as `control:control_yaw` takes it.
        public var maxYawRateRadiansPerSecond: Double { radians(fromDegrees: maxYawRateDegreesPerSecond) }
        /// `maxClimbMetersPerSecond` in mm/s, as `control:control_vz_max` takes it.
        public var maxClimbMillimetersPerSecond: Double { maxClimbMetersPerSecond * 1000 }
    }

    /// `[failsafe]`: when telemetry counts as stale and the margins that make the drone hold or land.
    /// Unit, range and default of each key: `FailsafeParameters.Spec` (the flight core's, declared once).
    public struct Failsafe: Sendable, Equatable {
        /// Target fix older than this → stop following and hover.
        public internal(set) var targetTimeoutSeconds: Double = 0
        /// No target fix for this long → land; longer than `targetTimeoutSeconds`.
        public internal(set) var landAfterSeconds: Double = 0
        /// Onboard fix older than this → hover.
        public internal(set) var onboardTimeoutSeconds: Double = 0
        /// Onboard heading (gpsd ATT) older than this → hover.
        public internal(set) var headingTimeoutSeconds: Double = 0
        /// No navdata for this long → link lost. The drone's own com watchdog fires at 2 s
        /// (docs/ardrone-protocol.md §2.2).
        public internal(set) var navdataTimeoutSeconds: Double = 0
        /// Battery at or below this → land, whole percent (navdata `vbat_flying_percentage`).
        public internal(set) var minBatteryPercent: Int = 0
        /// Radius of the allowed flight area around the take-off point. Reaching 90 % of it is a named hold.
        public internal(set) var geofenceMeters: Double = 0
        /// Drone–person distance beyond which the drone stops following and holds (then lands).
        public internal(set) var maxTargetDistanceMeters: Double = 0
        /// Closer than this to the person → back off/hold; at most `follow.standoff_m` −
        /// ``separationMarginMeters`` − `gpsRelativeErrorMeters`.
        public internal(set) var minSeparationMeters: Double = 0
        /// How far the two receivers' measured offset may be off the truth. The drone keeps
        /// `minSeparationMeters` + this from the *measured* person.
        public internal(set) var gpsRelativeErrorMeters: Double = 0
        /// Navdata must confirm lift-off (TRANS_TAKEOFF, flying or hovering) this soon after REF
        /// take-off. Otherwise the take-off is abandoned (landed, no retry).
        public internal(set) var takeOffTimeoutSeconds: Double = 0
        /// Longest climb to `follow.altitude_m` before holding where it got to (then landing after
        /// `land_after_s`).
        public internal(set) var climbTimeoutSeconds: Double = 0
        /// Battery must stay under `min_battery_pct` this long before the drone lands for it.
        public internal(set) var lowBatteryConfirmSeconds: Double = 0
        /// Battery under this lands at once, whole percent. The lower of this and `min_battery_pct`
        /// applies (so a low `min_battery_pct` needs no second edit).
        public internal(set) var criticalBatteryPercent: Int = 0
        /// Fixes whose gpsd `eph` exceeds this are refused.
        public internal(set) var maxEphMeters: Double = 0
        /// A fix whose receiver time lags the stream's clock by more than this is stale (a backlog).
        public internal(set) var maxFixLagSeconds: Double = 0
        /// A mean wind estimate (metres per second, over `WindMonitor.meanTimeConstantSeconds`) above
        /// this lands the drone; 0 = no fixed limit. The tilt-authority check (`windSaturationSeconds`)
        /// applies either way.
        public internal(set) var maxWindMetersPerSecond: Double = 0
        /// Seconds the wind estimate may sit at the edge of what full tilt can fight before the drone
        /// lands: past that it is being blown, not flown. Counted on `WindMonitor`'s leaky clock (up
        /// while saturated, back down at `WindMonitor.saturationLeak` of that rate while not).
        public internal(set) var windSaturationSeconds: Double = 0

        /// How far inside the standoff the minimum separation must stay, metres: the flight core's aim
        /// margin (`ControllerTuning.separationMarginMeters`); GPS noise alone moves the measured
        /// distance by about this much, so a tighter margin would trip the separation failsafe at rest.
        public static let separationMarginMeters: Double = ControllerTuning().separationMarginMeters
    }

    /// `[log]`: the flight log: one file per flight in `directory`, or every flight appended to `path`.
    public struct Log: Sendable, Equatable {
        /// A fixed flight-log file every flight appends to; `nil` (file: "", the default) = none.
        /// When set it wins over `directory`, and retention does not apply to it.
        public internal(set) var path: String? = nil
        /// The directory that gets one new flight log per flight, named by its UTC start second
        /// (`2026-11-23T101500Z.jsonl`); `nil` (file: "") = none. Default `defaultDirectory`
        /// (relative to where followme runs; the installed config says /var/log/followme).
        public internal(set) var directory: String? = nil
        /// At most this many flight logs in `directory`, the current one included; the oldest are
        /// removed when a flight starts (0 = no limit).
        public internal(set) var maxFlights: Int = 0
        /// At most this many megabytes (10^6 bytes) of flight logs in `directory`, oldest removed
        /// first, never the current flight's (0 = no limit).
        public internal(set) var maxTotalMegabytes: Int = 0

        /// Our choice: `out/` is where the demo and the benches write, and git ignores it.
        public static let defaultDirectory = "out/flights"
    }

    /// `[status]`: the read-only Unix socket a running `followme run` publishes its status on
    /// (about 4 times a second) for `followme watch`.
    public struct Status: Sendable, Equatable {
        /// The socket's path; "" (the default) = no socket. `followme run --status-socket` overrides it.
        public internal(set) var socketPath: String = ""
    }

    /// `[web]`: the phone cockpit `followme run` serves (the state, the plan view, HOLD/RESUME/LAND/START).
    public struct Web: Sendable, Equatable {
        /// `HOST:PORT` to serve on ("0.0.0.0:8080", "[::]:8080"); "" (the default) = no cockpit.
        public internal(set) var listen: String = ""
        /// Accept LAND without the pairing code (every other command needs it).
        public internal(set) var landWithoutCode = false
        /// A root-only file holding a fixed pairing code; "" (the default) = a new code at every start,
        /// printed by `followme run` and in the journal.
        public internal(set) var codeFile: String? = nil
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
