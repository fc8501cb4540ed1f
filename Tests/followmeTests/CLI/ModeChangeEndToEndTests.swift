import Foundation
import Testing
import TestSupport

/// The follow mode changed in flight end to end (issue 26 item 5): a real `followme run` flying the
/// simulator with a real gpsd, `followme mode` from another process through the status socket, and
/// the cockpit's `POST /command` on loopback. Each change is taken, shown in the status (`follow`),
/// and in the flight log with its source, mode and angle; a bad one never reaches the flight; once
/// landed a change is refused.
@Suite(.serialized) struct ModeChangeEndToEndTests {
    /// The latest status line from the socket, as JSON.
    static func status(socket: String) -> [String: Any]? {
        guard let r = try? ChildProcess.run(FollowMeBinary.url.path, ["watch", "--socket", socket, "--json", "--count", "1", "--timeout", "5"],
                                            timeoutSeconds: 10),
              r.exitCode == 0, let line = r.stdout.split(separator: "\n").first else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// The flight log's operator records with command "mode".
    static func modeRecords(_ log: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["kind"] as? String == "operator", o["command"] as? String == "mode" else { return nil }
            return o
        }
    }

    /// `POST /command` with `body` to the cockpit: (HTTP status, body).
    static func post(_ body: String, port: Int) throws -> (status: Int, body: String) {
        let curl = try #require(ChildProcess.locate("curl"), "curl is not installed")
        let r = try ChildProcess.run(curl, ["-s", "-w", "\n%{http_code}", "-H", "Content-Type: application/json",
                                            "--data-binary", body, "http://127.0.0.1:\(port)/command"], timeoutSeconds: 10)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test("followme mode and the cockpit change the mode in flight; shown in status, logged with source; refused once landed",
          .timeLimit(.minutes(5)))
    func changesInFlight() async throws {
        let (dir, socket, log) = try flightScratch(label: "mode-change")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Given a flight following the simulated walker in the leash, its cockpit on loopback
        let field = try await SimField.start(in: dir)
        var started: (run: ChildProcess, port: Int, code: String)?
        // (a free port can be taken by a test running beside this one before followme binds it: try another)
        for _ in 0..<3 where started == nil {
            let port = LoopbackPorts.freeTCPPort()
            let run: ChildProcess
            do {
                run = try field.startRun(flightLog: log, ["--status-socket", socket, "--land-timeout", "40"],
                                         overrides: ["web": ["listen": "\"127.0.0.1:\(port)\""]])
            } catch {
                await field.stop()
                throw error
            }
            _ = await eventually(seconds: 30) { run.stderrText.text.contains("pairing code ") || run.stderrText.text.contains("cannot listen") }
            if let code = CockpitFlightBrowserTests.pairingCode(in: run.stderrText.text) {
                started = (run, port, code)
            } else {
                _ = run.stop(signal: SIGKILL)
            }
        }
        guard let (run, port, code) = started else {
            await field.stop()
            Issue.record("no cockpit after 3 ports")
            return
        }
        defer { _ = run.stop(signal: SIGKILL) }
        let following = await eventually(seconds: 120) { Self.status(socket: socket)?["state"] as? String == "following" }
        try #require(following, "stderr:\n\(run.stderrText.text.suffix(2000))")
        #expect((Self.status(socket: socket)?["follow"] as? [String: Any])?["mode"] as? String == "leash")

        // When `followme mode angle --angle-deg 90` runs from another shell
        let angle = try ChildProcess.run(FollowMeBinary.url.path, ["mode", "angle", "--angle-deg", "90", "--socket", socket],
                                         timeoutSeconds: 30)
        // Then it is taken (exit 0) and the status shows it
        #expect(angle.exitCode == 0 && angle.stdout.hasPrefix("mode: accepted; state following"), "\(angle.stdout) \(angle.stderr)")
        let follow = Self.status(socket: socket)?["follow"] as? [String: Any]
        #expect(follow?["mode"] as? String == "angle" && follow?["angle_deg"] as? Double == 90, "\(String(describing: follow))")
        // And an angle outside the key's range is bad usage (exit 2), never sent
        let bad = try ChildProcess.run(FollowMeBinary.url.path, ["mode", "angle", "--angle-deg", "200", "--socket", socket],
                                       timeoutSeconds: 30)
        #expect(bad.exitCode == 2 && bad.stderr.contains("angle_deg 200.0 is outside -180…180"), "\(bad.stderr)")

        // When the cockpit asks for an orbit counter-clockwise, with the pairing code
        let orbit = try Self.post(#"{"command":"mode","mode":"orbit","orbit_direction":"counterclockwise","code":"\#(code)"}"#, port: port)
        // Then it is taken, and a bad mode is a 400 and a wrong code a 401, neither reaching the flight
        #expect(orbit.status == 200 && orbit.body.contains(#""command":"mode""#) && orbit.body.contains(#""outcome":"accepted""#), "\(orbit)")
        #expect((Self.status(socket: socket)?["follow"] as? [String: Any])?["orbit_direction"] as? String == "counterclockwise")
        let unknown = try Self.post(#"{"command":"mode","mode":"circle","code":"\#(code)"}"#, port: port)
        #expect(unknown.status == 400 && unknown.body.contains("unknown mode"), "\(unknown)")
        let wrong = try Self.post(#"{"command":"mode","mode":"leash","code":"x\#(code)"}"#, port: port)
        #expect(wrong.status == 401, "\(wrong)")

        // When it has landed, a change is refused (exit 1, saying why)
        let land = try ChildProcess.run(FollowMeBinary.url.path, ["land", "--wait", "--timeout", "60", "--socket", socket], timeoutSeconds: 90)
        #expect(land.exitCode == 0, "\(land.stdout) \(land.stderr)")
        let late = try ChildProcess.run(FollowMeBinary.url.path, ["mode", "leash", "--socket", socket, "--json"], timeoutSeconds: 30)
        #expect(late.exitCode == 1 && late.stdout.contains(#""outcome":"refused:landed""#), "\(late.stdout) \(late.stderr)")

        // And SIGTERM ends it; every change is in the flight log with its source, mode and angle
        run.signal(SIGTERM)
        #expect(await run.waitForExit(seconds: 30) == 0, "stderr:\n\(run.stderrText.text.suffix(2000))")
        let records = Self.modeRecords(log)
        #expect(records.map { $0["mode"] as? String } == ["angle", "orbit", "leash"], "\(records)")
        #expect(records.map { $0["outcome"] as? String } == ["accepted", "accepted", "refused:landed"])
        #expect(records.first?["angle_deg"] as? Double == 90 && records.first?["source"] as? String == "cli uid=\(getuid())")
        #expect(records.dropFirst().first?["source"] as? String == "web 127.0.0.1", "\(records)")
        #expect(records.dropFirst().first?["orbit_direction"] as? String == "counterclockwise")
        await field.stop()
    }

    @Test("followme mode: bad usage is exit 2 before anything is sent; no flight is exit 1 with what to check", arguments: [
        (["mode", "circle"], 2, "unknown mode \"circle\""),
        (["mode", "orbit", "--direction", "up"], 2, "unknown direction \"up\""),
        (["mode", "angle", "--angle-deg", "nan"], 2, "angle_deg must be a number"),
        (["mode", "leash", "--socket", "/nonexistent/followme.sock"], 1, "no flight to command at /nonexistent/followme.sock"),
    ])
    func usage(_ c: (arguments: [String], exitCode: Int32, words: String)) throws {
        let r = try ChildProcess.run(FollowMeBinary.url.path, c.arguments, timeoutSeconds: 30)
        #expect(r.exitCode == c.exitCode && r.stderr.contains(c.words), "exit \(r.exitCode): \(r.stderr)")
    }
}
