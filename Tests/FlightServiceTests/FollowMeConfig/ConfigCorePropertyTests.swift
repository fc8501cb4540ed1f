@testable import FlightService
@testable import FollowCore
import Testing

/// Property: every configuration `followme config check` accepts is one `followme run` can fly, i.e.
/// it builds every core parameter type (`FlightConfiguration`: FollowParameters, FailsafeParameters,
/// the AR.Drone link's limits or the MAVLink link's configuration; then the `FlightStateMachine`, whose own rules include the standoff rule).
@Suite("Config accepted ⇒ core builds (seeded property test)")
struct ConfigCorePropertyTests {
    /// A document with every numeric key drawn inside or at the edges of its declared range; keys whose
    /// range depends on another key (altitude_m, min_separation_m, land_after_s) are drawn inside the
    /// dependent range, so the cross-field rules are exercised rather than always failing.
    static func randomDocument(_ random: inout SplitMix64) -> TestDocument {
        var values: [String: Double] = [:]
        var entries: [(table: String, key: String, value: String)] = []
        func write(_ dotted: String, _ value: Double, integer: Bool) {
            values[dotted] = value
            let parts = dotted.split(separator: ".").map(String.init)
            entries.append((parts[0], parts[1], integer ? String(Int(value)) : String(value)))
        }
        for key in ConfigKeyRanges.independent {
            write(key.dotted, draw(key.range, integer: key.integer, &random), integer: key.integer)
        }
        // Dependent ranges: follow.altitude_m, altitude_min_m ≤ drone.altitude_max_m; min_separation_m ≤ standoff −
        // margin − gps error; land_after_s > target_timeout_s.
        for key in ["follow.altitude_m", "follow.altitude_min_m"] {
            write(key, draw(ConfigKeyRanges.altitude.lowerBound...values["drone.altitude_max_m"]!, integer: false, &random),
                  integer: false)
        }
        let separationTop = values["follow.standoff_m"]! - ConfigKeyRanges.separationMargin
            - values["failsafe.gps_relative_error_m"]!
        let separationLow = ConfigKeyRanges.minSeparation.lowerBound
        write("failsafe.min_separation_m",
              draw(separationLow...max(separationLow, separationTop), integer: false, &random), integer: false)
        // follow.braking_tilt_deg: from follow.max_tilt_deg up (its row's bound).
        let brakingTop = ConfigKeyRanges.brakingTilt.upperBound
        write("follow.braking_tilt_deg", draw(min(values["follow.max_tilt_deg"]!, brakingTop)...brakingTop, integer: false, &random),
              integer: false)
        let landLow = max(ConfigKeyRanges.landAfter.lowerBound, values["failsafe.target_timeout_s"]!.nextUp)
        write("failsafe.land_after_s", draw(landLow...ConfigKeyRanges.landAfter.upperBound, integer: false, &random),
              integer: false)
        // target.rate_hz: a keyword or a number in its range (it sets the standoff rule's fix rate).
        switch random.nextInt(below: 3) {
        case 0: entries.append(("target", "rate_hz", "\"max\""))
        case 1: entries.append(("target", "rate_hz", "\"device\""))
        default:
            entries.append(("target", "rate_hz", String(draw(ConfigKeyRanges.rateHz, integer: false, &random))))
        }
        entries.append(("onboard", "mount_offset_deg", String(Double(random.nextInt(in: -720_000...720_000)) / 1000)))
        // Half of them fly a MAVLink drone (the [mavlink] numbers above are drawn either way), so the
        // MAVLink link's own checks (MAVLinkLinkConfiguration) see every accepted value too.
        if random.nextInt(below: 2) == 0 {
            entries.append(("drone", "protocol", "\"mavlink\""))
            entries.append(("mavlink", "autopilot", random.nextInt(below: 2) == 0 ? "\"px4\"" : "\"ardupilot\""))
            entries.append(("mavlink", "position_source",
                            random.nextInt(below: 2) == 0 ? "\"receiver\"" : "\"autopilot\""))
            entries.append(("mavlink", "port", String(random.nextInt(in: 1...65535))))
        }
        return TestDocument.flyable(entries)
    }

    /// The lower bound, the upper bound, or a uniform draw between them (a quarter, a quarter, a half).
    static func draw(_ range: ClosedRange<Double>, integer: Bool, _ random: inout SplitMix64) -> Double {
        let value: Double
        switch random.nextInt(below: 4) {
        case 0: value = range.lowerBound
        case 1: value = range.upperBound
        default: value = range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnitInterval()
        }
        return integer ? value.rounded(.down) : value
    }

    @Test("3000 random configs: each one config check accepts builds FlightConfiguration and FlightStateMachine")
    func acceptedConfigsBuildTheCore() throws {
        // Given 3000 seeded random documents inside and at the edges of each key's declared range
        var random = SplitMix64(seed: 13)
        var accepted = 0, acceptedMAVLink = 0
        var refused: [String] = []
        for _ in 0..<3000 {
            let doc = Self.randomDocument(&random)
            // When config validation accepts one
            guard case .success(let config) = doc.parse() else { continue }
            accepted += 1
            if config.drone.linkProtocol == .mavlink { acceptedMAVLink += 1 }
            // Then the flight's own mapping and the flight core take it as it is
            do {
                let flight = try FlightConfiguration(config)
                _ = try FlightStateMachine(follow: flight.follow, failsafe: flight.failsafe, vehicle: flight.vehicle)
            } catch {
                if refused.count < 5 { refused.append("\(error)\n\(doc.text)") }
                else { refused.append("") }
            }
        }
        let examples = refused.prefix(5).joined(separator: "\n---\n")
        #expect(refused.isEmpty, "\(refused.count) accepted configs refused by the core; first:\n\(examples)")
        // And the draw really exercised accepted configs (not only cross-field refusals), of both links
        #expect(accepted >= 600, "only \(accepted) of 3000 random configs were accepted")
        #expect(acceptedMAVLink >= 300, "only \(acceptedMAVLink) accepted MAVLink configs")
    }
}

/// The declared range of each numeric key, as the config validation reads it (`ConfigSchema.specs`).
enum ConfigKeyRanges {
    /// Keys drawn on their own; the dependent ones below are drawn after the keys they depend on.
    static let independent: [(dotted: String, range: ClosedRange<Double>, integer: Bool)] = ConfigSchema.specs
        .filter { key, _ in !dependent.contains(key) }
        .sorted { $0.key < $1.key }
        .map { key, spec in (key, spec.range, ConfigSchema.integerKeys.contains(key)) }
    static let dependent: Set<String> = [
        "follow.altitude_m", "follow.altitude_min_m", "failsafe.min_separation_m", "failsafe.land_after_s",
        "onboard.mount_offset_deg", "follow.braking_tilt_deg",
    ]
    static let altitude = ConfigSchema.specs["follow.altitude_m"]!.range
    static let minSeparation = ConfigSchema.specs["failsafe.min_separation_m"]!.range
    static let landAfter = ConfigSchema.specs["failsafe.land_after_s"]!.range
    static let brakingTilt = ConfigSchema.specs["follow.braking_tilt_deg"]!.range
    static let separationMargin = FollowMeConfiguration.separationMarginMeters
    static let rateHz = FollowMeConfiguration.ReceiverRate.hertzRange
}
