/// Decides when the wind is more than the drone should fly in (docs/stopping-model.md §6).
///
/// The follower's wind observer (`FollowController.windEstimate`) measures, in the tilt model's
/// units, how much of the drone's authority a disturbance takes: full tilt holds a ground speed of
/// c2·sin(maxTilt) against still air (the *authority*, 6.0 m/s at 20°, 3.6 m/s at the SDK's 12°), and
/// the estimate is clamped there. Whatever the model gets wrong (c1/c2 off, a heavier hull) lands in
/// the same estimate, so it measures the authority the drone actually has left, not only the air.
/// The monitor watches the follower's *fast* estimate (`FollowController.fastWindEstimate`), which is
/// not clamped at the authority, so a wind beyond it reads as such within a couple of seconds.
/// Three things end a flight for wind (→ `landing(.windTooStrong(cause))`):
/// - **saturated**: the estimate is at `saturationFraction` of the authority or more *and* the
///   drone moves downwind at `minDriftMetersPerSecond` or more — and, while the estimate is within
///   the authority, that much faster than the follower commanded (a drone keeping pace with a person
///   walking downwind is not losing ground) — full tilt is losing ground — for
///   `windSaturationSeconds`, counted on a leaky clock (it counts up while saturated and down at
///   `saturationLeak` of that rate while not, so a gust train adds up but one gust does not); or,
///   sooner, once the drift downwind while saturated adds up to `maxExcessDriftMeters`. The drone
///   is then being blown, not flown, and every second costs as much drift again. (The drift
///   condition keeps an estimate that is merely noisy, or a drone held at the edge without losing
///   ground, from landing a flight.)
/// - **above limit**: the mean estimate (first-order, `meanTimeConstantSeconds`; a running mean
///   until that much has been seen) exceeds `maxWindMetersPerSecond`, when one is configured.
/// - **firmware**: navdata's "too much wind" state bit (AR.Drone bit 20) stayed raised across
///   `firmwareWarningSeconds` of packets (first to latest raised packet: one packet followed by a
///   navdata gap never counts) while airborne.
/// Pure: time is an argument; `observe` is called once per airborne tick, `reset` on the ground.
public struct WindMonitor: Sendable, Hashable {
    /// Share of the authority at which the estimate counts as saturated (our choice: the observer
    /// clamps at 1.0, and noise keeps a clamped estimate a few per cent under it now and then).
    public static let saturationFraction = 0.95
    /// How fast the saturation clock runs back while the estimate is below the threshold, as a
    /// share of real time (our choice: a wind that saturates a third of the time still adds up).
    public static let saturationLeak = 0.5
    /// Time constant of the mean wind, seconds (our choice: longer than a Dryden gust at 3 m, ≈ 5 s
    /// at 5 m/s, so the mean is the wind and not the gust).
    public static let meanTimeConstantSeconds = 10.0
    /// How long navdata's "too much wind" bit must stay raised, seconds (our choice: a dozen packets
    /// at 15 Hz; one corrupt packet must not land a flight).
    public static let firmwareWarningSeconds = 1.0
    /// Drift beyond what full tilt can hold that lands the drone at once, metres (our choice: the
    /// drift then goes on at the same speed through the descent, ≈ 2 s from the firmware's 1 m
    /// take-off height and ≈ 6 s from 3 m at 0.5 m/s, so each second of waiting costs as much again).
    public static let maxExcessDriftMeters = 1.0
    /// Downwind ground speed that counts as losing ground, m/s (our choice: several times the noise
    /// of the fused navdata/GPS velocity, well under the 1–2 m/s a wind beyond the tilt blows at).
    public static let minDriftMetersPerSecond = 0.3
    /// Saturation that aborts a take-off or climb, seconds (our choice: a few navdata packets; the
    /// drone is still next to the take-off point and nothing is lost by landing it).
    public static let startUpSaturationSeconds = 0.5

    /// c2·sin(maxTilt): the ground speed full tilt holds against still air, m/s.
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

    public init(follow: FollowParameters, failsafe: FailsafeParameters, tuning: ControllerTuning) {
        authorityMetersPerSecond = tuning.tiltSpeedMetersPerSecond * _sin(radians(fromDegrees: follow.maxTiltDegrees))
        maxWindMetersPerSecond = failsafe.maxWindMetersPerSecond
        saturationSeconds = failsafe.windSaturationSeconds
    }

    /// Share of the authority the latest estimate takes (0 … `ControllerTuning.failsafeWindLimitFactor`,
    /// the fast observer's clamp; past 1 the wind is beyond the tilt).
    public var authorityUsed: Double {
        authorityMetersPerSecond > 0 ? lastWind.length / authorityMetersPerSecond : 0
    }

    /// Takes this tick's wind estimate, the drone's ground velocity and the velocity the follower
    /// commanded (plane m/s; zero while it holds a point or the firmware flies) while the follower
    /// flies the drone (or learns the wind from the firmware's take-off). Ticks more than
    /// `FollowController.maxTickSeconds` apart count as that long.
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
        // Losing ground: moving downwind, and — while the estimate is still within the authority — that
        // much faster than commanded (a drone keeping pace with a person walking downwind is not losing
        // ground, nor is one held still at the edge). Beyond the authority any downwind motion counts:
        // the drone cannot hold a point at all, whatever it was asked to do meanwhile.
        let beyond = speed > authorityMetersPerSecond
        let drift = beyond ? droneVelocity : droneVelocity - commandedVelocity
        let downwind = speed > 0 ? min(droneVelocity.dot(windEstimate), drift.dot(windEstimate)) / speed : 0
        if speed >= Self.saturationFraction * authorityMetersPerSecond, downwind >= Self.minDriftMetersPerSecond {
            saturatedSeconds = min(saturatedSeconds + dt, saturationSeconds)
            // What full tilt cannot hold back: the estimate beyond the authority, at most the drift seen.
            let excess = min(speed - authorityMetersPerSecond, downwind)
            excessDriftMeters = min(excessDriftMeters + max(excess, 0) * dt, Self.maxExcessDriftMeters)
        } else {
            saturatedSeconds = max(saturatedSeconds - Self.saturationLeak * dt, 0)
            excessDriftMeters = max(excessDriftMeters - Self.saturationLeak * dt, 0)
        }
    }

    /// Takes navdata's "too much wind" bit (from every packet, airborne or not).
    public mutating func observe(firmwareWarning: Bool, at time: MonotonicTime) {
        if !firmwareWarning {
            (firmwareWarningSince, firmwareWarningLatest) = (nil, nil)
        } else {
            if firmwareWarningSince == nil { firmwareWarningSince = time }
            firmwareWarningLatest = time
        }
    }

    /// Whether navdata's "too much wind" bit is raised now.
    public var firmwareWarning: Bool { firmwareWarningSince != nil }

    /// Forgets the flight's wind (the firmware bit is navdata's and stays): call on the ground.
    public mutating func reset() {
        meanWind = .zero
        lastWind = .zero
        peakWindMetersPerSecond = 0
        saturatedSeconds = 0
        excessDriftMeters = 0
        observedSeconds = 0
        lastObservedAt = nil
    }

    /// Why the wind ends the flight now, if it does (saturation first: it is the physical limit).
    /// `startingUp`: during the take-off and the climb, before any following, where giving up costs
    /// nothing and every second of drift counts, `startUpSaturationSeconds` of saturation is enough.
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
    /// The wind estimate sat at the edge of the tilt authority for `windSaturationSeconds`.
    case saturated
    /// The mean wind estimate exceeded `maxWindMetersPerSecond`.
    case aboveLimit
    /// Navdata's "too much wind" bit stayed raised.
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
