/// The person's altitude from their 3-D fixes (`AltitudeMode.person`): a first-order filter behind a rate
/// gate (fixes agree within `maxVerticalRateMetersPerSecond` × Δt + `jitterAllowanceMeters`), seeded and
/// re-seeded only from runs of agreeing fixes. Pure. Why: docs/dynamics-and-follow.md §3.5.
public struct PersonAltitudeFilter: Sendable, Hashable {
    /// The filtered altitude, metres (the receiver's datum); nil until the first run of agreeing fixes.
    public private(set) var filteredMeters: Double?
    /// When the last used fix was received (the freshness `targetAltitudeStale` reads).
    public private(set) var lastUsedAt: MonotonicTime?
    /// The last used fix's altitude as received, metres: the rate gate's reference.
    public private(set) var lastUsedRawMeters: Double?
    /// Fixes the rate gate ignored, since the start (a fix a re-seed later took stays counted; fixes
    /// waiting to seed are not).
    public private(set) var spikesRejected = 0
    /// Times a run of ignored fixes that agree among themselves replaced the gate's reference, since the start.
    public private(set) var reseeds = 0
    /// The latest unused fixes that agree with each other, oldest first: seed candidates, or the fixes
    /// the gate ignored.
    private var run: [Sample] = []

    public init() {}

    /// Time constant of the filter, seconds.
    public static let timeConstantSeconds = 3.0
    /// The fastest a person on foot changes height, m/s (with margin).
    public static let maxVerticalRateMetersPerSecond = 3.0
    /// Added to the gate for the receiver's fix-to-fix vertical jitter, metres.
    public static let jitterAllowanceMeters = 2.0
    /// Agreeing fixes that seed (or re-seed) the filter…
    public static let seedFixCount = 3
    /// …over at least this long, seconds.
    public static let seedMinimumSeconds = 1.0
    /// The most fixes a run keeps, oldest dropped.
    static let runCapacity = 48
    /// The oldest fix a run keeps, seconds before the newest.
    static let runWindowSeconds = 5.0

    /// Takes one fix's altitude received at `time`; whether it was used (false: not finite, waiting to
    /// seed, or ignored by the gate and counted).
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

    /// Appends `sample` to the run after dropping the fixes it does not agree with and those older than
    /// `runWindowSeconds` (or beyond `runCapacity`), so every pair in the run agrees.
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

    /// The middle of `values` (mean of the middle two for an even count): a run's seed.
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
