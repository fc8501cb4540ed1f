@testable import FlightRecords
import Foundation
@testable import FollowCore
import Testing

/// The flight log → `FlightTimeline` adapter behind `followme report`, on a known synthetic flight
/// (written with the recorder's own line code, FlightLogToolsTests' helpers): every number the
/// page's summary shows is checked against the value the flight was built to have.
@Suite("Flight log → FlightTimeline")
struct FlightTimelineAdapterTests {
    typealias Log = FlightLogToolsTests

    static func transition(_ t: Double, _ from: String, _ to: String, _ reason: String) -> String {
        Log.line(t) { j in j.add("kind", "transition"); j.add("from", from); j.add("to", to); j.add("reason", reason) }
    }

    static func navdata(_ t: Double, battery: Double, alt: Double) -> String {
        Log.line(t) { j in j.add("kind", "navdata"); j.add("flight", "flying"); j.add("battery", battery); j.add("alt", alt) }
    }

    /// Drone–person distance the known flight flies, metres: 4 on the ground, 12 in the air, 5 once at t = 128.
    static func droneDistance(at t: Double) -> Double { t < 102 ? 4 : (t == 128 ? 5 : 12) }

    /// t0 = 100 (start: standoff 10 m, min separation 3 m). Both receivers at 1 Hz (target at whole
    /// seconds, onboard 0.01 s later), the person standing at the origin, the drone south of them at
    /// `droneDistance`; the person's receiver is silent 120–122 (a target-stale hold 120–123).
    /// States: preflight → taking-off 103 → climbing 104 → following 106 → holding(target-stale) 120
    /// → following 123 → landing(shutdown) 130 → landed 134; the last line at 135.
    static var knownFlight: String {
        var lines = [Log.line(100) { j in
            j.add("kind", "start"); j.add("standoff_m", 10.0); j.add("altitude_m", 3.0); j.add("min_separation_m", 3.0)
            j.add("software_version", "9.8.7"); j.add("config_path", "/etc/followme/followme.toml")
            j.add("config", "[follow]\nstandoff_m = 10.0\n")
        }]
        lines.append(navdata(100.5, battery: 90, alt: 0))
        let transitions: [Double: String] = [
            103: transition(103, "preflight", "taking-off", "prerequisites-met"),
            104: transition(104, "taking-off", "climbing", "airborne-confirmed"),
            106: transition(106, "climbing", "following", "altitude-reached"),
            120: transition(120, "following", "holding(target-stale)", "hold:target-stale"),
            123: transition(123, "holding(target-stale)", "following", "data-fresh"),
            130: transition(130, "following", "landing(shutdown)", "land:shutdown"),
            134: transition(134, "landing(shutdown)", "landed", "landed-confirmed"),
        ]
        for second in 101...134 {
            let t = Double(second)
            if let line = transitions[t] { lines.append(line) }
            if t == 130 { lines.append(Log.line(130) { j in j.add("kind", "shutdown") }) }
            if !(120...122).contains(second) {
                lines.append(Log.gpsLine(t, Log.fix(.target, east: 0, north: 0, unix: 1_700_000_000 + Int64(second), t: t),
                                         verdict: "accepted"))
            }
            let u = t + 0.01
            lines.append(Log.gpsLine(u, Log.fix(.onboard, east: 0, north: -droneDistance(at: t), unix: 1_700_000_000 + Int64(second), t: u),
                                     verdict: "accepted"))
        }
        lines.append(Log.line(110) { j in
            j.add("kind", "command"); j.add("state", "following"); j.add("intent", "fly"); j.add("sent_flying", true)
            j.add("roll", 0.1); j.add("pitch", -0.2); j.add("gaz", 0.3); j.add("yaw", -0.4)
        })
        lines.append(Log.line(111) { j in j.add("kind", "command"); j.add("state", "following"); j.add("intent", "fly"); j.add("hover", true) })
        lines.append(navdata(134.5, battery: 82, alt: 0))
        lines.append(Log.line(135) { j in j.add("kind", "log"); j.add("event", "final") })
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the summary's numbers are the known flight's: duration, closest approach, RMS, holds, landing, battery")
    func knownNumbers() throws {
        // Given the known flight, when it becomes a timeline
        let timeline = try FlightTimeline(flightLogText: Self.knownFlight, title: "known")

        // Then the time axis runs from the first line (t = 100) to the last (135)
        #expect(timeline.endSeconds == 35)
        // And airborne time is taking-off (103) to landed (134)
        #expect(abs(timeline.airborneSeconds - 31) < 1e-9)
        // And the closest approach is the one 5 m pair at t = 128.01 (the 4 m before take-off does not count)
        #expect(abs((timeline.scores.closestApproachMeters ?? 0) - 5) < 0.01)
        #expect(abs((timeline.scores.closestApproachAtSeconds ?? 0) - 28.01) < 1e-6)
        // And the RMS is over following after 10 s of settling (116–119.01: 8 pairs, each 12 − 10 = 2 m)
        #expect(abs((timeline.scores.rmsStandoffErrorMeters ?? 0) - 2) < 0.01)
        #expect(timeline.scores.rmsSamples == 8)
        #expect(abs((timeline.scores.followingSeconds ?? 0) - (14 + 7)) < 1e-9)
        // And one hold, target-stale, 3 s from t = 20; the landing was a shutdown; battery 90 → 82
        #expect(timeline.holds == [FlightTimeline.Hold(startSeconds: 20, durationSeconds: 3, reason: "target-stale")])
        #expect(timeline.landingReason == "shutdown")
        #expect(timeline.finalState == "landed")
        #expect(timeline.batteryUsedPercent == 8)
        // And the start record's version and config are shown
        #expect(timeline.notes.contains("followme 9.8.7, config /etc/followme/followme.toml"))
        #expect(timeline.notes.contains("first fix 2023-11-14T22:15:01.250Z (receiver time) at 1.0 s"))
        #expect(timeline.configurationText == "[follow]\nstandoff_m = 10.0\n")
        #expect(timeline.standoffMeters == 10)
        #expect(timeline.minSeparationMeters == 3)
        #expect(timeline.states.map(\.state) == [
            "preflight", "taking-off", "climbing", "following", "holding(target-stale)", "following", "landing(shutdown)", "landed",
        ])
    }

    @Test("the series: distance per fix pair, fix-age peaks, speeds, PCMD (hover = 0), markers, plane tracks")
    func series() throws {
        let timeline = try FlightTimeline(flightLogText: Self.knownFlight, title: "known")

        // Then every fix after the first makes a distance sample
        #expect(timeline.distance.count == 31 + 34 - 1)
        // And the person's fix age peaks at 4 s when their receiver comes back at t = 23
        let targetPeak = try #require(timeline.targetFixAge.max { $0.value < $1.value })
        #expect(abs(targetPeak.value - 4) < 1e-9 && abs(targetPeak.t - 23) < 1e-9)
        #expect(timeline.onboardFixAge.allSatisfy { abs($0.value - 1) < 1e-9 || $0.t == 35 })
        // And the drone's track lies on the local plane in metres (12 m south of the person while following)
        let following = try #require(timeline.droneTrack.first { abs($0.t - 10.01) < 1e-9 })
        #expect(abs(following.plane.north - -12) < 0.01 && abs(following.plane.east) < 0.01)
        #expect(timeline.personSpeed.allSatisfy { $0.value == 1.4 })
        // And the PCMD is the command's fractions, then 0 while hovering
        #expect(timeline.pcmdRoll.map(\.value) == [0.1, 0])
        #expect(timeline.pcmdYaw.map(\.value) == [-0.4, 0])
        #expect(timeline.markers.map(\.label) == ["SIGTERM/SIGINT: shutdown"])
        #expect(timeline.altitude.count == 2 && timeline.battery.map(\.value) == [90, 82])
    }

    @Test("the timeline and `followme log report` agree on the demo-like log of FlightLogToolsTests")
    func agreesWithLogReport() throws {
        // Given another log (a person walking, a refused outlier, a malformed line)
        let text = Log.logText
        let report = FlightLogReport(text: text)
        let timeline = try FlightTimeline(flightLogText: text, title: "walk")
        // Then the scores are the report's
        #expect(timeline.scores.closestApproachMeters == report.minSeparationMeters)
        #expect(timeline.scores.rmsStandoffErrorMeters == report.rmsStandoffErrorMeters)
        #expect(timeline.distance.count == report.distances.count)
        #expect(timeline.notes.contains { $0.contains("1 malformed line(s) skipped") })
    }

    @Test("text with no flight-log record is refused, saying why", arguments: [
        ("hello\nworld\n", 2, 2), ("{\"a\":1}\n", 1, 0), ("", 0, 0),
    ])
    func notAFlightLog(text: String, lines: Int, malformed: Int) {
        #expect(throws: FlightTimelineError.notAFlightLog(lines: lines, malformedLines: malformed)) {
            try FlightTimeline(flightLogText: text, title: "x")
        }
    }
}
