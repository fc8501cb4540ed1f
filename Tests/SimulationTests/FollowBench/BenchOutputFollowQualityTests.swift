@testable import Simulation
import Foundation
import Testing

@Suite("followme bench output: issue 12 fields")
struct BenchOutputFollowQualityTests {
    @Test("JSON and table carry plant, wind, target rate, trailing, aim bias, climb drift, stalls and time per state")
    func followQualityFields() throws {
        // Given a short off-model run of the windy stand at 1 Hz without Doppler
        var config = BenchConfiguration(durationSeconds: 20, personStartSeconds: 15, settleSeconds: 5, eulerAngleMaxDegrees: 20)
        config.plant = .offModel
        config.targetRateHertz = 1
        config.targetReportsVelocity = false
        let scenarios = [BenchScenario.windStand(), BenchScenario.jogStraight()]
        let report = try BenchRunner.runSuite(scenarios: scenarios, controllers: [.followMe], noises: [.clean],
                                              configuration: config)
        // When it is written as JSON
        let json = BenchOutput.json(report, scenarios: scenarios, wallSeconds: 0.01, notes: [])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        // Then the configuration and every run say what they were
        #expect(object["plant"] as? String == "off-model")
        #expect(object["target_rate_hz"] as? Double == 1)
        #expect(object["target_doppler"] as? Bool == false)
        let runs = try #require(object["runs"] as? [[String: Any]])
        let wind = try #require(runs.first { $0["scenario"] as? String == "wind-stand" })
        #expect(wind["wind_east_mps"] as? Double == 5)
        #expect(wind["plant"] as? String == "off-model")
        #expect(wind["climb_drift_m"] is Double)
        #expect(wind["aim_bias_m"] is Double)
        #expect(wind["trailing_mean_m"] == nil) // the person never moved
        let states = try #require(wind["state_seconds"] as? [String: Double])
        #expect(states["following"] != nil)
        let jog = try #require(runs.first { $0["scenario"] as? String == "jog-straight" })
        #expect(jog["trailing_mean_m"] is Double)
        #expect(jog["stalled_following_s"] is Double)
        // issue 25: the speed after the person starts, only where the person started
        #expect(jog["speed_overshoot_mps"] is Double)
        #expect(jog["speed_swings"] is Int)
        #expect(jog["person_starts"] as? Int == 1)
        #expect(wind["speed_overshoot_mps"] == nil)
        // And the table has the follow-quality section with one row per FollowMe run
        let table = BenchOutput.table(report, scenarios: scenarios, wallSeconds: 0.01)
        #expect(table.contains("follow quality: plant off-model, target fixes 1.0 Hz without Doppler velocity"))
        #expect(table.contains("v over m/s  over %  swings  ring s  settle s"))
        #expect(table.split(separator: "\n").filter { $0.hasPrefix("wind-stand ") || $0.hasPrefix("jog-straight ") }.count == 4)
    }
}
