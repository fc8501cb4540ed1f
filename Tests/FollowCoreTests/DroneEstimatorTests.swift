@testable import FollowCore
import Testing

@Suite("DroneEstimator: onboard fixes plus navdata velocity")
struct DroneEstimatorTests {
    @Test func lateFixesAndNavdataVelocityGiveThePositionNow() {
        // Given a drone flying east at 2 m/s, navdata velocity at 15 Hz (on time) and onboard
        // fixes at 1 Hz that arrive 0.3 s after they were taken
        var estimator = DroneEstimator(latencySeconds: 0.3)
        let velocity = PlaneVector(east: 2, north: 0)
        var worst = 0.0
        for k in 0...(30 * 15) {
            let t = Double(k) / 15
            if k % 15 == 0, t >= 0.3 {
                let sampled = t - 0.3
                estimator.ingest(position: velocity * sampled, fixTime: FixFeeder.fixTime(sampled),
                                 receivedAt: MonotonicTime(seconds: t))
            }
            estimator.ingest(telemetryVelocity: velocity, at: MonotonicTime(seconds: t))
            // When asked where it is now
            if t > 5, let estimate = estimator.estimate(at: MonotonicTime(seconds: t)) {
                worst = max(worst, (estimate.position - velocity * t).length)
            }
        }
        // Then the answer is where it is now, not where the last fix put it (up to 2.6 m back)
        #expect(worst < 0.05)
        #expect(estimator.isConverged)
    }

    @Test func navdataBeforeTheFirstFixIsIgnored() {
        var estimator = DroneEstimator(latencySeconds: 0.3)
        estimator.ingest(telemetryVelocity: PlaneVector(east: 1, north: 0), at: MonotonicTime(seconds: 1))
        #expect(estimator.estimate(at: MonotonicTime(seconds: 1)) == nil)
        #expect(!estimator.isConverged)
    }

    @Test func aJumpingOnboardFixIsRejected() {
        var estimator = DroneEstimator(latencySeconds: 0.3)
        for k in 0..<5 {
            estimator.ingest(position: .zero, fixTime: FixFeeder.fixTime(Double(k)), receivedAt: MonotonicTime(seconds: Double(k) + 0.3))
        }
        let verdict = estimator.ingest(position: PlaneVector(east: 80, north: 0), fixTime: FixFeeder.fixTime(5),
                                       receivedAt: MonotonicTime(seconds: 5.3))
        #expect(!verdict.isUsed)
        #expect(estimator.statistics[.rejectedOutliers] == 1)
        #expect(estimator.estimate(at: MonotonicTime(seconds: 5.3))!.position.length < 0.1)
    }
}
