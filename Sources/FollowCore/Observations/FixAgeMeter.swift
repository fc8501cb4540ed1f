/// How old a receiver's fix was when FollowMe received it, seconds, and where that figure comes from:
/// measured against the host clock, or the configured value (docs/gps-latency.md §3).
public struct FixAge: Sendable, Hashable {
    /// The ages a fix may be given, seconds: a receiver whose fixes arrive later than 1 s is read as 1 s old.
    public static let range: ClosedRange<Double> = 0...1

    /// Seconds between the fix's epoch and its arrival, within `range`.
    public let seconds: Double
    /// Measured, or configured and why.
    public let source: Source

    /// Clamps `seconds` into `range`; fails on a non-finite value.
    public init?(seconds: Double, source: Source) {
        guard seconds.isFinite else { return nil }
        self.init(finiteSeconds: seconds, source: source)
    }

    /// Clamps a finite `seconds` into `range`.
    fileprivate init(finiteSeconds seconds: Double, source: Source) {
        self.seconds = min(max(seconds, Self.range.lowerBound), Self.range.upperBound)
        self.source = source
    }

    /// Where an age comes from.
    public enum Source: Sendable, Hashable {
        /// The median of the receiver's samples against a trusted host clock.
        case clock(FixAgeMeter.Origin)
        /// The configured latency (`[target]`/`[onboard] latency_s`), and why no measurement is used.
        case config(FixAgeMeter.Fallback)

        /// `clock` or `config`: the status JSON's `*_latency_source` and the flight log's `age_source`.
        public var name: String {
            switch self {
            case .clock: "clock"
            case .config: "config"
            }
        }

        /// Which samples were measured (`gpsd TOFF`, `fix time`), or why the configured value is used
        /// (`host clock not synchronised`, …).
        public var reason: String {
            switch self {
            case .clock(let origin): origin.rawValue
            case .config(let fallback): fallback.rawValue
            }
        }
    }
}

/// One receiver's fix age from samples of (host receive time − fix epoch), seconds: the median of the
/// last `windowSize` plausible samples once there are `minimumSamples`, else the configured latency.
///
/// Pure: the caller takes the times and says whether the host clock can be trusted
/// (docs/gps-latency.md §3). Non-finite samples are counted and dropped; implausible ones (outside
/// `plausibleSampleRange`, e.g. a replay years off) are counted and take their place in the window, so
/// a run of them displaces the plausible ones and the age falls back to the configured value.
public struct FixAgeMeter: Sendable, Hashable {
    /// `[target]`/`[onboard] latency_source`: when a measured age may be used.
    public enum Policy: String, Sendable, Hashable, CaseIterable {
        /// Measured when the host clock is synchronised, else the configured value.
        case auto
        /// Measured even when the host clock does not say it is synchronised.
        case clock
        /// Never measured: always the configured value.
        case config
    }

    /// What a sample compares with the host's receive time.
    public enum Origin: String, Sendable, Hashable, CaseIterable {
        /// gpsd's TOFF report: `clock` (gpsd's host clock when it read the cycle's first time-stamped
        /// sentence) − `real` (the fix's epoch).
        case toff = "gpsd TOFF"
        /// The fix's own time (TPV `time`) against FollowMe's host clock when the fix arrived.
        case fixTime = "fix time"
    }

    /// Why the configured latency is used.
    public enum Fallback: String, Sendable, Hashable, CaseIterable {
        /// `latency_source = "config"`.
        case configured = "latency_source = config"
        /// `latency_source = "auto"` and the host clock is not known to be synchronised.
        case hostClockUnsynchronised = "host clock not synchronised"
        /// Fewer than `minimumSamples` samples so far.
        case fewSamples = "fewer than 5 samples"
        /// At least `minimumSamples` samples in the window, but fewer plausible ones.
        case implausible = "samples implausible"
    }

    /// What the meter was fed.
    public enum Counter: Sendable, Hashable, CaseIterable {
        /// Samples within `plausibleSampleRange`.
        case plausible
        /// Finite samples outside it.
        case implausible
        /// NaN or infinite samples (dropped).
        case nonFinite
        /// `fixTime` samples dropped because the receiver's gpsd sends TOFF.
        case fixTimeIgnored
    }

    /// Samples outside this are not a receiver's delay, seconds: a host clock a little behind the
    /// receiver's gives small negative ones; beyond 1.5 s the fix time or the clock is wrong.
    public static let plausibleSampleRange: ClosedRange<Double> = -0.05...1.5
    /// How many of the latest samples the median is taken over.
    public static let windowSize = 15
    /// Plausible samples in the window before the median is used.
    public static let minimumSamples = 5

    /// When a measurement may be used.
    public let policy: Policy
    /// The configured age, within `FixAge.range`.
    public let configuredSeconds: Double
    /// Samples fed so far, by kind.
    public private(set) var counts = Counts<Counter>()
    /// The origin of the samples in the window; nil before the first.
    public private(set) var origin: Origin?
    /// The latest finite samples, oldest first (at most `windowSize`).
    private var window: [Double] = []

    /// A meter with no samples. `configuredSeconds` is clamped into `FixAge.range` (a non-finite one is 0).
    public init(policy: Policy, configuredSeconds: Double) {
        self.policy = policy
        self.configuredSeconds = configuredSeconds.isFinite
            ? min(max(configuredSeconds, FixAge.range.lowerBound), FixAge.range.upperBound) : 0
    }

    /// Feeds one sample: host receive time − fix epoch, seconds. Once a `toff` sample arrived, the
    /// window holds TOFF samples only and `fixTime` samples are counted and dropped.
    public mutating func record(sampleSeconds: Double, origin: Origin) {
        guard policy != .config else { return }
        guard sampleSeconds.isFinite else {
            counts[.nonFinite] += 1
            return
        }
        switch (self.origin, origin) {
        case (.toff, .fixTime):
            counts[.fixTimeIgnored] += 1
            return
        case (.fixTime, .toff):
            window.removeAll()
        default:
            break
        }
        self.origin = origin
        counts[Self.plausibleSampleRange.contains(sampleSeconds) ? .plausible : .implausible] += 1
        window.append(sampleSeconds)
        if window.count > Self.windowSize { window.removeFirst(window.count - Self.windowSize) }
    }

    /// The median of the plausible samples in the window, clamped into `FixAge.range`; nil while there
    /// are fewer than `minimumSamples` of them. Says nothing about whether the clock is trusted.
    public var measuredSeconds: Double? {
        let plausible = window.filter { Self.plausibleSampleRange.contains($0) }.sorted()
        guard plausible.count >= Self.minimumSamples else { return nil }
        let middle = plausible.count / 2
        let median = plausible.count % 2 == 1 ? plausible[middle] : (plausible[middle - 1] + plausible[middle]) / 2
        return min(max(median, FixAge.range.lowerBound), FixAge.range.upperBound)
    }

    /// The age to give the receiver's next fix. `hostClockSynchronised`: the host clock (the one the
    /// samples were taken against) is disciplined; `policy` `.clock` trusts it regardless.
    public func age(hostClockSynchronised: Bool) -> FixAge {
        switch policy {
        case .config: return configured(.configured)
        case .auto where !hostClockSynchronised: return configured(.hostClockUnsynchronised)
        case .auto, .clock: break
        }
        if let measured = measuredSeconds, let origin { return FixAge(finiteSeconds: measured, source: .clock(origin)) }
        return configured(window.count >= Self.minimumSamples ? .implausible : .fewSamples)
    }

    private func configured(_ why: Fallback) -> FixAge {
        FixAge(finiteSeconds: configuredSeconds, source: .config(why))
    }
}
