@testable import FlightRecords
import Foundation
import Testing

/// The GPS uncertainty and link charts, from a flight log to the page: the series the adapter
/// reads (`QualityChartLog`), the gaps, the rates differentiated from cumulative counters, and what
/// the page draws of them; an older log without SKY or statistics lines says "no data".
@Suite("FlightReportPage: GPS uncertainty and link charts")
struct QualityChartTests {
    typealias Log = QualityChartLog
    typealias Page = FlightReportPageTests

    static func timeline(_ text: String = Log.text()) throws -> FlightTimeline {
        try FlightTimeline(flightLogText: text, title: "quality")
    }

    /// The points a chart draws for the line named `series`: each polyline's "x,y" pairs, a lone
    /// sample's circle as one pair, grouped by run.
    static func runs(_ doc: Page.Collector, chart: String, series: String) -> [[String]] {
        doc.elements.filter { $0.svgID == chart && $0.attributes["data-series"] == series }.map { element in
            if element.name == "circle" { return ["\(element.attributes["cx"] ?? ""),\(element.attributes["cy"] ?? "")"] }
            return (element.attributes["points"] ?? "").split(separator: " ").map(String.init)
        }
    }

    /// Where the page must draw `samples` on `chart`'s left (or right) axis: "x,y" with one decimal.
    static func expectedPoints(_ samples: [FlightTimeline.Sample], timeline: FlightTimeline, chart id: String,
                               right: Bool = false) throws -> [String] {
        let chart = try #require(FlightReportPage(timeline: timeline).charts().first { $0.id == id })
        let axis = TimeAxis(endSeconds: timeline.endSeconds)
        let range = right ? chart.rightRange() : chart.range()
        return samples.map { fixed(axis.x($0.t), decimals: 1) + "," + fixed(TimeChart.y($0.value, in: range), decimals: 1) }
    }

    @Test("each receiver's eph, HDOP and satellites are the log's, on the timeline's clock")
    func receiverSeries() throws {
        let t = try Self.timeline()
        let target = t.targetQuality
        #expect(target.ephMeters.map(\.t) == Log.targetFixTimes.map { $0 - Log.t0 })
        #expect(target.ephMeters.map(\.value) == Log.targetFixTimes.indices.map(Log.targetEph))
        #expect(target.hdop.map(\.t) == Log.skyTimes.map { $0 - Log.t0 })
        #expect(target.hdop.map(\.value) == Log.skyTimes.indices.map(Log.hdop))
        #expect(target.satellitesUsed.map(\.value) == Log.skyTimes.indices.map { Double(Log.satellitesUsed($0)) })
        #expect(target.satellitesVisible.map(\.value) == Array(repeating: 12, count: Log.skyTimes.count))
        // The drone's receiver sent no SKY: fixes only
        #expect(t.onboardQuality.ephMeters.count == Log.onboardFixTimes.count)
        #expect(t.onboardQuality.hdop.isEmpty && t.onboardQuality.satellitesUsed.isEmpty)
    }

    @Test("no fix: before the first fix, from a loss to the next fix, a silence over 2 s, and a silent end")
    func noFixGaps() throws {
        let t = try Self.timeline()
        func spans(_ gaps: [FlightTimeline.Gap]) -> [[Double]] { gaps.map { [$0.startSeconds, $0.endSeconds] } }
        // Target: 50–51 before its first fix, lost at 60.5 until the fix at 64, last fix 66 and the log ends at 70
        #expect(spans(t.targetQuality.noFix) == [[0, 1], [10.5, 14], [16, 20]])
        #expect(t.targetQuality.noFix.map(\.reason) == ["no fix yet", "no fix: no-fix", "no fix for the last 4.0 s"])
        // Onboard: 50–51, then silent from 54 to 58; its last fix (69) is within 2 s of the end
        #expect(spans(t.onboardQuality.noFix) == [[0, 1], [4, 8]])
    }

