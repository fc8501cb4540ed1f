@testable import FollowCore
import Testing

/// Feeds a `TargetEstimator` fixes of a known path, sampled at `rateHz` and received
/// `latency` seconds later, with seeded white noise.
struct FixFeeder {
    var rateHz = 1.0
    var latency = 0.3
    var sigma = 0.0
    var random = TestRandom(seed: 42)

    static func fixTime(_ t: Double) -> FixTime {
        let nanos = Int64((t * 1e9).rounded())
        return FixTime(seconds: 1_700_000_000 + nanos / 1_000_000_000, nanoseconds: Int32(nanos % 1_000_000_000))
    }

    /// Sample times k/rate for k in 0..<count.
    func sampleTimes(until end: Double) -> [Double] {
        stride(from: 0.0, through: end, by: 1 / rateHz).map { $0 }
    }

    mutating func feed(_ estimator: inout TargetEstimator, truth: PlaneVector, sampledAt t: Double) -> FixVerdict {
        estimator.ingest(position: truth + random.gaussianVector(sigma: sigma),
                         fixTime: Self.fixTime(t), receivedAt: MonotonicTime(seconds: t + latency))
    }
}

@Suite("TargetEstimator: smoothing, latency, outliers, order, standing still")
struct TargetEstimatorTests {
    static let walk = PlaneVector(east: 1.4, north: 0)

    @Test("GPS jitter gives a smooth velocity", arguments: [
        // (σ of the jitter per axis, fix rate, bound on the velocity RMS error in m/s)
        (sigma: 0.3, rate: 1.0, maxRMS: 0.3),
        (sigma: 0.5, rate: 1.0, maxRMS: 0.45),
        (sigma: 1.0, rate: 1.0, maxRMS: 0.8),
        (sigma: 0.5, rate: 5.0, maxRMS: 0.4),
    ])
    func jitterGivesSmoothVelocity(sigma: Double, rate: Double, maxRMS: Double) {
        // Given a person walking east at 1.4 m/s, fixes with seeded white noise σ, default tuning
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var feeder = FixFeeder(rateHz: rate, sigma: sigma)
        var errorSquares = 0.0, stepSquares = 0.0, count = 0
        var previous: PlaneVector?
        // When 120 s of fixes arrive
        for t in feeder.sampleTimes(until: 120) {
            let verdict = feeder.feed(&estimator, truth: Self.walk * t, sampledAt: t)
            #expect(verdict.isUsed)
            guard t >= 20, let v = estimator.estimate(at: MonotonicTime(seconds: t + 0.3))?.velocity else { continue }
            errorSquares += (v - Self.walk).dot(v - Self.walk)
            if let previous { stepSquares += (v - previous).dot(v - previous) }
            previous = v
            count += 1
        }
        let rms = (errorSquares / Double(count)).squareRoot()
        let stepRMS = (stepSquares / Double(count - 1)).squareRoot()
        // Differencing consecutive fixes would give 2σ·rate RMS error (2-D): the filter must do far better.
        let naive = 2 * sigma * rate
        print("jitter σ \(sigma) m at \(rate) Hz: velocity RMS error \(rms) m/s (naive differencing \(naive)), RMS fix-to-fix change \(stepRMS) m/s")
        // Then the velocity is accurate and changes far less from fix to fix than differencing
        // would, and the person counts as walking
        #expect(rms < maxRMS)
        #expect(rms < 0.6 * naive)
        #expect(stepRMS < 0.6 * naive)
        #expect(estimator.motion == .moving)
    }

    @Test func latencyIsCompensated() {
        // Given perfect fixes of a walker, each received 0.3 s after it was taken
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var feeder = FixFeeder()
        for t in feeder.sampleTimes(until: 20) { _ = feeder.feed(&estimator, truth: Self.walk * t, sampledAt: t) }
        // When asked where the person is 0.8 s after the last fix arrived (1.1 s after it was taken)
        let now = 20.3 + 0.8
        let estimate = estimator.estimate(at: MonotonicTime(seconds: now))!
        // Then the answer is where they are now, not where the fix put them
        #expect((estimate.position - Self.walk * now).length < 0.05)
        #expect((estimate.position - Self.walk * 20).length > 1.5)
    }

