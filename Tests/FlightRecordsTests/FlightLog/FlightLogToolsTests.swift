@testable import FlightRecords
import Foundation
@testable import FollowCore
@testable import Simulation
import Testing
@testable import Links

/// `followme log gpx` / `followme log plot` on a small synthetic flight log written in the
/// recorder's own format (the same `JSONLine` + `GPSEvent.jsonLine()` code the flight loop uses).
@Suite("Flight-log tools: GPX and SVG from a flight log")
struct FlightLogToolsTests {
    static let origin = GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!
    static let plane = LocalPlane(origin: origin)

    /// A log line as `FlightLoop.record` writes it.
    static func line(_ t: Double, _ fill: (inout JSONLine) -> Void) -> String {
        var j = JSONLine()
        j.add("t", t)
        fill(&j)
        return j.string
    }

    static func gpsLine(_ t: Double, _ event: GPSEvent, verdict: String? = nil) -> String {
        line(t) { j in j.add("kind", "gps"); j.addRaw("event", event.jsonLine()); j.add("verdict", verdict) }
    }

    /// A fix `east`/`north` metres from the origin, stamped `unix` (receiver time) and received at `t`.
    static func fix(_ role: ReceiverRole, east: Double, north: Double, unix: Int64, t: Double, altitude: Double? = nil) -> GPSEvent {
        let c = plane.unproject(PlaneVector(east: east, north: north))!
        return .fix(GPSFix(role: role, device: "/dev/gps\(role)", mode: altitude == nil ? .twoD : .threeD,
                           latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                           fixTime: FixTime(seconds: unix, nanoseconds: 250_000_000),
                           receivedAt: MonotonicTime(seconds: t), altitudeHAEMeters: altitude, speedMetersPerSecond: 1.4)!)
    }