    @Test("the link's rates are the cumulative counters' increase over each interval, at the interval's end")
    func linkRates() throws {
        let rates = try Self.timeline().linkRates
        // Statistics at 52, 53, 55, 55.5 (intervals 1, 2, 0.5 s); the final line at 69 is not periodic
        #expect(rates.telemetryHertz.map(\.t) == [3, 5, 5.5])
        // navdata_received 0 → 15 → 45 → 52: 15/1, 30/2, 7/0.5
        #expect(rates.telemetryHertz.map(\.value) == [15, 15, 14])
        // datagrams_sent 10 → 40 → 100 → 115
        #expect(rates.sentHertz.map(\.value) == [30, 30, 30])
        // dropped (source + malformed + sequence) 0 → 1 → 3 → 7: 1/1, 2/2, 4/0.5
        #expect(rates.droppedPerSecond.map(\.value) == [1, 1, 8])
        #expect(rates.telemetryLost == [.init(startSeconds: 6, endSeconds: 8, reason: "navdata lost")])
    }

    @Test("a counter that goes down (a restarted link) gives no rate for that interval")
    func counterReset() throws {
        var text = Log.text()
        text += Log.statisticsLine((56.5, 3, 130, (2, 1, 4))) + "\n"
        text += Log.statisticsLine((57.5, 13, 160, (2, 1, 4))) + "\n"
        let rates = try Self.timeline(text).linkRates
        #expect(rates.telemetryHertz.map(\.value) == [15, 15, 14, 10])
        #expect(rates.sentHertz.map(\.value) == [30, 30, 30, 15, 30])
    }

