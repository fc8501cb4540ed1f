/// What the person's and the drone's estimators share: one receiver's `FixScreen`, the filter behind
/// it, freshness and convergence, and the extrapolation to "now".
public struct FixTrack: Sendable {
    public let tuning: EstimatorTuning
    /// Fix age on arrival for a fix that carries none, seconds: such a fix describes `receivedAt − latencySeconds`.
    public let latencySeconds: Double
    public internal(set) var screen: FixScreen
    public internal(set) var filter: ConstantVelocityFilter?
    /// Arrival time of the last fix that was used; the failsafes measure staleness from it.
    public internal(set) var lastUsedFixAt: MonotonicTime?
    /// Fixes fused since the filter was (re)initialised.
    public internal(set) var fixesSinceInitialisation = 0

    init(tuning: EstimatorTuning, latencySeconds: Double, maxFixLagSeconds: Double, maxEphMeters: Double) {
        self.tuning = tuning
        self.latencySeconds = latencySeconds
        self.screen = FixScreen(tuning: tuning, maxFixLagSeconds: maxFixLagSeconds, maxEphMeters: maxEphMeters)
    }

    /// A fix after the screen: the verdict, its weight, the instant it describes, and the velocity to fuse.
    struct ScreenedFix {
        let verdict: FixVerdict
        let sigmaMeters: Double
        let measuredAt: MonotonicTime
        let velocity: PlaneVector?
    }

    /// Screens one fix on the plane; nil for a non-finite position (reported as an outlier).
    /// `positionSigmaMeters` is weighted against this receiver's recent best eph. The fix describes
    /// `receivedAt − ageSeconds` (nil: `latencySeconds`).
    mutating func screen(
        position: PlaneVector, reportedVelocity: PlaneVector?, ephMeters: Double?, fixTime: FixTime?,
        receivedAt: MonotonicTime, ageSeconds: Double?, positionSigmaMeters: Double
    ) -> ScreenedFix? {
        guard position.isFinite else { return nil }
        let sigmaMeters = positionSigmaMeters * screen.sigmaScale(ephMeters: ephMeters, at: receivedAt)
        let verdict = screen.screen(position: position, ephMeters: ephMeters, fixTime: fixTime, receivedAt: receivedAt)
        let velocity = reportedVelocity.flatMap { v in
            tuning.fusesReportedVelocity && v.isFinite && v.length <= tuning.maxPlausibleSpeedMetersPerSecond ? v : nil
        }
        return ScreenedFix(verdict: verdict, sigmaMeters: sigmaMeters,
                           measuredAt: receivedAt.adding(seconds: -(ageSeconds ?? latencySeconds)), velocity: velocity)
    }

    /// Screens one fix and, if used, enters it into the filter (`start` on initialising, `fuse` on
    /// accepted). `fused`: the fix now informs the estimate (and counts for freshness and convergence).
    mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector?, ephMeters: Double?, fixTime: FixTime?,
        receivedAt: MonotonicTime, ageSeconds: Double?, positionSigmaMeters: Double,
        start: (ScreenedFix) -> ConstantVelocityFilter,
        fuse: (inout ConstantVelocityFilter, ScreenedFix) -> Void
    ) -> (verdict: FixVerdict, fused: Bool) {
        guard let fix = screen(position: position, reportedVelocity: reportedVelocity, ephMeters: ephMeters,
                               fixTime: fixTime, receivedAt: receivedAt, ageSeconds: ageSeconds,
                               positionSigmaMeters: positionSigmaMeters)
        else { return (.rejectedOutlier(impliedSpeedMetersPerSecond: .infinity), false) }
        switch fix.verdict {
        case .initialised:
            initialise(start(fix))
        case .accepted:
            guard var f = filter else { return (fix.verdict, false) }
            fuse(&f, fix)
            filter = f
        case .rejectedOutlier, .ignoredOutOfOrder, .ignoredDuplicate, .rejectedFutureTime, .ignoredStale,
             .refusedInaccurate:
            return (fix.verdict, false)
        }
        markUsed(receivedAt: receivedAt)
        return (fix.verdict, true)
    }

    /// Starts the filter afresh (an initialising fix): convergence counts again from zero.
    mutating func initialise(_ filter: ConstantVelocityFilter) {
        self.filter = filter
        fixesSinceInitialisation = 0
    }

    /// Records that the fix received at `receivedAt` was fused.
    mutating func markUsed(receivedAt: MonotonicTime) {
        lastUsedFixAt = receivedAt
        fixesSinceInitialisation += 1
    }

    /// The estimate at `now` (extrapolated at most `maxPredictionSeconds`); nil before the first fix.
    public func estimate(at now: MonotonicTime) -> PlaneState? {
        guard let filter else { return nil }
        let ahead = min(max(now.seconds(since: filter.time), 0), tuning.maxPredictionSeconds)
        return PlaneState(position: filter.position + filter.velocity * ahead, velocity: filter.velocity)
    }
}

/// An estimator built on one `FixTrack`: the read-only view both estimators give.
public protocol FixTrackEstimator {
    var track: FixTrack { get }
    /// An estimator with no fix yet, screening and filtering with `track`.
    init(track: FixTrack)
}

extension FixTrackEstimator {
    /// An estimator with no fix yet; a fix describes `receivedAt − latencySeconds`. `maxFixLagSeconds`,
    /// `maxEphMeters`: the `FailsafeParameters` bounds (infinite: no check).
    public init(tuning: EstimatorTuning = EstimatorTuning(), latencySeconds: Double,
                maxFixLagSeconds: Double = .infinity, maxEphMeters: Double = .infinity) {
        self.init(track: FixTrack(tuning: tuning, latencySeconds: latencySeconds, maxFixLagSeconds: maxFixLagSeconds,
                                  maxEphMeters: maxEphMeters))
    }

    public var tuning: EstimatorTuning { track.tuning }
    public var latencySeconds: Double { track.latencySeconds }
    public var screen: FixScreen { track.screen }
    public var filter: ConstantVelocityFilter? { track.filter }
    /// Arrival time of the last fix that was used; the failsafes measure staleness from it.
    public var lastUsedFixAt: MonotonicTime? { track.lastUsedFixAt }
    /// Fixes fused since the filter was (re)initialised.
    public var fixesSinceInitialisation: Int { track.fixesSinceInitialisation }
    /// Whether `fixesToConverge` fixes have been fused; the failsafes treat an unconverged source as stale.
    public var isConverged: Bool { track.fixesSinceInitialisation >= track.tuning.fixesToConverge }
    /// Outlier, order and duplicate counters.
    public var statistics: FixStatistics { track.screen.statistics }

    /// The estimated position and velocity at `now`, or `nil` before the first fix.
    public func estimate(at now: MonotonicTime) -> PlaneState? { track.estimate(at: now) }
}
