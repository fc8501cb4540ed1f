@testable import Simulation
import Testing

@Suite("Suites, comparisons and metrics")
struct BenchSuiteTests {
    @Test("a suite runs every scenario × noise × controller and compares them pairwise")
    func suite() throws {
        let config = BenchConfiguration(durationSeconds: 30, personStartSeconds: 10, settleSeconds: 10)
        var seen: [BenchProgress] = []
        let report = try BenchRunner.runSuite(scenarios: [.straightWalk(), .stopAndGo()], configuration: config) {
            seen.append($0)
        }
        #expect(report.results.count == 8)
        #expect(seen.map(\.completedRuns) == Array(1...8))
        #expect(seen.allSatisfy { $0.totalRuns == 8 })
        #expect(abs(report.simulatedSeconds - 8 * 40) < 0.1)
        let comparisons = report.comparisons
        #expect(comparisons.count == 4)
        for c in comparisons {
            let fm = try #require(report.results.first { $0.scenario == c.scenario && $0.noise == c.noise && $0.controller == .followMe })
            let nv = try #require(report.results.first { $0.scenario == c.scenario && $0.noise == c.noise && $0.controller == .naive })
            #expect(c.ratio == fm.metrics.rangeErrorRMSMeters / nv.metrics.rangeErrorRMSMeters)
        }
        let ratios = comparisons.filter { $0.noise == .clean }.map(\.ratio).sorted()
        #expect(report.medianRatio(noise: .clean) == (ratios[0] + ratios[1]) / 2)
    }

    @Test("median of odd and even counts", arguments: [
        ([3.0], 3.0), ([5.0, 1.0, 3.0], 3.0), ([4.0, 1.0, 2.0, 3.0], 2.5),
    ])
    func medians(values: [Double], expected: Double) {
        #expect(median(values) == expected)
    }

    @Test func medianOfNothing() {
        #expect(median([]) == nil)
    }

    @Test("RMS, nearest-rank p95, minimum separation while airborne, facing error")
    func accumulator() {
        // Given 100 settled ticks with range errors 0.01, 0.02, …, 1.00 m (person due north of the drone)
        var acc = MetricsAccumulator(standoffMeters: 6, settledFromSeconds: 10, tickSeconds: 0.5, expectedSamples: 110,
                                     minSeparationLimitMeters: 3)
        // …after 10 unsettled ticks, one of them at 2 m while airborne and one at 1 m while landed
        for i in 0..<10 {
            let d = i == 3 ? 2.0 : (i == 4 ? 1.0 : 6.0)
            acc.add(timeSeconds: Double(i), person: .init(east: 0, north: d), drone: .zero, noseHeadingDegrees: 0,
                    airborne: i != 4, following: false)
        }
        for i in 1...100 {
            // nose 10° off the bearing to the person for every tick
            acc.add(timeSeconds: 10 + Double(i) * 0.01, person: .init(east: 0, north: 6 + Double(i) / 100), drone: .zero,
                    noseHeadingDegrees: 350, airborne: true, following: i <= 25)
        }
        let m = acc.metrics(tracksFollowing: true)
        var sumOfSquares = 0.0
        for i in 1...100 {
            let e = Double(i) / 100
            sumOfSquares += e * e
        }
        let expectedRMS = (sumOfSquares / 100).squareRoot()
        #expect(abs(m.rangeErrorRMSMeters - expectedRMS) < 1e-12)
        #expect(abs(m.rangeErrorP95Meters - 0.95) < 1e-9)
        #expect(abs(m.rangeErrorMaxMeters - 1.0) < 1e-9)
        #expect(m.minSeparationMeters == 2) // the 1 m sample was on the ground
        #expect(m.minSeparationAtSeconds == 3)
        #expect(m.secondsBelowMinSeparation == 0.5) // one airborne tick below 3 m
        #expect(abs(m.facingErrorRMSDegrees - 10) < 1e-9)
        #expect(m.settledSamples == 100)
        #expect(m.followingFraction == 0.25)
        #expect(m.airborneSeconds == 109 * 0.5)
    }
}
