import FollowCore
import TOMLKit

extension FollowMeConfiguration {
    /// Parses and validates a `followme.toml` document. All validation runs here: each key as its
    /// `ConfigKeys` row says, then the cross-field rules below.
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
        let (configuration, asWritten) = read(&reader)
        checkCrossFieldRules(configuration, &reader)
        guard reader.problems.isEmpty else { throw ConfigProblems(problems: reader.problems) }
        return (configuration, unusedKeys(configuration, asWritten: asWritten, reader))
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

    /// The configuration, and as the file writes it: every key read by its `ConfigKeys` row, in
    /// ``ConfigSchema/readOrder``. The configuration holds `[mavlink]`'s defaults unless `drone.protocol`
    /// is "mavlink" (checked whatever the protocol: a typo is an error in any file).
    private static func read(_ r: inout ConfigReader) -> (FollowMeConfiguration, asWritten: FollowMeConfiguration) {
        var written = FollowMeConfiguration.defaults
        for key in ConfigSchema.readOrder { key.read(&r, &written) }
        var configuration = written
        if configuration.drone.linkProtocol != .mavlink { configuration.mavlink = FollowMeConfiguration.defaults.mavlink }
        return (configuration, written)
    }

    // MARK: Cross-field rules

    private static func checkCrossFieldRules(_ c: FollowMeConfiguration, _ r: inout ConfigReader) {
        let path = r.path

        // The dependent ranges above catch a written follow.altitude_m / failsafe.min_separation_m; these
        // catch the default of one conflicting with a written value of the other. follow.altitude_min_m only
        // where it applies, with altitude_mode "person" (elsewhere a ceiling under its 3 m default stays valid).
        checkUnderCeiling("altitude_m", c.follow.altitudeMeters, c, &r)
        if c.follow.altitudeMode == .person { checkUnderCeiling("altitude_min_m", c.follow.altitudeFloorMeters, c, &r) }
        checkPersonAltitude(c, &r)

        let gpsErrorKnown = !r.isRejected("failsafe", "gps_relative_error_m")
        let separationMax = c.follow.standoffMeters - Self.separationMarginMeters
            - (gpsErrorKnown ? c.failsafe.gpsRelativeErrorMeters : 0)
        if !r.isRejected("failsafe", "min_separation_m"), !r.isRejected("follow", "standoff_m"),
            c.failsafe.minSeparationMeters > separationMax
        {
            // Blame a written key: min_separation_m, else gps_relative_error_m, else standoff_m.
            let line = r.lineIfWritten("failsafe", "min_separation_m")
                ?? blame(r, ("failsafe", "gps_relative_error_m"), ("follow", "standoff_m"))
            // The standoff that keeps both as written (and passes the walker rule below, which asks more):
            // the value to set, so one edit fixes the file.
            let lower = ConfigSchema.spec("failsafe", "min_separation_m").range.lowerBound
            let note = separationRangeNote(gpsErrorKnown: gpsErrorKnown)
            let allowed = separationMax >= lower
                ? "\(ConfigReader.format(lower)) to \(ConfigReader.format(separationMax)) (\(note))"
                : "none (\(note) is \(ConfigReader.format(separationMax)), below \(ConfigReader.format(lower)))"
            let keeping = gpsErrorKnown
                ? "it and failsafe.gps_relative_error_m (\(ConfigReader.format(c.failsafe.gpsRelativeErrorMeters)))" : "it"
            let standoff = standoffToSet(c), longest = ConfigSchema.spec("follow", "standoff_m").range.upperBound
            let fix = standoff <= longest
                ? "to keep \(keeping), set follow.standoff_m to at least \(ConfigReader.format(standoff))"
                : "no follow.standoff_m (at most \(ConfigReader.format(longest))) keeps \(keeping): lower them"
            r.add(.outOfRange(
                path: path, line: line,
                key: "failsafe.min_separation_m",
                value: valueText(c.failsafe.minSeparationMeters, written: r.isWritten("failsafe", "min_separation_m")),
                range: allowed + "; " + fix))
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
                    + "own: set mavlink.system_id to \(Self.defaultSystemID) (the default) or another id no other system uses"))
        }
        // 255 is the ground stations' id (QGroundControl, Mission Planner): with it FollowMe and such a
        // station take each other's COMMAND_ACKs, and the station's HEARTBEATs keep the vehicle's GCS
        // failsafe quiet after FollowMe died (docs/mavlink.md §3, §7.8).
        if c.drone.linkProtocol == .mavlink, !r.isRejected("mavlink", "system_id"), m.systemID == Self.groundStationSystemID {
            r.add(.invalid(
                path: path, line: r.line("mavlink", "system_id"),
                key: "mavlink.system_id",
                reason: "\(Self.groundStationSystemID) is the id ground stations (QGroundControl, Mission Planner) use: FollowMe "
                    + "and such a station would take each other's answers, and the station would keep the vehicle's GCS "
                    + "failsafe quiet when FollowMe stops; set mavlink.system_id to \(Self.defaultSystemID) (the default) "
                    + "or another id from 1 to 254 that no other station uses"))
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
        let separationMax = c.follow.standoffMeters - Self.separationMarginMeters - c.failsafe.gpsRelativeErrorMeters
        guard c.failsafe.minSeparationMeters <= separationMax else { return }
        let shortest = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: c.failsafeParameters.protectedRadiusMeters, follow: c.followParameters,
            tuning: ControllerTuning(), vehicle: c.vehicleModel)
        guard c.follow.standoffMeters < shortest else { return }
        let needed = standoffToSet(c)
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

    /// The shortest defensible standoff for `c`'s separation, GPS error, tilt and target rate, rounded
    /// up to 0.1 m: what `follow.standoff_m` must be set to.
    private static func standoffToSet(_ c: FollowMeConfiguration) -> Double {
        let shortest = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: c.failsafeParameters.protectedRadiusMeters, follow: c.followParameters,
            tuning: ControllerTuning(), vehicle: c.vehicleModel)
        return (shortest * 10).rounded(.up) / 10
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
    static func separationRangeNote(gpsErrorKnown: Bool) -> String {
        "follow.standoff_m − \(ConfigReader.format(Self.separationMarginMeters))"
            + (gpsErrorKnown ? " − failsafe.gps_relative_error_m" : "")
    }

    /// `[follow] key` (`value`, in metres above take-off) at most `drone.altitude_max_m`.
    private static func checkUnderCeiling(_ key: String, _ value: Double, _ c: FollowMeConfiguration, _ r: inout ConfigReader) {
        guard !r.isRejected("follow", key), !r.isRejected("drone", "altitude_max_m"), value > c.drone.altitudeMaxMeters else { return }
        r.add(.outOfRange(
            path: r.path, line: blame(r, ("follow", key), ("drone", "altitude_max_m")),
            key: "follow.\(key)", value: valueText(value, written: r.isWritten("follow", key)),
            range: "\(ConfigReader.format(ConfigSchema.spec("follow", key).range.lowerBound)) to "
                + "\(ConfigReader.format(c.drone.altitudeMaxMeters)) (drone.altitude_max_m)"))
    }

    /// altitude_mode "person" on an autopilot flies `altitude_m` above the puck's altitude, which drifts by
    /// metres: at least `FollowParameters.personAltitudeMinimumMeters` (the AR.Drone's ultrasound height is
    /// above the ground under it, and the mode changes nothing there). Safety forbids the lower heights a
    /// file could give before this rule; the error names the key and what to set.
    private static func checkPersonAltitude(_ c: FollowMeConfiguration, _ r: inout ConfigReader) {
        let least = FollowParameters.personAltitudeMinimumMeters
        guard c.follow.altitudeMode == .person, c.drone.linkProtocol == .mavlink, !r.isRejected("follow", "altitude_m"),
              c.follow.altitudeMeters < least else { return }
        r.add(.outOfRange(
            path: r.path, line: blame(r, ("follow", "altitude_m"), ("follow", "altitude_mode")),
            key: "follow.altitude_m", value: valueText(c.follow.altitudeMeters, written: r.isWritten("follow", "altitude_m")),
            range: "\(ConfigReader.format(least)) or more with follow.altitude_mode \"person\" on an autopilot (the puck's "
                + "altitude drifts by metres); set follow.altitude_m to at least \(ConfigReader.format(least)) (and "
                + "drone.altitude_max_m above it plus the climb), or altitude_mode = \"takeoff\""))
    }

    /// MAVLink's conventional ground-station id, and FollowMe's default one (`mavlink.system_id`'s row).
    static let groundStationSystemID = 255
    static var defaultSystemID: Int { MAVLink.defaults.systemID }

    private static func blame(_ r: ConfigReader, _ key: (String, String), _ other: (String, String)) -> Int? {
        r.lineIfWritten(key.0, key.1) ?? r.lineIfWritten(other.0, other.1) ?? r.line(key.0, key.1)
    }

    private static func valueText(_ value: Double, written: Bool) -> String {
        ConfigReader.format(value) + (written ? "" : " (default)")
    }

    // MARK: String contents

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

    /// `[web] listen`: "" or `HOST:PORT` (an IPv6 host in brackets), the port 1 to 65535.
    static func listenProblem(_ listen: String) -> String? {
        guard !listen.isEmpty else { return nil }
        guard let endpoint = WebListenAddress(listen) else {
            return "\(renderTOMLString(listen)) is not HOST:PORT; give e.g. \"0.0.0.0:8080\" (every interface), "
                + "\"127.0.0.1:8080\" (this computer only) or \"[::]:8080\", or \"\" for no cockpit"
        }
        return hostProblem(endpoint.host, allowIPv6: true)
    }
}

/// `[web] listen` taken apart: `HOST:PORT`, `[IPv6]:PORT`.
public struct WebListenAddress: Sendable, Equatable {
    public let host: String
    public let port: Int

    public init?(_ text: String) {
        let hostPart: Substring, portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard !hostPart.isEmpty, let port = Int(portPart), GPSDLimits.portRange.contains(port) else { return nil }
        (host, self.port) = (String(hostPart), port)
    }
}
