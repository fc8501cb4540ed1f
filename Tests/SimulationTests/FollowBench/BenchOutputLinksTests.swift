@testable import Simulation
import Foundation
import Testing

@Suite("followme bench output: both links side by side")
struct BenchOutputLinksTests {
    static let scenarios = [BenchScenario.straightWalk(), BenchScenario.stopAndGo()]
    static let configuration = BenchConfiguration(durationSeconds: 20, personStartSeconds: 15, settleSeconds: 5)

    static func object(_ report: BenchReport) throws -> [String: Any] {
        let json = BenchOutput.json(report, scenarios: scenarios, wallSeconds: 0.01, notes: [])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// A JSON number read back (Foundation's parser may differ in the last bit) against the value written.
    static func close(_ json: Any?, _ value: Double?) -> Bool {
        guard let read = json as? Double, let value else { return false }
        return abs(read - value) <= 1e-12 * max(1, abs(value))
    }

    @Test("--link both: every run on both links, paired per scenario × noise × controller, with ratios and medians")
    func bothLinks() throws {
        // Given a suite of two scenarios on both links
        var seen: [BenchLink] = []
        let report = try BenchRunner.runSuite(scenarios: Self.scenarios, links: BenchLink.allCases,
                                              configuration: Self.configuration) { seen.append($0.link) }
        // Then each scenario × noise × controller ran on the AR.Drone, then on MAVLink
        #expect(report.results.count == 16)
        #expect(seen == Array(repeating: [BenchLink.ardrone, .mavlink], count: 8).flatMap { $0 })
        #expect(report.links == [.ardrone, .mavlink])
        // and FollowMe/baseline comparisons stay within one link
        #expect(report.comparisons.count == 8)
        for c in report.comparisons {
            let naive = try #require(report.results.first {
                $0.controller == .naive && $0.scenario == c.scenario && $0.noise == c.noise && $0.link == c.link
            })
            #expect(c.naiveRMSMeters == naive.metrics.rangeErrorRMSMeters)
        }
        for link in BenchLink.allCases {
            #expect(report.comparisons.filter { $0.link == link }.count == 4)
        }
        // and every pair of runs is compared across the links: MAVLink RMS ÷ AR.Drone RMS
        let pairs = report.linkComparisons
        #expect(pairs.count == 8)
        for pair in pairs {
            let runs = report.results.filter { $0.scenario == pair.scenario && $0.noise == pair.noise && $0.controller == pair.controller }
            let ardrone = try #require(runs.first { $0.link == .ardrone })
            let mavlink = try #require(runs.first { $0.link == .mavlink })
            #expect(pair.ratio == mavlink.metrics.rangeErrorRMSMeters / ardrone.metrics.rangeErrorRMSMeters)
            #expect(pair.mavlinkMinSeparationMeters == mavlink.metrics.minSeparationMeters)
        }
        let clean = pairs.filter { $0.controller == .followMe && $0.noise == .clean }.map(\.ratio).sorted()
        #expect(report.medianLinkRatio(noise: .clean, controller: .followMe) == (clean[0] + clean[1]) / 2)

        // When written: the table has a link column, per-link medians and the side-by-side table
        let table = BenchOutput.table(report, scenarios: Self.scenarios, wallSeconds: 0.01)
        #expect(table.contains("controller link "))
        #expect(table.contains("median-scenario FollowMe/baseline RMS ratio (ardrone): "))
        #expect(table.contains("median-scenario FollowMe/baseline RMS ratio (mavlink): "))
        #expect(table.contains("links side by side: "))
        #expect(table.contains("followme medians: all AR "))
        // and the JSON says which link each run and comparison flew, and pairs them
        let object = try Self.object(report)
        #expect(object["links"] as? [String] == ["ardrone", "mavlink"])
        #expect(object["mavlink_position_source"] as? String == "autopilot")
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.map { $0["link"] as? String } == report.results.map(\.link.rawValue))
        let comparisons = try #require(object["link_comparisons"] as? [[String: Any]])
        #expect(comparisons.count == 8)
        #expect(Self.close(comparisons.first?["mavlink_rms_m"], pairs.first?.mavlinkRMSMeters))
        let medians = try #require(object["median_link_ratio"] as? [String: [String: Any]])
        #expect(Self.close(medians["followme"]?["clean"], report.medianLinkRatio(noise: .clean, controller: .followMe)))
        let byLink = try #require(object["median_ratio_by_link"] as? [String: [String: Any]])
        #expect(Self.close(byLink["mavlink"]?["all"], report.medianRatio(noise: nil, link: .mavlink)))
        // the existing median is the AR.Drone's, as it always was
        let median = try #require(object["median_ratio"] as? [String: Any])
        #expect(Self.close(median["all"], report.medianRatio(noise: nil, link: .ardrone)))
        // and plots of the two links do not overwrite each other
        #expect(Set(report.results.map(BenchOutput.plotFileName)).count == 16)
    }

    @Test("the default (AR.Drone only) output has no link column, field or side-by-side table")
    func defaultUnchanged() throws {
        let report = try BenchRunner.runSuite(scenarios: Self.scenarios, configuration: Self.configuration)
        #expect(report.links == [.ardrone])
        let table = BenchOutput.table(report, scenarios: Self.scenarios, wallSeconds: 0.01)
        #expect(!table.contains("link"))
        #expect(table.contains("median-scenario FollowMe/baseline RMS ratio: "))
        let object = try Self.object(report)
        for key in ["links", "mavlink_position_source", "median_ratio_by_link", "link_comparisons", "median_link_ratio"] {
            #expect(object[key] == nil)
        }
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.allSatisfy { $0["link"] == nil })
        #expect(report.results.map(BenchOutput.plotFileName).allSatisfy { !$0.contains("ardrone") })
    }
}
