@testable import Simulation
@testable import FollowCore
import FlightService
import Testing

/// Issue 26's goal for the angle mode, as decided in session 15 (docs/bench.md §5.1): angle 180 behind a
/// 1.4 m/s walker with 90° turns on the spot. The whole-run angle error has a floor no controller can go
/// under — the swing round the circle is bounded by `orbit_speed_mps` on purpose (≈ 17.6° RMS at the
/// shipped 2 m/s round 11 m) — and the realistic GPS's bias between the two receivers moves the true circle
/// by metres no controller can see. So the goal is on what the controller owns: the angle error beyond
/// the bound's floor ≤ 15° RMS and the standoff ≤ 0.5 m RMS, on the positions the receivers' slow error
/// shows; on clean GPS the whole-run error is within 1.5° of the floor.
@Suite("Bench: the angle mode's goal behind a walker with 90° turns")
struct AngleGoalBenchTests {
    struct Condition: Sendable, CustomTestStringConvertible {
        var noise: BenchNoise, link: BenchLink, plant: BenchPlant, rateHz: Double
        var testDescription: String { "\(noise) \(link) \(plant) \(rateHz) Hz" }
    }

    static let conditions: [Condition] = [
        Condition(noise: .clean, link: .ardrone, plant: .nominal, rateHz: 5),
        Condition(noise: .clean, link: .mavlink, plant: .offModel, rateHz: 5),
        Condition(noise: .realistic, link: .ardrone, plant: .offModel, rateHz: 1),
        Condition(noise: .realistic, link: .mavlink, plant: .nominal, rateHz: 1),
    ]

    @Test("beyond the bound ≤ 15° and standoff ≤ 0.5 m RMS as the receivers show it; clean: within 1.5° of the floor",
          arguments: conditions)
    func angleBehindTurns(_ condition: Condition) throws {
        var c = BenchConfiguration()
        (c.plant, c.targetRateHertz) = (condition.plant, condition.rateHz)
        // The shipped standoff, as `followme bench` flies it (the runner's own default is 8 m)
        c.standoffMeters = FollowMeConfiguration.defaults.follow.standoffMeters
        let result = try BenchRunner.run(.angleBehind(), controller: .followMe, noise: condition.noise, configuration: c,
                                         link: condition.link)
        let f = try #require(result.metrics.followMode)
        let (whole, floor) = (try #require(f.angleErrorRMSDegrees), try #require(f.angleFloorRMSDegrees))
        let beyondSeen = try #require(f.angleErrorBeyondBoundSeenRMSDegrees)
        let radiusSeen = try #require(f.radiusErrorSeenRMSMeters)
        print("[\(condition.testDescription)] angle \(whole)° floor \(floor)° beyond \(f.angleErrorBeyondBoundRMSDegrees ?? .nan)° "
            + "seen \(beyondSeen)°; radius \(f.radiusErrorRMSMeters ?? .nan) m seen \(radiusSeen) m; closest \(result.metrics.minSeparationMeters) m")
        #expect(beyondSeen <= 15)
        #expect(radiusSeen <= 0.5)
        if condition.noise == .clean { #expect(whole - floor <= 1.5) }
        // The floor is the bound's: 90° swings round 11 m at 2 m/s, three turns in 225 s of walking, the
        // walker starting and stopping at 4 m/s² (16.65°; 17.6° when they started at full speed)
        #expect(c.standoffMeters == 11 && abs(floor - 16.65) < 0.6, "floor \(floor)° at \(c.standoffMeters) m")
        #expect(result.metrics.minSeparationMeters >= c.failsafe.minSeparationMeters)
    }
}
