/// FollowMe against the baseline on one scenario under one noise model.
public struct BenchComparison: Sendable, Hashable {
    public var scenario: String
    public var noise: BenchNoise
    /// RMS |distance − standoff|, metres.
    public var followMeRMSMeters: Double
    public var naiveRMSMeters: Double
    /// The link both runs flew behind.
    public var link: BenchLink = .ardrone

    /// FollowMe RMS / baseline RMS: below 1 means FollowMe follows better (0.1 = 10× smaller
    /// error). NaN when either is missing; +∞ if the baseline was perfect and FollowMe was not.
    public var ratio: Double { followMeRMSMeters / naiveRMSMeters }
}

/// Where a suite run has got to (for progress bars).
public struct BenchProgress: Sendable, Hashable {
    public var completedRuns: Int
    public var totalRuns: Int
    /// The run just finished.
    public var scenario: String
    public var controller: BenchController
    public var noise: BenchNoise
    public var link: BenchLink = .ardrone
}

/// Every run of a benchmark and the comparisons drawn from them.
public struct BenchReport: Sendable, Hashable {
    public var configuration: BenchConfiguration
    /// In run order: scenario, then noise, then controller, then link.
    public var results: [BenchResult]

    /// Simulated seconds over all runs.
    public var simulatedSeconds: Double { results.reduce(0) { $0 + $1.simulatedSeconds } }

    /// One comparison per scenario × noise × link that has both controllers, in run order.
    public var comparisons: [BenchComparison] {
        var out: [BenchComparison] = []
        for r in results where r.controller == .followMe {
            guard let naive = results.first(where: {
                $0.controller == .naive && $0.scenario == r.scenario && $0.noise == r.noise && $0.link == r.link
            }) else { continue }
            out.append(BenchComparison(scenario: r.scenario, noise: r.noise,
                                       followMeRMSMeters: r.metrics.rangeErrorRMSMeters,
                                       naiveRMSMeters: naive.metrics.rangeErrorRMSMeters, link: r.link))
        }
        return out
    }

    /// The median over scenarios of FollowMe/baseline RMS ratios, for one noise model or (nil) all
    /// comparisons, on one link or (nil) all; NaN ratios are left out; nil if none remain.
    public func medianRatio(noise: BenchNoise?, link: BenchLink? = nil) -> Double? {
        median(comparisons.filter { (noise == nil || $0.noise == noise) && (link == nil || $0.link == link) }
            .map(\.ratio).filter { !$0.isNaN })
    }

    /// The links the runs flew behind, in order of first appearance.
    public var links: [BenchLink] {
        BenchLink.allCases.filter { link in results.contains { $0.link == link } }
    }
}

/// The median (mean of the middle two for an even count); nil for no values.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    let mid = s.count / 2
    return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

extension BenchRunner {
    /// Runs every scenario × noise × controller × link (in that nesting order) with one configuration,
    /// calling `progress` after each run.
    public static func runSuite(
        scenarios: [BenchScenario],
        controllers: [BenchController] = BenchController.allCases,
        noises: [BenchNoise] = BenchNoise.allCases,
        links: [BenchLink] = [.ardrone],
        configuration: BenchConfiguration,
        progress: (BenchProgress) -> Void = { _ in }
    ) throws(BenchError) -> BenchReport {
        let total = scenarios.count * controllers.count * noises.count * links.count
        var results: [BenchResult] = []
        results.reserveCapacity(total)
        for scenario in scenarios {
            for noise in noises {
                for controller in controllers {
                    for link in links {
                        results.append(try run(scenario, controller: controller, noise: noise,
                                               configuration: configuration, link: link))
                        progress(BenchProgress(completedRuns: results.count, totalRuns: total, scenario: scenario.name,
                                               controller: controller, noise: noise, link: link))
                    }
                }
            }
        }
        return BenchReport(configuration: configuration, results: results)
    }
}
