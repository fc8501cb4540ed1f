@testable import FlightRecords
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import FollowCore
import Testing

/// The page renderer: a well-formed, self-contained document whose charts share one time axis and
/// whose summary says what the timeline holds.
@Suite("FlightReportPage")
struct FlightReportPageTests {
    /// `FlightTimelineTests.sample` with every series filled and a closest approach of 2.5 m (below 3 m).
    static let timeline: FlightTimeline = {
        var t = FlightTimelineTests.sample
        t.standoffMeters = 8
        t.minSeparationMeters = 3
        t.scores = .init(rmsStandoffErrorMeters: 1.25, rmsSamples: 40, closestApproachMeters: 2.5,
                         closestApproachAtSeconds: 11, followingSeconds: 13.5, method: "test method")
        let times = stride(from: 0.0, through: 26, by: 0.5).map { $0 }
        func series(_ f: (Double) -> Double) -> [FlightTimeline.Sample] { times.map { .init(t: $0, value: f($0)) } }
        t.distance = series { 8 + sin($0) }
        t.altitude = series { min($0, 3) }
        t.personSpeed = series { _ in 1.4 }
        t.droneSpeed = series { _ in 1.2 }
        t.targetFixAge = series { _ in 0.2 }
        t.onboardFixAge = series { _ in 0.2 }
        t.pcmdRoll = series { sin($0) / 2 }
        t.pcmdPitch = series { cos($0) / 2 }
        t.pcmdGaz = series { _ in 0 }
        t.pcmdYaw = series { _ in 0.1 }
        t.personTrack = times.map { .init(t: $0, plane: PlaneVector(east: $0, north: 0)) }
        t.droneTrack = times.map { .init(t: $0, plane: PlaneVector(east: $0 - 8, north: 1)) }
        t.markers = [.init(t: 21, label: "shutdown <now> & \"quoted\"")]
        t.configurationText = "[target]\ndevice = \"/dev/gps<target>\"\n"
        return t
    }()

