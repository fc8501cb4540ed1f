@testable import ARDrone
@testable import FollowCore
@testable import Simulation
import Testing

@Suite("Wind: steady mean plus Gauss–Markov (Dryden-form) gusts")
struct WindModelTests {
    /// Samples `seconds` of wind every `step` seconds.
    static func samples(_ parameters: WindModel.Parameters, seed: UInt64, seconds: Double, step: Double) -> [PlaneVector] {
        var wind = WindModel(parameters: parameters, seed: seed)
        return (0..<Int(seconds / step)).map { wind.windENU(at: MonotonicTime(seconds: Double($0) * step)) }
    }

    @Test("a steady wind is its mean at every time, whatever the seed")
    func steady() {
        let p = WindModel.Parameters.steady(speedMetersPerSecond: 5, towardsDegrees: 90)
        for seed in [1, 2] as [UInt64] {
            #expect(Self.samples(p, seed: seed, seconds: 10, step: 0.5).allSatisfy {
                abs($0.east - 5) < 1e-12 && abs($0.north) < 1e-12
            })
        }
    }

    @Test("gust statistics for a seed: mean, standard deviation and correlation at one time constant")
    func gustStatistics() {
        // Given 5 m/s east with σ 1 m/s gusts, τ 5 s, sampled every 0.5 s for 20 000 s (4000 τ)
        let p = WindModel.Parameters(meanENU: PlaneVector(east: 5, north: 0), gustSigmaMetersPerSecond: 1,
                                     gustTimeConstantSeconds: 5)
        let s = Self.samples(p, seed: 7, seconds: 20_000, step: 0.5)
        let n = Double(s.count)
        let mean = s.reduce(PlaneVector.zero, +) / n
        let east = s.map { $0.east - mean.east }
        let variance = east.reduce(0) { $0 + $1 * $1 } / n
        let lag = 10 // samples = 5 s = τ
        var covariance = 0.0
        for i in 0..<(east.count - lag) { covariance += east[i] * east[i + lag] }
        let correlation = covariance / Double(east.count - lag) / variance
        // Then the mean is the steady wind (standard error σ·√(2τ/T) ≈ 0.02 m/s),
        #expect(abs(mean.east - 5) < 0.1)
        #expect(abs(mean.north) < 0.1)
        // the gusts have σ ≈ 1 m/s and their correlation at lag τ is e⁻¹ ≈ 0.37
        #expect(abs(variance.squareRoot() - 1) < 0.1)
        #expect(abs(correlation - _exp(-1)) < 0.05)
    }

    @Test("the same seed gives the same gusts; another seed other gusts")
    func deterministic() {
        let p = WindModel.Parameters.dryden(meanENU: PlaneVector(east: 5, north: 0))
        #expect(Self.samples(p, seed: 3, seconds: 60, step: 0.1) == Self.samples(p, seed: 3, seconds: 60, step: 0.1))
        #expect(Self.samples(p, seed: 3, seconds: 60, step: 0.1) != Self.samples(p, seed: 4, seconds: 60, step: 0.1))
    }

    @Test("Dryden low-altitude scales at 3 m in a 5 m/s wind (MIL-F-8785C, worked by hand)")
    func drydenScales() {
        // h = 3 m = 9.843 ft; base = 0.177 + 0.000823·9.843 = 0.185101
        // σ_u = 0.1·5 / base^0.4 = 0.5 / 0.50960 = 0.98116 m/s
        // L_u = 9.843 / base^1.2 ft = 9.843 / 0.13233 = 74.38 ft = 22.67 m; τ = L_u / 5 m/s = 4.534 s
        let p = WindModel.Parameters.dryden(meanENU: PlaneVector(east: 5, north: 0), altitudeMeters: 3)
        #expect(abs(p.gustSigmaMetersPerSecond - 0.9812) < 0.001)
        #expect(abs(p.gustTimeConstantSeconds - 4.534) < 0.01)
        #expect(p.meanENU == PlaneVector(east: 5, north: 0))
    }

    @Test("a simulator coasting in a wind that changes mid-flight drifts with the new wind")
    func simulatorFollowsWindChanges() {
        // Given a drone coasting (level PCMD) in calm air
        var sim = DroneSimulator(startAirborne: true)
        sim.pilot(.pcmd(ProgressiveCommand(flags: .progressive)), seconds: 5)
        #expect(sim.velocityENU.length < 0.01)
        // When the wind is set to 3 m/s north and it coasts on for 15 s
        sim.windENU = PlaneVector(east: 0, north: 3)
        sim.pilot(.pcmd(ProgressiveCommand(flags: .progressive)), seconds: 15)
        // Then it moves with the air
        #expect(abs(sim.velocityENU.north - 3) < 0.05)
    }
}

@Suite("Receivers without Doppler velocity")
struct NoDopplerReceiverTests {
    @Test("a receiver that does not report velocity gives fixes without speed and track, same positions")
    func noVelocity() throws {
        // Given two perfect 5 Hz receiver pairs, one whose target reports no velocity
        let model = GPSErrorModel.realistic
        var without = model
        without.target.reportsVelocity = false
        let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48, longitudeDegrees: 2)!)
        var a = GPSPairSimulator(model: model, plane: plane, seed: 3, start: .zero)
        var b = GPSPairSimulator(model: without, plane: plane, seed: 3, start: .zero)
        let person = GPSTruthSample(positionPlane: .zero, velocityENU: PlaneVector(east: 3, north: 0))
        let drone = GPSTruthSample(positionPlane: PlaneVector(east: -8, north: 0), velocityENU: .zero, noseHeadingDegrees: 90)
        var fixesA: [GPSFix] = [], fixesB: [GPSFix] = []
        for step in 0...50 {
            let now = MonotonicTime(seconds: Double(step) * 0.1)
            a.update(now: now, target: person, onboard: drone)
            b.update(now: now, target: person, onboard: drone)
            while let o = a.nextOutput(readyBy: now) { if case .fix(let f) = o, f.role == .target { fixesA.append(f) } }
            while let o = b.nextOutput(readyBy: now) { if case .fix(let f) = o, f.role == .target { fixesB.append(f) } }
        }
        // Then both deliver the same positions, only one with speed and track
        #expect(fixesA.count == fixesB.count)
        #expect(fixesA.count > 10)
        #expect(zip(fixesA, fixesB).allSatisfy { $0.coordinate == $1.coordinate })
        #expect(fixesA.allSatisfy { $0.speedMetersPerSecond != nil && $0.trackDegrees != nil })
        #expect(fixesB.allSatisfy { $0.speedMetersPerSecond == nil && $0.trackDegrees == nil })
    }
}
