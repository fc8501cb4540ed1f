@testable import FlightRecords
import Foundation
import Testing

/// The report page's wind chart: drawn after the ground speeds when the timeline has the wind
/// failsafe's estimate, with the tilt authority as a level line; absent otherwise.
@Suite("FlightReportPage: the wind chart")
struct WindChartTests {
    typealias Page = FlightReportPageTests

    @Test("with wind samples: a chart-wind after the speeds, its line, and the tilt authority as a level")
    func chartWithWind() throws {
        // Given a timeline with a wind rising from 1 to 4 m/s, full tilt holding 3.6 m/s
        var timeline = Page.timeline
        timeline.wind = stride(from: 0.0, through: 26, by: 0.5).map { .init(t: $0, value: 1 + 3 * $0 / 26) }
        timeline.windAuthorityMetersPerSecond = 3.6

        // When the page is rendered
        let doc = Page.parse(FlightReportPage(timeline: timeline).html())

        // Then the wind chart sits after the ground speeds, on the shared time axis
        let ids = doc.elements.filter { $0.name == "svg" && ($0.attributes["class"] ?? "").contains("chart") }
            .compactMap { $0.attributes["id"] }
        var expected = ["chart-plan"] + FlightReportPage.timeSeriesChartIDs
        expected.insert(FlightReportPage.windChartID, at: expected.firstIndex(of: "chart-speed")! + 1)
        #expect(ids == expected)
        let boxes = Set(doc.elements.filter { $0.name == "svg" && ids.dropFirst().contains($0.attributes["id"] ?? "") }
            .map { $0.attributes["viewBox"] ?? "" })
        #expect(boxes.count == 1)
        // And it draws the estimate and names the authority's level line
        let inWind = doc.elements.filter { $0.svgID == FlightReportPage.windChartID }
        #expect(inWind.contains { $0.text.contains("Wind (failsafe estimate)") })
        #expect(inWind.contains { $0.text.contains("full tilt holds 3.6 m/s") }, "\(inWind.map(\.text).filter { !$0.isEmpty })")
        #expect(inWind.contains { $0.name == "polyline" || $0.name == "path" })
        #expect(!inWind.contains { $0.text == "no data in this log" })
    }

    @Test("without wind samples (an older log, a bench run): no wind chart, the charts as before", arguments: [nil, 3.6])
    func noChartWithoutSamples(authority: Double?) {
        var timeline = Page.timeline
        timeline.windAuthorityMetersPerSecond = authority
        let html = FlightReportPage(timeline: timeline).html()
        #expect(!html.contains(FlightReportPage.windChartID))
        #expect(html == FlightReportPage(timeline: Page.timeline).html())
    }
}
