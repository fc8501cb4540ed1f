@testable import FollowCore
@testable import Simulation
import Testing

private let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7)!)

/// Runs the pair for `seconds` with 5 ms polling and returns every output in arrival order.
private func run(
    _ gps: inout GPSPairSimulator, seconds: Double,
    target: (Double) -> GPSTruthSample = { _ in GPSTruthSample(positionPlane: .zero, velocityENU: .zero) },
    onboard: (Double) -> GPSTruthSample = { _ in GPSTruthSample(positionPlane: .zero, velocityENU: .zero, noseHeadingDegrees: 0) }
) -> [GPSSimulatorOutput] {
    var outputs: [GPSSimulatorOutput] = []
    var t = MonotonicTime.zero
    while t.seconds <= seconds {
        gps.update(now: t, target: target(t.seconds), onboard: onboard(t.seconds))
        while let o = gps.nextOutput(readyBy: t) { outputs.append(o) }
        t = t.adding(seconds: 0.005)
    }
    return outputs
}

private func fixes(_ outputs: [GPSSimulatorOutput], _ role: ReceiverRole) -> [GPSFix] {
    outputs.compactMap { if case .fix(let f) = $0, f.role == role { f } else { nil } }
}

/// A person walking east at 1.4 m/s along north = 3 m.
private func walker(_ t: Double) -> GPSTruthSample {
    GPSTruthSample(positionPlane: PlaneVector(east: 1.4 * t, north: 3), velocityENU: PlaneVector(east: 1.4, north: 0))
}

@Suite("GPS error model")
struct GPSPairSimulatorTests {
    @Test("the same seed gives the identical sequence")
    func deterministic() {
        var a = GPSPairSimulator(model: .realistic, plane: plane, seed: 99)
        var b = GPSPairSimulator(model: .realistic, plane: plane, seed: 99)
        let outA = run(&a, seconds: 20, target: walker)
        let outB = run(&b, seconds: 20, target: walker)
        #expect(outA.count > 150)
        #expect(outA == outB)
    }

