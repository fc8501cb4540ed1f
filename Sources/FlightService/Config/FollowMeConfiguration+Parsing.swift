import FollowCore
import TOMLKit

extension FollowMeConfiguration {
    /// Parses and validates a `followme.toml` document. All validation lives here.
    ///
    /// Every key is optional (absent → its default). Checks types (an integer is accepted where a
    /// float is expected, not the reverse), ranges (NaN and ±inf are always out of range), string
    /// contents, unknown tables and keys (with a "did you mean"), and the cross-field rules. It does
    /// not stop at the first problem: all of them are thrown together, in line order.
    ///
    /// - Parameters:
    ///   - text: the file's contents (the shell reads the file).
    ///   - path: the file's path, used only in messages (`FILE:LINE: KEY: message`).
    /// - Throws: ``ConfigProblems`` with at least one problem; a TOML syntax error is reported alone,
    ///   since nothing after it can be trusted.
    public static func parse(toml text: String, path: String) throws(ConfigProblems) -> FollowMeConfiguration {
        try check(toml: text, path: path).configuration
    }

    /// ``parse(toml:path:)``, plus the keys the file sets that this configuration does not use (a
    /// `[mavlink]` port in an AR.Drone file): valid, so not problems, but `config check` says so.
    ///
    /// - Returns: the configuration and the unused keys in line order, each `FILE:LINE: KEY: why`.
    public static func check(toml text: String, path: String) throws(ConfigProblems)
        -> (configuration: FollowMeConfiguration, unusedKeys: [ConfigNote]) {
        let root = try parseTOML(text, path: path)
        var reader = ConfigReader(path: path, root: root, locator: TOMLLineLocator(text: text))
        reader.checkStructure()
        let (configuration, mavlinkAsWritten) = read(&reader)
        checkCrossFieldRules(configuration, &reader)
        guard reader.problems.isEmpty else { throw ConfigProblems(problems: reader.problems) }
        return (configuration, unusedKeys(configuration, mavlinkAsWritten: mavlinkAsWritten, reader))
    }

