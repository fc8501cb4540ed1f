/// The person's altitude from their 3-D fixes, for `AltitudeMode.person`: a first-order filter behind
/// a rate gate that ignores (and counts) the vertical jumps no one on foot makes.
///
/// GPS vertical error is 1.5–3× the horizontal one, and a multipath reflection can put one or two fixes
/// tens of metres off; followed, such a fix commands the autopilot towards the ground. A fix is used only
/// if its altitude is within `maxVerticalRateMetersPerSecond` × the time since the last used fix +
/// `jitterAllowanceMeters` of that fix's altitude; the gate widens with time, so a real change (or a
/// receiver's lasting re-convergence) is taken once it could have been walked. Pure: time is an argument.
public struct PersonAltitudeFilter: Sendable, Hashable {
    /// The filtered altitude, metres (the receiver's datum); nil before the first used fix.
    public private(set) var filteredMeters: Double?
    /// When the last used fix was received (the freshness `targetAltitudeStale` reads).
    public private(set) var lastUsedAt: MonotonicTime?
    /// The last used fix's altitude as received, metres: the rate gate's reference.
    public private(set) var lastUsedRawMeters: Double?
    /// Fixes whose altitude the rate gate ignored, since the start.
    public private(set) var spikesRejected = 0

    public init() {}

    /// Time constant of the filter, seconds (our choice: a walker climbs 0.14 m/s on a 10 % grade, so
    /// 3 s costs 0.4 m of lag and takes the edge off fix-to-fix noise).
    public static let timeConstantSeconds = 3.0
    /// The fastest a person on foot changes height, m/s (our choice, twice anything on foot: a walker on
    /// a 10 % grade climbs 0.14 m/s, a mountain runner ≈ 0.5 m/s up and 1.5 m/s down a steep trail, stairs
    /// taken at a run ≈ 1 m/s; a multipath spike is tens of metres in one fix, hundreds of m/s).
    public static let maxVerticalRateMetersPerSecond = 3.0
    /// Added to the gate for the receiver's fix-to-fix vertical jitter, metres (our choice: ≈ 3σ of the
    /// difference of two fixes with 0.6 m of white vertical noise, 2× the horizontal 0.3 m of
    /// docs/dynamics-and-follow.md §3.2; at 5 Hz the gate is 2.6 m, at 1 Hz 5 m).
    public static let jitterAllowanceMeters = 2.0

    /// Takes one fix's altitude received at `time`; returns whether it was used (false: not finite, or
    /// ignored by the rate gate and counted in `spikesRejected`).
    @discardableResult
    public mutating func note(_ altitude: Double, at time: MonotonicTime) -> Bool {
        guard altitude.isFinite else { return false }
        if let reference = lastUsedRawMeters, let last = lastUsedAt {
            let elapsed = max(time.seconds(since: last), 0)
            guard abs(altitude - reference) <= Self.maxVerticalRateMetersPerSecond * elapsed + Self.jitterAllowanceMeters else {
                spikesRejected += 1
                return false
            }
        }
        if let current = filteredMeters, let last = lastUsedAt {
            let dt = min(max(time.seconds(since: last), 0), 5)
            filteredMeters = current + (altitude - current) * min(dt / Self.timeConstantSeconds, 1)
        } else {
            filteredMeters = altitude
        }
        lastUsedAt = time
        lastUsedRawMeters = altitude
        return true
    }
}
