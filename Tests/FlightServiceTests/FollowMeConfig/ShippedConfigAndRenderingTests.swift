import Foundation  // test-only: read the shipped etc/followme.toml from disk
import Testing
@testable import FlightService

@Suite("Shipped etc/followme.toml, rendering and messages")
struct ShippedConfigAndRenderingTests {
    /// `<repo>/etc/followme.toml`.
    static let shippedPath = repositoryPath("etc/followme.toml")

    static func shippedText() throws -> String {
        try String(contentsOfFile: shippedPath, encoding: .utf8)
    }

    // MARK: The shipped file

    @Test("etc/followme.toml parses with zero problems")
    func shippedParses() throws {
        let text = try Self.shippedText()
        let result = Result { () throws(ConfigProblems) in try FollowMeConfiguration.parse(toml: text, path: Self.shippedPath) }
        #expect(result.failure == nil, "\(result.failure?.description ?? "")")
    }

    @Test("etc/followme.toml equals the defaults except the two device paths it documents")
    func shippedEqualsDefaults() throws {
        var parsed = try FollowMeConfiguration.parse(toml: try Self.shippedText(), path: Self.shippedPath)
        // The checkout's status socket (the built-in default is none: a socket per test run would clash)
        #expect(parsed.status.socketPath == "out/followme.sock")
        parsed.status.socketPath = ""
        // Video recording on (the built-in default is off: a file without the key records nothing)
        #expect(parsed.video.record && parsed.video.stream == .hd720 && parsed.video.maxTotalMegabytes == 2000)
        parsed.video.record = false
        #expect(parsed == .defaultsWithDevices)
        #expect(parsed.target.device == "/dev/gpstarget" && parsed.onboard.device == "/dev/gpsonboard")
        #expect(parsed.log.directory == "out/flights" && parsed.log.maxFlights == 50 && parsed.log.maxTotalMegabytes == 200)
        // The only differences from the per-key defaults:
        var undone = parsed
        undone.target.device = nil
        undone.onboard.device = nil
        #expect(undone == .defaults)
    }

    @Test("etc/followme.toml writes every key, each right under a comment line")
    func shippedIsComplete() throws {
        let text = try Self.shippedText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let locator = TOMLLineLocator(text: text)
        for (table, keys) in ConfigSchema.tables {
            let header = try #require(locator.line(of: [table]), "[\(table)] missing")
            #expect(lines[header - 2].hasPrefix("#"), "[\(table)] has no comment above it")
            for key in keys {
                let line = try #require(locator.line(table: table, key: key), "\(table).\(key) missing")
                #expect(lines[line - 2].hasPrefix("#"), "\(table).\(key) has no comment above it")
            }
        }
    }

    // MARK: Rendering

    @Test("renderedTOML round-trips the defaults")
    func roundTripDefaults() throws {
        let c = FollowMeConfiguration.defaultsWithDevices
        #expect(try FollowMeConfiguration.parse(toml: c.renderedTOML(), path: "rendered") == c)
    }

