@testable import Simulation
@testable import FlightRecords
import Foundation
@testable import FollowCore
import Testing

/// The shell side of `followme bench`: GPX and NMEA track readers, the vendored tracks, and the
/// table/JSON output.
@Suite("Bench replays and output")
struct BenchReplaysTests {
    /// `tracks/` at the repository root (this file is Tests/FlightRecordsTests/TrackFiles/…).
    static let tracksDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tracks").path

    @Test("ISO 8601 timestamps", arguments: [
        ("2015-01-19T21:24:20Z", 1_421_702_660.0),
        ("2012-10-24T23:29:40.000Z", 1_351_121_380.0),
        ("2012-10-24T23:29:40.250Z", 1_351_121_380.25),
        ("2012-10-25T01:29:40+02:00", 1_351_121_380.0),
        ("2012-10-24T18:29:40-0500", 1_351_121_380.0),
        ("2012-10-24T23:29:40", 1_351_121_380.0),
        ("1970-01-01T00:00:00Z", 0.0),
    ])
    func iso8601(text: String, expected: Double) {
        #expect(unixSeconds(iso8601: text) == expected)
    }

    @Test("malformed ISO 8601 is refused", arguments: ["", "2015-01-19", "2015-13-19T21:24:20Z", "2015-01-19T21:24:20Zjunk",
                                                         "2015-01-19T25:24:20Z", "2015/01/19T21:24:20Z", "2015-01-19T21:24:20."])
    func iso8601Malformed(text: String) {
        #expect(unixSeconds(iso8601: text) == nil)
    }

