#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `followme run` with `[mavlink] autopilot = "px4"` flying `followme sim --protocol mavlink --autopilot px4`
/// (the simulated PX4 of docs/mavlink.md §8.6) over real loopback UDP, a real gpsd for the person: the
/// PX4 sequence of docs/mavlink.md §7.3 end to end.
@Suite(.serialized) struct RunMAVLinkPX4EndToEndTests {
    @Test("PX4: AUTO.TAKEOFF, AUTO.LOITER, then OFFBOARD and following; SIGTERM lands it in AUTO.LAND, exit 0",
          .timeLimit(.minutes(4)))
    func takesOffFollowsAndLands() async throws {
        let dir = try scratchDirectory(label: "mavlink-px4")
        defer { try? FileManager.default.removeItem(at: dir) }
        let field = try await SimField.start(
            in: dir, name: "px4", control: true,
            simArguments: ["--protocol", "mavlink", "--mavlink-port", "0", "--autopilot", "px4"])
        guard let control = field.control, let port = RunMAVLinkEndToEndTests.mavlinkPort(of: field) else {
            await field.stop()
            Issue.record("no control channel or mavlink port")
            return
        }
        let run = try field.startRun(flightLog: dir.appendingPathComponent("flight.jsonl"), ["--land-timeout", "40"], overrides: [
            "drone": ["protocol": "\"mavlink\""],
            "mavlink": ["address": "\"127.0.0.1\"", "port": "\(port)", "autopilot": "\"px4\"", "position_source": "\"autopilot\""],
        ])
        defer { _ = run.stop(signal: SIGKILL) }
        let log = FlightLogLines(url: dir.appendingPathComponent("flight.jsonl"))
        func copter() -> [String: Any] { (try? control.status().raw["mavlink"] as? [String: Any]) ?? [:] }

        // Given the PX4 in Hold on the ground: FollowMe arms it, PX4 flies its take-off, then OFFBOARD
        var modes: [String] = []
        let following = await eventually(seconds: 90) {
            if let mode = copter()["mode"] as? String, modes.last != mode { modes.append(mode) }
            return !run.isRunning || (log.transitions().contains { $0.to == "following" } && copter()["mode"] as? String == "OFFBOARD")
        } && run.isRunning
        #expect(following, "\(log.transitions().map(\.to)) modes \(modes)\n\(run.stderrText.text.suffix(2000))")
        #expect(RunMAVLinkEndToEndTests.inOrder(["AUTO.TAKEOFF", "AUTO.LOITER", "OFFBOARD"], in: modes), "\(modes)")
        let flying = copter()
        #expect(flying["armed"] as? Bool == true && flying["landed_state"] as? String == "in-air", "\(flying)")

        // When SIGTERM arrives: AUTO.LAND, down, disarmed, exit 0
        run.signal(SIGTERM)
        let status = await run.waitForExit(seconds: 60)
        #expect(status == 0, "exit \(String(describing: status))\n\(run.stderrText.text.suffix(2000))")
        let landed = copter()
        #expect(landed["mode"] as? String == "AUTO.LAND" && landed["landed_state"] as? String == "on-ground", "\(landed)")
        #expect(log.transitions().map(\.to).last == "landed", "\(log.transitions().map(\.to))")
        await field.stop()
    }
}
