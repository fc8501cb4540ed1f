/// How to reach one AR.Drone 2.0 and what the link writes to it at start.
///
/// The only way to get one is the throwing initializer, which checks every field against the
/// range documented next to it, so a link never runs on a value that skipped validation.
public struct DroneLinkConfiguration: Sendable, Equatable {
    /// Drone IPv4/IPv6 address or host name; default "192.168.1.1" (the drone's own access point,
    /// docs/ardrone-protocol.md §1.1).
    public let address: String
    /// Drone UDP port for AT commands, 1–65535; default 5556 (`AT_PORT`, ARDroneLib `config.h`).
    public let atPort: Int
    /// Drone UDP port for navdata, 1–65535, not `atPort`; default 5554 (`NAVDATA_PORT`, `config.h`).
    public let navdataPort: Int
    /// Seconds between two AT datagrams, 0.01–0.05; default 0.030. The guide asks for a command every
    /// 30 ms for "satisfying control" (yumpu p.35); node-ar-drone and go-ardrone use 30 ms, the SDK
    /// 20 ms (`ARDRONE_REFRESH_MS`); docs/ardrone-protocol.md §9.2 caps it at 50 ms.
    public let tickIntervalSeconds: Double
    /// Navdata silence after which the link reports navdata lost and re-sends the 5554 trigger,
    /// seconds, 0.1–2; default 1 (SDK `SO_RCVTIMEO` 1 s in `ardrone_navdata_client.c`; node-ar-drone
    /// uses 100 ms). Must stay below the drone's 2 s com watchdog (docs/ardrone-protocol.md §2.2).
    public let navdataSilenceSeconds: Double
    /// How long to wait for state bit 6 (command ACK) after an `AT*CONFIG`, seconds, 0.05–5;
    /// default 0.5 (node-ar-drone `UdpControl` default ACK timeout).
    public let configAcknowledgementTimeoutSeconds: Double
    /// How many times one `AT*CONFIG` is sent before the link gives up on it, 1–20; default 3.
    public let configMaxAttempts: Int
    /// The three ids sent in `AT*CONFIG_IDS` before every `AT*CONFIG` (SDK
    /// `ardrone_at_set_toy_configuration_ids`).
    public let configurationIDs: ConfigurationIDs
    /// `general:navdata_options` bit mask written after `general:navdata_demo`; `nil` (default) = leave
    /// the drone's default 65537 (demo + vision detect, `config_keys.h`). 138412033 adds magneto (22)
    /// and GPS (27), docs/ardrone-protocol.md §1.3.
    public let navdataOptionsMask: UInt32?
    /// Flight limits written once at start, after the navdata bootstrap.
    public let limits: FlightLimits
    /// Seconds between two `.statistics` events, 0.1–60; default 1.
    public let statisticsIntervalSeconds: Double
    /// The writes that choose the video stream and camera (`video:video_codec`, `video:video_channel`,
    /// docs/video.md §2), sent after the limits and acknowledged like them; empty (default) = none.
    public let videoWrites: [ConfigurationWrite]

    public static let portRange: ClosedRange<Int> = 1...65535
    public static let tickIntervalSecondsRange: ClosedRange<Double> = 0.01...0.05
    public static let navdataSilenceSecondsRange: ClosedRange<Double> = 0.1...2
    public static let configAcknowledgementTimeoutSecondsRange: ClosedRange<Double> = 0.05...5
    public static let configMaxAttemptsRange: ClosedRange<Int> = 1...20
    public static let statisticsIntervalSecondsRange: ClosedRange<Double> = 0.1...60

