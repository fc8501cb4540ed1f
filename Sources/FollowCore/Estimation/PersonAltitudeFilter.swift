/// The person's altitude from their 3-D fixes, for `AltitudeMode.person`: a first-order filter behind
/// a rate gate that ignores (and counts) the vertical jumps no one on foot makes.
///
/// GPS vertical error is 1.5–3× the horizontal one, and a multipath reflection can put one or two fixes
/// tens of metres off; followed, such a fix commands the autopilot towards the ground. Two fixes *agree*
/// when their altitudes differ by at most `maxVerticalRateMetersPerSecond` × the time between them +
/// `jitterAllowanceMeters`. The filter starts (is *seeded*) only from a run of agreeing fixes
/// (`settles`: `seedFixCount` fixes over at least `seedMinimumSeconds`, every pair agreeing), never from
/// one fix alone, so a first fix that is a spike is never used; until then `filteredMeters` is nil, as
/// before any 3-D fix. Once seeded, a fix is used only if it agrees with the last used fix (the gate,
/// which widens with time, so a real change is taken once it could have been walked); others are
/// ignored and counted (`spikesRejected`). Consecutive ignored fixes that form such a run among
/// themselves are a lasting step (a receiver re-acquiring with another bias, or a reference that was
/// wrong), not a spike: the gate is re-seeded from them (`reseeds`) and the filter moves towards them at
/// its own pace, instead of waiting for the gate to grow. Pure: time is an argument.
public struct PersonAltitudeFilter: Sendable, Hashable {
    /// The filtered altitude, metres (the receiver's datum); nil until the first run of agreeing fixes.
    public private(set) var filteredMeters: Double?
    /// When the last used fix was received (the freshness `targetAltitudeStale` reads).
    public private(set) var lastUsedAt: MonotonicTime?
    /// The last used fix's altitude as received, metres: the rate gate's reference.
    public private(set) var lastUsedRawMeters: Double?
    /// Fixes whose altitude the rate gate ignored, since the start (a fix a re-seed later took stays counted:
    /// it was not followed when it came). Fixes waiting to seed the filter are not counted.
    public private(set) var spikesRejected = 0
    /// Times a run of ignored fixes that agree among themselves replaced the gate's reference, since the start.
    public private(set) var reseeds = 0
    /// The latest fixes not used yet that agree with each other, oldest first: before the seed, the
    /// candidates for it; after, the consecutive fixes the gate ignored.
    private var run: [Sample] = []

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
    /// Agreeing fixes that seed (or re-seed) the filter (our choice: a multipath reflection spoils "a fix
    /// or two", so three outvote it; at the shipped 1 Hz that is 2 s, and the gate's lock-out on a wrong
    /// reference — 13 s for 40 m — becomes 2 s).
    public static let seedFixCount = 3
    /// …over at least this long, seconds (our choice: a 5–10 Hz receiver's consecutive fixes share one
    /// reflection for a fraction of a second, so three of them in 0.2–0.4 s prove little; three fixes
    /// span 1 s at 2 Hz, so at 1–2 Hz the count decides and faster receivers need 1 s of them).
    public static let seedMinimumSeconds = 1.0
    /// The most fixes a run keeps, oldest dropped (1 s at the config's fastest 20 Hz, with room).
    static let runCapacity = 48
    /// The oldest fix a run keeps, seconds before the newest (our choice: a 1 Hz run of 3 spans 2 s, so 5 s
    /// leaves room for a missed fix). The gate widens 3 m/s with time, so without it a spike minutes old
    /// "agrees" with anything and would outvote nothing but still pull the seed.
    static let runWindowSeconds = 5.0

    /// Takes one fix's altitude received at `time`; returns whether it was used (false: not finite, waiting
    /// for a run to seed the filter, or ignored by the rate gate and counted in `spikesRejected`).
    @discardableResult
    public mutating func note(_ altitude: Double, at time: MonotonicTime) -> Bool {
        guard altitude.isFinite else { return false }
        let sample = Sample(altitudeMeters: altitude, at: time)
        guard let reference = lastUsedRawMeters, let last = lastUsedAt, let current = filteredMeters else {
            extendRun(with: sample)
            guard Self.settles(run) else { return false }
            filteredMeters = Self.median(run.map(\.altitudeMeters))
            use(sample)
            return true
        }
        if Self.agree(Sample(altitudeMeters: reference, at: last), sample) {
            filteredMeters = current + (altitude - current) * Self.weight(from: last, to: time)
            use(sample)
            return true
        }
        extendRun(with: sample)
        guard Self.settles(run) else {
            spikesRejected += 1
            return false
        }
        reseeds += 1
        filteredMeters = current + (altitude - current) * Self.weight(from: last, to: time)
        use(sample)
        return true
    }

    /// Makes `sample` the gate's reference and ends the run.
    private mutating func use(_ sample: Sample) {
        lastUsedAt = sample.at
        lastUsedRawMeters = sample.altitudeMeters
        run.removeAll(keepingCapacity: true)
    }

    /// Appends `sample` to the run after dropping, oldest first, the fixes it does not agree with, those
    /// older than `runWindowSeconds` (and any beyond `runCapacity`), so every pair in the run agrees.
    private mutating func extendRun(with sample: Sample) {
        let keep = { (old: Sample) in Self.agree(old, sample) && sample.at.seconds(since: old.at) <= Self.runWindowSeconds }
        if let firstKept = run.lastIndex(where: { !keep($0) }).map({ $0 + 1 }) {
            run.removeFirst(firstKept)
        }
        if run.count >= Self.runCapacity { run.removeFirst(run.count - Self.runCapacity + 1) }
        run.append(sample)
    }

    /// Whether two fixes' altitudes are within the gate for the time between them.
    static func agree(_ a: Sample, _ b: Sample) -> Bool {
        let elapsed = abs(b.at.seconds(since: a.at))
        return abs(b.altitudeMeters - a.altitudeMeters) <= maxVerticalRateMetersPerSecond * elapsed + jitterAllowanceMeters
    }

    /// Whether a run of agreeing fixes is enough to seed from: `seedFixCount` fixes over `seedMinimumSeconds`.
    static func settles(_ run: [Sample]) -> Bool {
        guard run.count >= seedFixCount, let first = run.first, let last = run.last else { return false }
        return last.at.seconds(since: first.at) >= seedMinimumSeconds
    }

    /// The middle of `values` (the mean of the middle two for an even count): a run's seed, which one
    /// fix at the edge of the gate cannot pull.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The first-order filter's weight for a used fix `time` after the last one.
    private static func weight(from last: MonotonicTime, to time: MonotonicTime) -> Double {
        min(min(max(time.seconds(since: last), 0), 5) / timeConstantSeconds, 1)
    }

    /// One fix's altitude and when it was received.
    struct Sample: Sendable, Hashable {
        var altitudeMeters: Double
        var at: MonotonicTime
    }
}
