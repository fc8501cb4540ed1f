@testable import Simulation
@testable import FollowCore
import Testing
@testable import FlightRecords

@Suite("SVG track plots")
struct TrackPlotTests {
    static func plot(person: [PlaneVector], drone: [PlaneVector], title: String = "t") -> String {
        TrackPlot(title: title, notes: ["a note"], series: [
            .init(name: "person", color: TrackPlot.personColor, pointsPlane: person),
            .init(name: "drone", color: TrackPlot.droneColor, pointsPlane: drone),
        ]).svg()
    }

    @Test("a bench run's plot is well-formed: <svg> root, two polylines, scale bar, legend, axis labels")
    func benchPlot() throws {
        let config = BenchConfiguration(durationSeconds: 20, personStartSeconds: 5, settleSeconds: 5)
        let result = try BenchRunner.run(.square(), controller: .followMe, noise: .realistic, configuration: config)
        let svg = result.plot().svg()
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.hasSuffix("</svg>\n"))
        let check = SVGCheck(svg)
        #expect(check.isWellFormed, "\(check.problems)")
        let lines = check.all("polyline")
        #expect(lines.count == 2)
        #expect(lines.map { SVGCheck.points(of: $0).count } == [result.track.count, result.track.count])
        #expect(!check.children(ofID: "scale-bar").isEmpty)
        let legend = check.children(ofID: "legend").filter { $0.name == "text" }.map(\.text)
        #expect(legend.contains("person (truth)") && legend.contains("drone (truth)"))
        let texts = check.all("text").map(\.text)
        #expect(texts.contains("east (m)") && texts.contains("north (m)"))
        #expect(texts.contains { $0.contains("square") && $0.contains("followme") && $0.contains("realistic") })
    }

    @Test("the scale bar and both axes use the same metres-per-pixel as the tracks")
    func scale() throws {
        // Given a person walking 100 m east and a drone walking 30 m north
        let svg = Self.plot(person: [.zero, PlaneVector(east: 100, north: 0)],
                            drone: [PlaneVector(east: 50, north: -10), PlaneVector(east: 50, north: 20)])
        let check = SVGCheck(svg)
        #expect(check.isWellFormed, "\(check.problems)")
        let person = SVGCheck.points(of: check.all("polyline")[0])
        let drone = SVGCheck.points(of: check.all("polyline")[1])
        let pixelsPerMeterEast = (person[1].x - person[0].x) / 100
        let pixelsPerMeterNorth = (drone[0].y - drone[1].y) / 30 // SVG y grows downwards
        // Then east and north have the same scale (within the 0.1 px rounding)
        #expect(pixelsPerMeterEast > 1)
        #expect(abs(pixelsPerMeterEast - pixelsPerMeterNorth) < 0.01)
        #expect(abs(person[0].y - person[1].y) < 1e-9)
        // And the scale bar's length matches its label at that scale
        let bar = check.children(ofID: "scale-bar")
        let thick = try #require(bar.first { $0.name == "line" && $0.attributes["stroke-width"] == "3" })
        let label = try #require(bar.first { $0.name == "text" }?.text)
        #expect(label.hasSuffix(" m"))
        let meters = try #require(Double(label.dropLast(2)))
        let barPixels = try #require(Double(thick.attributes["x2"] ?? "")) - (try #require(Double(thick.attributes["x1"] ?? "")))
        #expect(abs(barPixels / meters - pixelsPerMeterEast) < 0.01)
        // a 1-2-5 length
        #expect([1.0, 2, 5, 10, 20, 50, 100, 200].contains(meters))
    }

    @Test("text is escaped and empty series draw no polyline")
    func escaping() {
        let svg = TrackPlot(title: "a < b & \"c\"", series: [
            .init(name: "x<y", color: "red", pointsPlane: []),
            .init(name: "ok", color: "blue", pointsPlane: [.zero, PlaneVector(east: 1, north: 1)]),
        ]).svg()
        let check = SVGCheck(svg)
        #expect(check.isWellFormed, "\(check.problems)")
        #expect(svg.contains("a &lt; b &amp; &quot;c&quot;"))
        #expect(check.all("polyline").count == 1)
    }

    @Test("a non-finite point breaks the line: two polylines, no segment across the gap, markers at the ends")
    func brokenLine() {
        let nan = PlaneVector(east: .nan, north: .nan)
        let svg = TrackPlot(series: [
            .init(name: "frame", color: "red", pointsPlane: [.zero, PlaneVector(east: 0, north: -11), nan,
                                                             PlaneVector(east: 11, north: 0), PlaneVector(east: 8, north: -8)]),
        ]).svg()
        let check = SVGCheck(svg)
        #expect(check.isWellFormed, "\(check.problems)")
        let lines = check.all("polyline").map { SVGCheck.points(of: $0).count }
        #expect(lines == [2, 2])
    }

    @Test("a follow mode's run seen from the person: circle, asked angle, the drone's offset; none for the leash")
    func personFrame() throws {
        let config = BenchConfiguration(durationSeconds: 40, personStartSeconds: 5, settleSeconds: 5)
        let angle = try BenchRunner.run(.angleRight(), controller: .followMe, noise: .clean, configuration: config)
        let plot = try #require(angle.personFramePlot())
        #expect(plot.series.map(\.name) == ["standoff circle", "asked angle 90°", "drone from the person (travel up)"])
        // The walker heads north for the first 60 s: by 40 s the drone sits on their right (east), at the standoff
        let last = try #require(plot.series[2].pointsPlane.last)
        #expect(abs(last.east - angle.standoffMeters) < 1 && abs(last.north) < 1, "\(last)")
        let leash = try BenchRunner.run(.square(), controller: .followMe, noise: .clean, configuration: config)
        #expect(leash.personFramePlot() == nil)
    }

    @Test("fixed-point formatting without Foundation", arguments: [
        (1.25, 1, "1.3"), (-1.25, 1, "-1.3"), (-0.04, 1, "0.0"), (3, 0, "3"), (2.5, 2, "2.50"),
        (0.001, 3, "0.001"), (123.456, 2, "123.46"), (Double.nan, 2, "nan"), (-Double.infinity, 1, "-inf"),
    ])
    func fixedFormatting(x: Double, decimals: Int, expected: String) {
        #expect(fixed(x, decimals: decimals) == expected)
    }
}
