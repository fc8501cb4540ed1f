/// A fixed-size latency histogram: recording never allocates. Log-linear buckets over nanoseconds,
/// 64 per power of two (a percentile is at most 1.6 % high) up to 2⁴⁰ ns; longer samples count in the
/// last bucket (`max` stays exact).
public struct LatencyHistogram: Sendable, Equatable {
    /// Sub-buckets per power of two (and the exact range below it), 2⁶.
    static let subBucketCount = 64
    static let subBucketBits = 6
    /// Largest power of two covered: 2⁴⁰ ns.
    static let maximumExponent = 40
    static let bucketCount = subBucketCount + (maximumExponent - subBucketBits + 1) * subBucketCount

    private var counts: [UInt32]
    public private(set) var count = 0
    /// Smallest and largest sample, nanoseconds (0 when empty).
    public private(set) var minimumNanoseconds: Int64 = 0
    public private(set) var maximumNanoseconds: Int64 = 0
    public private(set) var totalNanoseconds: Int64 = 0

    public init() {
        counts = [UInt32](repeating: 0, count: Self.bucketCount)
    }

    /// Records one sample; negative values (clock misuse) count as 0.
    public mutating func record(nanoseconds: Int64) {
        let value = max(0, nanoseconds)
        counts[Self.bucketIndex(value)] &+= 1
        minimumNanoseconds = count == 0 ? value : min(minimumNanoseconds, value)
        maximumNanoseconds = max(maximumNanoseconds, value)
        totalNanoseconds &+= value
        count += 1
    }

    /// The sample below which `fraction` (0…1) of the samples lie, nanoseconds (the bucket's upper edge,
    /// clamped to the maximum); nil when empty.
    public func percentileNanoseconds(_ fraction: Double) -> Int64? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += Int(bucketCount)
            guard seen >= rank else { continue }
            // The last bucket also holds everything beyond the range: its edge means nothing there.
            return index == Self.bucketCount - 1
                ? maximumNanoseconds : min(Self.upperBound(ofBucket: index), maximumNanoseconds)
        }
        return maximumNanoseconds
    }

    /// Mean sample, nanoseconds; `nil` when empty.
    public var meanNanoseconds: Double? { count > 0 ? Double(totalNanoseconds) / Double(count) : nil }

    /// `count 312, p50 0.142 ms, p99 0.514 ms, max 2.310 ms`.
    public var summary: String {
        guard count > 0 else { return "count 0" }
        func ms(_ nanoseconds: Int64?) -> String { Self.milliseconds(nanoseconds ?? 0) + " ms" }
        return "count \(count), p50 \(ms(percentileNanoseconds(0.5))), p99 \(ms(percentileNanoseconds(0.99))), "
            + "max \(ms(maximumNanoseconds))"
    }

    /// Nanoseconds as milliseconds with three decimals, without Foundation.
    public static func milliseconds(_ nanoseconds: Int64) -> String {
        let micros = (nanoseconds + 500) / 1_000
        let fraction = String(micros % 1_000)
        return "\(micros / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    // MARK: Buckets

    static func bucketIndex(_ nanoseconds: Int64) -> Int {
        let value = UInt64(nanoseconds)
        if value < UInt64(subBucketCount) { return Int(value) }
        let exponent = min(63 - value.leadingZeroBitCount, maximumExponent)   // floor(log2), ≥ 6
        if exponent == maximumExponent, value >> maximumExponent > 1 { return bucketCount - 1 }
        let shift = exponent - subBucketBits
        let sub = Int(value >> UInt64(shift)) - subBucketCount   // top 7 bits without the leading 1
        return subBucketCount + shift * subBucketCount + min(sub, subBucketCount - 1)
    }

    /// Largest value that falls in bucket `index`.
    static func upperBound(ofBucket index: Int) -> Int64 {
        if index < subBucketCount { return Int64(index) }
        let shift = (index - subBucketCount) / subBucketCount
        let sub = (index - subBucketCount) % subBucketCount
        return (Int64(subBucketCount + sub + 1) << Int64(shift)) - 1
    }
}