    public init(
        address: String = "192.168.1.1",
        atPort: Int = 5556,
        navdataPort: Int = 5554,
        tickIntervalSeconds: Double = 0.030,
        navdataSilenceSeconds: Double = 1.0,
        configAcknowledgementTimeoutSeconds: Double = 0.5,
        configMaxAttempts: Int = 3,
        configurationIDs: ConfigurationIDs = .sdkDefault,
        navdataOptionsMask: UInt32? = nil,
        limits: FlightLimits,
        statisticsIntervalSeconds: Double = 1.0,
        videoWrites: [ConfigurationWrite] = []
    ) throws(DroneLinkConfigurationError) {
        guard !address.isEmpty else { throw .emptyAddress }
        self.address = address
        self.atPort = try Self.checked("atPort", atPort, Self.portRange)
        self.navdataPort = try Self.checked("navdataPort", navdataPort, Self.portRange)
        guard atPort != navdataPort else { throw .samePorts(port: atPort) }
        self.tickIntervalSeconds = try Self.checked("tickIntervalSeconds", tickIntervalSeconds,
                                                    Self.tickIntervalSecondsRange)
        self.navdataSilenceSeconds = try Self.checked("navdataSilenceSeconds", navdataSilenceSeconds,
                                                      Self.navdataSilenceSecondsRange)
        self.configAcknowledgementTimeoutSeconds = try Self.checked(
            "configAcknowledgementTimeoutSeconds", configAcknowledgementTimeoutSeconds,
            Self.configAcknowledgementTimeoutSecondsRange)
        self.configMaxAttempts = try Self.checked("configMaxAttempts", configMaxAttempts, Self.configMaxAttemptsRange)
        self.configurationIDs = configurationIDs
        self.navdataOptionsMask = navdataOptionsMask
        self.limits = limits
        self.statisticsIntervalSeconds = try Self.checked("statisticsIntervalSeconds", statisticsIntervalSeconds,
                                                          Self.statisticsIntervalSecondsRange)
        self.videoWrites = videoWrites
    }

    /// `value` if it is finite and in `range`; else `.outOfRange` naming `field`.
    static func checked(
        _ field: String, _ value: Double, _ range: ClosedRange<Double>
    ) throws(DroneLinkConfigurationError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw .outOfRange(field: field, value: value, range: range)
        }
        return value
    }

    /// `value` if it is in `range`; else `.outOfRange` naming `field`.
    static func checked(_ field: String, _ value: Int, _ range: ClosedRange<Int>) throws(DroneLinkConfigurationError) -> Int {
        guard range.contains(value) else {
            throw .outOfRange(field: field, value: Double(value),
                              range: Double(range.lowerBound)...Double(range.upperBound))
        }
        return value
    }
}

/// The flight limits the link writes with `AT*CONFIG` at start (docs/ardrone-protocol.md §4).
///
/// Written in this order, one at a time: `control:outdoor` first, because a limit written before it
/// lands in the wrong (indoor/outdoor) parameter set and is overwritten when the set changes
/// (ardrone_autonomy `snippet_configure_drone.h`); then `control:flight_without_shell` (if set),
/// `control:euler_angle_max`, `control:control_vz_max`, `control:control_yaw`, `control:altitude_max`.
public struct FlightLimits: Sendable, Equatable {
    /// `control:outdoor`: use the outdoor limit set.
    public let outdoor: Bool
    /// `control:flight_without_shell` (outdoor hull); `nil` = not written.
    public let flightWithoutShell: Bool?
    /// `control:euler_angle_max`: maximum tilt, radians, (0, 30°]; SDK default 0.2094 (12°). PCMD
    /// roll/pitch ±1 map to ± this. 30° is the settable maximum (YADrone javadoc, unverified).
    public let eulerAngleMaxRadians: Double
    /// `control:control_vz_max`: maximum vertical speed, mm/s, 200–2000 (YADrone "Recommanded values");
    /// SDK default 700. PCMD gaz ±1 maps to ± this.
    public let controlVzMaxMillimetersPerSecond: Double
    /// `control:control_yaw`: maximum yaw rate, rad/s, 40°/s–350°/s (YADrone clamps 0.7–6.11 rad/s);
    /// SDK default 1.745 (100°/s). PCMD yaw ±1 maps to ± this.
    public let controlYawRadiansPerSecond: Double
    /// `control:altitude_max`: ceiling, mm, 1000–100000 (100000 = `no_altitude_limit`, `config_keys.h`);
    /// SDK default 3000.
    public let altitudeMaxMillimeters: Int

    /// 30° in radians.
    public static let eulerAngleMaxRadiansRange: ClosedRange<Double> = 0.000_001...(30 * Double.pi / 180)
    public static let controlVzMaxMillimetersPerSecondRange: ClosedRange<Double> = 200...2000
    /// 40°/s...350°/s in rad/s.
    public static let controlYawRadiansPerSecondRange: ClosedRange<Double> = (40 * Double.pi / 180)...(350 * Double.pi / 180)
    public static let altitudeMaxMillimetersRange: ClosedRange<Int> = 1000...100_000