    @Test("renderedTOML round-trips a configuration with every value changed and awkward strings")
    func roundTripChanged() throws {
        // Given a configuration that differs from the defaults in every key
        let doc = TestDocument(entries: [
            ("gpsd", "host", "\"gps.local\""), ("gpsd", "port", "3000"),
            ("target", "device", "\"/dev/gps\\\"t\\\\é\""),
            ("target", "host", "\"::1\""), ("target", "port", "3001"),
            ("target", "latency_s", "0.15"), ("target", "latency_source", "\"clock\""),
            ("onboard", "latency_s", "0.05"), ("onboard", "latency_source", "\"config\""),
            ("onboard", "device", "\"tcp://192.168.1.1:4000\""), ("onboard", "host", "\"192.168.1.1\""),
            ("onboard", "port", "2947"), ("onboard", "mount_offset_deg", "-45.25"),
            ("drone", "address", "\"ardrone.local\""), ("drone", "at_port", "6000"), ("drone", "navdata_port", "6001"),
            ("drone", "outdoor", "false"), ("drone", "altitude_max_m", "12.3"),
            ("follow", "standoff_m", "11.1"), ("follow", "altitude_m", "4"), ("follow", "max_tilt_deg", "11.5"),
            ("follow", "max_yaw_rate_dps", "90"), ("follow", "max_climb_mps", "0.35"),
            ("failsafe", "target_timeout_s", "0.3"), ("failsafe", "land_after_s", "15"),
            ("failsafe", "onboard_timeout_s", "2"), ("failsafe", "heading_timeout_s", "2.5"),
            ("failsafe", "navdata_timeout_s", "0.25"), ("failsafe", "min_battery_pct", "30"),
            ("failsafe", "geofence_m", "250.75"), ("failsafe", "max_target_distance_m", "60"), ("failsafe", "min_separation_m", "2.2"),
            ("failsafe", "takeoff_timeout_s", "7.5"), ("failsafe", "climb_timeout_s", "30"),
            ("failsafe", "low_battery_confirm_s", "3.25"), ("failsafe", "critical_battery_pct", "12"),
            ("failsafe", "max_eph_m", "60.5"), ("failsafe", "max_fix_lag_s", "2.5"),
            ("failsafe", "max_wind_mps", "7.25"), ("failsafe", "wind_saturation_s", "3.5"),
            ("log", "path", "\"/var/log/followme/flight \\\"1\\\".log\""),
            ("log", "directory", "\"/srv/flights\""), ("log", "max_flights", "7"), ("log", "max_total_mb", "0"),
            ("status", "socket", "\"/run/followme/status.sock\""),
        ])
        let c = try doc.parse().get()
        #expect(c.target.device == "/dev/gps\"t\\é")
        #expect(c.log.path == "/var/log/followme/flight \"1\".log")
        #expect(c.follow.mountOffsetDegrees == 314.75)
        // When it is rendered and parsed again
        let again = try FollowMeConfiguration.parse(toml: c.renderedTOML(), path: "rendered")
        // Then nothing changed
        #expect(again == c)
        // And every field really differs from the defaults (so the round trip tested something)
        let d = FollowMeConfiguration.defaults
        #expect(c.gpsd != d.gpsd && c.target != d.target && c.onboard != d.onboard && c.drone != d.drone)
        #expect(c.follow.standoffMeters != d.follow.standoffMeters)
        #expect(c.follow.altitudeMeters != d.follow.altitudeMeters)
        #expect(c.follow.maxTiltDegrees != d.follow.maxTiltDegrees)
        #expect(c.follow.maxYawRateDegreesPerSecond != d.follow.maxYawRateDegreesPerSecond)
        #expect(c.follow.maxClimbMetersPerSecond != d.follow.maxClimbMetersPerSecond)
        #expect(c.failsafe.targetTimeoutSeconds != d.failsafe.targetTimeoutSeconds)
        #expect(c.failsafe.landAfterSeconds != d.failsafe.landAfterSeconds)
        #expect(c.failsafe.onboardTimeoutSeconds != d.failsafe.onboardTimeoutSeconds)
        #expect(c.failsafe.headingTimeoutSeconds != d.failsafe.headingTimeoutSeconds)
        #expect(c.failsafe.telemetryTimeoutSeconds != d.failsafe.telemetryTimeoutSeconds)
        #expect(c.failsafe.minBatteryPercent != d.failsafe.minBatteryPercent)
        #expect(c.failsafe.geofenceMeters != d.failsafe.geofenceMeters)
        #expect(c.failsafe.minSeparationMeters != d.failsafe.minSeparationMeters)
        #expect(c.failsafe.takeOffTimeoutSeconds != d.failsafe.takeOffTimeoutSeconds)
        #expect(c.failsafe.climbTimeoutSeconds != d.failsafe.climbTimeoutSeconds)
        #expect(c.failsafe.lowBatteryConfirmSeconds != d.failsafe.lowBatteryConfirmSeconds)
        #expect(c.failsafe.criticalBatteryPercent != d.failsafe.criticalBatteryPercent)
        #expect(c.failsafe.maxEphMeters != d.failsafe.maxEphMeters)
        #expect(c.failsafe.maxFixLagSeconds != d.failsafe.maxFixLagSeconds)
        #expect(c.failsafe.maxWindMetersPerSecond != d.failsafe.maxWindMetersPerSecond)
        #expect(c.failsafe.windSaturationSeconds != d.failsafe.windSaturationSeconds)
        #expect(c.log.path != d.log.path && c.log.directory != d.log.directory)
        #expect(c.log.maxFlights != d.log.maxFlights && c.log.maxTotalMegabytes != d.log.maxTotalMegabytes)
        #expect(c.status != d.status)
    }