    @Test func aHundredMetreJumpIsIgnoredAndCounted() {
        // Given a walker tracked for 10 s
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var feeder = FixFeeder()
        for t in feeder.sampleTimes(until: 10) { _ = feeder.feed(&estimator, truth: Self.walk * t, sampledAt: t) }
        // When one fix lands 100 m away (100 m/s implied)
        let verdict = feeder.feed(&estimator, truth: Self.walk * 11 + PlaneVector(east: 0, north: 100), sampledAt: 11)
        // Then it is rejected and counted, and the estimate does not move
        guard case .rejectedOutlier(let speed) = verdict else {
            Issue.record("expected an outlier, got \(verdict)")
            return
        }
        #expect(speed > 90)
        #expect(estimator.statistics[.rejectedOutliers] == 1)
        #expect((estimator.estimate(at: MonotonicTime(seconds: 11.3))!.position - Self.walk * 11.3).length < 0.1)
        #expect(estimator.lastUsedFixAt == MonotonicTime(seconds: 10.3))
        // And the next good fix is accepted as usual
        #expect(feeder.feed(&estimator, truth: Self.walk * 12, sampledAt: 12) == .accepted)
    }

    @Test func fixesThatKeepAgreeingWithANewPlaceReinitialise() {
        // Given a tracked walker
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var feeder = FixFeeder()
        for t in feeder.sampleTimes(until: 10) { _ = feeder.feed(&estimator, truth: Self.walk * t, sampledAt: t) }
        // When the receiver jumps 100 m and stays there (the first fix may have been the bad one)
        let moved = PlaneVector(east: 0, north: 100)
        var verdicts: [FixVerdict] = []
        for t in [11.0, 12.0, 13.0] { verdicts.append(feeder.feed(&estimator, truth: Self.walk * t + moved, sampledAt: t)) }
        // Then two fixes are rejected and the third restarts the estimate there, rather than holding for ever
        #expect(verdicts.prefix(2).allSatisfy { if case .rejectedOutlier = $0 { true } else { false } })
        #expect(verdicts[2] == .initialised)
        #expect(estimator.statistics[.initialisations] == 2)
        #expect((estimator.estimate(at: MonotonicTime(seconds: 13.3))!.position - (Self.walk * 13 + moved)).length < 0.5)
        // And a restarted estimate is not trusted until it has converged again
        #expect(!estimator.isConverged)
    }

    @Test func timeGoingBackwardsOrRepeatingIsIgnoredAndCounted() {
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var feeder = FixFeeder()
        for t in feeder.sampleTimes(until: 10) { _ = feeder.feed(&estimator, truth: Self.walk * t, sampledAt: t) }
        let before = estimator.estimate(at: MonotonicTime(seconds: 11))
        // When a fix stamped before the last one arrives (far away, to show it is not used)
        let old = estimator.ingest(position: PlaneVector(east: -50, north: 0), fixTime: FixFeeder.fixTime(9.5),
                                   receivedAt: MonotonicTime(seconds: 10.5))
        // And the last fix is re-sent
        let again = estimator.ingest(position: PlaneVector(east: 50, north: 0), fixTime: FixFeeder.fixTime(10),
                                     receivedAt: MonotonicTime(seconds: 10.6))
        // Then both are dropped and counted, and nothing changed
        #expect(old == .ignoredOutOfOrder)
        #expect(again == .ignoredDuplicate)
        #expect(estimator.statistics[.ignoredOutOfOrder] == 1)
        #expect(estimator.statistics[.ignoredDuplicates] == 1)
        #expect(estimator.estimate(at: MonotonicTime(seconds: 11)) == before)
    }

