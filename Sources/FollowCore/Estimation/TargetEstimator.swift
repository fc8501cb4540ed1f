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
}

/// The person's position and velocity (a `ConstantVelocityFilter` behind a `FixScreen`), predicted to the
/// caller's `now`; `motion` with hysteresis; not `isConverged` until `fixesToConverge` fixes are fused
/// (docs/dynamics-and-follow.md §3.5).
public struct TargetEstimator: Sendable, FixTrackEstimator {
    /// The person's receiver's screen and filter (freshness, convergence and estimate: `FixTrackEstimator`).
    public private(set) var track: FixTrack
    /// The last fix that was used, on the plane (neither filtered nor extrapolated).
    public private(set) var lastFixPosition: PlaneVector?
    /// The receiver's own velocity (speed and track) with the last fix used, m/s east/north; nil when it sent none.
    public private(set) var lastFixVelocity: PlaneVector?
    public private(set) var motion: TargetMotion = .stationary
    /// Consecutive fixes faster than `movingSpeedMetersPerSecond` while standing.
    private var fastFixes = 0

    /// An estimator with no fix yet; made with `FixTrackEstimator.init(tuning:latencySeconds:maxFixLagSeconds:maxEphMeters:)`.
    public init(track: FixTrack) {
        self.track = track
    }

    /// Offers one fix on the plane; `reportedVelocity` is the receiver's own (speed and track), if sent.
    /// The fix describes `receivedAt − ageSeconds` (nil: `latencySeconds`).
    @discardableResult
    public mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector? = nil, ephMeters: Double? = nil,
        fixTime: FixTime?, receivedAt: MonotonicTime, ageSeconds: Double? = nil
    ) -> FixVerdict {
        // The closures see a copy: `track` is being mutated while they run.
        let tuning = track.tuning
        let (verdict, fused) = track.ingest(
            position: position, reportedVelocity: reportedVelocity, ephMeters: ephMeters, fixTime: fixTime,
            receivedAt: receivedAt, ageSeconds: ageSeconds, positionSigmaMeters: tuning.targetPositionSigmaMeters,
            start: { fix in
                ConstantVelocityFilter(
                    position: position, positionSigmaMeters: fix.sigmaMeters,
                    velocity: fix.velocity ?? .zero,
                    velocitySigmaMetersPerSecond: fix.velocity == nil ? 1.5 : tuning.reportedVelocitySigmaMetersPerSecond,
                    time: fix.measuredAt, accelerationSpectralDensity: tuning.targetAccelerationSpectralDensity)
            },
            fuse: { f, fix in
                f.predict(to: fix.measuredAt)
                f.update(position: position, sigmaMeters: fix.sigmaMeters)
                if let velocity = fix.velocity {
                    f.update(velocity: velocity, sigmaMetersPerSecond: tuning.reportedVelocitySigmaMetersPerSecond)
                }
            })
        guard fused else { return verdict }
        if verdict == .initialised {
            motion = .stationary
            fastFixes = 0
        }
        lastFixPosition = position
        lastFixVelocity = reportedVelocity.flatMap { $0.isFinite ? $0 : nil }
        updateMotion()
        return verdict
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