    @Test("the vendored GPX tracks parse with their documented point counts and times", arguments: [
        // (file, track, points, first time, duration s) — tracks/PROVENANCE.md
        ("togeojson-run_gpxtpx.gpx", nil, 1118, "2015-01-19T21:24:20Z", 1256.0),
        ("togeojson-run.gpx", nil, 206, "2012-10-24T23:29:40Z", 948.0),
        ("gpxpy-cerknicko-jezero.gpx", "ACTIVE LOG #2", 173, nil, 2469.0),
    ] as [(String, String?, Int, String?, Double)])
    func vendoredTracks(file: String, track: String?, points: Int, firstTime: String?, duration: Double) throws {
        let document = try GPXDocument(contentsOf: (Self.tracksDirectory as NSString).appendingPathComponent(file))
        let t = try #require(document.track(named: track))
        let all = t.points
        #expect(all.count == points)
        let times = all.compactMap(\.unixSeconds)
        #expect(times.count == points)
        if let firstTime { #expect(times.first == unixSeconds(iso8601: firstTime)) }
        #expect(abs((times.max()! - times.min()!) - duration) < 1)
    }

    @Test("the cerknica file has eight tracks; waypoints are not track points")
    func cerknicaTracks() throws {
        let document = try GPXDocument(contentsOf: (Self.tracksDirectory as NSString).appendingPathComponent("gpxpy-cerknicko-jezero.gpx"))
        #expect(document.tracks.count == 8)
        #expect(document.tracks.first?.name == "ACTIVE LOG")
        #expect(document.track(named: "ACTIVE LOG #9") == nil)
    }

    @Test("bad GPX is refused with the reason", arguments: [
        ("<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>", "lat=91"),
        ("<gpx><trk><trkseg><trkpt lon=\"0\"/></trkseg></trk></gpx>", "lat=none"),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt></trkseg></trk></gpx>", "yesterday"),
        ("<kml></kml>", "<kml>"),
        ("<gpx><trk>", "XML"),
    ])
    func badGPX(text: String, mentions: String) {
        do {
            _ = try GPXDocument(data: Data(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(mentions), "\(error)")
        }
    }

    @Test("every vendored track becomes a replay scenario")
    func replayScenarios() {
        let (scenarios, notes) = BenchReplays.load(BenchReplays.gpxTracks, directory: Self.tracksDirectory, read: readTrack)
        #expect(notes.isEmpty, "\(notes)")
        #expect(scenarios.map(\.name) == ["track-jog-sf", "track-run-dc", "track-walk-cerknica"])
        #expect(scenarios.allSatisfy { $0.kind == .replay && ($0.endSeconds ?? 0) > 900 })
        // A replay is anchored at its first point.
        #expect(abs(scenarios[0].origin.latitudeDegrees - 37.783292) < 1e-6)
    }

    @Test("missing replay files are notes, not failures")
    func missingFiles() {
        let (scenarios, notes) = BenchReplays.allScenarios(tracksDirectory: "/nonexistent", walksDirectory: "/nonexistent", read: readTrack)
        #expect(scenarios.map(\.name) == ["straight-walk", "square", "stop-and-go", "jog-curve"])
        #expect(notes.count == BenchReplays.gpxTracks.count + BenchReplays.nmeaWalks.count)
    }

    @Test("NMEA RMC: the classic DePriester sentence, any talker, checksum and status checked")
    func rmc() throws {
        let text = """
            $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A
            $GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A
            $GPRMC,123521,V,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*7D
            $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47
            garbage
            """
        let points = NMEATrack.points(text: text)
        // The second line's checksum no longer matches, the third is status V (its checksum is right).
        #expect(points.count == 1)
        let p = try #require(points.first)
        #expect(p.timeSeconds == 764_426_119) // 1994-03-23 12:35:19 UTC
        #expect(abs(p.coordinate.latitudeDegrees - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(p.coordinate.longitudeDegrees - (11 + 31.0 / 60)) < 1e-12)
    }

    @Test("NMEA RMC written by the simulator's builder reads back (southern and western hemispheres)")
    func rmcRoundTrip() throws {
        var sentences = ""
        let start: Int64 = 1_700_000_000
        for i in 0..<5 {
            let c = GeoCoordinate(latitudeDegrees: -33.8568 + Double(i) * 1e-5, longitudeDegrees: -151.2153)!
            sentences += NMEASentence.rmc(talker: .gnss, time: NMEAUTCTime(unixSeconds: start + Int64(i)), coordinate: c,
                                          speedMetersPerSecond: 1.1, trackDegrees: 0)
        }
        let points = NMEATrack.points(text: sentences)
        #expect(points.map(\.timeSeconds) == (0..<5).map { Double(start + Int64($0)) })
        #expect(points.allSatisfy { abs($0.coordinate.longitudeDegrees + 151.2153) < 1e-6 })
        #expect(abs(points[4].coordinate.latitudeDegrees - (-33.8568 + 4e-5)) < 1e-6)
    }

    @Test("table and JSON carry every run, the ratios, the medians and the speed-up verdict")
    func output() throws {
        let config = BenchConfiguration(durationSeconds: 20, personStartSeconds: 5, settleSeconds: 5)
        let scenarios = [BenchScenario.straightWalk()]
        let report = try BenchRunner.runSuite(scenarios: scenarios, configuration: config)
        let table = BenchOutput.table(report, scenarios: scenarios, wallSeconds: 0.01)
        #expect(table.contains("straight-walk"))
        #expect(table.split(separator: "\n").filter { $0.contains("followme ") || $0.contains("naive ") }.count >= 4)
        #expect(table.contains("median-scenario FollowMe/baseline RMS ratio: clean"))
        // 4 runs × (5 + 20) s simulated in 0.01 s
        #expect(table.contains("100 simulated s in 0.01 wall s = 10000× (target ≥ 1000×: met)"))
        #expect(BenchOutput.table(report, scenarios: scenarios, wallSeconds: 1).contains("NOT met"))

        let json = BenchOutput.json(report, scenarios: scenarios, wallSeconds: 0.01, notes: ["a \"note\""])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["runs"] as? [Any])?.count == 4)
        #expect((object["comparisons"] as? [Any])?.count == 2)
        #expect(object["speedup_met"] as? Bool == true)
        #expect((object["notes"] as? [String]) == ["a \"note\""])
        let medians = try #require(object["median_ratio"] as? [String: Any])
        #expect(medians["clean"] is NSNumber && medians["realistic"] is NSNumber)
        #expect(BenchOutput.plotFileName(report.results[0]) == "straight-walk-followme-clean.svg")
    }
}

/// Reads a bench track through TrackFiles (the same mapping as `followme bench`).
private func readTrack(_ format: BenchTrackSource.Format, _ path: String) throws -> [TimedCoordinate]? {
    switch format {
    case .gpx(let trackName): try TrackFile.gpxPoints(path: path, trackName: trackName)
    case .nmea: try TrackFile.nmeaPoints(path: path)
    }
}
