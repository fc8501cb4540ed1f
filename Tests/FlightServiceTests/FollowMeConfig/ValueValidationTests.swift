import Testing
@testable import FlightService

@Suite("Per-key types, ranges and contents")
struct ValueValidationTests {
    // MARK: Defaults

    @Test("defaults hold the documented per-key values")
    func defaultsAreDocumentedValues() {
        let d = FollowMeConfiguration.defaults
        #expect(d.gpsd.host == "127.0.0.1" && d.gpsd.port == 2947)
        #expect(d.target.device == nil && d.target.host == "127.0.0.1" && d.target.port == 2947)
        #expect(d.onboard.device == nil && d.onboard.host == "127.0.0.1" && d.onboard.port == 2947)
        #expect(d.follow.mountOffsetDegrees == 90)
        #expect(d.drone.address == "192.168.1.1" && d.drone.atPort == 5556 && d.drone.navdataPort == 5554)
        #expect(d.drone.outdoor == true && d.drone.altitudeMaxMeters == 10)
        #expect(d.follow.standoffMeters == 11 && d.follow.altitudeMeters == 3 && d.follow.maxTiltDegrees == 20)
        #expect(d.follow.maxYawRateDegreesPerSecond == 120 && d.follow.maxClimbMetersPerSecond == 0.7)
        #expect(d.failsafe.targetTimeoutSeconds == 1.5 && d.failsafe.landAfterSeconds == 10)
        #expect(d.failsafe.onboardTimeoutSeconds == 1.5 && d.failsafe.headingTimeoutSeconds == 1.5)
        #expect(d.failsafe.telemetryTimeoutSeconds == 0.5 && d.failsafe.minBatteryPercent == 25)
        #expect(d.failsafe.geofenceMeters == 1000 && d.failsafe.minSeparationMeters == 3)
        #expect(d.failsafe.maxTargetDistanceMeters == 50)
        #expect(d.failsafe.gpsRelativeErrorMeters == 4)
        #expect(d.failsafe.takeOffTimeoutSeconds == 5 && d.failsafe.climbTimeoutSeconds == 20)
        #expect(d.failsafe.lowBatteryConfirmSeconds == 2 && d.failsafe.criticalBatteryPercent == 15)
        #expect(d.failsafe.maxEphMeters == 100 && d.failsafe.maxFixLagSeconds == 1.5)
        #expect(d.failsafe.maxWindMetersPerSecond == 0 && d.failsafe.windSaturationSeconds == 2)
        #expect(d.log.path == nil)
    }

    @Test("a document with only the two device paths gives the defaults for every other key")
    func missingKeysTakeDefaults() throws {
        let parsed = try TestDocument.flyable().parse().get()
        #expect(parsed == .defaultsWithDevices)
    }

    @Test("unit conversions for the drone's AT*CONFIG keys")
    func unitConversions() throws {
        let c = try TestDocument.flyable([
            ("follow", "max_tilt_deg", "30"), ("follow", "max_yaw_rate_dps", "180"),
            ("follow", "max_climb_mps", "1.5"), ("drone", "altitude_max_m", "12.5"),
        ]).parse().get()
        // euler_angle_max = the braking tilt, which is never below max_tilt_deg: 30° = π/6
        #expect(abs(c.follow.eulerAngleMaxRadians - 0.5235987755982988) < 1e-12)
        #expect(abs(c.follow.maxYawRateRadiansPerSecond - Double.pi) < 1e-12)
        #expect(c.follow.maxClimbMillimetersPerSecond == 1500)
        #expect(c.drone.altitudeMaxMillimeters == 12_500)
    }

