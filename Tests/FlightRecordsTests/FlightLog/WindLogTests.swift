@testable import FlightRecords
import Foundation
@testable import Links
import Testing

/// The wind where a person sees it: the flight log's command lines (`wind_mps`, `wind_towards_deg`,
/// `wind_authority`), the status object (`wind`), its row on `followme watch` and its part of the
/// one-line status; old logs without the fields read as before.
@Suite("Wind in the flight log, the status and the watch screen")
struct WindLogTests {
    typealias Log = FlightLogToolsTests

    @Test("a command line carries the wind after the fields it always had; it decodes back; an old line has none")
    func commandRecordRoundTrip() throws {
        // Given an airborne command record with the wind failsafe's estimate
        var r = FlightCommandRecord(t: 12.5, state: "following", intent: "fly", sentFlying: true)
        (r.roll, r.pitch, r.gaz, r.yaw, r.dist, r.relBearing) = (0.1, -0.2, 0.0, 0.05, 8.5, -3.0)
        (r.windMetersPerSecond, r.windTowardsDegrees, r.windAuthority) = (4.25, 90.0, 0.7)

        // When it is written, then the three fields follow every field a command line had before
        let line = try JSONLineEncoder().encode(r)
        #expect(line == """
            {"t":12.5,"kind":"command","state":"following","intent":"fly","sent_flying":true,"roll":0.1,"pitch":-0.2,\
            "gaz":0.0,"yaw":0.05,"dist":8.5,"rel_bearing":-3.0,"wind_mps":4.25,"wind_towards_deg":90.0,"wind_authority":0.7}
            """)
        // And it decodes back to the same record
        #expect(try JSONDecoder().decode(FlightCommandRecord.self, from: Data(line.utf8)) == r)

        // And a line of an older log (no wind) decodes with the three absent, and encodes as it was
        let old = #"{"t":3.0,"kind":"command","state":"landed","intent":"stay-landed","sent_flying":false,"hover":true}"#
        let decoded = try JSONDecoder().decode(FlightCommandRecord.self, from: Data(old.utf8))
        #expect(decoded.windMetersPerSecond == nil && decoded.windTowardsDegrees == nil && decoded.windAuthority == nil)
        #expect(try JSONLineEncoder().encode(decoded) == old)
    }

    /// `FlightLogToolsTests.logText` with a wind on every command line (0.5 m/s more each second, towards 045°,
    /// full tilt holding 3.6 m/s).
    static var windyLogText: String {
        var second = 0
        return Log.logText.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.contains(#""kind":"command""#) else { return String(line) }
            let speed = 0.5 * Double(second)
            second += 1
            return line.dropLast() + #","wind_mps":\#(speed),"wind_towards_deg":45.0,"wind_authority":\#(speed / 3.6)}"#
        }.joined(separator: "\n")
    }

    @Test("followme log, log geojson and the report read a log with the wind as they read one without")
    func readersIgnoreOrUseTheWind() throws {
        let old = Log.logText, windy = Self.windyLogText
        #expect(windy.contains(#""wind_mps":4.5,"wind_towards_deg":45.0"#))
        // When both logs are read, then the fixes, the GeoJSON and the scores are the same
        #expect(FlightLog(text: windy) == FlightLog(text: old))
        #expect(FlightLog(text: windy).geoJSON() == FlightLog(text: old).geoJSON())
        let (oldReport, windyReport) = (FlightLogReport(text: old), FlightLogReport(text: windy))
        #expect(windyReport.samples == oldReport.samples && windyReport.rmsStandoffErrorMeters == oldReport.rmsStandoffErrorMeters)
        #expect(windyReport.minSeparationMeters == oldReport.minSeparationMeters)

        // And the report's timeline: no wind from the old log, every sample and the tilt authority from the new one
        let oldTimeline = try FlightTimeline(flightLogText: old, title: "old")
        let windyTimeline = try FlightTimeline(flightLogText: windy, title: "old")
        #expect(oldTimeline.wind.isEmpty && oldTimeline.windAuthorityMetersPerSecond == nil)
        #expect(windyTimeline.wind.map(\.value) == (0..<10).map { 0.5 * Double($0) })
        #expect(windyTimeline.wind.first?.t == windyTimeline.pcmdRoll.first?.t)
        #expect(abs((windyTimeline.windAuthorityMetersPerSecond ?? 0) - 3.6) < 1e-9)
        var withoutWind = windyTimeline
        (withoutWind.wind, withoutWind.windAuthorityMetersPerSecond) = ([], nil)
        #expect(withoutWind == oldTimeline)
    }

    static func status(wind: FlightStatus.Wind?) -> FlightStatus {
        var s = FlightStatusScreenTests.following
        s.wind = wind
        return s
    }

    @Test("status JSON: a wind object with its four fields while airborne, none without; decodes to the same status")
    func statusJSON() throws {
        // Given a status with the wind
        let windy = Self.status(wind: .init(windMetersPerSecond: 4.2, windTowardsDegrees: 90, windAuthority: 0.7, saturatedSeconds: 0.5))
        // Then its line has the object, and decodes back
        let line = windy.jsonLine()
        #expect(line.contains(#""wind":{"saturated_s":0.5,"wind_authority":0.7,"wind_mps":4.2,"wind_towards_deg":90}"#), "\(line)")
        #expect(FlightStatus.decode(jsonLine: line) == windy)
        // And without it (on the ground, or an older flight) there is no "wind" key
        let calm = Self.status(wind: nil)
        #expect(!calm.jsonLine().contains("wind"))
        #expect(FlightStatus.decode(jsonLine: calm.jsonLine())?.wind == nil)
    }

    @Test("the one-line status names the wind from half the tilt authority on", arguments: [
        (0.49, ""), (0.5, " | wind 3.0m/s 50%"), (0.7, " | wind 4.2m/s 70%"), (1.2, " | wind 7.2m/s 120%"),
    ])
    func statusLine(authority: Double, suffix: String) {
        let s = Self.status(wind: .init(windMetersPerSecond: 6 * authority, windTowardsDegrees: 90, windAuthority: authority,
                                        saturatedSeconds: 0))
        #expect(s.statusLine == "following | dist 11.2m | target 0.3s | onboard 0.1s | batt 87% alt 3.0m" + suffix)
    }

    @Test("followme watch: a WIND row under DRONE while airborne, a warning in capitals near the limit or saturating",
          arguments: [
              (FlightStatus.Wind(windMetersPerSecond: 4.2, windTowardsDegrees: 90, windAuthority: 0.7, saturatedSeconds: 0),
               "WIND      4.2 m/s → 090° E, 70 % of tilt"),
              (FlightStatus.Wind(windMetersPerSecond: 3.0, windTowardsDegrees: 224.6, windAuthority: 0.83, saturatedSeconds: 0),
               "WIND      3.0 m/s → 225° SW, 83 % of tilt   NEAR THE TILT LIMIT"),
              (FlightStatus.Wind(windMetersPerSecond: 3.5, windTowardsDegrees: 0.2, windAuthority: 0.97, saturatedSeconds: 1.26),
               "WIND      3.5 m/s → 000° N, 97 % of tilt   SATURATED 1.3 s"),
              (FlightStatus.Wind(windMetersPerSecond: 1.0, windTowardsDegrees: 270, windAuthority: 0.3, saturatedSeconds: 0.4),
               "WIND      1.0 m/s → 270° W, 30 % of tilt   SATURATED 0.4 s"),
          ])
    func watchRow(wind: FlightStatus.Wind, row: String) {
        // Given a following flight with a wind, on a 100 × 30 terminal
        let lines = FlightStatusScreen.lines(.live(Self.status(wind: wind), socketPath: "/run/f.sock", receivedSecondsAgo: 0.1),
                                             columns: 100, rows: 30)
        // Then the wind has its row right under the drone's
        let drone = lines.firstIndex { $0.hasPrefix("DRONE") }
        #expect(lines.firstIndex(of: row) == drone.map { $0 + 1 }, "\(lines.joined(separator: "\n"))")
    }

    @Test("followme watch without a wind (on the ground, an older flight): no WIND row, the screen as before")
    func noWindRow() {
        let view = FlightStatusScreen.View.live(Self.status(wind: nil), socketPath: "/run/f.sock", receivedSecondsAgo: 0.1)
        let lines = FlightStatusScreen.lines(view, columns: 100, rows: 30)
        #expect(!lines.contains { $0.hasPrefix("WIND") })
        #expect(lines == FlightStatusScreen.lines(.live(FlightStatusScreenTests.following, socketPath: "/run/f.sock",
                                                        receivedSecondsAgo: 0.1), columns: 100, rows: 30))
    }
}