    public init(
        outdoor: Bool,
        flightWithoutShell: Bool? = nil,
        eulerAngleMaxRadians: Double,
        controlVzMaxMillimetersPerSecond: Double,
        controlYawRadiansPerSecond: Double,
        altitudeMaxMillimeters: Int
    ) throws(DroneLinkConfigurationError) {
        self.outdoor = outdoor
        self.flightWithoutShell = flightWithoutShell
        self.eulerAngleMaxRadians = try DroneLinkConfiguration.checked(
            "eulerAngleMaxRadians", eulerAngleMaxRadians, Self.eulerAngleMaxRadiansRange)
        self.controlVzMaxMillimetersPerSecond = try DroneLinkConfiguration.checked(
            "controlVzMaxMillimetersPerSecond", controlVzMaxMillimetersPerSecond, Self.controlVzMaxMillimetersPerSecondRange)
        self.controlYawRadiansPerSecond = try DroneLinkConfiguration.checked(
            "controlYawRadiansPerSecond", controlYawRadiansPerSecond, Self.controlYawRadiansPerSecondRange)
        self.altitudeMaxMillimeters = try DroneLinkConfiguration.checked(
            "altitudeMaxMillimeters", altitudeMaxMillimeters, Self.altitudeMaxMillimetersRange)
    }

    /// The `(key, value)` writes in the order they must be sent; values are the strings the SDK's
    /// `ARDRONE_CONFIG_KEY_IMM` macro produces: booleans `TRUE`/`FALSE`, ints `%d`, floats `%f`
    /// (docs/ardrone-protocol.md §2.3 "values are strings").
    public var configurationWrites: [ConfigurationWrite] {
        var writes = [ConfigurationWrite(key: "control:outdoor", value: ConfigurationValue.boolean(outdoor))]
        if let flightWithoutShell {
            writes.append(ConfigurationWrite(key: "control:flight_without_shell",
                                             value: ConfigurationValue.boolean(flightWithoutShell)))
        }
        writes.append(ConfigurationWrite(key: "control:euler_angle_max",
                                         value: ConfigurationValue.float(Float(eulerAngleMaxRadians))))
        writes.append(ConfigurationWrite(key: "control:control_vz_max",
                                         value: ConfigurationValue.float(Float(controlVzMaxMillimetersPerSecond))))
        writes.append(ConfigurationWrite(key: "control:control_yaw",
                                         value: ConfigurationValue.float(Float(controlYawRadiansPerSecond))))
        writes.append(ConfigurationWrite(key: "control:altitude_max",
                                         value: ConfigurationValue.integer(altitudeMaxMillimeters)))
        return writes
    }
}

/// The ids of `AT*CONFIG_IDS=<seq>,"<session>","<user>","<application>"`.
///
/// Each is 8 lowercase hex digits (SDK `ardrone_gen_ids.c`); the SDK's defaults are "00000000"
/// (`ardrone_tool.c`). Whether the drone rejects CAT_USER keys (euler_angle_max, control_vz_max,
/// control_yaw) without a matching session is unverified (docs/ardrone-protocol.md §2.3).
public struct ConfigurationIDs: Sendable, Equatable {
    public let sessionID: String
    public let userID: String
    public let applicationID: String

    /// All three "00000000".
    public static let sdkDefault = ConfigurationIDs(uncheckedSession: "00000000", user: "00000000", application: "00000000")

    /// - Throws: `.invalidConfigurationID` unless each id is exactly 8 hex digits.
    public init(sessionID: String, userID: String, applicationID: String) throws(DroneLinkConfigurationError) {
        for (name, id) in [("sessionID", sessionID), ("userID", userID), ("applicationID", applicationID)] {
            guard id.utf8.count == 8, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) })
            else { throw .invalidConfigurationID(field: name, value: id) }
        }
        self.init(uncheckedSession: sessionID, user: userID, application: applicationID)
    }

    private init(uncheckedSession: String, user: String, application: String) {
        sessionID = uncheckedSession
        userID = user
        applicationID = application
    }
}

/// Why a `DroneLinkConfiguration` or `FlightLimits` could not be built.
public enum DroneLinkConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyAddress
    case outOfRange(field: String, value: Double, range: ClosedRange<Double>)
    case samePorts(port: Int)
    case invalidConfigurationID(field: String, value: String)

    public var description: String {
        switch self {
        case .emptyAddress:
            "drone address is empty"
        case .outOfRange(let field, let value, let range):
            "\(field) = \(value) is outside \(range.lowerBound)...\(range.upperBound)"
        case .samePorts(let port):
            "AT port and navdata port are both \(port)"
        case .invalidConfigurationID(let field, let value):
            "\(field) \"\(value)\" is not 8 hex digits"
        }
    }
}
