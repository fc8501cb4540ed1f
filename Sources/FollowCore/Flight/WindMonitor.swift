/// Decides when the wind is more than the drone should fly in: the vehicle model's fast wind estimate
/// saturated at its authority while losing ground (leaky clock, or drift), the mean above `maxWindMetersPerSecond`,
/// or the vehicle's own wind warning (`WindCause`). Pure; `observe` once per airborne tick, `reset` on the ground.
/// The rules and their constants: docs/stopping-model.md §6–6.1.
public struct WindMonitor: Sendable, Hashable {
    /// Share of the authority at which the estimate counts as saturated.
    public static let saturationFraction = 0.95
    /// How fast the saturation clock runs back while not saturated, as a share of real time.
    public static let saturationLeak = 0.5
    /// Time constant of the mean wind, seconds.
    public static let meanTimeConstantSeconds = 10.0
    /// How long the vehicle's "too much wind" warning must stay raised, seconds (first to latest raised packet).
    public static let firmwareWarningSeconds = 1.0
    /// Drift beyond what the vehicle's authority can hold that lands the drone at once, metres.
    public static let maxExcessDriftMeters = 1.0
    /// Downwind ground speed that counts as losing ground, m/s.
    public static let minDriftMetersPerSecond = 0.3
    /// Saturation that aborts a take-off or climb, seconds.
    public static let startUpSaturationSeconds = 0.5

    /// The strongest wind the vehicle holds against, m/s (`VehicleModel.windAuthorityMetersPerSecond`).
    public let authorityMetersPerSecond: Double
    /// The configured mean-wind limit, m/s; 0 = none.
    public let maxWindMetersPerSecond: Double
    /// The saturated time that lands the drone, seconds.
    public let saturationSeconds: Double

    /// The mean wind estimate, plane m/s (zero until observed).
    public private(set) var meanWind: PlaneVector = .zero
    /// The saturation clock, seconds (0 … `saturationSeconds`).
    public private(set) var saturatedSeconds: Double = 0
    /// Drift downwind added up while saturated, metres (runs back at `saturationLeak` m/s while not).
    public private(set) var excessDriftMeters: Double = 0
    /// The latest wind estimate observed, plane m/s.
    public private(set) var lastWind: PlaneVector = .zero
    /// The largest wind estimate observed since the last reset, m/s.
    public private(set) var peakWindMetersPerSecond: Double = 0
    private var observedSeconds: Double = 0
    private var lastObservedAt: MonotonicTime?
    private var firmwareWarningSince: MonotonicTime?
    private var firmwareWarningLatest: MonotonicTime?

    public init(failsafe: FailsafeParameters, authorityMetersPerSecond: Double) {
        self.authorityMetersPerSecond = authorityMetersPerSecond
        maxWindMetersPerSecond = failsafe.maxWindMetersPerSecond
        saturationSeconds = failsafe.windSaturationSeconds
    }

    /// Share of the authority the latest estimate takes (past 1: beyond what the vehicle holds against).
    public var authorityUsed: Double {
        authorityMetersPerSecond > 0 ? lastWind.length / authorityMetersPerSecond : 0
    }

    /// Takes this tick's wind estimate, the drone's ground velocity and the commanded velocity (plane m/s;
    /// zero while holding or while the firmware flies). Gaps count at most `FollowController.maxTickSeconds`.
    public mutating func observe(windEstimate: PlaneVector, droneVelocity: PlaneVector,
                                 commandedVelocity: PlaneVector = .zero, now: MonotonicTime) {
        guard windEstimate.isFinite, droneVelocity.isFinite, commandedVelocity.isFinite else { return }
        let dt = lastObservedAt.map { min(max(now.seconds(since: $0), 0), FollowController.maxTickSeconds) }
            ?? FollowController.nominalTickSeconds
        lastObservedAt = now
        lastWind = windEstimate
        peakWindMetersPerSecond = max(peakWindMetersPerSecond, windEstimate.length)
        observedSeconds += dt
        let gain = dt / min(observedSeconds, Self.meanTimeConstantSeconds)
        meanWind = meanWind + (windEstimate - meanWind) * min(gain, 1)
        let speed = windEstimate.length
        // Losing ground: downwind, and within the authority that much faster than commanded (pacing a person
        // downwind is not); beyond the authority any downwind motion counts.
        let beyond = speed > authorityMetersPerSecond
        let drift = beyond ? droneVelocity : droneVelocity - commandedVelocity
        let downwind = speed > 0 ? min(droneVelocity.dot(windEstimate), drift.dot(windEstimate)) / speed : 0
        if speed >= Self.saturationFraction * authorityMetersPerSecond, downwind >= Self.minDriftMetersPerSecond {
            saturatedSeconds = min(saturatedSeconds + dt, saturationSeconds)
            let excess = min(speed - authorityMetersPerSecond, downwind)
            excessDriftMeters = min(excessDriftMeters + max(excess, 0) * dt, Self.maxExcessDriftMeters)
        } else {
            saturatedSeconds = max(saturatedSeconds - Self.saturationLeak * dt, 0)
            excessDriftMeters = max(excessDriftMeters - Self.saturationLeak * dt, 0)
        }
    }

    /// Takes the vehicle's "too much wind" warning (from every packet, airborne or not).
    public mutating func observe(firmwareWarning: Bool, at time: MonotonicTime) {
        if !firmwareWarning {
            (firmwareWarningSince, firmwareWarningLatest) = (nil, nil)
        } else {
            if firmwareWarningSince == nil { firmwareWarningSince = time }
            firmwareWarningLatest = time
        }
    }

    /// Whether the vehicle's "too much wind" warning is raised now.
    public var firmwareWarning: Bool { firmwareWarningSince != nil }

    /// Forgets the flight's wind (the vehicle's warning stays): call on the ground.
    public mutating func reset() {
        meanWind = .zero
        lastWind = .zero
        peakWindMetersPerSecond = 0
        saturatedSeconds = 0
        excessDriftMeters = 0
        observedSeconds = 0
        lastObservedAt = nil
    }

    /// Why the wind ends the flight now, if it does (saturation first). `startingUp` (take-off and climb,
    /// before any following): `startUpSaturationSeconds` of saturation is enough.
    public func cause(now: MonotonicTime, startingUp: Bool = false) -> WindCause? {
        let clock = startingUp ? min(saturationSeconds, Self.startUpSaturationSeconds) : saturationSeconds
        if saturatedSeconds >= clock || excessDriftMeters >= Self.maxExcessDriftMeters { return .saturated }
        if maxWindMetersPerSecond > 0, meanWind.length > maxWindMetersPerSecond { return .aboveLimit }
        if let since = firmwareWarningSince, let latest = firmwareWarningLatest,
           latest.seconds(since: since) >= Self.firmwareWarningSeconds { return .firmware }
        return nil
    }
}

/// What made the wind end a flight (`LandReason.windTooStrong`).
public enum WindCause: Sendable, Hashable {
    /// The wind estimate sat at the edge of the vehicle's authority for `windSaturationSeconds`.
    case saturated
    /// The mean wind estimate exceeded `maxWindMetersPerSecond`.
    case aboveLimit
    /// The vehicle's "too much wind" warning stayed raised.
    case firmware

    /// `saturated`, `above-limit`, `firmware` (the flight log's vocabulary).
    public var name: String {
        switch self {
        case .saturated: "saturated"
        case .aboveLimit: "above-limit"
        case .firmware: "firmware"
        }
    }
}