    @Test("braking_tilt_deg: 25 by default, max_tilt_deg when that is larger, never written below it")
    func brakingTilt() throws {
        // Given the shipped defaults (cruise 20°), Then the drone brakes at 25° and euler_angle_max says so
        let defaults = try TestDocument.flyable().parse().get()
        #expect(defaults.follow.maxTiltDegrees == 20 && defaults.follow.effectiveBrakingTiltDegrees == 25)
        #expect(abs(defaults.follow.eulerAngleMaxRadians - 25 * Double.pi / 180) < 1e-12)
        // Given an old file with a cruise tilt above 25° and no braking key, Then it still validates, braking at cruise
        let steep = try TestDocument.flyable([("follow", "max_tilt_deg", "28")]).parse().get()
        #expect(steep.follow.effectiveBrakingTiltDegrees == 28)
        // Given a braking tilt written, Then it is used
        let set = try TestDocument.flyable([("follow", "braking_tilt_deg", "27.5")]).parse().get()
        #expect(set.follow.effectiveBrakingTiltDegrees == 27.5)
        // Given a braking tilt written below the cruise tilt, Then the file is refused with the key and its bound named
        let low = TestDocument.flyable([("follow", "max_tilt_deg", "22"), ("follow", "braking_tilt_deg", "18")]).parse()
        guard case .failure(let error) = low else { Issue.record("accepted braking_tilt_deg 18 below max_tilt_deg 22"); return }
        #expect("\(error)".contains("follow.braking_tilt_deg") && "\(error)".contains("max_tilt_deg"), "\(error)")
        // And above the firmware's 30°, refused too
        #expect(throws: (any Error).self) { try TestDocument.flyable([("follow", "braking_tilt_deg", "31")]).parse().get() }
    }

    // MARK: Wrong types