    @Test("renderedTOML writes resolved endpoints and the normalised mount offset")
    func renderedValues() throws {
        let c = try TestDocument.flyable([("gpsd", "port", "3000"), ("onboard", "mount_offset_deg", "-90")])
            .parse().get()
        let text = c.renderedTOML()
        #expect(text.contains("[target]\ndevice = \"/dev/gpstarget\"  # \"\" = any device on its gpsd\n"
            + "host = \"127.0.0.1\"\nport = 3000"))
        #expect(text.contains("mount_offset_deg = 270.0"))
        #expect(text.contains("[log]\npath = \"\""))
    }

    @Test("TOML string rendering escapes quotes, backslashes and control characters")
    func stringRendering() {
        #expect(renderTOMLString("plain") == "\"plain\"")
        #expect(renderTOMLString("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(renderTOMLString("t\tn\nbell\u{7}del\u{7F}") == "\"t\\tn\\nbell\\u0007del\\u007F\"")
        #expect(renderTOMLString("é🚁") == "\"é🚁\"")
    }

    // MARK: Messages

    @Test("problem descriptions read FILE:LINE: KEY: message")
    func descriptionFormat() throws {
        // Given the shipped file with the mount offset written as a word
        let text = try Self.shippedText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("mount_offset_deg =") })
        var edited = lines
        edited[index] = "mount_offset_deg = \"ninety\""
        // When it is parsed under its repository path
        let problems = try #require(
            Result { () throws(ConfigProblems) in
                try FollowMeConfiguration.parse(toml: edited.joined(separator: "\n"), path: "etc/followme.toml")
            }.failure)
        // Then the message names file, line, key, expectation and what was found
        #expect(problems.description
            == "etc/followme.toml:\(index + 1): onboard.mount_offset_deg: expected a number, found string \"ninety\"")
    }

    @Test("each error kind has an actionable description",
          arguments: [
              (ConfigError.fileNotFound(path: "/etc/followme/followme.toml"),
               "/etc/followme/followme.toml: config file not found (start from the documented etc/followme.toml)"),
              (.unreadable(path: "f.toml", reason: "permission denied"), "f.toml: cannot read config file: permission denied"),
              (.syntax(path: "f.toml", line: 3, column: 14, message: "expected value"),
               "f.toml:3:14: TOML syntax error: expected value"),
              (.unknownTable(path: "f.toml", line: 9, table: "folow", suggestion: "follow"),
               "f.toml:9: folow: unknown table [folow], refusing to guess what it means; did you mean [follow]?"),
              (.unknownTable(path: "f.toml", line: 9, table: "weather", suggestion: nil),
               "f.toml:9: weather: unknown table [weather], refusing to guess what it means; known tables: gpsd, target, "
                   + "onboard, drone, mavlink, follow, failsafe, log, status, web, video"),
              (.unknownKey(path: "f.toml", line: 1, key: "foo", suggestion: nil),
               "f.toml:1: foo: unknown key, refusing to guess what it means; keys belong in a table: [gpsd], "
                   + "[target], [onboard], [drone], [mavlink], [follow], [failsafe], [log], [status], [web], [video]"),
              (.outOfRange(path: "f.toml", line: 30, key: "follow.standoff_m", value: "nan", range: "2 to 50"),
               "f.toml:30: follow.standoff_m: nan is out of range; allowed: 2 to 50"),
              (.invalid(path: "f.toml", line: nil, key: "target.device", reason: "must name the device"),
               "f.toml: target.device: must name the device"),
          ])
    func descriptions(error: ConfigError, expected: String) {
        #expect(error.description == expected)
    }

    @Test("ConfigProblems orders by line, problems without a line last, stable otherwise")
    func problemsOrder() {
        let a = ConfigError.invalid(path: "f", line: nil, key: "a", reason: "r")
        let b = ConfigError.invalid(path: "f", line: 7, key: "b", reason: "r")
        let c = ConfigError.invalid(path: "f", line: 2, key: "c", reason: "r")
        let d = ConfigError.invalid(path: "f", line: 7, key: "d", reason: "r")
        let problems = ConfigProblems(problems: [a, b, c, d])
        #expect(problems.problems == [c, b, d, a])
        #expect(problems.description.split(separator: "\n").count == 4)
    }
}