    private static func parseTOML(_ text: String, path: String) throws(ConfigProblems) -> TOMLTable {
        // TOMLKit hands the text to C++ as a C string, which would silently end at a NUL.
        if let nul = text.utf8.firstIndex(of: 0) {
            let before = text.utf8[..<nul]
            let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { text.utf8.index(after: $0) }
                ?? text.utf8.startIndex
            let column = text.utf8.distance(from: lineStart, to: nul) + 1
            throw ConfigProblems(problems: [
                .syntax(path: path, line: line, column: column, message: "NUL character (is this a binary file?)")
            ])
        }
        // toml++ aborts the process on `[=]`, `[é]` or `[}]` (see TOMLParserGuard).
        if let crash = TOMLParserGuard.crashingConstruct(in: text) {
            throw ConfigProblems(problems: [
                .syntax(path: path, line: crash.line, column: crash.column, message: crash.message)
            ])
        }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigProblems(problems: [
                .syntax(path: path, line: error.source.begin.line, column: error.source.begin.column,
                        message: error.description)
            ])
        } catch {
            throw ConfigProblems(problems: [.unreadable(path: path, reason: "TOML parser failed: \(error)")])
        }
    }

    // MARK: Per-key types, defaults and ranges

    /// The configuration, and `[mavlink]` as the file writes it (the configuration holds the
    /// defaults there unless `drone.protocol` is "mavlink").
    private static func read(_ r: inout ConfigReader) -> (FollowMeConfiguration, mavlinkAsWritten: MAVLink) {
        let d = FollowMeConfiguration.defaults
        let port = GPSDLimits.portRange

        let gpsdHost = r.string("gpsd", "host", default: d.gpsd.host) { hostProblem($0, allowIPv6: true) }
        let gpsdPort = r.int("gpsd", "port", default: d.gpsd.port, range: port)
        let gpsd = GPSD(host: gpsdHost, port: gpsdPort)

        let target = Target(
            device: nilIfEmpty(r.string("target", "device", default: "", problem: deviceProblem)),
            host: r.string("target", "host", default: gpsdHost) { hostProblem($0, allowIPv6: true) },
            port: r.int("target", "port", default: gpsdPort, range: port),
            rate: receiverRate(&r, "target", default: d.target.rate)
        )

        let onboard = Onboard(
            device: nilIfEmpty(r.string("onboard", "device", default: "", problem: deviceProblem)),
            host: r.string("onboard", "host", default: gpsdHost) { hostProblem($0, allowIPv6: true) },
            port: r.int("onboard", "port", default: gpsdPort, range: port),
            // Any finite angle (not the core's −360…360): normalised into [0, 360) before it reaches the core.
            mountOffsetDegrees: normalizedDegrees360(
                r.double("onboard", "mount_offset_deg", default: d.onboard.mountOffsetDegrees, range: nil)),
            rate: receiverRate(&r, "onboard", default: d.onboard.rate)
        )

        let drone = Drone(
            linkProtocol: r.choice("drone", "protocol", default: d.drone.linkProtocol),
            address: r.string("drone", "address", default: d.drone.address) { hostProblem($0, allowIPv6: false) },
            atPort: r.int("drone", "at_port", default: d.drone.atPort, range: port),
            navdataPort: r.int("drone", "navdata_port", default: d.drone.navdataPort, range: port),
            outdoor: r.bool("drone", "outdoor", default: d.drone.outdoor),
            altitudeMaxMeters: r.double("drone", "altitude_max_m")
        )

        // Checked whatever the protocol (a typo is an error in any file), used only with "mavlink".
        let mavlinkAsWritten = MAVLink(
            address: r.string("mavlink", "address", default: d.mavlink.address, problem: mavlinkAddressProblem),
            port: r.int("mavlink", "port", default: d.mavlink.port, range: port),
            localPort: r.int("mavlink", "local_port"), systemID: r.int("mavlink", "system_id"),
            componentID: r.int("mavlink", "component_id"), targetSystem: r.int("mavlink", "target_system"),
            autopilot: r.choice("mavlink", "autopilot", default: d.mavlink.autopilot),
            positionSource: r.choice("mavlink", "position_source", default: d.mavlink.positionSource)
        )

        // follow.altitude_m ≤ drone.altitude_max_m: the drone would fight its own ceiling.
        let altitude = ConfigSchema.spec("follow", "altitude_m")
        let ceilingKnown = !r.isRejected("drone", "altitude_max_m")
        let follow = Follow(
            standoffMeters: r.double("follow", "standoff_m"),
            altitudeMeters: r.double("follow", "altitude_m", default: altitude.defaultValue,
                                     range: ceilingKnown ? altitude.range.lowerBound...min(altitude.range.upperBound,
                                                                                           drone.altitudeMaxMeters)
                                         : altitude.range,
                                     rangeNote: ceilingKnown ? "drone.altitude_max_m" : nil),
            maxTiltDegrees: r.double("follow", "max_tilt_deg"),
            maxYawRateDegreesPerSecond: r.double("follow", "max_yaw_rate_dps"),
            maxClimbMetersPerSecond: r.double("follow", "max_climb_mps")
        )

        // failsafe.min_separation_m + failsafe.gps_relative_error_m ≤ follow.standoff_m − margin: the
        // drone keeps min_separation_m + gps_relative_error_m from the measured person and aims
        // `margin` beyond that; a shorter standoff could never be flown.
        let gpsRelativeError = r.double("failsafe", "gps_relative_error_m")
        let separation = ConfigSchema.spec("failsafe", "min_separation_m").range
        let standoffKnown = !r.isRejected("follow", "standoff_m")
        let gpsErrorKnown = !r.isRejected("failsafe", "gps_relative_error_m")
        let separationUpper = min(separation.upperBound, follow.standoffMeters - Failsafe.separationMarginMeters
            - (gpsErrorKnown ? gpsRelativeError : 0))
        let separationRange = standoffKnown && separationUpper >= separation.lowerBound
            ? separation.lowerBound...separationUpper
            : standoffKnown ? nil : separation
        let failsafe = Failsafe(
            targetTimeoutSeconds: r.double("failsafe", "target_timeout_s"),
            landAfterSeconds: r.double("failsafe", "land_after_s"),
            onboardTimeoutSeconds: r.double("failsafe", "onboard_timeout_s"),
            headingTimeoutSeconds: r.double("failsafe", "heading_timeout_s"),
            navdataTimeoutSeconds: r.double("failsafe", "navdata_timeout_s"),
            minBatteryPercent: r.int("failsafe", "min_battery_pct"),
            geofenceMeters: r.double("failsafe", "geofence_m"),
            maxTargetDistanceMeters: r.double("failsafe", "max_target_distance_m"),
            minSeparationMeters: r.double("failsafe", "min_separation_m",
                                          default: ConfigSchema.spec("failsafe", "min_separation_m").defaultValue,
                                          range: separationRange ?? separation,
                                          rangeNote: standoffKnown ? separationRangeNote(gpsErrorKnown: gpsErrorKnown) : nil),
            gpsRelativeErrorMeters: gpsRelativeError,
            takeOffTimeoutSeconds: r.double("failsafe", "takeoff_timeout_s"),
            climbTimeoutSeconds: r.double("failsafe", "climb_timeout_s"),
            lowBatteryConfirmSeconds: r.double("failsafe", "low_battery_confirm_s"),
            criticalBatteryPercent: r.int("failsafe", "critical_battery_pct"),
            maxEphMeters: r.double("failsafe", "max_eph_m"),
            maxFixLagSeconds: r.double("failsafe", "max_fix_lag_s"),
            maxWindMetersPerSecond: r.double("failsafe", "max_wind_mps"),
            windSaturationSeconds: r.double("failsafe", "wind_saturation_s")
        )

        let log = Log(path: nilIfEmpty(r.string("log", "path", default: "", problem: logPathProblem)),
                      directory: nilIfEmpty(r.string("log", "directory", default: Log.defaultDirectory, problem: logPathProblem)),
                      maxFlights: r.int("log", "max_flights"), maxTotalMegabytes: r.int("log", "max_total_mb"))
        let status = Status(socketPath: r.string("status", "socket", default: "", problem: logPathProblem))

        let configuration = FollowMeConfiguration(
            gpsd: gpsd, target: target, onboard: onboard, drone: drone,
            mavlink: drone.linkProtocol == .mavlink ? mavlinkAsWritten : .defaults,
            follow: follow, failsafe: failsafe, log: log, status: status)
        return (configuration, mavlinkAsWritten)
    }

    // MARK: Cross-field rules

    private static func checkCrossFieldRules(_ c: FollowMeConfiguration, _ r: inout ConfigReader) {
        let path = r.path

        // The dependent ranges above catch a written follow.altitude_m / failsafe.min_separation_m; these
        // two catch the default of one conflicting with a written value of the other.
        if !r.isRejected("follow", "altitude_m"), !r.isRejected("drone", "altitude_max_m"),
            c.follow.altitudeMeters > c.drone.altitudeMaxMeters
        {
            r.add(.outOfRange(
                path: path, line: blame(r, ("follow", "altitude_m"), ("drone", "altitude_max_m")),
                key: "follow.altitude_m",
                value: valueText(c.follow.altitudeMeters, written: r.isWritten("follow", "altitude_m")),
                range: "\(ConfigReader.format(ConfigSchema.spec("follow", "altitude_m").range.lowerBound)) to "
                    + "\(ConfigReader.format(c.drone.altitudeMaxMeters)) (drone.altitude_max_m)"))
        }

        let gpsErrorKnown = !r.isRejected("failsafe", "gps_relative_error_m")
        let separationMax = c.follow.standoffMeters - Failsafe.separationMarginMeters
            - (gpsErrorKnown ? c.failsafe.gpsRelativeErrorMeters : 0)
        if !r.isRejected("failsafe", "min_separation_m"), !r.isRejected("follow", "standoff_m"),
            c.failsafe.minSeparationMeters > separationMax
        {
            // Blame a written key: min_separation_m, else gps_relative_error_m, else standoff_m.
            let line = r.lineIfWritten("failsafe", "min_separation_m")
                ?? blame(r, ("failsafe", "gps_relative_error_m"), ("follow", "standoff_m"))
            r.add(.outOfRange(
                path: path, line: line,
                key: "failsafe.min_separation_m",
                value: valueText(c.failsafe.minSeparationMeters, written: r.isWritten("failsafe", "min_separation_m")),
                range: "\(ConfigReader.format(ConfigSchema.spec("failsafe", "min_separation_m").range.lowerBound)) to "
                    + "\(ConfigReader.format(separationMax)) (\(separationRangeNote(gpsErrorKnown: gpsErrorKnown)))"))
        }

        checkDefensibleStandoff(c, &r)

        // failsafe.land_after_s > failsafe.target_timeout_s: hover first, then land.
        if !r.isRejected("failsafe", "land_after_s"), !r.isRejected("failsafe", "target_timeout_s"),
            c.failsafe.landAfterSeconds <= c.failsafe.targetTimeoutSeconds
        {
            r.add(.invalid(
                path: path, line: blame(r, ("failsafe", "land_after_s"), ("failsafe", "target_timeout_s")),
                key: "failsafe.land_after_s",
                reason: "\(valueText(c.failsafe.landAfterSeconds, written: r.isWritten("failsafe", "land_after_s"))) "
                    + "must be longer than failsafe.target_timeout_s "
                    + "(\(ConfigReader.format(c.failsafe.targetTimeoutSeconds))): the drone hovers once the "
                    + "target is stale and lands only after land_after_s"))
        }

        // The AT and navdata channels are different sockets on the drone.
        if !r.isRejected("drone", "at_port"), !r.isRejected("drone", "navdata_port"),
            c.drone.atPort == c.drone.navdataPort
        {
            r.add(.invalid(
                path: path, line: blame(r, ("drone", "navdata_port"), ("drone", "at_port")),
                key: "drone.navdata_port",
                reason: "\(c.drone.navdataPort) is also drone.at_port; AT commands (5556) and navdata (5554) "
                    + "are separate UDP channels"))
        }

        // A ground station with the vehicle's own system id: the vehicle would take our messages for its own.
        let m = c.mavlink
        if c.drone.linkProtocol == .mavlink, !r.isRejected("mavlink", "system_id"),
            !r.isRejected("mavlink", "target_system"), m.targetSystem != 0, m.systemID == m.targetSystem
        {
            r.add(.invalid(
                path: path, line: blame(r, ("mavlink", "system_id"), ("mavlink", "target_system")),
                key: "mavlink.system_id",
                reason: "\(m.systemID) is also mavlink.target_system, the vehicle's id; FollowMe needs an id of its "
                    + "own (ground stations use 255)"))
        }

        checkReceiverRouting(c, &r)
    }

    /// follow.standoff_m must leave room for a walker heading at the drone to be seen and backed
    /// away from before the protected radius: the flight core's own rule (FollowCore
    /// `StoppingModel.shortestDefensibleStandoffMeters`, docs/stopping-model.md §4), so a file that
    /// passes `config check` is one `run` flies. Reported only when min_separation_m's own range
    /// (above) holds, so one mistake gives one message.
    private static func checkDefensibleStandoff(_ c: FollowMeConfiguration, _ r: inout ConfigReader) {
        let keys = [("follow", "standoff_m"), ("follow", "max_tilt_deg"), ("failsafe", "min_separation_m"),
                    ("failsafe", "gps_relative_error_m"), ("target", "rate_hz")]
        guard !keys.contains(where: { r.isRejected($0.0, $0.1) }) else { return }
        let separationMax = c.follow.standoffMeters - Failsafe.separationMarginMeters - c.failsafe.gpsRelativeErrorMeters
        guard c.failsafe.minSeparationMeters <= separationMax else { return }
        let shortest = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: c.failsafeParameters.protectedRadiusMeters, follow: c.followParameters,
            tuning: ControllerTuning(), vehicle: c.vehicleDynamics)
        guard c.follow.standoffMeters < shortest else { return }
        let needed = (shortest * 10).rounded(.up) / 10
        r.add(.invalid(
            path: r.path,
            // The line of the key the user wrote (the one they changed), in order of likelihood.
            line: r.lineIfWritten("follow", "standoff_m") ?? r.lineIfWritten("failsafe", "min_separation_m")
                ?? r.lineIfWritten("failsafe", "gps_relative_error_m") ?? r.lineIfWritten("follow", "max_tilt_deg")
                ?? r.line("follow", "standoff_m"),
            key: "follow.standoff_m",
            reason: "\(valueText(c.follow.standoffMeters, written: r.isWritten("follow", "standoff_m"))) is too short "
                + "to keep failsafe.min_separation_m (\(ConfigReader.format(c.failsafe.minSeparationMeters))) + "
                + "failsafe.gps_relative_error_m (\(ConfigReader.format(c.failsafe.gpsRelativeErrorMeters))) from a "
                + "person walking at the drone (1.4 m/s, seen \(ConfigReader.format(c.target.assumedFixRateHz)) Hz "
                + "target fixes late); set follow.standoff_m to at least \(ConfigReader.format(needed)), or lower "
                + "min_separation_m / gps_relative_error_m"
                + (c.target.assumedFixRateHz < 5 ? ", or set target.rate_hz to the faster rate your puck delivers" : "")))
    }

    /// Target and onboard fixes are told apart by gpsd endpoint and device path. On one gpsd, both
    /// receivers must be named and differ, or the drone could take its own position for the person's.
    private static func checkReceiverRouting(_ c: FollowMeConfiguration, _ r: inout ConfigReader) {
        // With the autopilot's own position no onboard receiver is read: nothing to tell apart.
        guard c.readsOnboardReceiver else { return }
        let endpointKeys = [("gpsd", "host"), ("gpsd", "port"), ("target", "host"), ("target", "port"),
                            ("onboard", "host"), ("onboard", "port"), ("target", "device"), ("onboard", "device")]
        guard !endpointKeys.contains(where: { r.isRejected($0.0, $0.1) }),
            c.target.endpoint.isSameDaemon(as: c.onboard.endpoint)
        else { return }
        let shared = "target and onboard both read the gpsd at \(c.target.endpoint)"
        for (role, device) in [("target", c.target.device), ("onboard", c.onboard.device)] where device == nil {
            r.add(.invalid(
                path: r.path, line: r.line(role, "device"), key: "\(role).device",
                reason: "must name the receiver's gpsd device path (e.g. \"/dev/gps\(role)\"): \(shared), "
                    + "and an empty device means \"any device\", so the two receivers' fixes could be mixed up"))
        }
        if let device = c.onboard.device, device == c.target.device {
            r.add(.invalid(
                path: r.path, line: r.line("onboard", "device") ?? r.line("target", "device"), key: "onboard.device",
                reason: "\(renderTOMLString(device)) is also target.device and \(shared); the drone would follow itself"))
        }
    }

    /// The line to report a cross-field problem on: the blamed key if written, else the other key if
    /// written (the user changed that one), else the blamed key's table header, if any.
    /// Where min_separation_m's upper bound comes from, for its out-of-range message.
    private static func separationRangeNote(gpsErrorKnown: Bool) -> String {
        "follow.standoff_m − \(ConfigReader.format(Failsafe.separationMarginMeters))"
            + (gpsErrorKnown ? " − failsafe.gps_relative_error_m" : "")
    }

    private static func blame(_ r: ConfigReader, _ key: (String, String), _ other: (String, String)) -> Int? {
        r.lineIfWritten(key.0, key.1) ?? r.lineIfWritten(other.0, other.1) ?? r.line(key.0, key.1)
    }

    private static func valueText(_ value: Double, written: Bool) -> String {
        ConfigReader.format(value) + (written ? "" : " (default)")
    }

    // MARK: String contents

    private static func nilIfEmpty(_ string: String) -> String? { string.isEmpty ? nil : string }

    /// Why `host` is not a usable host name or address, or `nil`. IPv6 is for gpsd only: the drone is IPv4.
    static func hostProblem(_ host: String, allowIPv6: Bool) -> String? {
        if host.isEmpty {
            return allowIPv6
                ? "must not be empty; use \"127.0.0.1\" for a gpsd on this computer"
                : "must not be empty; the AR.Drone's own access point gives it \"192.168.1.1\""
        }
        if host.utf8.count > 253 { return "is longer than 253 characters, the DNS name limit" }
        let allowed = host.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                || s == "." || s == "-" || s == "_" || (allowIPv6 && s == ":")
        }
        guard allowed else {
            return "\(renderTOMLString(host)) is not a host name or "
                + (allowIPv6 ? "IP address (e.g. \"127.0.0.1\", \"gps.local\", \"::1\")"
                    : "IPv4 address (e.g. \"192.168.1.1\"); no spaces, ports or URLs")
        }
        if host.contains(":") && !isIPv6(host) {
            if host.count(where: { $0 == ":" }) == 1 {
                return "\(renderTOMLString(host)) looks like host:port; write only the host here and the port "
                    + "in the port key"
            }
            return "\(renderTOMLString(host)) is not a valid IPv6 address"
        }
        let looksNumeric = host.unicodeScalars.allSatisfy { ($0 >= "0" && $0 <= "9") || $0 == "." }
        if looksNumeric && !isIPv4(host) {
            return "\(renderTOMLString(host)) is not a valid IPv4 address (four numbers 0–255 separated by dots)"
        }
        return nil
    }

    /// Why `address` cannot name the autopilot, or `nil`: as `drone.address` (IPv4 or a host name).
    static func mavlinkAddressProblem(_ address: String) -> String? {
        address.isEmpty
            ? "must not be empty; use \"127.0.0.1\" for an autopilot, SITL or MAVLink router on this computer"
            : hostProblem(address, allowIPv6: false)
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && (Int(part).map { (0...255).contains($0) } ?? false)
        }
    }

    /// A plausible IPv6 address: hex groups and at least two colons, optionally ending in an IPv4
    /// address (`::ffff:192.0.2.1`). Rules out `host:port`, which has one colon.
    private static func isIPv6(_ host: String) -> Bool {
        let colons = host.count(where: { $0 == ":" })
        guard colons >= 2, colons <= 7 else { return false }
        let groups = host.split(separator: ":", omittingEmptySubsequences: false)
        for (index, group) in groups.enumerated() {
            if index == groups.count - 1, group.contains(".") { return isIPv4(String(group)) }
            guard group.count <= 4, group.allSatisfy(\.isHexDigit) else { return false }
        }
        return true
    }

    /// `rate_hz`: "max", "device" or a number of Hz in ``ReceiverRate/hertzRange``.
    static func receiverRate(_ r: inout ConfigReader, _ table: String, default d: ReceiverRate) -> ReceiverRate {
        let keyword: String
        switch d {
        case .max: keyword = "max"
        case .device: keyword = "device"
        case .hertz: keyword = "max"  // defaults are keywords
        }
        let read = r.keywordOrNumber(table, "rate_hz", keywords: ["max", "device"], default: keyword,
                                     range: ReceiverRate.hertzRange)
        if let hz = read.number { return .hertz(hz) }
        return read.keyword == "device" ? .device : .max
    }

    /// Why `device` is not a usable gpsd device path, or `nil` (empty = any device, fine).
    static func deviceProblem(_ device: String) -> String? {
        guard !device.isEmpty else { return nil }
        if device.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(renderTOMLString(device)) contains whitespace or control characters; give the exact device "
                + "path gpsd was started with, e.g. \"/dev/gpstarget\""
        }
        if device.utf8.count > GPSDLimits.devicePathMaxBytes {
            return "is \(device.utf8.count) bytes long; gpsd reports device paths of at most "
                + "\(GPSDLimits.devicePathMaxBytes) bytes (GPS_PATH_MAX in gps.h), so no fix could ever match it; "
                + "use a short udev symlink such as /dev/gpstarget"
        }
        if !device.hasPrefix("/") && !device.contains("://") {
            return "\(renderTOMLString(device)) is not a gpsd device path; use the exact path gpsd was given, "
                + "e.g. \"/dev/gpstarget\" (or a gpsd source URL such as \"tcp://host:port\"), or \"\" for any device"
        }
        return nil
    }

    /// Why `path` is not usable as a log file path, or `nil` (empty = no log, fine).
    /// Why a path key (`log.path`, `log.directory`, `status.socket`) cannot be used, or nil.
    static func logPathProblem(_ path: String) -> String? {
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains control characters; give a path such as \"/var/log/followme\""
        }
        return nil
    }
}
