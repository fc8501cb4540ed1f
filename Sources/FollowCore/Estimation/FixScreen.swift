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
    /// Its fix time is further ahead of the stream's clock (arrival − fix time, recent minimum)
    /// than `EstimatorTuning.maxFixLeadSeconds`: a wrong time stamp; dropped without moving the
    /// order on. Carries how far ahead, seconds.
    case rejectedFutureTime(leadSeconds: Double)
    /// Its fix time lags the stream's clock by more than `maxFixLagSeconds`: part of a backlog a
    /// stalled gpsd or TCP stream dumped, however recently it arrived; dropped, and it does not
    /// refresh freshness. Carries the lag, seconds.
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

/// What the fix screen counts, for the flight log and the benchmark:
/// - `accepted`, `initialisations`, `rejectedOutliers`, `ignoredOutOfOrder`, `ignoredDuplicates`: fixes per verdict;
/// - `rejectedFutureTimes`: fixes stamped too far ahead of the stream's clock;
/// - `ignoredStale`: fixes whose time lagged the stream's clock (a dumped backlog);
/// - `refusedInaccurate`: fixes whose `eph` exceeded `maxEphMeters`;
/// - `clockReanchors`: times the stream's clock was re-anchored after a run of agreeing off-clock fixes.
public enum FixCount: CaseIterable, Sendable, Hashable {
    case accepted, initialisations, rejectedOutliers, ignoredOutOfOrder, ignoredDuplicates
    case rejectedFutureTimes, ignoredStale, refusedInaccurate, clockReanchors
}

/// Counters for the flight log and the benchmark (`statistics[.rejectedOutliers]`).
public typealias FixStatistics = Counts<FixCount>

/// Decides whether a fix is believable before it reaches a filter: accuracy, order, duplicates,
/// time stamps, jumps.
///
/// - Accuracy: a fix whose receiver says its horizontal error (`eph`) exceeds `maxEphMeters` is
///   refused before anything else looks at it. Below that, `eph` is used only relatively, as gpsd
///   advises (docs/flight-safety-faults.md §3; for NMEA receivers gpsd derives it from HDOP, e.g.
///   17 m at HDOP 0.9): `sigmaScale(ephMeters:at:)` = eph ÷ the stream's own recent best eph
///   (never below 1), which the estimators multiply their tuned position sigma by.
///
/// - Order: fixes are ordered by the receiver's own fix time when both have one (gpsd's
///   `time`; docs/gpsd.md), otherwise by arrival. Older than the last accepted fix →
///   ignored, equal to it (or to the last rejected one) → duplicate. A rejected fix's time does
///   not move the order on: its time may be as wrong as its position.
///   `clockResetAfterFixes` consecutive "older" fixes mean the receiver's clock restarted:
///   the next one re-initialises rather than the target staying lost for ever.
/// - Time stamps: the stream's clock is the recent minimum of (arrival − fix time) over used
///   fixes (it may creep up by `clockCreepSecondsPerSecond` between fixes, so it follows slow
///   changes of gpsd's latency). A fix more than `maxFixLeadSeconds` below it is stamped in the
///   future: rejected, and it does not move the order on (else every later fix would look old —
///   ≈ 5 s of "target stale" at 1 Hz before `clockResetAfterFixes`). A fix more than
///   `maxFixLagSeconds` above it arrived late: a backlog dumped by a stalled gpsd or TCP stream,
///   stale however recently it arrived. `clockResetAfterFixes` consecutive off-clock fixes whose
///   offsets agree within `clockAgreementSeconds` and whose arrivals span `clockShiftMinimumSeconds`
///   mean the receiver's clock (or the path's latency) really changed: the clock re-anchors. A
///   dumped backlog arrives in a burst (and its offsets fall by one fix interval per fix), so it
///   never qualifies.
/// - Jumps: a fix further from the last accepted one than
///   `maxPlausibleSpeed·Δt + outlierAllowance` is rejected (100 m in 1 s is not a person).
///   If `reinitialiseAfterFixes` rejected fixes in a row agree with one another (each within
///   the same bound of the previous), the receiver has moved (or the first fix was the bad
///   one): re-initialise there.
public struct FixScreen: Sendable, Hashable {
    public let maxPlausibleSpeedMetersPerSecond: Double
    public let outlierAllowanceMeters: Double
    public let reinitialiseAfterFixes: Int
    public let clockResetAfterFixes: Int
    public let maxFixLeadSeconds: Double
    public let maxFixLagSeconds: Double
    public let maxEphMeters: Double
    public private(set) var statistics = FixStatistics()

    /// The stream's clock may rise by this between fixes, seconds per second (our choice: far
    /// above receiver clock drift, ppm, yet a 1 s stall still stands out after a minute).
    public static let clockCreepSecondsPerSecond = 0.01
    /// Off-clock fixes whose offsets differ by less than this agree, seconds (gpsd delivery jitter
    /// is tens of milliseconds on a LAN; our choice).
    public static let clockAgreementSeconds = 0.25
    /// …and a run of them must arrive over at least this long to move the clock, seconds.
    public static let clockShiftMinimumSeconds = 1.0

    /// The stream's recent best eph may rise by this fraction per second (our choice: a receiver
    /// that stays worse for minutes is weighted as tuned again after ≈ 3 min at 2×).
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

    /// Fix time of the last accepted fix (a rejected fix's time may be as wrong as its position).
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

    /// - Parameters:
    ///   - maxFixLagSeconds: `FailsafeParameters.maxFixLagSeconds` (infinite: no check).
    ///   - maxEphMeters: `FailsafeParameters.maxEphMeters` (infinite: no check).
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
                // The receiver's clock restarted: its old offset means nothing.
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

    /// How much less a fix with this `eph` should count than the stream's best recent fixes: the
    /// factor (≥ 1) for its position sigma. 1 without an `eph` or before the first one.
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
            // A steady new offset, delivered at the normal pace: the clock moved, not one stamp.
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
