@testable import FollowCore
import Testing
@testable import FlightService

/// The shipped `etc/followme.toml` documents each key in the comment lines right above it; those
/// comments must state the default and the range the key's row declares (`ConfigKeys`, whose numeric
/// keys take the flight core's `ParameterSpec`s), so the file cannot drift from what `config check` enforces.
@Suite("Shipped etc/followme.toml comments state the declared defaults and ranges")
struct ShippedCommentsTests {
    /// The comment lines directly above `table.key` (up to the previous blank or non-comment line), joined.
    static func comment(above table: String, _ key: String, in text: String) throws -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(TOMLLineLocator(text: text).line(table: table, key: key), "\(table).\(key) missing")
        var block: [String] = []
        var index = line - 2
        while index >= 0, lines[index].hasPrefix("#") {
            block.insert(String(lines[index].dropFirst()), at: 0)
            index -= 1
        }
        return block.joined(separator: " ")
    }

    /// True if `text` contains `phrase` not followed by more digits of a longer number ("Default 1"
    /// must not match "Default 10" or "Default 1.5").
    static func mentions(_ text: String, _ phrase: String) -> Bool {
        var search = text[...]
        while let found = search.range(of: phrase) {
            let rest = search[found.upperBound...]
            let continuesNumber = rest.first.map(\.isNumber) == true
                || (rest.first == "." && rest.dropFirst().first.map(\.isNumber) == true)
            if !continuesNumber { return true }
            search = rest
        }
        return false
    }

    @Test("every numeric key's comment states its declared default and range",
          arguments: ConfigKeys.all.filter { $0.spec != nil }.map(\.dotted))
    func numericKey(dotted: String) throws {
        // Given the comment above the key in the shipped file and the key's row
        let key = try #require(ConfigKeys.all.first { $0.dotted == dotted })
        let comment = try Self.comment(above: key.table, key.name, in: try ShippedConfigAndRenderingTests.shippedText())
        let spec = try #require(key.spec)
        // Then it states the default
        let defaultText = ConfigReader.format(spec.defaultValue)
        #expect(key.defaultText == defaultText)
        #expect(Self.mentions(comment, "Default \(defaultText)"), "\(dotted): comment lacks \"Default \(defaultText)\": \(comment)")
        // And the range as the row states it: "LOW to HIGH", or "LOW to KEY" where another key narrows the
        // upper bound; the mount offset is any finite angle in the file (normalised before it reaches the core)
        let low = ConfigReader.format(spec.range.lowerBound)
        let range: String
        if dotted == "onboard.mount_offset_deg" {
            range = "Any finite angle"
        } else if dotted == "follow.altitude_m" || dotted == "follow.altitude_min_m" {
            range = "\(low) to drone.altitude_max_m"
        } else if dotted == "follow.braking_tilt_deg" {
            range = "follow.max_tilt_deg to \(ConfigReader.format(spec.range.upperBound))"
        } else if dotted == "failsafe.min_separation_m" {
            range = "\(low) to follow.standoff_m - 0.5 - gps_relative_error_m"
        } else {
            range = ConfigReader.format(spec.range)
        }
        #expect(key.rangeText == range)
        #expect(Self.mentions(comment, range), "\(dotted): comment lacks \"\(range)\": \(comment)")
    }

    @Test("the rate_hz comments state the numeric range and the keyword defaults",
          arguments: [("target", "\"max\""), ("onboard", "\"device\"")])
    func rateKeys(table: String, defaultKeyword: String) throws {
        let comment = try Self.comment(above: table, "rate_hz", in: try ShippedConfigAndRenderingTests.shippedText())
        #expect(Self.mentions(comment, ConfigReader.format(FollowMeConfiguration.ReceiverRate.hertzRange)), "\(comment)")
        #expect(comment.contains("Default \(defaultKeyword)"), "\(comment)")
        let d = FollowMeConfiguration.defaults
        #expect((table == "target" ? d.target.rate : d.onboard.rate).description == defaultKeyword)
    }

    @Test("the phrase matcher does not take a longer number for a shorter one")
    func mentionsIsExact() {
        #expect(Self.mentions("Default 10: high", "Default 10"))
        #expect(!Self.mentions("Default 10: high", "Default 1"))
        #expect(!Self.mentions("Default 1.5 (as above)", "Default 1"))
        #expect(Self.mentions("Default 1. Then Default 1.5", "Default 1"))
    }

    @Test("every numeric key has a declared spec whose default passes its own range, and the defaults are them")
    func specsAreComplete() {
        let numeric = ConfigSchema.tables.flatMap { t in t.keys.map { "\(t.name).\($0)" } }
            .filter { !["port", "at_port", "navdata_port", "rate_hz", "host", "device", "address", "outdoor", "path", "directory", "socket",
                        "protocol", "autopilot", "position_source", "takeoff", "mode", "orbit_direction", "altitude_mode", "yaw", "point_camera", "listen", "land_without_code", "code_file",
                        "latency_source", "record", "stream"]
                .contains(String($0.split(separator: ".")[1])) }
        // [video] port is a number with a spec (0 = the stream's own port), unlike the other ports
        #expect(Set(numeric) == Set(ConfigSchema.specs.keys).subtracting(["video.port"]))
        let d = FollowMeConfiguration.defaults
        #expect(d.follow.standoffMeters == FollowParameters().standoffMeters)
        #expect(d.failsafe.gpsRelativeErrorMeters == FailsafeParameters().gpsRelativeErrorMeters)
        #expect(d.followParameters == FollowParameters(targetFixRateHz: d.target.assumedFixRateHz))
        #expect(d.failsafeParameters == FailsafeParameters())
    }
}
