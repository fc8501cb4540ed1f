/// What became of one fix offered to an estimator.
public enum FixVerdict: Sendable, Hashable {
    /// Fused.
    case accepted
    /// The first fix, or the estimator was restarted at it (see `FixScreen`).
    case initialised
    /// Too far from the last accepted fix to be real; dropped. Carries the speed the jump implies, m/s.
    case rejectedOutlier(impliedSpeedMetersPerSecond: Double)
    /// Its fix time is before the last one seen; dropped.
    case ignoredOutOfOrder
    /// Its fix time equals the last one seen (gpsd re-sent it); dropped.
    case ignoredDuplicate
    /// Fix time more than `maxFixLeadSeconds` ahead of the stream's clock: a wrong stamp; dropped without
    /// moving the order on. Carries how far ahead, seconds.
    case rejectedFutureTime(leadSeconds: Double)
    /// Fix time lagging the stream's clock by more than `maxFixLagSeconds` (a dumped backlog); dropped,
    /// does not refresh freshness. Carries the lag, seconds.
    case ignoredStale(lagSeconds: Double)
    /// The receiver's own horizontal error estimate (gpsd `eph`) is above `maxEphMeters`; dropped.
    case refusedInaccurate(ephMeters: Double)

    /// Whether the fix now informs the estimate.
    @inlinable public var isUsed: Bool {
        switch self {
        case .accepted, .initialised: return true
        case .rejectedOutlier, .ignoredOutOfOrder, .ignoredDuplicate, .rejectedFutureTime, .ignoredStale,
             .refusedInaccurate:
            return false
        }
    }
}

/// What the fix screen counts per verdict, for the flight log and the benchmark, plus `clockReanchors`
/// (the stream's clock re-anchored after a run of agreeing off-clock fixes).
public enum FixCount: CaseIterable, Sendable, Hashable {
    case accepted, initialisations, rejectedOutliers, ignoredOutOfOrder, ignoredDuplicates
    case rejectedFutureTimes, ignoredStale, refusedInaccurate, clockReanchors
}

/// Counters for the flight log and the benchmark (`statistics[.rejectedOutliers]`).
public typealias FixStatistics = Counts<FixCount>

/// Decides whether a fix is believable before it reaches a filter: accuracy (`maxEphMeters`, then
/// `sigmaScale`), order (fix time, else arrival), time stamp against the stream's clock (lead, lag,
/// re-anchoring), and jumps (`maxPlausibleSpeed·Δt + outlierAllowance`); agreeing runs re-initialise.
/// A rejected fix's time never moves the order on. The rules: docs/dynamics-and-follow.md §3.5.
public struct FixScreen: Sendable, Hashable {
    public let maxPlausibleSpeedMetersPerSecond: Double
    public let outlierAllowanceMeters: Double
    public let reinitialiseAfterFixes: Int
    public let clockResetAfterFixes: Int
    public let maxFixLeadSeconds: Double
    public let maxFixLagSeconds: Double
    public let maxEphMeters: Double
    public private(set) var statistics = FixStatistics()

    /// The stream's clock may rise by this between fixes, seconds per second.
    public static let clockCreepSecondsPerSecond = 0.01
    /// Off-clock fixes whose offsets differ by less than this agree, seconds.
    public static let clockAgreementSeconds = 0.25
    /// …and a run of them must arrive over at least this long to move the clock, seconds.
    public static let clockShiftMinimumSeconds = 1.0

    /// The stream's recent best eph may rise by this fraction per second.
    public static let ephReferenceRisePerSecond = 0.005

    /// Recent minimum of `eph` over used fixes, metres, and when it was set.
    private var ephReferenceMeters: Double?
    private var ephReferenceAt: MonotonicTime?
    /// Recent minimum of (arrival − fix time) over used fixes, seconds.
    private var streamOffsetSeconds: Double?
    private var streamOffsetAt: MonotonicTime?
    /// The current run of off-clock fixes: last offset, first arrival, count.
    private var offClockOffset: Double?
    private var offClockSince: MonotonicTime?
    private var offClockCount = 0