    static let wrongTypeCases: [(key: String, value: String, expected: String, found: String)] = [
        (key: "gpsd.host", value: "5", expected: "a string", found: "integer 5"),
        (key: "gpsd.port", value: "2947.0", expected: "an integer", found: "float 2947.0"),
        (key: "target.device", value: "1", expected: "a string", found: "integer 1"),
        (key: "target.host", value: "true", expected: "a string", found: "boolean true"),
        (key: "target.port", value: "\"2947\"", expected: "an integer", found: "string \"2947\""),
        (key: "target.rate_hz", value: "true", expected: "\"max\", \"device\" or a number 0.5 to 20",
              found: "boolean true"),
        (key: "onboard.rate_hz", value: "[5]", expected: "\"max\", \"device\" or a number 0.5 to 20",
              found: "an array"),
        (key: "onboard.device", value: "[\"/dev/a\"]", expected: "a string", found: "an array"),
        (key: "onboard.host", value: "{ name = \"x\" }", expected: "a string", found: "a table"),
        (key: "onboard.port", value: "1.5", expected: "an integer", found: "float 1.5"),
        (key: "onboard.mount_offset_deg", value: "\"ninety\"", expected: "a number", found: "string \"ninety\""),
        (key: "drone.protocol", value: "1", expected: "\"ardrone\" or \"mavlink\"", found: "integer 1"),
        (key: "drone.address", value: "192", expected: "a string", found: "integer 192"),
        (key: "drone.at_port", value: "5556.0", expected: "an integer", found: "float 5556.0"),
        (key: "drone.navdata_port", value: "\"5554\"", expected: "an integer", found: "string \"5554\""),
        (key: "drone.outdoor", value: "\"yes\"", expected: "true or false", found: "string \"yes\""),
        (key: "drone.altitude_max_m", value: "\"10\"", expected: "a number", found: "string \"10\""),
        (key: "mavlink.address", value: "127", expected: "a string", found: "integer 127"),
        (key: "mavlink.port", value: "14550.0", expected: "an integer", found: "float 14550.0"),
        (key: "mavlink.local_port", value: "\"0\"", expected: "an integer", found: "string \"0\""),
        (key: "mavlink.system_id", value: "255.0", expected: "an integer", found: "float 255.0"),
        (key: "mavlink.component_id", value: "true", expected: "an integer", found: "boolean true"),
        (key: "mavlink.target_system", value: "[1]", expected: "an integer", found: "an array"),
        (key: "mavlink.autopilot", value: "3", expected: "\"ardupilot\" or \"px4\"", found: "integer 3"),
        (key: "mavlink.position_source", value: "false", expected: "\"autopilot\" or \"receiver\"",
              found: "boolean false"),
        (key: "follow.standoff_m", value: "true", expected: "a number", found: "boolean true"),
        (key: "follow.altitude_m", value: "\"3 m\"", expected: "a number", found: "string \"3 m\""),
        (key: "follow.max_tilt_deg", value: "[20]", expected: "a number", found: "an array"),
        (key: "follow.max_yaw_rate_dps", value: "\"fast\"", expected: "a number", found: "string \"fast\""),
        (key: "follow.max_climb_mps", value: "false", expected: "a number", found: "boolean false"),
        (key: "failsafe.target_timeout_s", value: "\"1.5\"", expected: "a number", found: "string \"1.5\""),
        (key: "failsafe.land_after_s", value: "1979-05-27", expected: "a number", found: "date 1979-05-27"),
        (key: "failsafe.onboard_timeout_s", value: "{}", expected: "a number", found: "a table"),
        (key: "failsafe.heading_timeout_s", value: "true", expected: "a number", found: "boolean true"),
        (key: "failsafe.navdata_timeout_s", value: "\"0.5\"", expected: "a number", found: "string \"0.5\""),
        (key: "failsafe.min_battery_pct", value: "25.0", expected: "an integer", found: "float 25.0"),
        (key: "failsafe.min_battery_pct", value: "\"25\"", expected: "an integer", found: "string \"25\""),
        (key: "failsafe.geofence_m", value: "\"100\"", expected: "a number", found: "string \"100\""),
        (key: "failsafe.max_target_distance_m", value: "[50]", expected: "a number", found: "an array"),
        (key: "failsafe.min_separation_m", value: "false", expected: "a number", found: "boolean false"),
        (key: "failsafe.gps_relative_error_m", value: "\"4 m\"", expected: "a number", found: "string \"4 m\""),
        (key: "failsafe.takeoff_timeout_s", value: "\"5\"", expected: "a number", found: "string \"5\""),
        (key: "failsafe.climb_timeout_s", value: "true", expected: "a number", found: "boolean true"),
        (key: "failsafe.low_battery_confirm_s", value: "\"2 s\"", expected: "a number", found: "string \"2 s\""),
        (key: "failsafe.critical_battery_pct", value: "15.0", expected: "an integer", found: "float 15.0"),
        (key: "failsafe.max_eph_m", value: "\"15\"", expected: "a number", found: "string \"15\""),
        (key: "failsafe.max_fix_lag_s", value: "false", expected: "a number", found: "boolean false"),
        (key: "failsafe.max_wind_mps", value: "\"5 m/s\"", expected: "a number", found: "string \"5 m/s\""),
        (key: "failsafe.wind_saturation_s", value: "[2]", expected: "a number", found: "an array"),
        (key: "log.path", value: "0", expected: "a string", found: "integer 0"),
        (key: "log.directory", value: "false", expected: "a string", found: "boolean false"),
        (key: "log.max_flights", value: "50.0", expected: "an integer", found: "float 50.0"),
        (key: "log.max_total_mb", value: "\"200\"", expected: "an integer", found: "string \"200\""),
        (key: "status.socket", value: "1", expected: "a string", found: "integer 1"),
        (key: "follow.takeoff", value: "true", expected: "\"auto\" or \"start\"", found: "boolean true"),
        (key: "follow.mode", value: "2", expected: "\"leash\", \"angle\" or \"orbit\"", found: "integer 2"),
        (key: "follow.angle_deg", value: "\"behind\"", expected: "a number", found: "string \"behind\""),
        (key: "follow.orbit_speed_mps", value: "true", expected: "a number", found: "boolean true"),
        (key: "follow.orbit_direction", value: "1", expected: "\"clockwise\" or \"counterclockwise\"", found: "integer 1"),
        (key: "follow.altitude_mode", value: "3.0", expected: "\"takeoff\" or \"person\"", found: "float 3.0"),
        (key: "follow.altitude_min_m", value: "\"low\"", expected: "a number", found: "string \"low\""),
        (key: "follow.yaw", value: "false", expected: "\"face-person\" or \"travel\"", found: "boolean false"),
        (key: "mavlink.point_camera", value: "\"yes\"", expected: "true or false", found: "string \"yes\""),
        (key: "web.listen", value: "8080", expected: "a string", found: "integer 8080"),
        (key: "web.land_without_code", value: "\"yes\"", expected: "true or false", found: "string \"yes\""),
        (key: "web.code_file", value: "0", expected: "a string", found: "integer 0"),
    ]

