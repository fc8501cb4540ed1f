@testable import ARDrone
@testable import FollowCore
@testable import Links
import Testing
import TestSupport

@Suite("Latency histogram and the fix-to-datagram probe")
struct LatencyHistogramTests {
    @Test("An empty histogram has no percentiles")
    func empty() {
        let h = LatencyHistogram()
        #expect(h.count == 0)
        #expect(h.percentileNanoseconds(0.5) == nil)
        #expect(h.meanNanoseconds == nil)
        #expect(h.summary == "count 0")
    }

    @Test("Small values are exact; percentiles follow the rank", arguments: [
        (0.01, Int64(1)), (0.5, 50), (0.99, 99), (1.0, 100),
    ])
    func exactBelow64(fraction: Double, expected: Int64) {
        // Given samples 1…100 ns (exact below 64 ns, 1/64 wide buckets above)
        var h = LatencyHistogram()
        for value in Int64(1)...100 { h.record(nanoseconds: value) }
        // Then the percentile is the sample of that rank, or at most 1/64 above it
        let p = h.percentileNanoseconds(fraction)!
        #expect(p >= expected && Double(p) <= Double(expected) * (1 + 1.0 / 64), "\(p) vs \(expected)")
        #expect(h.count == 100)
        #expect(h.minimumNanoseconds == 1 && h.maximumNanoseconds == 100)
        #expect(h.meanNanoseconds == 50.5)
    }

    @Test("Percentiles of a wide spread stay within 1/64 above the true value", arguments: [
        Int64(64), 100, 1_000, 123_456, 999_999, 1_000_000, 87_654_321, 5_000_000_000,
    ])
    func relativeError(value: Int64) {
        // Given one sample of `value` among smaller ones
        var h = LatencyHistogram()
        for _ in 0..<99 { h.record(nanoseconds: 10) }
        h.record(nanoseconds: value)
        // Then p100 is the exact max, and the bucket holding it is within 1/64 above
        #expect(h.percentileNanoseconds(1.0) == value)
        let index = LatencyHistogramProbe.bucketUpperBound(value)
        #expect(index >= value && Double(index) <= Double(value) * (1 + 1.0 / 64))
        #expect(h.percentileNanoseconds(0.5) == 10)
    }

    @Test("Samples beyond the range count in the last bucket; negative samples count as 0")
    func outOfRange() {
        var h = LatencyHistogram()
        h.record(nanoseconds: -5)
        h.record(nanoseconds: Int64(1) << 50)
        #expect(h.count == 2)
        #expect(h.minimumNanoseconds == 0)
        #expect(h.percentileNanoseconds(0.5) == 0)
        #expect(h.percentileNanoseconds(1.0) == Int64(1) << 50)
    }

    @Test("The summary prints milliseconds with three decimals")
    func summary() {
        var h = LatencyHistogram()
        h.record(nanoseconds: 131_071)   // the upper edge of its bucket: reported exactly
        h.record(nanoseconds: 2_310_400)
        #expect(h.summary.hasPrefix("count 2, p50 0.131 ms, p99 "))
        #expect(h.summary.hasSuffix("max 2.310 ms"))
        #expect(LatencyHistogram.milliseconds(1_500) == "0.002")
        #expect(LatencyHistogram.milliseconds(12_345_678) == "12.346")
    }

    @Test("setDesired(…, sendImmediately: true, reflecting:) records one sample per immediate datagram")
    func probeRecordsImmediateSends() async throws {
        // Given a connected link
        let peer = try await DronePeer.start()
        let harness = try await LinkHarness.start(peer: peer)
        #expect(await eventually { peer.snapshot.datagrams.count >= 3 })

        // When three fixes "received" 2 ms ago each produce an immediate datagram, and one decision
        // without a fix stamp does too
        for _ in 0..<3 {
            let receivedAt = MonotonicTime(nanoseconds: SystemClock.now().nanoseconds - 2_000_000)
            harness.link.setDesired(flying: false, pilot: .hover, sendImmediately: true, reflecting: receivedAt)
        }
        harness.link.setDesired(flying: false, pilot: .hover, sendImmediately: true)
        #expect(await eventually { (await harness.statistics()).counts[.immediateDatagramsSent] >= 4 })
        let latency = try #require(await harness.link.fixLatency())
        await harness.shutdown()

        // Then exactly the three stamped sends were measured, each at least the 2 ms already elapsed
        #expect(latency.count == 3)
        #expect(latency.minimumNanoseconds >= 2_000_000)
        #expect(latency.maximumNanoseconds < 2_000_000_000)
    }
}

/// The bucket upper bound a value falls in, via the public API: a histogram holding only `value`
/// reports p50 clamped to the max, so record `value` plus a larger sample and read p50.
enum LatencyHistogramProbe {
    static func bucketUpperBound(_ value: Int64) -> Int64 {
        var h = LatencyHistogram()
        h.record(nanoseconds: value)
        h.record(nanoseconds: value * 4 + 1_000)
        return h.percentileNanoseconds(0.5)!
    }
}
