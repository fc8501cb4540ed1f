import Geometry
import Observations

/// Decides when the wind is more than the drone should fly in (docs/stopping-model.md §6).
///
/// The follower's wind observer (`FollowController.windEstimate`) measures, in the tilt model's
/// units, how much of the drone's authority a disturbance takes: full tilt holds a ground speed of
/// c2·sin(maxTilt) against still air (the *authority*, 6.0 m/s at 20°, 3.6 m/s at the SDK's 12°), and
/// the estimate is clamped there. Whatever the model gets wrong (c1/c2 off, a heavier hull) lands in
/// the same estimate, so it measures the authority the drone actually has left, not only the air.
/// Three things end a flight for wind (→ `landing(.windTooStrong(cause))`):
/// - **saturated**: the estimate sat at `saturationFraction` of the authority or more for
///   `windSaturationSeconds`, counted on a leaky clock (it counts up while saturated and down at
///   `saturationLeak` of that rate while not, so a gust train adds up but one gust does not). At
///   the clamp the drone can no longer hold a position against the wind, let alone brake towards
///   the person's side of it: it is being blown, not flown.
/// - **above limit**: the mean estimate (first-order, `meanTimeConstantSeconds`; a running mean
///   until that much has been seen) exceeds `maxWindMetersPerSecond`, when one is configured.
/// - **firmware**: navdata's "too much wind" state bit (AR.Drone bit 20) stayed raised for
///   `firmwareWarningSeconds` while airborne.
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
    /// The latest wind estimate observed, plane m/s.
    public private(set) var lastWind: PlaneVector = .zero
    private var observedSeconds: Double = 0
    private var lastObservedAt: MonotonicTime?
    private var firmwareWarningSince: MonotonicTime?

    public init(follow: FollowParameters, failsafe: FailsafeParameters, tuning: ControllerTuning) {
        authorityMetersPerSecond = tuning.tiltSpeedMetersPerSecond * _sin(radians(fromDegrees: follow.maxTiltDegrees))
        maxWindMetersPerSecond = failsafe.maxWindMetersPerSecond
        saturationSeconds = failsafe.windSaturationSeconds
    }

    /// Share of the authority the latest estimate takes (0 … 1).
    public var authorityUsed: Double {
        authorityMetersPerSecond > 0 ? lastWind.length / authorityMetersPerSecond : 0
    }

    /// Takes this tick's wind estimate (plane m/s) while the follower flies the drone (or learns the
    /// wind from the firmware's take-off). Ticks more than `FollowController.maxTickSeconds` apart
    /// count as that long.
    public mutating func observe(windEstimate: PlaneVector, now: MonotonicTime) {
        guard windEstimate.isFinite else { return }
        let dt = lastObservedAt.map { min(max(now.seconds(since: $0), 0), FollowController.maxTickSeconds) }
            ?? FollowController.nominalTickSeconds
        lastObservedAt = now
        lastWind = windEstimate
        observedSeconds += dt
        let gain = dt / min(observedSeconds, Self.meanTimeConstantSeconds)
        meanWind = meanWind + (windEstimate - meanWind) * min(gain, 1)
        if windEstimate.length >= Self.saturationFraction * authorityMetersPerSecond {
            saturatedSeconds = min(saturatedSeconds + dt, saturationSeconds)
        } else {
            saturatedSeconds = max(saturatedSeconds - Self.saturationLeak * dt, 0)
        }
    }

    /// Takes navdata's "too much wind" bit (from every packet, airborne or not).
    public mutating func observe(firmwareWarning: Bool, at time: MonotonicTime) {
        if !firmwareWarning {
            firmwareWarningSince = nil
        } else if firmwareWarningSince == nil {
            firmwareWarningSince = time
        }
    }

    /// Whether navdata's "too much wind" bit is raised now.
    public var firmwareWarning: Bool { firmwareWarningSince != nil }

    /// Forgets the flight's wind (the firmware bit is navdata's and stays): call on the ground.
    public mutating func reset() {
        meanWind = .zero
        lastWind = .zero
        saturatedSeconds = 0
        observedSeconds = 0
        lastObservedAt = nil
    }

    /// Why the wind ends the flight now, if it does (saturation first: it is the physical limit).
    public func cause(now: MonotonicTime) -> WindCause? {
        if saturatedSeconds >= saturationSeconds { return .saturated }
        if maxWindMetersPerSecond > 0, meanWind.length > maxWindMetersPerSecond { return .aboveLimit }
        if let since = firmwareWarningSince, now.seconds(since: since) >= Self.firmwareWarningSeconds { return .firmware }
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
