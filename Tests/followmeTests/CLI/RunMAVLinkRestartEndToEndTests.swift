#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// Issue 35, end to end: `followme run` on the simulated Copter, with a state directory as the unit's
/// `StateDirectory=` gives it, SIGKILLed while following and started again 0.5 s later (what the
/// unit's `Restart=` does). Ground truth from the simulator's control channel.
@Suite(.serialized) struct RunMAVLinkRestartEndToEndTests {
    @Test("SIGKILL while following, started again 0.5 s later: the flight's frame was kept, the new run adopts it, neither lands nor sinks; SIGTERM lands it and the frame file goes",
          .timeLimit(.minutes(4)))
    func killedAndRestarted() async throws {
        let dir = try scratchDirectory(label: "mavlink-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let frameFile = state.appendingPathComponent("mavlink-flight.json").path
        let field = try await SimField.start(
            in: dir, name: "mavlink", control: true, simArguments: ["--protocol", "mavlink", "--mavlink-port", "0"])
        guard let control = field.control, let port = RunMAVLinkEndToEndTests.mavlinkPort(of: field) else {
            await field.stop()
            Issue.record("no control channel or mavlink port")
            return
        }
        let overrides: ConfigOverrides = [
            "drone": ["protocol": "\"mavlink\""],
            "mavlink": ["address": "\"127.0.0.1\"", "port": "\(port)", "autopilot": "\"ardupilot\"", "position_source": "\"autopilot\""],
        ]
        let environment = ["STATE_DIRECTORY": state.path]
        // Given a flight following, its frame kept in the state directory
        let first = try field.startRun(flightLog: dir.appendingPathComponent("first.jsonl"), ["--land-timeout", "40"],
                                       overrides: overrides, name: "first", environment: environment)
        defer { _ = first.stop(signal: SIGKILL) }
        let firstLog = FlightLogLines(url: dir.appendingPathComponent("first.jsonl"))
        let following = await eventually(seconds: 90) { firstLog.transitions().contains { $0.to == "following" } }
        try #require(following, "stderr:\n\(first.stderrText.text.suffix(2000))")
        try await Task.sleep(for: .seconds(3))
        let kept = try #require(FileManager.default.contents(atPath: frameFile), "no frame file in the state directory")
        let record = try #require(try JSONSerialization.jsonObject(with: kept) as? [String: Any])
        #expect(record["systemID"] as? Int == 1 && (record["homeMSLMeters"] as? Double)?.isFinite == true, "\(record)")
        let height = try control.status().altitudeMeters

        // When it is killed and started again 0.5 s later
        first.signal(SIGKILL)
        _ = await first.waitForExit(seconds: 5)
        try await Task.sleep(for: .milliseconds(500))
        let second = try field.startRun(flightLog: dir.appendingPathComponent("second.jsonl"), ["--land-timeout", "40"],
                                        overrides: overrides, name: "second", environment: environment)
        defer { _ = second.stop(signal: SIGKILL) }
        let secondLog = FlightLogLines(url: dir.appendingPathComponent("second.jsonl"))
        // Then it adopts the flight and follows on: no landing, the height kept, for 15 s
        var lowest = height
        var landing: String?
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            try await Task.sleep(for: .milliseconds(250))
            if let s = try? control.status() { lowest = min(lowest, s.altitudeMeters) }
            if let to = secondLog.transitions().map(\.to).first(where: { $0.hasPrefix("landing") }) { landing = to }
        }
        let states = secondLog.transitions().map(\.to)
        #expect(states.contains("following"), "\(states)\n\(second.stderrText.text.suffix(2000))")
        #expect(landing == nil, "the restarted run landed it: \(states)")
        #expect(lowest > height - 0.3, "sank from \(height) to \(lowest) m")
        let mavlink = try control.status().raw["mavlink"] as? [String: Any] ?? [:]
        #expect(mavlink["armed"] as? Bool == true && mavlink["mode"] as? String == "GUIDED", "\(mavlink)")

        // And SIGTERM lands it, exit 0, and the frame file is gone (the flight is over)
        second.signal(SIGTERM)
        #expect(await second.waitForExit(seconds: 60) == 0, "stderr:\n\(second.stderrText.text.suffix(2000))")
        #expect(!FileManager.default.fileExists(atPath: frameFile), "the frame file outlived the flight")
        await field.stop()
    }
}
