import FollowCore

/// The validated FollowMe configuration, one value per key of `followme.toml`.
///
/// The safety gate: the only ways to get one are ``parse(toml:path:)`` (every key type-checked,
/// range-checked and cross-checked, all problems reported at once) and ``defaults``. Fields are
/// read-only outside this module, so no code can fly on a value that skipped validation.
/// Each key (name, unit, range, default, help, the field it writes) is one row of `ConfigKeys.all`.
/// ``follow`` and ``failsafe`` are the flight core's own parameter structs, which the `[follow]`,
/// `[failsafe]` and `onboard.mount_offset_deg` rows write directly with the core's `ParameterSpec`s;
/// the other tables are the config's own structs. ``defaults`` sets every field a row writes to the
/// row's default; a core field no row writes keeps the core's default. The documented file is
/// `etc/followme.toml`; the key table docs/config-keys.md.
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
    /// `[follow]` and `onboard.mount_offset_deg` as the flight core takes them: the follow geometry and the
    /// control limits sent to the drone. The fields no key writes (`targetFixRateHz`,
    /// `altitudeCeilingMeters`, the expert ones) hold the core's defaults here; ``followParameters`` is
    /// what flies, with those filled in from `[target]` and `[drone]`.
    public internal(set) var follow: FollowParameters
    /// `[failsafe]` (and `follow.takeoff`, as `takeOffOnStart`) as the flight core takes it: staleness
    /// timeouts and safety margins; `minTakeoffBatteryPercent` and `landedConfirmSeconds` at the core's defaults.
    public internal(set) var failsafe: FailsafeParameters
    /// `[log]`: where flight logs go, and how many are kept.
    public internal(set) var log: Log
    /// `[status]`: the live status socket `followme watch` reads.
    public internal(set) var status: Status
    /// `[web]`.
    public internal(set) var web: Web
    /// `[video]`: recording the AR.Drone's camera while it flies (docs/video.md).
    public internal(set) var video: Video = Video()

    /// The config's own tables at placeholders, the core's structs at the core's defaults; only
    /// ``defaults`` starts from here.
    init() {
        (gpsd, target, onboard, drone, mavlink) = (GPSD(), Target(), Onboard(), Drone(), MAVLink())
        (follow, failsafe, log, status, web) = (.defaults, .defaults, Log(), Status(), Web())
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
        /// When the puck's fixes are aged by measurement (`latency_source`); the configured age is
        /// `latency_s`, the core's `FollowParameters.assumedGPSLatencySeconds` (docs/gps-latency.md §3).
        public internal(set) var latencySource: FixAgeMeter.Policy = .auto

        public var endpoint: GPSDEndpoint { GPSDEndpoint(host: host, port: port) }

        /// The fix rate the shortest-standoff rule may count on, Hz: a numeric `rate_hz`, else 1
        /// (what any puck delivers; "max" is only known once gpsd has answered).
        public var assumedFixRateHz: Double {
            if case .hertz(let hz) = rate { return hz }
            return 1
        }
    }

    /// `[onboard]`: the receiver on the drone, which also supplies the heading (gpsd ATT). Its
    /// `mount_offset_deg` is the core's `FollowParameters.mountOffsetDegrees` (``FollowMeConfiguration/follow``),
    /// normalised to [0, 360).
    public struct Onboard: Sendable, Equatable {
        /// Exact gpsd device path of the onboard receiver; `nil` (file: "") = any device on that gpsd.
        public package(set) var device: String? = nil
        /// gpsd host; defaults to `[gpsd] host` (may be a second gpsd running on the drone).
        public internal(set) var host: String = ""
        /// gpsd TCP port; defaults to `[gpsd] port`.
        public internal(set) var port: Int = 0
        /// Fix rate to ask gpsd for. See ``ReceiverRate``.
        public internal(set) var rate: ReceiverRate = .max
        /// When the receiver's fixes are aged by measurement (`latency_source`); the configured age is
        /// `latency_s`, the core's `FollowParameters.assumedOnboardGPSLatencySeconds`.
        public internal(set) var latencySource: FixAgeMeter.Policy = .auto

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

    /// `[follow] takeoff`: when the drone takes off, kept as the core's `FailsafeParameters.takeOffOnStart`.
    public enum TakeOff: String, Sendable, Equatable, CaseIterable {
        /// As soon as every preflight prerequisite holds (every file written before START existed).
        case auto
        /// Only on the operator's START (the cockpit, `followme start`), given when every prerequisite holds.
        case start

        /// How the core keeps it: `takeOffOnStart` is true for "start".
        static let takeOffOnStart = ConfigKey.Conversion<TakeOff, Bool>(
            store: { $0 == .start }, load: { $0 ? .start : .auto })
    }

    /// How far inside the standoff the minimum separation must stay, metres: the flight core's aim
    /// margin (`ControllerTuning.separationMarginMeters`); GPS noise alone moves the measured
    /// distance by about this much, so a tighter margin would trip the separation failsafe at rest.
    public static let separationMarginMeters: Double = ControllerTuning().separationMarginMeters

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

    /// `[video]`: the AR.Drone's camera recorded while the drone flies (docs/video.md §3).
    public struct Video: Sendable, Equatable {
        /// Record while airborne. A file without the key means off (existing installs keep their disk use);
        /// the shipped file turns it on.
        public internal(set) var record = false
        /// Which H.264 stream is recorded.
        public internal(set) var stream: VideoStream = .hd720
        /// The drone's TCP port for it; 0 (the default) = the stream's own (5553 for 720p, 5555 for 360p).
        public internal(set) var port: Int = 0
        /// The recordings' own directory; `nil` (file: "", the default) = `video/` inside `[log] directory`
        /// (``effectiveDirectory(log:)``).
        public internal(set) var directory: String? = nil
        /// At most this many megabytes (10^6 bytes) of recordings in the directory, the current one
        /// included, oldest deleted first with a log line each (0 = no limit).
        public internal(set) var maxTotalMegabytes: Int = 0
        /// Below this many free megabytes on the directory's file system recording stops and says so (0 = no floor).
        public internal(set) var minFreeMegabytes: Int = 0

        /// Where recordings go: `directory`, else `video` inside `[log] directory`, else `out/video`.
        public func effectiveDirectory(log: Log) -> String {
            if let directory { return directory }
            if let logs = log.directory { return (logs.hasSuffix("/") ? logs : logs + "/") + "video" }
            return "out/video"
        }
    }

    /// `[video] stream`: the AR.Drone's 720p recording stream (TCP 5553) or its 360p live stream (TCP 5555).
    public enum VideoStream: String, Sendable, Equatable, CaseIterable {
        case hd720 = "720p"
        case sd360 = "360p"
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