    @Test("a value of the wrong type is reported with its key, line, expected and found type",
          arguments: wrongTypeCases)
    func wrongType(_ c: (key: String, value: String, expected: String, found: String)) throws {
        // Given a flyable document with one key of the wrong type, when it is parsed
        let (problem, line) = try TestDocument.soleProblem(writing: c.key, c.value)
        // Then exactly that key is reported, on the line it was written
        #expect(problem == .wrongType(path: TestDocument.path, line: line, key: c.key, expected: c.expected, found: c.found))
    }

    @Test("every key refuses a value of the wrong type (an array), naming its key, line and type",
          arguments: ConfigKeys.all.map(\.dotted))
    func wrongTypeEveryKey(dotted: String) throws {
        // Given a flyable document with the key written as an array, which no key takes, when it is parsed
        let key = try #require(ConfigKeys.all.first { $0.dotted == dotted })
        let (problem, line) = try TestDocument.soleProblem(writing: dotted, "[1]")
        // Then exactly that key is reported as a wrong type, on its line; a numeric key expects its kind
        guard case .wrongType(let path, let reported, let problemKey, let expected, let found) = problem else {
            Issue.record("\(dotted): \(problem)")
            return
        }
        #expect(path == TestDocument.path && reported == line && problemKey == dotted && found == "an array")
        if key.spec != nil {
            #expect(expected == (key.isInteger ? "an integer" : "a number"), "\(dotted)")
        }
    }

    // MARK: Out of range

    /// A key written out of range: `value` as written, `shown` as the problem prints it, `range` as it names it.
    typealias RangeCase = (key: String, value: String, shown: String, range: String)

    /// `key = value` is out of `range`; the problem shows the value as written unless `shown` says otherwise.
    static func outside(_ key: String, _ value: String, shown: String? = nil, range: String) -> RangeCase {
        (key: key, value: value, shown: shown ?? value, range: range)
    }

