import Geometry
import Telemetry

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
/// - each fix is taken to describe `receivedAt − latencySeconds` (gpsd latency, §3.3), and
///   estimates are predicted from there to the `now` the caller asks about (at most
///   `maxPredictionSeconds` ahead), so the follower aims where the person is, not where
///   they were 0.3 s ago;
/// - a receiver-reported velocity (gpsd speed + track) is fused when present;
/// - `motion` flips to `.moving` above `movingSpeedMetersPerSecond` and back to
///   `.stationary` below `stationarySpeedMetersPerSecond`, so the follower can freeze its
///   geometry when GPS jitter is all the "velocity" there is.
public struct TargetEstimator: Sendable {
    public let tuning: EstimatorTuning
    /// Assumed fix age on arrival, seconds.
    public let latencySeconds: Double
    public private(set) var screen: FixScreen
    public private(set) var filter: ConstantVelocityFilter?
    /// Arrival time of the last fix that was used; the failsafes measure staleness from it.
    public private(set) var lastUsedFixAt: MonotonicTime?
    public private(set) var motion: TargetMotion = .stationary

    /// Outlier, order and duplicate counters.
    public var statistics: FixStatistics { screen.statistics }

    public init(tuning: EstimatorTuning = EstimatorTuning(), latencySeconds: Double) {
        self.tuning = tuning
        self.latencySeconds = latencySeconds
        self.screen = FixScreen(tuning: tuning)
    }

    /// Offers one fix, already projected onto the plane. `reportedVelocity` is the receiver's
    /// own velocity (from speed and track), if it sent one.
    @discardableResult
    public mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector? = nil,
        fixTime: FixTime?, receivedAt: MonotonicTime
    ) -> FixVerdict {
        guard position.isFinite else { return .rejectedOutlier(impliedSpeedMetersPerSecond: .infinity) }
        let verdict = screen.screen(position: position, fixTime: fixTime, receivedAt: receivedAt)
        let measuredAt = receivedAt.adding(seconds: -latencySeconds)
        let velocity = plausible(reportedVelocity)
        switch verdict {
        case .initialised:
            filter = ConstantVelocityFilter(
                position: position, positionSigmaMeters: tuning.targetPositionSigmaMeters,
                velocity: velocity ?? .zero,
                velocitySigmaMetersPerSecond: velocity == nil ? 1.5 : tuning.reportedVelocitySigmaMetersPerSecond,
                time: measuredAt, accelerationSpectralDensity: tuning.targetAccelerationSpectralDensity)
            motion = .stationary
        case .accepted:
            guard var f = filter else { return verdict }
            f.predict(to: measuredAt)
            f.update(position: position, sigmaMeters: tuning.targetPositionSigmaMeters)
            if let velocity {
                f.update(velocity: velocity, sigmaMetersPerSecond: tuning.reportedVelocitySigmaMetersPerSecond)
            }
            filter = f
        case .rejectedOutlier, .ignoredOutOfOrder, .ignoredDuplicate:
            return verdict
        }
        lastUsedFixAt = receivedAt
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
        case .stationary where speed > tuning.movingSpeedMetersPerSecond: motion = .moving
        case .moving where speed < tuning.stationarySpeedMetersPerSecond: motion = .stationary
        default: break
        }
    }
}