    @Test("the page draws both receivers' charts and the link chart, with the timeline's points, between fix ages and PCMD")
    func pageDrawsTheSeries() throws {
        let t = try Self.timeline()
        let doc = Page.parse(FlightReportPage(timeline: t).html())
        let ids = FlightReportPage.timeSeriesChartIDs
        let fixAge = try #require(ids.firstIndex(of: "chart-fix-age"))
        #expect(Array(ids[fixAge + 1...fixAge + 3]) == FlightReportPage.gpsChartIDs + [FlightReportPage.linkChartID])
        #expect(ids.last == "chart-pcmd")

        let target = FlightReportPage.gpsChartIDs[0]
        // The eph line stops at the loss: two runs, 10 fixes then 3
        let eph = Self.runs(doc, chart: target, series: "eph (m)")
        #expect(eph.map(\.count) == [10, 3])
        #expect(eph.flatMap { $0 } == (try Self.expectedPoints(t.targetQuality.ephMeters, timeline: t, chart: target)))
        // The SKY lines go on through the gap (they were not silent), satellites on the right axis
        #expect(Self.runs(doc, chart: target, series: "HDOP").flatMap { $0 }
            == (try Self.expectedPoints(t.targetQuality.hdop, timeline: t, chart: target)))
        let used = Self.runs(doc, chart: target, series: "satellites used (right axis)")
        #expect(used.count == 1)
        #expect(used.flatMap { $0 } == (try Self.expectedPoints(t.targetQuality.satellitesUsed, timeline: t, chart: target, right: true)))
        // The link: the three rates, the lost navdata shaded
        let link = FlightReportPage.linkChartID
        #expect(Self.runs(doc, chart: link, series: "telemetry in (Hz)").flatMap { $0 }
            == (try Self.expectedPoints(t.linkRates.telemetryHertz, timeline: t, chart: link)))
        #expect(Self.runs(doc, chart: link, series: "dropped/s (right axis)").flatMap { $0 }
            == (try Self.expectedPoints(t.linkRates.droppedPerSecond, timeline: t, chart: link, right: true)))
        #expect(!doc.elements.contains { [target, link].contains($0.svgID) && $0.text.hasPrefix("no data") })
    }

    @Test("a gap is drawn as a shaded stretch with its reason, and a line that breaks at gaps is not drawn across it")
    func gapIsAGap() throws {
        let t = try Self.timeline()
        let doc = Page.parse(FlightReportPage(timeline: t).html())
        func gaps(_ chart: String) -> [String] {
            doc.elements.filter { $0.svgID == chart && $0.attributes["class"] == "gap" }
                .map { "\($0.attributes["data-start-s"] ?? "")-\($0.attributes["data-end-s"] ?? "")" }
        }
        #expect(gaps(FlightReportPage.gpsChartIDs[0]) == ["0.000-1.000", "10.500-14.000", "16.000-20.000"])
        #expect(gaps(FlightReportPage.gpsChartIDs[1]) == ["0.000-1.000", "4.000-8.000"])
        #expect(gaps(FlightReportPage.linkChartID) == ["6.000-8.000"])
        #expect(doc.elements.contains { $0.svgID == FlightReportPage.gpsChartIDs[0] && $0.name == "title"
            && $0.text.hasPrefix("no fix: no-fix 10.5–14.0 s") })
        // No run of the eph line has a point inside a gap, and no segment crosses one
        let axis = TimeAxis(endSeconds: t.endSeconds)
        for run in Self.runs(doc, chart: FlightReportPage.gpsChartIDs[1], series: "eph (m)") {
            let xs = run.compactMap { Double($0.split(separator: ",")[0]) }
            #expect(!(xs.min()! <= axis.x(4) && xs.max()! >= axis.x(8)), "a run crosses the 4–8 s gap: \(xs)")
        }
        #expect(Self.runs(doc, chart: FlightReportPage.gpsChartIDs[1], series: "eph (m)").map(\.count) == [4, 12])
    }

    @Test("a line is drawn through a gap it has samples in, and stops at one it has none in",
          arguments: [([3.0, 5, 9], [3]), ([3.0, 9], [1, 1]), ([3.0, 4, 8, 9], [2, 2]), ([1.0, 2, 9, 12], [2, 2])])
    func runsAcrossGaps(times: [Double], runLengths: [Int]) {
        let chart = TimeChart(id: "c", title: "t", unit: "", lines: [],
                              gaps: [.init(startSeconds: 4, endSeconds: 8, reason: "no fix")])
        let line = TimeChart.Line(name: "l", color: "#000", samples: times.map { .init(t: $0, value: 1) })
        #expect(chart.runs(of: line).map(\.count) == runLengths)
    }

    @Test("an older log without SKY or statistics lines renders, its charts saying no data")
    func olderLog() throws {
        let withEph = Page.parse(FlightReportPage(timeline: try Self.timeline(Log.text(sky: false, statistics: false))).html())
        let target = FlightReportPage.gpsChartIDs[0]
        #expect(withEph.elements.contains { $0.svgID == target
            && $0.text == "no data in this log: HDOP, satellites used (right axis), in view (right axis)" })
        #expect(withEph.elements.contains { $0.svgID == FlightReportPage.linkChartID && $0.text == "no data in this log" })
        // Fixes without eph as well: nothing to draw on the receiver charts, the gaps still shaded
        let bare = Page.parse(FlightReportPage(timeline: try Self.timeline(Log.text(sky: false, statistics: false, eph: false))).html())
        for chart in FlightReportPage.gpsChartIDs {
            #expect(bare.elements.contains { $0.svgID == chart && $0.text == "no data in this log" })
            #expect(bare.elements.contains { $0.svgID == chart && $0.attributes["class"] == "gap" })
        }
    }

    @Test("a bench timeline (no receiver quality, no link statistics) says no data on the three charts")
    func emptyTimeline() {
        let doc = Page.parse(FlightReportPage(timeline: Page.timeline).html())
        for chart in FlightReportPage.gpsChartIDs + [FlightReportPage.linkChartID] {
            #expect(doc.elements.contains { $0.svgID == chart && $0.text == "no data in this log" })
            #expect(!doc.elements.contains { $0.svgID == chart && $0.name == "polyline" })
        }
    }
}
