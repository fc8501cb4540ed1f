import Geometry
import Observations

/// The drone's own position and velocity: onboard fixes plus navdata velocity.
///
/// The same constant-velocity Kalman filter as the person's, with navdata body velocity
/// (rotated to the plane by the nose heading, 15 Hz, low latency) fused as a velocity
/// measurement. Navdata keeps the filter's clock near "now", so an onboard fix — which
/// describes `receivedAt − latencySeconds` — usually arrives for an instant the filter has
/// already passed: it is compared with the estimate back-dated along the velocity and the
/// correction applied now.
public struct DroneEstimator: Sendable {
    public let tuning: EstimatorTuning
    public let latencySeconds: Double
    public private(set) var screen: FixScreen
    public private(set) var filter: ConstantVelocityFilter?
    /// Arrival time of the last onboard fix that was used.
    public private(set) var lastUsedFixAt: MonotonicTime?
    /// Fixes fused since the filter was (re)initialised.
    public private(set) var fixesSinceInitialisation = 0

    /// Whether enough fixes have been fused to trust the position (`EstimatorTuning.fixesToConverge`).
    public var isConverged: Bool { fixesSinceInitialisation >= tuning.fixesToConverge }

    public var statistics: FixStatistics { screen.statistics }

    public init(tuning: EstimatorTuning = EstimatorTuning(), latencySeconds: Double,
                maxFixLagSeconds: Double = .infinity, maxEphMeters: Double = .infinity) {
        self.tuning = tuning
        self.latencySeconds = latencySeconds
        self.screen = FixScreen(tuning: tuning, maxFixLagSeconds: maxFixLagSeconds, maxEphMeters: maxEphMeters)
    }

    /// Offers one onboard fix, already projected onto the plane.
    @discardableResult
    public mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector? = nil, ephMeters: Double? = nil,
        fixTime: FixTime?, receivedAt: MonotonicTime
    ) -> FixVerdict {
        guard position.isFinite else { return .rejectedOutlier(impliedSpeedMetersPerSecond: .infinity) }
        // Weighted against this receiver's own recent best eph (before this fix updates it).
        let sigmaMeters = tuning.dronePositionSigmaMeters * screen.sigmaScale(ephMeters: ephMeters, at: receivedAt)
        let verdict = screen.screen(position: position, ephMeters: ephMeters, fixTime: fixTime, receivedAt: receivedAt)
        let measuredAt = receivedAt.adding(seconds: -latencySeconds)
        let velocity: PlaneVector? = tuning.fusesReportedVelocity ? reportedVelocity.flatMap {
            $0.isFinite && $0.length <= tuning.maxPlausibleSpeedMetersPerSecond ? $0 : nil
        } : nil
        switch verdict {
        case .initialised:
            let keptVelocity = filter?.velocity
            filter = ConstantVelocityFilter(
                position: position, positionSigmaMeters: sigmaMeters,
                velocity: velocity ?? keptVelocity ?? .zero, velocitySigmaMetersPerSecond: 1.0,
                time: measuredAt, accelerationSpectralDensity: tuning.droneAccelerationSpectralDensity)
            fixesSinceInitialisation = 0
        case .accepted:
            guard var f = filter else { return verdict }
            if measuredAt > f.time {
                f.predict(to: measuredAt)
                f.update(position: position, sigmaMeters: sigmaMeters)
                if let velocity {
                    f.update(velocity: velocity, sigmaMetersPerSecond: tuning.reportedVelocitySigmaMetersPerSecond)
                }
            } else {
                // Navdata has carried the filter past the fix's instant: compare with the
                // back-dated estimate (velocity assumed constant over the latency).
                let lag = min(f.time.seconds(since: measuredAt), tuning.maxPredictionSeconds)
                f.update(position: position, predicted: f.position - f.velocity * lag,
                         sigmaMeters: sigmaMeters)
            }
            filter = f
        case .rejectedOutlier, .ignoredOutOfOrder, .ignoredDuplicate, .rejectedFutureTime, .ignoredStale,
             .refusedInaccurate:
            return verdict
        }
        lastUsedFixAt = receivedAt
        fixesSinceInitialisation += 1
        return verdict
    }

    /// Fuses navdata velocity already rotated onto the plane (east/north m/s), measured at `time`.
    /// Ignored before the first fix (there is no position to attach it to).
    public mutating func ingest(navdataVelocity velocity: PlaneVector, at time: MonotonicTime) {
        guard var f = filter, velocity.isFinite else { return }
        f.predict(to: time)
        f.update(velocity: velocity, sigmaMetersPerSecond: tuning.navdataVelocitySigmaMetersPerSecond)
        filter = f
    }

    /// The drone's estimated position and velocity at `now`, or `nil` before the first fix.
    public func estimate(at now: MonotonicTime) -> PlaneState? {
        guard let filter else { return nil }
        let ahead = min(max(now.seconds(since: filter.time), 0), tuning.maxPredictionSeconds)
        return PlaneState(position: filter.position + filter.velocity * ahead, velocity: filter.velocity)
    }
}