    @Test func aReceiverClockResetIsRecoveredFrom() {
        // Given a tracked walker
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var feeder = FixFeeder()
        for t in feeder.sampleTimes(until: 10) { _ = feeder.feed(&estimator, truth: Self.walk * t, sampledAt: t) }
        // When the receiver's clock restarts an hour earlier and keeps counting from there
        var verdicts: [FixVerdict] = []
        for k in 1...5 {
            let t = 10.0 + Double(k)
            verdicts.append(estimator.ingest(position: Self.walk * t, fixTime: FixFeeder.fixTime(t - 3600),
                                             receivedAt: MonotonicTime(seconds: t + 0.3)))
        }
        // Then the first four are ignored as out of order and the fifth restarts the estimate
        #expect(verdicts.prefix(4).allSatisfy { $0 == .ignoredOutOfOrder })
        #expect(verdicts[4] == .initialised)
    }

    @Test("a standing person: no velocity, no heading to chase", arguments: [0.3, 0.5, 1.0])
    func standingStill(sigma: Double) {
        // Given a person standing still and a receiver jittering with σ (and tuned for it)
        var tuning = EstimatorTuning()
        tuning.targetPositionSigmaMeters = sigma
        var estimator = TargetEstimator(tuning: tuning, latencySeconds: 0.3)
        var feeder = FixFeeder(sigma: sigma)
        var movingFixes = 0, worstSpeed = 0.0, offsetSquares = 0.0, count = 0
        // (the same jitter differenced fix to fix would look like 2σ m/s of walking)
        // When two minutes of fixes arrive
        for t in feeder.sampleTimes(until: 120) {
            _ = feeder.feed(&estimator, truth: .zero, sampledAt: t)
            guard t >= 5, let estimate = estimator.estimate(at: MonotonicTime(seconds: t + 0.3)) else { continue }
            if estimator.motion == .moving { movingFixes += 1 }
            worstSpeed = max(worstSpeed, estimate.velocity.length)
            offsetSquares += estimate.position.dot(estimate.position)
            count += 1
        }
        let offsetRMS = (offsetSquares / Double(count)).squareRoot()
        print("standing, σ \(sigma) m: worst speed \(worstSpeed) m/s, RMS offset \(offsetRMS) m (a raw fix: \(sigma * 2.0.squareRoot()) m), moving fixes \(movingFixes)")
        // Then the person is never taken to be walking, so the standoff direction stays frozen
        // and the drone does not chase a heading
        #expect(movingFixes == 0)
        #expect(offsetRMS < 1.1 * sigma * 2.0.squareRoot())
    }

    @Test func settingOffIsNoticedWithinAFewFixes() {
        // Given a person who stands for 30 s and then walks east at 1.4 m/s
        var tuning = EstimatorTuning()
        tuning.targetPositionSigmaMeters = 0.5
        var estimator = TargetEstimator(tuning: tuning, latencySeconds: 0.3)
        var feeder = FixFeeder(sigma: 0.3)
        var noticedAt: Double?
        for t in feeder.sampleTimes(until: 45) {
            let truth = Self.walk * max(t - 30, 0)
            _ = feeder.feed(&estimator, truth: truth, sampledAt: t)
            if t < 30 { #expect(estimator.motion == .stationary) }
            if t >= 30, noticedAt == nil, estimator.motion == .moving { noticedAt = t }
        }
        // Then within 4 fixes it counts as walking, and 15 s later the speed is right
        print("set off at 30 s, noticed at \(noticedAt ?? .nan) s")
        #expect(noticedAt.map { $0 <= 34 } == true)
        let v = estimator.estimate(at: MonotonicTime(seconds: 45.3))!.velocity
        #expect((v - Self.walk).length < 0.3)
    }

    @Test func aReportedVelocityIsFused() {
        // Given two fixes only, but with Doppler velocity
        var estimator = TargetEstimator(latencySeconds: 0.3)
        for t in [0.0, 1.0] {
            estimator.ingest(position: Self.walk * t, reportedVelocity: Self.walk,
                             fixTime: FixFeeder.fixTime(t), receivedAt: MonotonicTime(seconds: t + 0.3))
        }
        // Then the velocity is already right (positions alone would still be converging)
        #expect((estimator.estimate(at: MonotonicTime(seconds: 1.3))!.velocity - Self.walk).length < 0.1)
    }
}