    static let outOfRangeCases: [RangeCase] = [
        outside("gpsd.port", "0", range: "1 to 65535"),
        outside("gpsd.port", "65536", range: "1 to 65535"),
        outside("target.port", "-1", range: "1 to 65535"),
        outside("target.rate_hz", "0.2", range: "0.5 to 20"),
        outside("onboard.rate_hz", "21", range: "0.5 to 20"),
        outside("onboard.port", "70000", range: "1 to 65535"),
        outside("drone.at_port", "0", range: "1 to 65535"),
        outside("drone.navdata_port", "65536", range: "1 to 65535"),
        outside("mavlink.port", "0", range: "1 to 65535"),
        outside("mavlink.port", "65536", range: "1 to 65535"),
        outside("mavlink.local_port", "-1", range: "0 to 65535"),
        outside("mavlink.local_port", "65536", range: "0 to 65535"),
        outside("mavlink.system_id", "0", range: "1 to 255"),
        outside("mavlink.system_id", "256", range: "1 to 255"),
        outside("mavlink.component_id", "0", range: "1 to 255"),
        outside("mavlink.component_id", "256", range: "1 to 255"),
        outside("mavlink.target_system", "-1", range: "0 to 255"),
        outside("mavlink.target_system", "256", range: "0 to 255"),
        outside("drone.altitude_max_m", "0.5", range: "1 to 100"),
        outside("drone.altitude_max_m", "101", range: "1 to 100"),
        outside("follow.standoff_m", "1.9", range: "2 to 50"),
        outside("follow.standoff_m", "50.1", range: "2 to 50"),
        outside("follow.altitude_m", "0.5", range: "1 to 10 (drone.altitude_max_m)"),
        outside("follow.altitude_min_m", "0.5", range: "1 to 10 (drone.altitude_max_m)"),
        outside("follow.altitude_min_m", "10.5", range: "1 to 10 (drone.altitude_max_m)"),
        outside("follow.max_tilt_deg", "0.52", range: "3 to 30"),  // radians by mistake
        outside("follow.max_tilt_deg", "31", range: "3 to 30"),
        outside("follow.braking_tilt_deg", "19", range: "20 to 30 (at least follow.max_tilt_deg)"),
        outside("follow.braking_tilt_deg", "31", range: "20 to 30 (at least follow.max_tilt_deg)"),
        outside("follow.max_yaw_rate_dps", "39", range: "40 to 350"),
        outside("follow.max_yaw_rate_dps", "351", range: "40 to 350"),
        outside("follow.max_climb_mps", "0.1", range: "0.2 to 2"),
        outside("follow.max_climb_mps", "700", range: "0.2 to 2"),  // mm/s by mistake
        outside("follow.angle_deg", "-181", range: "-180 to 180"),
        outside("follow.angle_deg", "270", range: "-180 to 180"),  // 0…360 by mistake
        outside("follow.orbit_speed_mps", "0.1", range: "0.2 to 5"),
        outside("follow.orbit_speed_mps", "5.1", range: "0.2 to 5"),
        outside("failsafe.target_timeout_s", "0.1", range: "0.2 to 10"),
        outside("failsafe.target_timeout_s", "11", range: "0.2 to 10"),
        outside("failsafe.land_after_s", "0.5", range: "1 to 120"),
        outside("failsafe.land_after_s", "121", range: "1 to 120"),
        outside("failsafe.onboard_timeout_s", "0.19", range: "0.2 to 10"),
        outside("failsafe.onboard_timeout_s", "10.5", range: "0.2 to 10"),
        outside("failsafe.heading_timeout_s", "0", range: "0.2 to 10"),
        outside("failsafe.heading_timeout_s", "20", range: "0.2 to 10"),
        outside("failsafe.navdata_timeout_s", "0.05", range: "0.1 to 5"),
        outside("failsafe.navdata_timeout_s", "6", range: "0.1 to 5"),
        outside("failsafe.min_battery_pct", "4", range: "5 to 90"),
        outside("failsafe.min_battery_pct", "91", range: "5 to 90"),
        outside("failsafe.geofence_m", "9", range: "10 to 2000"),
        outside("failsafe.geofence_m", "2001", range: "10 to 2000"),
        outside("failsafe.max_target_distance_m", "9", range: "10 to 500"),
        outside("failsafe.max_target_distance_m", "501", range: "10 to 500"),
        // (its static range; a value inside it that the standoff cannot hold is the cross-field rule's, CrossFieldTests)
        outside("failsafe.min_separation_m", "0.9", range: "1 to 49.5"),
        outside("failsafe.min_separation_m", "50", range: "1 to 49.5"),
        outside("failsafe.gps_relative_error_m", "-0.1", range: "0 to 20"),
        outside("failsafe.gps_relative_error_m", "21", range: "0 to 20"),
        outside("failsafe.takeoff_timeout_s", "0.5", range: "1 to 30"),
        outside("failsafe.takeoff_timeout_s", "31", range: "1 to 30"),
        outside("failsafe.climb_timeout_s", "4", range: "5 to 120"),
        outside("failsafe.climb_timeout_s", "121", range: "5 to 120"),
        outside("failsafe.low_battery_confirm_s", "-1", range: "0 to 30"),
        outside("failsafe.low_battery_confirm_s", "31", range: "0 to 30"),
        outside("failsafe.critical_battery_pct", "-1", range: "0 to 90"),
        outside("failsafe.critical_battery_pct", "91", range: "0 to 90"),
        outside("failsafe.max_eph_m", "4.5", range: "5 to 1000"),
        outside("failsafe.max_eph_m", "1001", range: "5 to 1000"),
        outside("failsafe.max_fix_lag_s", "0.1", range: "0.2 to 10"),
        outside("failsafe.max_fix_lag_s", "11", range: "0.2 to 10"),
        outside("failsafe.max_wind_mps", "-0.5", range: "0 to 30"),
        outside("failsafe.max_wind_mps", "31", range: "0 to 30"),
        outside("failsafe.max_wind_mps", "nan", range: "0 to 30"),
        outside("failsafe.wind_saturation_s", "0.4", range: "0.5 to 10"),
        outside("failsafe.wind_saturation_s", "10.5", range: "0.5 to 10"),
        outside("log.max_flights", "-1", range: "0 to 100000"),
        outside("log.max_flights", "100001", range: "0 to 100000"),
        outside("log.max_total_mb", "-5", range: "0 to 1000000"),
        outside("log.max_total_mb", "1000001", range: "0 to 1000000"),
        outside("follow.standoff_m", "nan", range: "2 to 50"),
        outside("follow.standoff_m", "+nan", shown: "nan", range: "2 to 50"),
        outside("follow.standoff_m", "inf", range: "2 to 50"),
        outside("failsafe.geofence_m", "-inf", range: "10 to 2000"),
        outside("failsafe.land_after_s", "+inf", shown: "inf", range: "1 to 120"),
        outside("drone.altitude_max_m", "nan", range: "1 to 100"),
        outside("onboard.mount_offset_deg", "nan", range: "any finite number"),
        outside("onboard.mount_offset_deg", "inf", range: "any finite number"),
        outside("onboard.mount_offset_deg", "-inf", range: "any finite number"),
    ]

