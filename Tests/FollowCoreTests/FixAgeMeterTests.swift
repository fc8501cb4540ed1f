@testable import FollowCore
import Testing

/// `FixAgeMeter`: one receiver's fix age from (host receive time − fix epoch) samples, and when the
/// configured latency is used instead.
@Suite("FixAgeMeter: measured fix age, or the configured one and why")
struct FixAgeMeterTests {
    /// A meter fed `samples`, all from `origin`.
    static func meter(_ samples: [Double], policy: FixAgeMeter.Policy = .auto, configured: Double = 0.3,
                      origin: FixAgeMeter.Origin = .toff) -> FixAgeMeter {
        var meter = FixAgeMeter(policy: policy, configuredSeconds: configured)
        for sample in samples { meter.record(sampleSeconds: sample, origin: origin) }
        return meter
    }

    @Test("five plausible samples give their median, from the clock, with their origin")
    func medianOfFive() {
        // Given: five samples around 150 ms, one of them high
        let meter = Self.meter([0.150, 0.152, 0.149, 0.400, 0.151])
        // Then: the median, not the mean (0.2004), measured from TOFF
        let age = meter.age(hostClockSynchronised: true)
        #expect(age.seconds == 0.151)
        #expect(age.source == .clock(.toff))
        #expect(age.source.name == "clock" && age.source.reason == "gpsd TOFF")
        #expect(meter.counts[.plausible] == 5)
    }

    @Test("an even count takes the mean of the two middle samples")
    func evenMedian() {
        let meter = Self.meter([0.10, 0.20, 0.30, 0.40, 0.50, 0.60], origin: .fixTime)
        #expect(meter.measuredSeconds == 0.35)
        #expect(meter.age(hostClockSynchronised: true).source == .clock(.fixTime))
    }

    @Test("four samples are too few: the configured age, saying so")
    func tooFewSamples() {
        let meter = Self.meter([0.15, 0.15, 0.15, 0.15], configured: 0.25)
        let age = meter.age(hostClockSynchronised: true)
        #expect(age.seconds == 0.25)
        #expect(age.source == .config(.fewSamples))
        #expect(age.source.reason == "fewer than 5 samples")
        // And a fifth makes it measured
        var more = meter
        more.record(sampleSeconds: 0.15, origin: .toff)
        #expect(more.age(hostClockSynchronised: true) == FixAge(seconds: 0.15, source: .clock(.toff)))
    }

    @Test("outliers outside −0.05…1.5 s are counted and left out of the median")
    func outliersIgnored() {
        // Given: a replay's sample years off, one a clock step made negative, and five real ones
        let meter = Self.meter([3.0e8, 0.2, -2.0, 0.2, 0.21, 0.19, 0.2])
        // Then: the median of the five plausible ones
        #expect(meter.measuredSeconds == 0.2)
        #expect(meter.counts[.implausible] == 2 && meter.counts[.plausible] == 5)
        // The range's edges are plausible
        #expect(Self.meter([-0.05, -0.05, -0.05, 1.5, 1.5]).counts[.plausible] == 5)
        #expect(Self.meter([-0.0501, 1.5001]).counts[.implausible] == 2)
    }

    @Test("only implausible samples (a gpsfake replay) fall back to the configured age with that reason")
    func replayIsImplausible() {
        // Given: gpsfake replays a 2034 log: every sample is years off
        let meter = Self.meter(Array(repeating: -2.7e8, count: 20), origin: .fixTime)
        // Then: no garbage age, the configured one, and why
        let age = meter.age(hostClockSynchronised: true)
        #expect(age == FixAge(seconds: 0.3, source: .config(.implausible)))
        #expect(age.source.reason == "samples implausible")
        #expect(meter.measuredSeconds == nil)
    }

    @Test("a run of implausible samples displaces the plausible ones from the window")
    func implausibleRunDisplaces() {
        // Given: a measured receiver
        var meter = Self.meter(Array(repeating: 0.1, count: 15))
        #expect(meter.age(hostClockSynchronised: true).seconds == 0.1)
        // When: the clock jumps and 11 samples are 5 s off (4 plausible ones left of 15)
        for _ in 0..<11 { meter.record(sampleSeconds: 5, origin: .toff) }
        // Then: no longer measured
        #expect(meter.age(hostClockSynchronised: true).source == .config(.implausible))
    }

    @Test("the median is kept over the latest 15 samples only")
    func windowOfFifteen() {
        // Given: 15 old samples at 0.5 s, then 8 new ones at 0.1 s
        let meter = Self.meter(Array(repeating: 0.5, count: 15) + Array(repeating: 0.1, count: 8))
        // Then: 8 of the 15 in the window are new: their value is the median
        #expect(meter.measuredSeconds == 0.1)
        // With only 7 new ones, the old value is still the median
        #expect(Self.meter(Array(repeating: 0.5, count: 15) + Array(repeating: 0.1, count: 7)).measuredSeconds == 0.5)
    }

