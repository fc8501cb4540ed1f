import ARDrone
@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
import Testing

/// The status snapshot's `*_latency_ms`, `*_latency_source` and `*_latency_reason`: the age each
/// receiver's latest fix was dated by.
@Suite("Status: each receiver's fix age")
struct FixAgeStatusTests {
    static func fix(_ role: ReceiverRole, at t: Double, age: FixAge?) -> GPSEvent {
        var fix = GPSFix(role: role, device: "/dev/gps\(role)", mode: .threeD, latitudeDegrees: 47.5,
                         longitudeDegrees: role == .target ? 8.25 : 8.2501, fixTime: nil, receivedAt: MonotonicTime(seconds: t))!
        fix.age = age
        return .fix(fix)
    }

    @Test("before a fix: no latency; a measured fix: its age and source; a fix without one: the configured latency")
    func latencyFields() throws {
        // Given a machine configured for 0.3 s (person) and 0.2 s (drone), and no fix yet
        var follow = FollowParameters()
        follow.assumedOnboardGPSLatencySeconds = 0.2
        let machine = try FlightStateMachine(follow: follow, failsafe: FailsafeParameters(), vehicle: .tiltLoop)
        var tracker = FlightStatusTracker()
        func status() -> FlightStatus {
            tracker.status(machine: machine, decision: nil, dryRun: false, startedAt: .zero, now: MonotonicTime(seconds: 5))
        }
        #expect(status().targetLatencyMilliseconds == nil && status().onboardLatencySource == nil)

        // When the person's fix arrives aged 151.23 ms from TOFF, and the drone's with no age of its own
        tracker.note(Self.fix(.target, at: 4, age: FixAge(seconds: 0.15123, source: .clock(.toff))))
        tracker.note(Self.fix(.onboard, at: 4, age: nil))
        let s = status()
        // Then the target's is measured (to 0.1 ms), the onboard's the configured value, not measured
        #expect(s.targetLatencyMilliseconds == 151.2 && s.targetLatencySource == "clock" && s.targetLatencyReason == "gpsd TOFF")
        #expect(s.onboardLatencyMilliseconds == 200 && s.onboardLatencySource == "config" && s.onboardLatencyReason == "not measured")

        // And the JSON names them as documented, and a watcher decodes them back
        let line = s.jsonLine()
        #expect(line.contains(#""target_latency_ms":151.2,"target_latency_reason":"gpsd TOFF","target_latency_source":"clock""#), "\(line)")
        #expect(line.contains(#""onboard_latency_ms":200"#) && line.contains(#""onboard_latency_source":"config""#), "\(line)")
        #expect(FlightStatus.decode(jsonLine: line) == s)

        // And the watch screen ends each receiver row with it
        let rows = FlightStatusScreen.lines(.live(s, socketPath: "/run/f.sock", receivedSecondsAgo: 0.1), columns: 140, rows: 30)
        #expect(rows.contains { $0.hasPrefix("target") && $0.hasSuffix("latency 151 ms (clock)") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("onboard") && $0.hasSuffix("latency 200 ms (config)") }, "\(rows)")
    }
}