    @Test("a number outside its range is reported with its key, line, value and range",
          arguments: outOfRangeCases)
    func outOfRange(_ c: RangeCase) throws {
        // Given a flyable document with one key out of range, when it is parsed
        let (problem, line) = try TestDocument.soleProblem(writing: c.key, c.value)
        // Then only that key is reported (no cross-field echo of the rejected value)
        #expect(problem == .outOfRange(path: TestDocument.path, line: line, key: c.key, value: c.shown, range: c.range))
    }

    /// The numeric keys whose accepted range is their declared spec's, fixed (no other key bounds it).
    static var fixedRangeKeys: [ConfigKey] {
        ConfigKeys.all.filter { key in key.spec.map { key.rangeText == ConfigReader.format($0.range) } ?? false }
    }

    /// Just below and just above `spec`'s range: 1 outside for a whole-number key, 1 % of the range's
    /// width for the others; the value as written and as the problem shows it.
    static func justOutside(_ key: ConfigKey) throws -> [(value: String, shown: String)] {
        let range = try #require(key.spec).range
        if key.isInteger {
            return [Int(range.lowerBound) - 1, Int(range.upperBound) + 1].map { (String($0), String($0)) }
        }
        let step = (range.upperBound - range.lowerBound) / 100
        return [range.lowerBound - step, range.upperBound + step].map { (String($0), ConfigReader.format($0)) }
    }