    @Test("the age is clamped to 0…1 s", arguments: [(-0.04, 0.0), (1.4, 1.0), (0.0, 0.0), (1.0, 1.0)])
    func clamped(sample: Double, expected: Double) {
        let age = Self.meter(Array(repeating: sample, count: 5)).age(hostClockSynchronised: true)
        #expect(age.seconds == expected)
        #expect(age.source == .clock(.toff))
    }

    @Test("NaN and infinite samples are counted and change nothing")
    func nonFiniteIgnored() {
        // Given: four good samples and non-finite ones between them
        let meter = Self.meter([0.1, .nan, 0.1, .infinity, 0.1, -.infinity, 0.1, .signalingNaN])
        // Then: still four samples: too few
        #expect(meter.counts[.nonFinite] == 4)
        #expect(meter.age(hostClockSynchronised: true).source == .config(.fewSamples))
        #expect(meter == Self.meter([0.1, 0.1, 0.1, 0.1]).with(nonFinite: 4))
    }

    @Test("auto trusts the measurement only on a synchronised host clock; clock trusts it anyway")
    func trustRule() {
        let samples = Array(repeating: 0.15, count: 5)
        #expect(Self.meter(samples, policy: .auto).age(hostClockSynchronised: false)
            == FixAge(seconds: 0.3, source: .config(.hostClockUnsynchronised)))
        #expect(Self.meter(samples, policy: .auto).age(hostClockSynchronised: false).source.reason == "host clock not synchronised")
        #expect(Self.meter(samples, policy: .clock).age(hostClockSynchronised: false) == FixAge(seconds: 0.15, source: .clock(.toff)))
        // "clock" still needs enough samples
        #expect(Self.meter([0.15], policy: .clock).age(hostClockSynchronised: false).source == .config(.fewSamples))
    }

    @Test("config never measures, whatever the samples and the clock")
    func configPolicy() {
        let meter = Self.meter(Array(repeating: 0.05, count: 10), policy: .config, configured: 0.4)
        #expect(meter.age(hostClockSynchronised: true) == FixAge(seconds: 0.4, source: .config(.configured)))
        #expect(meter.age(hostClockSynchronised: true).source.reason == "latency_source = config")
        #expect(meter.counts.total == 0 && meter.measuredSeconds == nil)
    }

    @Test("once TOFF samples arrive, fix-time samples are dropped and the window holds TOFF only")
    func toffPreferred() {
        // Given: a measured age from fix times (the whole gpsd cycle: 0.4 s)
        var meter = Self.meter(Array(repeating: 0.4, count: 6), origin: .fixTime)
        #expect(meter.age(hostClockSynchronised: true) == FixAge(seconds: 0.4, source: .clock(.fixTime)))
        // When: a first TOFF sample arrives
        meter.record(sampleSeconds: 0.15, origin: .toff)
        // Then: the fix-time samples are gone (one TOFF sample is too few)
        #expect(meter.age(hostClockSynchronised: true).source == .config(.fewSamples))
        // And later fix-time samples are counted, not used
        for _ in 0..<4 {
            meter.record(sampleSeconds: 0.15, origin: .toff)
            meter.record(sampleSeconds: 0.4, origin: .fixTime)
        }
        #expect(meter.counts[.fixTimeIgnored] == 4)
        #expect(meter.age(hostClockSynchronised: true) == FixAge(seconds: 0.15, source: .clock(.toff)))
    }

    @Test("a configured age outside 0…1 s or non-finite is clamped, and a FixAge cannot hold NaN")
    func configuredClamped() {
        #expect(FixAgeMeter(policy: .config, configuredSeconds: 3).configuredSeconds == 1)
        #expect(FixAgeMeter(policy: .config, configuredSeconds: -1).configuredSeconds == 0)
        #expect(FixAgeMeter(policy: .config, configuredSeconds: .nan).configuredSeconds == 0)
        #expect(FixAge(seconds: .nan, source: .config(.configured)) == nil)
        #expect(FixAge(seconds: .infinity, source: .config(.configured)) == nil)
        #expect(FixAge(seconds: 2, source: .clock(.toff))?.seconds == 1)
    }
}

extension FixAgeMeter {
    /// This meter as if it had also been fed `n` non-finite samples.
    fileprivate func with(nonFinite n: Int) -> FixAgeMeter {
        var copy = self
        for _ in 0..<n { copy.record(sampleSeconds: .nan, origin: .toff) }
        return copy
    }
}