    @Test("the vertical model draws from its own streams: every horizontal value of a seed is unchanged, the altitude errs (σ ≈ 4 m, spikes 10–40 m low)")
    func verticalOwnStream() {
        var vertical = GPSErrorModel.realistic
        vertical.target.vertical = .realistic
        vertical.onboard.vertical = .realistic
        var a = GPSPairSimulator(model: .realistic, plane: plane, seed: 7)
        var b = GPSPairSimulator(model: vertical, plane: plane, seed: 7)
        let outA = run(&a, seconds: 600, target: walker), outB = run(&b, seconds: 600, target: walker)
        #expect(outA.count == outB.count)
        let fa = fixes(outA, .target) + fixes(outA, .onboard), fb = fixes(outB, .target) + fixes(outB, .onboard)
        #expect(zip(fa, fb).allSatisfy {
            $0.coordinate == $1.coordinate && $0.speedMetersPerSecond == $1.speedMetersPerSecond
                && $0.trackDegrees == $1.trackDegrees && $0.receivedAt == $1.receivedAt
        })
        #expect(fa.allSatisfy { $0.altitudeHAEMeters == 0 })
        let errors = fixes(outB, .target).compactMap(\.altitudeHAEMeters)
        let spikes = zip(errors, errors.dropFirst()).filter { $1 - $0 < -8 }.count
        let calm = errors.filter { $0 > -8 }
        let rms = (calm.map { $0 * $0 }.reduce(0, +) / Double(calm.count)).squareRoot()
        #expect(rms > 1 && rms < 8, "altitude error RMS \(rms) m")
        #expect(spikes >= 3 && spikes <= 25, "\(spikes) spikes in 10 min at one a minute")
    }

    @Test("different seeds give different errors")
    func seedsDiffer() {
        var a = GPSPairSimulator(model: .realistic, plane: plane, seed: 1)
        var b = GPSPairSimulator(model: .realistic, plane: plane, seed: 2)
        let fa = fixes(run(&a, seconds: 5, target: walker), .target)
        let fb = fixes(run(&b, seconds: 5, target: walker), .target)
        #expect(fa.count == fb.count)
        #expect(zip(fa, fb).allSatisfy { $0.coordinate != $1.coordinate })
    }

    @Test("clean: every fix is the truth at its time, received at once")
    func cleanIsTruth() {
        var gps = GPSPairSimulator(model: .clean, plane: plane, seed: 5)
        let outputs = run(&gps, seconds: 10, target: walker, onboard: { t in
            GPSTruthSample(positionPlane: PlaneVector(east: -2, north: t), velocityENU: PlaneVector(east: 0, north: 1),
                           altitudeMeters: 1, noseHeadingDegrees: 33)
        })
        let targetFixes = fixes(outputs, .target)
        #expect(targetFixes.count == 51) // 5 Hz over [0, 10] s
        for f in targetFixes {
            let t = f.receivedAt.seconds
            #expect((plane.project(f.coordinate) - walker(t).positionPlane).length < 1e-6)
            #expect(abs(f.speedMetersPerSecond! - 1.4) < 1e-12)
            #expect(abs(f.trackDegrees! - 90) < 1e-9)
            #expect(f.mode == .threeD)
            let fixSeconds = f.fixTime.map { Double($0.seconds - 1_700_000_000) + Double($0.nanoseconds) / 1e9 }
            #expect(abs((fixSeconds ?? -1) - t) < 1e-9)
        }
        let onboardFixes = fixes(outputs, .onboard)
        #expect(onboardFixes.allSatisfy { $0.altitudeHAEMeters == 1 && $0.trackDegrees == 0 })
        let headings = outputs.compactMap { if case .heading(let h) = $0 { h } else { nil } }
        #expect(headings.count == 51)
        #expect(headings.allSatisfy { $0.headingDegrees == 33 && $0.role == .onboard })
    }

    @Test("latency delays arrival: receivedAt = fix time + latency", arguments: [0.15, 0.3, 1.0])
    func latency(latencySeconds: Double) {
        var gps = GPSPairSimulator(model: .perfect(fixRateHertz: 1, latencySeconds: latencySeconds), plane: plane, seed: 3)
        let fixTime = MonotonicTime(seconds: 2)
        gps.takeFix(.target, truth: walker(2), at: fixTime)
        #expect(gps.nextOutput(readyBy: fixTime.adding(seconds: latencySeconds - 0.001)) == nil)
        let out = gps.nextOutput(readyBy: fixTime.adding(seconds: latencySeconds))
        guard case .fix(let f) = out else {
            Issue.record("no fix delivered")
            return
        }
        #expect(f.receivedAt == fixTime.adding(seconds: latencySeconds))
        // The position is the truth at the fix time, not at arrival.
        #expect((plane.project(f.coordinate) - walker(2).positionPlane).length < 1e-6)
    }

    @Test("fix rate", arguments: [1.0, 5.0, 10.0])
    func fixRate(hertz: Double) {
        var gps = GPSPairSimulator(model: .perfect(fixRateHertz: hertz, latencySeconds: 0), plane: plane, seed: 3)
        let outputs = run(&gps, seconds: 9.999)
        #expect(fixes(outputs, .target).count == Int(10 * hertz))
        #expect(fixes(outputs, .onboard).count == Int(10 * hertz))
    }

    @Test("heading reports are nose − mount offset")
    func mountOffset() {
        var model = GPSErrorModel.clean
        model.onboard.mountOffsetDegrees = 90
        var gps = GPSPairSimulator(model: model, plane: plane, seed: 3)
        gps.takeFix(.onboard, truth: GPSTruthSample(positionPlane: .zero, velocityENU: .zero, noseHeadingDegrees: 45), at: .zero)
        var headings: [Double] = []
        while let o = gps.nextOutput(readyBy: .zero) {
            if case .heading(let h) = o { headings.append(h.headingDegrees) }
        }
        #expect(headings == [315])
    }

    @Test("stationary bias: per-axis std ≈ σ_b across seeds, relative std ≈ σ_b·√(2(1−ρ))")
    func biasStatistics() {
        // Given 400 independent runs of the realistic model at 1 Hz (faster to simulate)
        var model = GPSErrorModel.realistic
        model.target.fixRateHertz = 1
        model.onboard.fixRateHertz = 1
        var targetBias: [Double] = [], relative: [Double] = []
        for seed in 0..<UInt64(400) {
            var gps = GPSPairSimulator(model: model, plane: plane, seed: seed)
            for k in 0...600 {
                let t = MonotonicTime(seconds: Double(k))
                gps.update(now: t, target: walker(0), onboard: walker(0))
            }
            // When sampled 600 s (2τ) after the start
            let bt = gps.biasMeters(for: .target), bo = gps.biasMeters(for: .onboard)
            targetBias += [bt.east, bt.north]
            relative += [(bt - bo).east, (bt - bo).north]
        }
        // Then the bias spread is σ_b = 2 m (800 samples: std error ≈ 2.5 %)
        let (mean, std) = meanAndStd(targetBias)
        #expect(abs(mean) < 0.3)
        #expect(abs(std - 2) / 2 < 0.1)
        // And half of it is shared (ρ = 0.5): relative σ = 2·√(2·0.5) = 2 m, not 2√2
        let (_, relativeStd) = meanAndStd(relative)
        #expect(abs(relativeStd - 2) / 2 < 0.1)
    }

    @Test("one long run: time-average std ≈ σ_b and lag-τ autocorrelation ≈ 1/e; white noise ≈ σ_w")
    func longRunStatistics() {
        // Given a short τ so one run spans ~1000 correlation times
        var receiver = GPSReceiverModel.realistic
        receiver.biasTimeConstantSeconds = 10
        receiver.fixRateHertz = 1
        receiver.latencySeconds = 0
        var gps = GPSPairSimulator(model: GPSErrorModel(target: receiver, onboard: receiver), plane: plane, seed: 11)
        var bias: [Double] = [], white: [Double] = []
        for k in 0..<20_000 {
            let t = MonotonicTime(seconds: Double(k))
            gps.takeFix(.target, truth: walker(0), at: t)
            let b = gps.biasMeters(for: .target)
            bias.append(b.east)
            if case .fix(let f) = gps.nextOutput(readyBy: t) {
                white.append((plane.project(f.coordinate) - walker(0).positionPlane - b).east)
            }
        }
        let (_, std) = meanAndStd(bias)
        #expect(abs(std - 2) / 2 < 0.1)
        let lag = 10
        var num = 0.0
        for i in 0..<(bias.count - lag) { num += bias[i] * bias[i + lag] }
        let autocorrelation = num / Double(bias.count - lag) / (std * std)
        #expect(abs(autocorrelation - 0.3679) < 0.07)
        let (_, whiteStd) = meanAndStd(white)
        #expect(abs(whiteStd - 0.3) / 0.3 < 0.05)
    }

    @Test("rare steps jump the position by 1–3 m")
    func steps() {
        var receiver = GPSReceiverModel.perfect(fixRateHertz: 1)
        receiver.stepsPerHour = 360 // one per 10 s, to see several
        receiver.biasTimeConstantSeconds = .infinity // steps do not decay
        var gps = GPSPairSimulator(model: GPSErrorModel(target: receiver, onboard: .perfect()), plane: plane, seed: 8)
        var previous = PlaneVector.zero
        var jumps: [Double] = []
        for k in 0...300 {
            gps.takeFix(.target, truth: walker(0), at: MonotonicTime(seconds: Double(k)))
            let b = gps.biasMeters(for: .target)
            let jump = (b - previous).length
            if jump > 1e-9 { jumps.append(jump) }
            previous = b
        }
        #expect(jumps.count >= 10 && jumps.count <= 60)
        #expect(jumps.allSatisfy { $0 >= 1 - 1e-9 && $0 <= 3 + 1e-9 })
    }

    @Test("velocity noise perturbs speed and track only by about σ_v")
    func velocityNoise() {
        var gps = GPSPairSimulator(model: .realistic, plane: plane, seed: 21)
        let speeds = fixes(run(&gps, seconds: 60, target: walker), .target).map { $0.speedMetersPerSecond! }
        let (mean, std) = meanAndStd(speeds)
        #expect(abs(mean - 1.4) < 0.02)
        #expect(std > 0.02 && std < 0.08)
    }
}
