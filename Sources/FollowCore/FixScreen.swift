import Geometry
import Telemetry

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

    /// Whether the fix now informs the estimate.
    @inlinable public var isUsed: Bool {
        switch self {
        case .accepted, .initialised: return true
        case .rejectedOutlier, .ignoredOutOfOrder, .ignoredDuplicate: return false
        }
    }
}

/// Counters for the flight log and the benchmark.
public struct FixStatistics: Sendable, Hashable {
    public var accepted = 0
    public var initialisations = 0
    public var rejectedOutliers = 0
    public var ignoredOutOfOrder = 0
    public var ignoredDuplicates = 0
    public init() {}
}

/// Decides whether a fix is believable before it reaches a filter: order, duplicates, jumps.
///
/// - Order: fixes are ordered by the receiver's own fix time when both have one (gpsd's
///   `time`; reference/gpsd.md), otherwise by arrival. Older than the last accepted fix →
///   ignored, equal to it (or to the last rejected one) → duplicate. A rejected fix's time does
///   not move the order on: its time may be as wrong as its position.
///   `clockResetAfterFixes` consecutive "older" fixes mean the receiver's clock restarted:
///   the next one re-initialises rather than the target staying lost for ever.
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
    public private(set) var statistics = FixStatistics()

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

    public init(tuning: EstimatorTuning) {
        self.maxPlausibleSpeedMetersPerSecond = tuning.maxPlausibleSpeedMetersPerSecond
        self.outlierAllowanceMeters = tuning.outlierAllowanceMeters
        self.reinitialiseAfterFixes = tuning.reinitialiseAfterFixes
        self.clockResetAfterFixes = tuning.clockResetAfterFixes
    }

    /// Judges a fix at plane `position`.
    public mutating func screen(position: PlaneVector, fixTime: FixTime?, receivedAt: MonotonicTime) -> FixVerdict {
        // Order.
        var clockReset = false
        if let fixTime, fixTime == lastRejectedFixTime {
            statistics.ignoredDuplicates += 1
            return .ignoredDuplicate
        }
        if let fixTime, let lastFixTime = lastAcceptedFixTime {
            if fixTime == lastFixTime {
                statistics.ignoredDuplicates += 1
                return .ignoredDuplicate
            }
            if fixTime < lastFixTime {
                backwardsRun += 1
                if backwardsRun < clockResetAfterFixes {
                    statistics.ignoredOutOfOrder += 1
                    return .ignoredOutOfOrder
                }
                clockReset = true
            }
        } else if let lastAt = lastSeenReceivedAt, receivedAt <= lastAt {
            statistics.ignoredOutOfOrder += 1
            return .ignoredOutOfOrder
        }
        backwardsRun = 0
        lastSeenReceivedAt = receivedAt

        // Plausibility.
        guard !clockReset, let lastPosition = lastAcceptedPosition, let lastAt = lastAcceptedAt else {
            return initialise(position: position, fixTime: fixTime, at: receivedAt)
        }
        let dt = max(receivedAt.seconds(since: lastAt), 0)
        let jump = (position - lastPosition).length
        if jump <= maxPlausibleSpeedMetersPerSecond * dt + outlierAllowanceMeters {
            lastAcceptedPosition = position
            lastAcceptedAt = receivedAt
            lastAcceptedFixTime = fixTime
            candidatePosition = nil
            candidateAt = nil
            candidateCount = 0
            statistics.accepted += 1
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
            return initialise(position: position, fixTime: fixTime, at: receivedAt)
        }
        lastRejectedFixTime = fixTime
        statistics.rejectedOutliers += 1
        return .rejectedOutlier(impliedSpeedMetersPerSecond: dt > 0 ? jump / dt : .infinity)
    }

    private mutating func initialise(position: PlaneVector, fixTime: FixTime?, at time: MonotonicTime) -> FixVerdict {
        lastAcceptedPosition = position
        lastAcceptedAt = time
        lastAcceptedFixTime = fixTime
        lastRejectedFixTime = nil
        candidatePosition = nil
        candidateAt = nil
        candidateCount = 0
        statistics.initialisations += 1
        return .initialised
    }
}