    /// Fix time of the last accepted fix.
    private var lastAcceptedFixTime: FixTime?
    /// Fix time of the last rejected fix, to spot it being re-sent.
    private var lastRejectedFixTime: FixTime?
    private var lastSeenReceivedAt: MonotonicTime?
    private var lastAcceptedPosition: PlaneVector?
    private var lastAcceptedAt: MonotonicTime?
    private var candidatePosition: PlaneVector?
    private var candidateAt: MonotonicTime?
    private var candidateCount = 0
    private var backwardsRun = 0

    /// `maxFixLagSeconds`, `maxEphMeters`: the `FailsafeParameters` bounds (infinite: no check).
    public init(tuning: EstimatorTuning, maxFixLagSeconds: Double = .infinity, maxEphMeters: Double = .infinity) {
        self.maxPlausibleSpeedMetersPerSecond = tuning.maxPlausibleSpeedMetersPerSecond
        self.outlierAllowanceMeters = tuning.outlierAllowanceMeters
        self.reinitialiseAfterFixes = tuning.reinitialiseAfterFixes
        self.clockResetAfterFixes = tuning.clockResetAfterFixes
        self.maxFixLeadSeconds = tuning.maxFixLeadSeconds
        self.maxFixLagSeconds = maxFixLagSeconds
        self.maxEphMeters = maxEphMeters
    }

    /// Judges a fix at plane `position`; `ephMeters` is the receiver's horizontal error estimate.
    public mutating func screen(
        position: PlaneVector, ephMeters: Double? = nil, fixTime: FixTime?, receivedAt: MonotonicTime
    ) -> FixVerdict {
        // Accuracy.
        if let ephMeters, ephMeters > maxEphMeters {
            statistics[.refusedInaccurate] += 1
            return .refusedInaccurate(ephMeters: ephMeters)
        }
        // Order.
        var clockReset = false
        if let fixTime, fixTime == lastRejectedFixTime {
            statistics[.ignoredDuplicates] += 1
            return .ignoredDuplicate
        }
        if let fixTime, let lastFixTime = lastAcceptedFixTime {
            if fixTime == lastFixTime {
                statistics[.ignoredDuplicates] += 1
                return .ignoredDuplicate
            }
            if fixTime < lastFixTime {
                backwardsRun += 1
                if backwardsRun < clockResetAfterFixes {
                    statistics[.ignoredOutOfOrder] += 1
                    return .ignoredOutOfOrder
                }
                clockReset = true
            }
        } else if let lastAt = lastSeenReceivedAt, receivedAt <= lastAt {
            statistics[.ignoredOutOfOrder] += 1
            return .ignoredOutOfOrder
        }
        backwardsRun = 0
        lastSeenReceivedAt = receivedAt

        // Time stamp against the stream's clock.
        var offset: Double?
        if let fixTime, !clockReset {
            let fixOffset = receivedAt.seconds - fixTime.unixSeconds
            offset = fixOffset
            if let verdict = judgeClock(offset: fixOffset, receivedAt: receivedAt) { return verdict }
        }

        // Plausibility.
        guard !clockReset, let lastPosition = lastAcceptedPosition, let lastAt = lastAcceptedAt else {
            if clockReset, let fixTime {
                streamOffsetSeconds = receivedAt.seconds - fixTime.unixSeconds
                streamOffsetAt = receivedAt
            } else {
                noteUsed(offset: offset, at: receivedAt)
            }
            noteUsed(ephMeters: ephMeters, at: receivedAt)
            return initialise(position: position, fixTime: fixTime, at: receivedAt)
        }
        let dt = max(receivedAt.seconds(since: lastAt), 0)
        let jump = (position - lastPosition).length
        if jump <= maxPlausibleSpeedMetersPerSecond * dt + outlierAllowanceMeters {
            noteUsed(offset: offset, at: receivedAt)
            noteUsed(ephMeters: ephMeters, at: receivedAt)
            lastAcceptedPosition = position
            lastAcceptedAt = receivedAt
            lastAcceptedFixTime = fixTime
            candidatePosition = nil
            candidateAt = nil
            candidateCount = 0
            statistics[.accepted] += 1
            return .accepted
        }
        // Rejected: does it agree with the previous rejected fix?
        if let candidate = candidatePosition, let candidateTime = candidateAt,
           (position - candidate).length
            <= maxPlausibleSpeedMetersPerSecond * max(receivedAt.seconds(since: candidateTime), 0) + outlierAllowanceMeters {
            candidateCount += 1
        } else {
            candidateCount = 1
        }
        candidatePosition = position
        candidateAt = receivedAt
        if candidateCount >= reinitialiseAfterFixes {
            noteUsed(offset: offset, at: receivedAt)
            noteUsed(ephMeters: ephMeters, at: receivedAt)
            return initialise(position: position, fixTime: fixTime, at: receivedAt)
        }
        lastRejectedFixTime = fixTime
        statistics[.rejectedOutliers] += 1
        return .rejectedOutlier(impliedSpeedMetersPerSecond: dt > 0 ? jump / dt : .infinity)
    }