    /// Every element of a parsed document: name, attributes, and the text directly inside it.
    final class Collector: NSObject, XMLParserDelegate {
        struct Element { var name: String; var attributes: [String: String]; var text = ""; var svgID: String? }
        var elements: [Element] = []
        var open: [Int] = []
        var currentSVG: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "svg" { currentSVG = attributes["id"] }
            elements.append(Element(name: name, attributes: attributes, svgID: currentSVG))
            open.append(elements.count - 1)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
            if name == "svg" { currentSVG = nil }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let last = open.last { elements[last].text += string }
        }
    }

    /// Parses `html` as XML; records an issue (with the parser's error) if it is not well-formed.
    static func parse(_ html: String) -> Collector {
        let parser = XMLParser(data: Data(html.utf8))
        let collector = Collector()
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "not well-formed: \(String(describing: parser.parserError)) at line \(parser.lineNumber)")
        return collector
    }

    @Test("the page is well-formed XML with the plan view and the time-series charts, in order")
    func wellFormed() {
        let html = FlightReportPage(timeline: Self.timeline).html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        let doc = Self.parse(html)
        let charts = doc.elements.filter { $0.name == "svg" && ($0.attributes["class"] ?? "").contains("chart") }
        #expect(charts.map { $0.attributes["id"] ?? "" } == ["chart-plan"] + FlightReportPage.timeSeriesChartIDs)
        // The configuration it flew with is there, folded, as text
        #expect(doc.elements.contains { $0.name == "pre" && $0.text == "[target]\ndevice = \"/dev/gps<target>\"\n" })
        // The marker's label is escaped, not markup
        #expect(doc.elements.contains { $0.name == "title" && $0.text.contains("shutdown <now> & \"quoted\"") })
    }

    @Test("self-contained: no URL, no external file, no fetched font")
    func selfContained() {
        let html = FlightReportPage(timeline: Self.timeline).html()
        for forbidden in ["http", "src=", "<link", "url(", "@import", "href="] {
            #expect(!html.contains(forbidden), "the page contains \(forbidden)")
        }
    }

    @Test("the time-series charts share one time axis: same viewBox, same x for the same state band")
    func sharedTimeAxis() throws {
        let doc = Self.parse(FlightReportPage(timeline: Self.timeline).html())
        let ids = FlightReportPage.timeSeriesChartIDs
        let boxes = Set(doc.elements.filter { $0.name == "svg" && ids.contains($0.attributes["id"] ?? "") }
            .map { $0.attributes["viewBox"] ?? "" })
        #expect(boxes.count == 1)
        var bandXs: [String: [String]] = [:]
        for element in doc.elements where element.name == "rect" && element.attributes["fill-opacity"] == "0.22" {
            bandXs[element.svgID ?? "?", default: []].append((element.attributes["x"] ?? "") + "+" + (element.attributes["width"] ?? ""))
        }
        // Every chart has one band per state with a duration, and the same bands
        #expect(Set(bandXs.keys) == Set(ids))
        #expect(Set(bandXs.values).count == 1)
        #expect(bandXs[ids[0]]?.count == Self.timeline.states.count)
    }

    @Test("the summary: duration, landing reason, closest approach below the limit, RMS, holds, battery")
    func summary() {
        let doc = Self.parse(FlightReportPage(timeline: Self.timeline).html())
        func row(_ label: String) -> FlightReportPageTests.Collector.Element? {
            guard let th = doc.elements.firstIndex(where: { $0.name == "th" && $0.text == label }) else { return nil }
            return doc.elements[th + 1]
        }
        #expect(row("Duration")?.text == "26.0 s logged, 23.0 s airborne")
        #expect(row("Landing")?.text == "landed: hold-expired:target-stale")
        #expect(row("Closest approach")?.text == "2.50 m at 11.0 s (min separation 3.00 m: BELOW)")
        #expect(row("Closest approach")?.attributes["class"] == "warn")
        #expect(row("RMS standoff error while following")?.text == "1.25 m over 40 samples (standoff 8.00 m)")
        #expect(row("Holds")?.text == "2, 3.5 s in all")
        #expect(row("Battery used")?.text == "4 % (95 → 92 %)")
        let holdRows = doc.elements.filter { $0.name == "td" }.map(\.text)
        for cell in ["geofence", "target-stale", "2.5 s"] { #expect(holdRows.contains(cell)) }
    }

    @Test("a series with no data says so instead of drawing an empty frame")
    func noData() {
        var timeline = Self.timeline
        timeline.targetFixAge = []
        timeline.onboardFixAge = []
        let doc = Self.parse(FlightReportPage(timeline: timeline).html())
        #expect(doc.elements.contains { $0.svgID == "chart-fix-age" && $0.text == "no data in this log" })
        #expect(!doc.elements.contains { $0.svgID == "chart-altitude" && $0.text == "no data in this log" })
    }

    @Test("markers too close to name both: the first is named over the plot, every one in its tooltip")
    func crowdedMarkers() {
        var timeline = Self.timeline
        timeline.markers = [.init(t: 10, label: "link: navdata-lost"), .init(t: 10.5, label: "link: navdata-restored"),
                            .init(t: 20, label: "SIGTERM/SIGINT: shutdown")]
        let doc = Self.parse(FlightReportPage(timeline: timeline).html())
        let named = doc.elements.filter { $0.attributes["class"] == "marker-label" }.map(\.text)
        #expect(named == ["link: navdata-lost", "SIGTERM/SIGINT: shutdown"])
        #expect(doc.elements.filter { $0.name == "title" && $0.text.hasPrefix("link: navdata-restored") }.count
            == FlightReportPage.timeSeriesChartIDs.count)
    }

    @Test("a long flight's state table is one click away (closed above 12 rows), a short one open")
    func longTablesCollapse() {
        var timeline = Self.timeline
        let short = FlightReportPage(timeline: timeline).html()
        #expect(short.contains("<details open=\"open\">\n<summary>Flight states (8)</summary>"))
        #expect(short.contains("<details open=\"open\">\n<summary>Holds (2)</summary>"))
        timeline.states = (0..<13).map { .init(startSeconds: Double($0), endSeconds: Double($0 + 1), state: "following", reason: "x") }
        let long = FlightReportPage(timeline: timeline).html()
        #expect(long.contains("<details>\n<summary>Flight states (13)</summary>"))
        _ = Self.parse(long)
    }

    @Test("the moving mean averages within ±half the window")
    func movingMean() {
        let samples: [FlightTimeline.Sample] = [.init(t: 0, value: 10), .init(t: 0.2, value: 12), .init(t: 0.4, value: 10),
                                                .init(t: 2, value: 20)]
        let mean = FlightReportPage.movingMean(samples, windowSeconds: 1)
        #expect(mean.map(\.t) == samples.map(\.t))
        let third: Double = 32.0 / 3
        let expected: [Double] = [third, third, third, 20]
        #expect(mean.map(\.value) == expected)
    }
}