    @Test("every numeric key with a fixed range refuses a value just outside either bound, naming that range",
          arguments: fixedRangeKeys.map(\.dotted))
    func outOfRangeEveryKey(dotted: String) throws {
        let key = try #require(ConfigKeys.all.first { $0.dotted == dotted })
        for (value, shown) in try Self.justOutside(key) {
            // Given a flyable document with the key just outside its range, when it is parsed
            let (problem, line) = try TestDocument.soleProblem(writing: dotted, value)
            // Then only that key is reported, with the value and the row's range
            #expect(problem == .outOfRange(path: TestDocument.path, line: line, key: dotted, value: shown,
                                           range: key.rangeText))
        }
    }

    @Test("every other numeric key (a range another key bounds, any finite angle, a port) has cases of its own")
    func outOfRangeTableCoversTheOtherNumericKeys() {
        let fixed = Set(Self.fixedRangeKeys.map(\.dotted))
        let others = Set(ConfigKeys.all.filter { ($0.spec != nil || $0.isInteger) && !fixed.contains($0.dotted) }.map(\.dotted))
        #expect(others.isSuperset(of: ["onboard.mount_offset_deg", "follow.altitude_m", "gpsd.port"]))
        #expect(others.subtracting(Self.outOfRangeCases.map(\.key)).isEmpty)
    }

    @Test("range bounds themselves are accepted",
          arguments: [
              ("follow.standoff_m", "50"), ("follow.max_tilt_deg", "3"),
              ("failsafe.max_target_distance_m", "10"), ("failsafe.max_target_distance_m", "500"),
              ("follow.max_tilt_deg", "30"), ("follow.braking_tilt_deg", "20"), ("follow.braking_tilt_deg", "30"),
              ("follow.max_climb_mps", "2.0"), ("failsafe.min_battery_pct", "5"),
              ("failsafe.min_battery_pct", "90"), ("gpsd.port", "1"), ("gpsd.port", "65535"),
              ("failsafe.navdata_timeout_s", "0.1"), ("failsafe.geofence_m", "2000"),
              ("failsafe.gps_relative_error_m", "0"), ("failsafe.gps_relative_error_m", "20"),
              ("failsafe.takeoff_timeout_s", "1"), ("failsafe.takeoff_timeout_s", "30"),
              ("failsafe.climb_timeout_s", "5"), ("failsafe.climb_timeout_s", "120"),
              ("failsafe.low_battery_confirm_s", "0"), ("failsafe.critical_battery_pct", "0"),
              ("failsafe.critical_battery_pct", "90"), ("failsafe.max_eph_m", "5"), ("failsafe.max_eph_m", "1000"),
              ("failsafe.max_fix_lag_s", "0.2"), ("failsafe.max_fix_lag_s", "10"),
              ("failsafe.max_wind_mps", "0"), ("failsafe.max_wind_mps", "30"),
              ("failsafe.wind_saturation_s", "0.5"), ("failsafe.wind_saturation_s", "10"),
              ("mavlink.port", "1"), ("mavlink.port", "65535"), ("mavlink.local_port", "0"),
              ("mavlink.local_port", "65535"), ("mavlink.system_id", "1"), ("mavlink.system_id", "255"),
              ("mavlink.component_id", "1"), ("mavlink.component_id", "255"), ("mavlink.target_system", "0"),
              ("mavlink.target_system", "255"),
              ("follow.angle_deg", "-180"), ("follow.angle_deg", "180"), ("follow.orbit_speed_mps", "0.2"),
              ("follow.orbit_speed_mps", "5"), ("follow.altitude_min_m", "1"), ("follow.altitude_min_m", "10"),
          ])
    func boundsAccepted(key: String, value: String) throws {
        var doc = TestDocument.flyable(key, value)
        // A 20 m GPS error only works with a long standoff, a 3° tilt (weak braking) too (cross-field
        // rules, tested separately). The 2 m lower bound of follow.standoff_m is a static bound the
        // walker rule (CrossFieldTests) never lets through at any tilt.
        if key == "failsafe.gps_relative_error_m" { doc.entries.append(("follow", "standoff_m", "27")) }
        if key == "follow.max_tilt_deg" { doc.entries.append(("follow", "standoff_m", "20")) }
        let result = doc.parse()
        #expect(result.failure == nil, "\(result.failure?.description ?? "")")
    }

    // MARK: Numbers

    @Test("an integer is accepted where a float is expected")
    func integerForFloat() throws {
        let c = try TestDocument.flyable([("follow", "standoff_m", "12"), ("drone", "altitude_max_m", "20")])
            .parse().get()
        #expect(c.follow.standoffMeters == 12.0)
        #expect(c.drone.altitudeMaxMeters == 20.0)
    }

    @Test("mount_offset_deg is normalised into [0, 360)",
          arguments: [
              ("-45", 315.0), ("450", 90.0), ("90", 90.0), ("315", 315.0), ("360", 0.0), ("-360", 0.0),
              ("720.5", 0.5), ("0", 0.0), ("-0.5", 359.5), ("1e6", 280.0),
          ])
    func mountOffsetNormalised(written: String, expected: Double) throws {
        let c = try TestDocument.flyable("onboard.mount_offset_deg", written).parse().get()
        #expect(abs(c.follow.mountOffsetDegrees - expected) < 1e-9)
        #expect(c.follow.mountOffsetDegrees >= 0 && c.follow.mountOffsetDegrees < 360)
    }

    @Test("-45 and 315 give the same configuration")
    func equivalentMountOffsets() throws {
        let a = try TestDocument.flyable("onboard.mount_offset_deg", "-45").parse().get()
        let b = try TestDocument.flyable("onboard.mount_offset_deg", "315").parse().get()
        #expect(a == b)
    }

    // MARK: Strings

    static let invalidStringCases: [(key: String, value: String, reasonContains: String)] = [
        (key: "gpsd.host", value: "\"\"", reasonContains: "must not be empty"),
        (key: "target.host", value: "\"\"", reasonContains: "must not be empty"),
        (key: "onboard.host", value: "\"gps host\"", reasonContains: "is not a host name"),
        (key: "gpsd.host", value: "\"127.0.0.1:2947\"", reasonContains: "looks like host:port"),
        (key: "onboard.host", value: "\"fe80::1::2::3::4::5::6\"", reasonContains: "not a valid IPv6 address"),
        (key: "drone.address", value: "\"\"", reasonContains: "must not be empty"),
        (key: "drone.address", value: "\"192.168.1.256\"", reasonContains: "is not a valid IPv4 address"),
        (key: "drone.address", value: "\"192.168.1\"", reasonContains: "is not a valid IPv4 address"),
        (key: "drone.address", value: "\"::1\"", reasonContains: "IPv4"),
        (key: "drone.address", value: "\"udp://192.168.1.1\"", reasonContains: "is not a host name"),
        (key: "target.device", value: "\"gpstarget\"", reasonContains: "is not a gpsd device path"),
        (key: "onboard.device", value: "\"/dev/gps onboard\"", reasonContains: "whitespace"),
        (key: "target.device", value: "\"/dev/\(String(repeating: "x", count: 123))\"",
              reasonContains: "128 bytes long"),
        (key: "log.path", value: "\"/tmp/a\\nb\"", reasonContains: "control characters"),
        (key: "mavlink.address", value: "\"\"", reasonContains: "must not be empty; use \"127.0.0.1\""),
        (key: "mavlink.address", value: "\"127.0.0.1:14550\"", reasonContains: "IPv4"),
        (key: "mavlink.address", value: "\"udp://127.0.0.1\"", reasonContains: "is not a host name"),
        (key: "mavlink.address", value: "\"127.0.0.256\"", reasonContains: "is not a valid IPv4 address"),
    ]

    @Test("unusable strings are invalid, with a reason", arguments: invalidStringCases)
    func invalidString(_ c: (key: String, value: String, reasonContains: String)) throws {
        let (problem, written) = try TestDocument.soleProblem(writing: c.key, c.value)
        guard case .invalid(let path, let line, let key, let reason) = problem else {
            Issue.record("expected .invalid, got \(problem)")
            return
        }
        #expect(path == TestDocument.path && key == c.key && line == written)
        #expect(reason.contains(c.reasonContains), "\(reason)")
    }

    @Test("usable strings are accepted",
          arguments: [
              ("gpsd.host", "\"gps.local\""), ("gpsd.host", "\"::1\""), ("gpsd.host", "\"::ffff:192.0.2.1\""),
              ("target.host", "\"2001:db8::7\""), ("gpsd.host", "\"10.0.0.7\""),
              ("drone.address", "\"ardrone.local\""), ("target.device", "\"tcp://127.0.0.1:4000\""),
              ("target.device", "\"/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00\""),
              ("log.path", "\"/var/log/followme/flight é.log\""),
          ])
    func validString(key: String, value: String) {
        let result = TestDocument.flyable(key, value).parse()
        #expect(result.failure == nil, "\(result.failure?.description ?? "")")
    }

    @Test("empty device and log path mean 'any device' and 'no log'")
    func emptyStringsAreNil() throws {
        // Given target and onboard on different gpsd ports, so "any device" is unambiguous
        let c = try TestDocument(entries: [
            ("target", "device", "\"\""), ("target", "port", "2947"),
            ("onboard", "device", "\"\""), ("onboard", "port", "2948"), ("log", "path", "\"\""),
        ]).parse().get()
        #expect(c.target.device == nil && c.onboard.device == nil && c.log.path == nil)
    }

    @Test("target and onboard default their host and port to [gpsd]")
    func endpointsInheritFromGPSD() throws {
        let c = try TestDocument.flyable([("gpsd", "host", "\"gps.local\""), ("gpsd", "port", "3000"),
                                          ("onboard", "port", "3001")]).parse().get()
        #expect(c.target.endpoint == GPSDEndpoint(host: "gps.local", port: 3000))
        #expect(c.onboard.endpoint == GPSDEndpoint(host: "gps.local", port: 3001))
    }
}