    /// Ten seconds of a person walking east at 1.4 m/s and a drone 6 m behind, 1 Hz each, plus
    /// every other kind of line the recorder writes, a blank line and one foreign line.
    static var logText: String {
        var lines: [String] = []
        lines.append(line(0.01) { j in j.add("kind", "link"); j.add("event", "connected"); j.add("was_flying", false) })
        lines.append(gpsLine(0.02, .connected(role: .target, endpoint: "127.0.0.1:2947", isReconnect: false, at: MonotonicTime(seconds: 0.02))))
        for i in 0..<10 {
            let t = 1 + Double(i)
            lines.append(gpsLine(t, fix(.target, east: 1.4 * Double(i), north: 0, unix: 1_700_000_000 + Int64(i), t: t, altitude: 420),
                                 verdict: i == 0 ? "initialised" : (i == 7 ? "rejected-outlier" : "accepted")))
            lines.append(gpsLine(t + 0.1, fix(.onboard, east: 1.4 * Double(i) - 6, north: 0, unix: 1_700_000_000 + Int64(i), t: t + 0.1)))
            lines.append(gpsLine(t + 0.2, .heading(HeadingReport(role: .onboard, device: "/dev/gpsonboard", headingDegrees: 0,
                                                                  receivedAt: MonotonicTime(seconds: t + 0.2))!)))
            lines.append(line(t + 0.3) { j in
                j.add("kind", "navdata"); j.add("seq", i); j.add("flight", "flying"); j.add("battery", 80.0); j.add("alt", 3.0)
            })
            lines.append(line(t + 0.4) { j in j.add("kind", "command"); j.add("state", "following"); j.add("intent", "fly") })
        }
        lines.append(gpsLine(11, .lost(GPSLoss(role: .target, device: "/dev/gpstarget", reason: .noFix(mode: 1), at: MonotonicTime(seconds: 11)))))
        lines.append(line(11.5) { j in j.add("kind", "transition"); j.add("from", "following"); j.add("to", "holding(target-stale)") })
        lines.append("")
        lines.append("this line is not JSON")
        lines.append(line(12) { j in j.add("kind", "shutdown") })
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("reads only the fixes, by role, in order, with receiver time and height")
    func readsFixes() throws {
        let log = FlightLog(text: Self.logText)
        #expect(log.targetFixes.count == 10)
        #expect(log.onboardFixes.count == 10)
        #expect(log.fixes.count == 20)
        #expect(log.malformedLines == [Self.logText.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "this line is not JSON")! + 1])
        let first = try #require(log.targetFixes.first)
        #expect(first.unixSeconds == 1_700_000_000.25)
        #expect(first.altitudeHAEMeters == 420)
        #expect(first.logSeconds == 1)
        #expect(log.onboardFixes.allSatisfy { $0.altitudeHAEMeters == nil && $0.verdict == nil })
        #expect(log.targetFixes.map(\.verdict).first == "initialised")
        #expect(log.fixes.filter(\.wasRefused).count == 1)
        let east = log.targetFixes.map { Self.plane.project($0.coordinate).east }
        #expect(zip(east, east.dropFirst()).allSatisfy { $1 > $0 })
    }

    @Test("gpx: two tracks, person and drone, whose points round-trip through a GPX parser")
    func gpx() throws {
        // Given the log, when it becomes GPX
        let log = FlightLog(text: Self.logText)
        let text = log.gpx()
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        // Then an XML parser reads back exactly two named tracks with every fix, time and height
        let document = try GPXDocument(data: Data(text.utf8))
        #expect(document.tracks.map(\.name) == ["person", "drone"])
        let person = document.tracks[0].points, drone = document.tracks[1].points
        #expect(person.count == 10 && drone.count == 10)
        for (p, f) in zip(person, log.targetFixes) {
            #expect(p.coordinate == f.coordinate)
            #expect(p.unixSeconds == f.unixSeconds)
            #expect(p.elevationMeters == 420)
        }
        #expect(zip(drone, log.onboardFixes).allSatisfy { $0.coordinate == $1.coordinate && $0.elevationMeters == nil })
        #expect(text.contains("<time>2023-11-14T22:13:20.250Z</time>"))
    }

    @Test("plot: an SVG with the two fix tracks on a plane anchored at the first fix")
    func plot() throws {
        let log = FlightLog(text: Self.logText)
        let svg = try log.plot(title: "flight log test.jsonl").svg()
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(svg.contains("id=\"scale-bar\""))
        #expect(svg.contains("person (target fixes)") && svg.contains("drone (onboard fixes)"))
        #expect(svg.contains("10 target fixes, 10 onboard fixes over 9 s"))
        #expect(svg.contains("1 malformed line(s) skipped"))
        #expect(svg.contains("1 fix(es) refused by the follow core"))
        // Every fix is one polyline vertex.
        let polylines = svg.components(separatedBy: "points=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(polylines.map { $0.split(separator: " ").count } == [10, 10])
        // The person walks east: same y (north), increasing x; the drone trails 6 m behind on the same line.
        let person = polylines[0].split(separator: " ").map { $0.split(separator: ",").map { Double($0)! } }
        let drone = polylines[1].split(separator: " ").map { $0.split(separator: ",").map { Double($0)! } }
        #expect(Set(person.map { $0[1] }).count == 1 && person.map { $0[1] } == drone.map { $0[1] })
        let pixelsPerMeter = (person[9][0] - person[0][0]) / (1.4 * 9)
        #expect(abs((person[0][0] - drone[0][0]) / pixelsPerMeter - 6) < 0.05)
    }

    @Test("GPX times are written to the nearest millisecond", arguments: [
        (1_700_000_000.6, "2023-11-14T22:13:20.600Z"), (1_700_000_000.9996, "2023-11-14T22:13:21.000Z"),
        (0.0, "1970-01-01T00:00:00.000Z"),
    ])
    func gpxTime(unix: Double, expected: String) {
        let point = GPXPoint(coordinate: Self.origin, unixSeconds: unix)
        let text = GPXDocument(tracks: [GPXTrack(name: "x", segments: [[point]])]).rendered()
        #expect(text.contains("<time>\(expected)</time>"))
    }

    @Test("a log without fixes cannot be plotted; its GPX has two empty tracks")
    func noFixes() throws {
        let text = [Self.line(1) { j in j.add("kind", "shutdown") }, "{\"t\":2,\"kind\":\"gps\",\"event\":{\"role\":\"target\",\"lat\":95,\"lon\":0}}"]
            .joined(separator: "\n")
        let log = FlightLog(text: text)
        #expect(log.fixes.isEmpty)
        #expect(log.lineCount == 2)
        #expect(throws: FlightLogError.noFixes(lines: 2)) { try log.plot(title: "x") }
        let document = try GPXDocument(data: Data(log.gpx().utf8))
        #expect(document.tracks.map { $0.points.count } == [0, 0])
    }

    @Test("reading a file, and a missing file's error names the path")
    func files() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("followme-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("flight.jsonl").path
        try Self.logText.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try FlightLog(contentsOf: path) == FlightLog(text: Self.logText))
        let missing = dir.appendingPathComponent("nope.jsonl").path
        do {
            _ = try FlightLog(contentsOf: missing)
            Issue.record("no error for a missing file")
        } catch {
            #expect(error.description.contains(missing))
        }
    }
}