    /// The factor (≥ 1) for a fix's position sigma: its `eph` over the stream's recent best. 1 without an `eph`.
    public func sigmaScale(ephMeters: Double?, at time: MonotonicTime) -> Double {
        guard let ephMeters, ephMeters > 0, let reference = ephReference(at: time), reference > 0 else { return 1 }
        return max(1, ephMeters / reference)
    }

    private func ephReference(at time: MonotonicTime) -> Double? {
        guard let eph = ephReferenceMeters, let at = ephReferenceAt else { return nil }
        return eph * (1 + Self.ephReferenceRisePerSecond * max(time.seconds(since: at), 0))
    }

    private mutating func noteUsed(ephMeters: Double?, at time: MonotonicTime) {
        guard let ephMeters, ephMeters > 0 else { return }
        if let current = ephReference(at: time), current <= ephMeters { return }
        ephReferenceMeters = ephMeters
        ephReferenceAt = time
    }

    /// Checks a fix's (arrival − fix time) against the stream's clock; `nil` = on time.
    private mutating func judgeClock(offset: Double, receivedAt: MonotonicTime) -> FixVerdict? {
        guard let reference = streamOffset(at: receivedAt) else { return nil }
        let lead = reference - offset, lag = offset - reference
        guard lead > maxFixLeadSeconds || lag > maxFixLagSeconds else {
            offClockOffset = nil
            offClockSince = nil
            offClockCount = 0
            return nil
        }
        if let previous = offClockOffset, abs(offset - previous) <= Self.clockAgreementSeconds {
            offClockCount += 1
        } else {
            offClockCount = 1
            offClockSince = receivedAt
        }
        offClockOffset = offset
        if offClockCount >= clockResetAfterFixes, let since = offClockSince,
           receivedAt.seconds(since: since) >= Self.clockShiftMinimumSeconds {
            streamOffsetSeconds = offset
            streamOffsetAt = receivedAt
            offClockOffset = nil
            offClockSince = nil
            offClockCount = 0
            statistics[.clockReanchors] += 1
            return nil
        }
        if lead > maxFixLeadSeconds {
            statistics[.rejectedFutureTimes] += 1
            return .rejectedFutureTime(leadSeconds: lead)
        }
        statistics[.ignoredStale] += 1
        return .ignoredStale(lagSeconds: lag)
    }

    /// The stream's clock at `time`: the recent minimum offset, crept up since it was set.
    private func streamOffset(at time: MonotonicTime) -> Double? {
        guard let offset = streamOffsetSeconds, let at = streamOffsetAt else { return nil }
        return offset + Self.clockCreepSecondsPerSecond * max(time.seconds(since: at), 0)
    }

    private mutating func noteUsed(offset: Double?, at time: MonotonicTime) {
        guard let offset else { return }
        if let current = streamOffset(at: time), current <= offset { return }
        streamOffsetSeconds = offset
        streamOffsetAt = time
    }

    private mutating func initialise(position: PlaneVector, fixTime: FixTime?, at time: MonotonicTime) -> FixVerdict {
        lastAcceptedPosition = position
        lastAcceptedAt = time
        lastAcceptedFixTime = fixTime
        lastRejectedFixTime = nil
        candidatePosition = nil
        candidateAt = nil
        candidateCount = 0
        statistics[.initialisations] += 1
        return .initialised
    }
}
