@testable import FlightService
@testable import FollowCore
import ARDrone
import Testing

/// `[failsafe] max_wind_mps` and `wind_saturation_s`: the wind failsafe's two keys, read like every
/// other failsafe key and handed to the flight core (`FailsafeParameters`, then `WindMonitor`).
@Suite("Config: the wind failsafe keys")
struct WindConfigTests {
    @Test("both keys parse and reach the flight core's FailsafeParameters and WindMonitor")
    func keysReachTheCore() throws {
        // Given a flyable file with a 7.5 m/s wind limit and 3.5 s of saturation allowed
        let config = try TestDocument.flyable([
            ("failsafe", "max_wind_mps", "7.5"), ("failsafe", "wind_saturation_s", "3.5"),
        ]).parse().get()
        // Then the configuration holds them
        #expect(config.failsafe.maxWindMetersPerSecond == 7.5 && config.failsafe.windSaturationSeconds == 3.5)
        // And the core's parameters carry them, as does what `followme run` builds its state machine from
        #expect(config.failsafeParameters.maxWindMetersPerSecond == 7.5)
        #expect(config.failsafeParameters.windSaturationSeconds == 3.5)
        let flight = try FlightConfiguration(config)
        let machine = try FlightStateMachine(follow: flight.follow, failsafe: flight.failsafe, vehicle: .tiltLoop)
        #expect(machine.wind.maxWindMetersPerSecond == 7.5 && machine.wind.saturationSeconds == 3.5)
    }

    @Test("an integer is accepted for either key (both are floats)")
    func integers() throws {
        let config = try TestDocument.flyable([
            ("failsafe", "max_wind_mps", "12"), ("failsafe", "wind_saturation_s", "4"),
        ]).parse().get()
        #expect(config.failsafeParameters.maxWindMetersPerSecond == 12)
        #expect(config.failsafeParameters.windSaturationSeconds == 4)
    }

    @Test("a file from before the keys existed validates and gets the defaults: no fixed limit, 2 s")
    func oldFileTakesDefaults() throws {
        // Given what config check printed for the shipped file before MAVLink (and before the wind keys)
        let old = MAVLinkConfigTests.renderedBeforeMAVLink
        #expect(!old.contains("max_wind_mps") && !old.contains("wind_saturation_s"))
        // When it is parsed
        let config = try FollowMeConfiguration.parse(toml: old, path: "old/followme.toml")
        // Then the wind failsafe runs at the core's declared defaults
        #expect(config.failsafe.maxWindMetersPerSecond == 0 && config.failsafe.windSaturationSeconds == 2)
        #expect(config.failsafeParameters.maxWindMetersPerSecond == FailsafeParameters().maxWindMetersPerSecond)
        #expect(config.failsafeParameters.windSaturationSeconds == FailsafeParameters().windSaturationSeconds)
    }

    @Test("an out-of-range value reads FILE:LINE: KEY: value and the allowed range",
          arguments: [
              ("failsafe.max_wind_mps", "31", "31 is out of range; allowed: 0 to 30"),
              ("failsafe.max_wind_mps", "-1", "-1 is out of range; allowed: 0 to 30"),
              ("failsafe.wind_saturation_s", "0.25", "0.25 is out of range; allowed: 0.5 to 10"),
              ("failsafe.wind_saturation_s", "inf", "inf is out of range; allowed: 0.5 to 10"),
          ])
    func outOfRangeMessage(key: String, value: String, message: String) throws {
        // Given a flyable file with the key out of range, when it is parsed
        let doc = TestDocument.flyable(key, value)
        let problems = try #require(doc.parse().failure)
        // Then the one problem names the file, the key's line, the key and the range
        let line = try #require(doc.line(of: key))
        #expect(problems.description == "\(TestDocument.path):\(line): \(key): \(message)")
    }

    @Test("a misspelt or misplaced wind key is refused with the right key suggested",
          arguments: [
              ("failsafe", "max_wind_ms", "failsafe.max_wind_mps"),
              ("failsafe", "wind_saturaton_s", "failsafe.wind_saturation_s"),
              ("follow", "max_wind_mps", "failsafe.max_wind_mps"),
          ])
    func typoSuggested(table: String, key: String, suggestion: String) throws {
        // Given the key written wrongly (a safety limit must not silently fall back to its default)
        let doc = TestDocument.flyable([(table, key, "5")])
        // When it is parsed, then it is an unknown key on its line, with the real one suggested
        let problems = try #require(doc.parse().failure).problems
        #expect(problems == [.unknownKey(path: TestDocument.path, line: doc.line(of: "\(table).\(key)"),
                                         key: "\(table).\(key)", suggestion: suggestion)])
    }

    @Test("config check prints both keys with unit and range, and the output parses back")
    func rendering() throws {
        // Given the defaults and a file that sets both keys
        let defaults = FollowMeConfiguration.defaultsWithDevices.renderedTOML()
        let set = try TestDocument.flyable([
            ("failsafe", "max_wind_mps", "6"), ("failsafe", "wind_saturation_s", "1.5"),
        ]).parse().get()
        // Then each prints as `key = value  # unit, range[, note]`, after max_fix_lag_s
        #expect(defaults.contains("max_fix_lag_s = 1.5  # s, 0.2 to 10\n"
            + "max_wind_mps = 0.0  # m/s, 0 to 30, 0 = off\nwind_saturation_s = 2.0  # s, 0.5 to 10\n"))
        let text = set.renderedTOML()
        #expect(text.contains("\nmax_wind_mps = 6.0  # m/s, 0 to 30, 0 = off\nwind_saturation_s = 1.5  # s, 0.5 to 10\n"))
        // And parsing the output gives the same configuration
        #expect(try FollowMeConfiguration.parse(toml: text, path: "rendered") == set)
    }
}
