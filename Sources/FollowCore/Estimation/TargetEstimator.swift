import Geometry
import Observations

/// Whether the person is walking or standing, with hysteresis.
public enum TargetMotion: Sendable, Hashable {
    case stationary
    case moving
}

/// A position and velocity on the plane at a given instant.
public struct PlaneState: Sendable, Hashable {
    /// Metres east/north of the plane origin.
    public var position: PlaneVector
    /// Metres per second east/north.
    public var velocity: PlaneVector

    @inlinable public init(position: PlaneVector, velocity: PlaneVector) {
        self.position = position
        self.velocity = velocity
    }
}

/// The person's position and velocity from their receiver's fixes.
///
/// A constant-velocity Kalman filter (`ConstantVelocityFilter`) behind a `FixScreen`:
/// - each fix is taken to describe `receivedAt − latencySeconds` (gpsd latency, docs/dynamics-and-follow.md §3.3), and
///   estimates are predicted from there to the `now` the caller asks about (at most
///   `maxPredictionSeconds` ahead), so the follower aims where the person is, not where
///   they were 0.3 s ago;
/// - a receiver-reported velocity (gpsd speed + track) is fused when present;
/// - `motion` flips to `.moving` after `movingConfirmationFixes` fixes above
///   `movingSpeedMetersPerSecond` and back to `.stationary` below
///   `stationarySpeedMetersPerSecond`, so the follower can freeze its geometry when GPS jitter
///   is all the "velocity" there is (the velocity feed-forward does not wait for it);
/// - the filter's process noise is the same whether they walk or stand: a "standing" model
///   that averages jitter harder was tried and reacts too late when someone walks straight at
///   the drone (closed-loop tests: 2.3 m instead of 3.0 m closest approach at 1 Hz);
/// - after (re)initialisation the estimate is not `isConverged` until `fixesToConverge` fixes
///   have been fused: following a velocity made from one or two noisy fixes is how drones lunge.
public struct TargetEstimator: Sendable {
    public let tuning: EstimatorTuning
    /// Assumed fix age on arrival, seconds.
    public let latencySeconds: Double
    public private(set) var screen: FixScreen
    public private(set) var filter: ConstantVelocityFilter?
    /// Arrival time of the last fix that was used; the failsafes measure staleness from it.
    public private(set) var lastUsedFixAt: MonotonicTime?
    /// The last fix that was used, on the plane (neither filtered nor extrapolated).
    public private(set) var lastFixPosition: PlaneVector?
    public private(set) var motion: TargetMotion = .stationary
    /// Consecutive fixes faster than `movingSpeedMetersPerSecond` while standing.
    private var fastFixes = 0
    /// Fixes fused since the filter was (re)initialised.
    public private(set) var fixesSinceInitialisation = 0

    /// Outlier, order and duplicate counters.
    public var statistics: FixStatistics { screen.statistics }

    /// Whether enough fixes have been fused for the estimate to be used
    /// (`EstimatorTuning.fixesToConverge`). The failsafes treat an unconverged target as stale.
    public var isConverged: Bool { fixesSinceInitialisation >= tuning.fixesToConverge }

    public init(tuning: EstimatorTuning = EstimatorTuning(), latencySeconds: Double,
                maxFixLagSeconds: Double = .infinity, maxEphMeters: Double = .infinity) {
        self.tuning = tuning
        self.latencySeconds = latencySeconds
        self.screen = FixScreen(tuning: tuning, maxFixLagSeconds: maxFixLagSeconds, maxEphMeters: maxEphMeters)
    }

    /// Offers one fix, already projected onto the plane. `reportedVelocity` is the receiver's
    /// own velocity (from speed and track), if it sent one.
    @discardableResult
    public mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector? = nil, ephMeters: Double? = nil,
        fixTime: FixTime?, receivedAt: MonotonicTime
    ) -> FixVerdict {
        guard position.isFinite else { return .rejectedOutlier(impliedSpeedMetersPerSecond: .infinity) }
        // Weighted against this receiver's own recent best eph (before this fix updates it).
        let sigmaMeters = tuning.targetPositionSigmaMeters * screen.sigmaScale(ephMeters: ephMeters, at: receivedAt)
        let verdict = screen.screen(position: position, ephMeters: ephMeters, fixTime: fixTime, receivedAt: receivedAt)
        let measuredAt = receivedAt.adding(seconds: -latencySeconds)
        let velocity = plausible(reportedVelocity)
        switch verdict {
        case .initialised:
            filter = ConstantVelocityFilter(
                position: position, positionSigmaMeters: sigmaMeters,
                velocity: velocity ?? .zero,
                velocitySigmaMetersPerSecond: velocity == nil ? 1.5 : tuning.reportedVelocitySigmaMetersPerSecond,
                time: measuredAt, accelerationSpectralDensity: tuning.targetAccelerationSpectralDensity)
            motion = .stationary
            fastFixes = 0
            fixesSinceInitialisation = 0
        case .accepted:
            guard var f = filter else { return verdict }
            f.predict(to: measuredAt)
            f.update(position: position, sigmaMeters: sigmaMeters)
            if let velocity {
                f.update(velocity: velocity, sigmaMetersPerSecond: tuning.reportedVelocitySigmaMetersPerSecond)
            }
            filter = f
        case .rejectedOutlier, .ignoredOutOfOrder, .ignoredDuplicate, .rejectedFutureTime, .ignoredStale,
             .refusedInaccurate:
            return verdict
        }
        lastUsedFixAt = receivedAt
        lastFixPosition = position
        fixesSinceInitialisation += 1
        updateMotion()
        return verdict
    }

    /// The person's estimated position and velocity at `now`, or `nil` before the first fix.
    public func estimate(at now: MonotonicTime) -> PlaneState? {
        guard let filter else { return nil }
        let ahead = min(max(now.seconds(since: filter.time), 0), tuning.maxPredictionSeconds)
        return PlaneState(position: filter.position + filter.velocity * ahead, velocity: filter.velocity)
    }

    private func plausible(_ velocity: PlaneVector?) -> PlaneVector? {
        guard tuning.fusesReportedVelocity, let velocity, velocity.isFinite,
              velocity.length <= tuning.maxPlausibleSpeedMetersPerSecond else { return nil }
        return velocity
    }

    private mutating func updateMotion() {
        guard let speed = filter?.velocity.length else { return }
        switch motion {
        case .stationary:
            fastFixes = speed > tuning.movingSpeedMetersPerSecond ? fastFixes + 1 : 0
            if fastFixes >= tuning.movingConfirmationFixes { motion = .moving }
        case .moving:
            fastFixes = 0
            if speed < tuning.stationarySpeedMetersPerSecond { motion = .stationary }
        }
    }
}
