#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// Issue 34's attack, end to end: a real `followme run` following the simulated walker, its cockpit
/// on loopback with a 4-digit `[web] code_file` (which the per-address limit of before gave up in
/// under a second), guessed from 300 source addresses (127.0.x.y) by 8 threads for 10 s
/// (Support/guess_pairing.py), while the paired phone watches and lands.
@Suite(.serialized) struct CockpitGuessingEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/guess_pairing.py").path

    /// `curl` to the cockpit: status, body, seconds taken.
    static func curl(_ arguments: [String], port: Int, path: String) throws -> (status: Int, body: String, seconds: Double) {
        let curl = try #require(ChildProcess.locate("curl"), "curl is not installed")
        let r = try ChildProcess.run(curl, ["-s", "-w", "\n%{http_code} %{time_total}"] + arguments + ["http://127.0.0.1:\(port)\(path)"],
                                     timeoutSeconds: 10)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let last = (lines.last ?? "").split(separator: " ")
        return (Int(last.first ?? "") ?? 0, lines.dropLast().joined(separator: "\n"), Double(last.last ?? "") ?? .nan)
    }

    @Test("guessing a 4-digit code from 300 addresses for 10 s: nothing found or accepted, every attempt in the journal, the paired phone warned, and its LAND lands at once",
          .timeLimit(.minutes(4)))
    func guessing() async throws {
        let python = try #require(ChildProcess.locate("python3"), "python3 is not installed")
        let (dir, socket, log) = try flightScratch(label: "cockpit-guess")
        defer { try? FileManager.default.removeItem(at: dir) }
        let codeFile = dir.appendingPathComponent("cockpit-code").path
        try "7294\n".write(toFile: codeFile, atomically: false, encoding: .utf8)
        #expect(chmod(codeFile, 0o600) == 0)

        // Given a flight following the walker, its cockpit on loopback with a 4-digit code file
        let field = try await SimField.start(in: dir)
        let port = LoopbackPorts.freeTCPPort()
        let run: ChildProcess
        do {
            run = try field.startRun(flightLog: log, ["--status-socket", socket, "--land-timeout", "40"],
                                     overrides: ["web": ["listen": "\"127.0.0.1:\(port)\"", "code_file": "\"\(codeFile)\""]])
        } catch {
            await field.stop()
            throw error
        }
        defer { _ = run.stop(signal: SIGKILL) }
        let following = await eventually(seconds: 120) { ModeChangeEndToEndTests.status(socket: socket)?["state"] as? String == "following" }
        try #require(following, "stderr:\n\(run.stderrText.text.suffix(2000))")

        // And the person's phone paired, watching its stream
        let paired = try Self.curl(["-H", "Content-Type: application/json", "--data-binary", #"{"secret":"7294"}"#], port: port, path: "/pair")
        let token = try #require((try? JSONSerialization.jsonObject(with: Data(paired.body.utf8)) as? [String: Any])?["token"] as? String,
                                 "\(paired)")
        let events = dir.appendingPathComponent("events.txt").path
        let curlPath = try #require(ChildProcess.locate("curl"))
        let stream = try ChildProcess(name: "events", executable: "/bin/sh", arguments: [
            "-c", "exec \(curlPath) -s -N -H 'Cookie: followme_token=\(token)' http://127.0.0.1:\(port)/events > \(events)",
        ])
        defer { _ = stream.stop(signal: SIGKILL) }

        // When an attacker guesses for 10 s from 300 addresses
        let attack = try ChildProcess(name: "guess", executable: python, arguments: [Self.script, "\(port)", "10", "4"])
        defer { _ = attack.stop(signal: SIGKILL) }
        // And, 4 s into it, the paired phone presses LAND
        try await Task.sleep(for: .seconds(4))
        let land = try Self.curl(["-H", "Content-Type: application/json", "-H", "X-FollowMe-Token: \(token)",
                                  "--data-binary", #"{"command":"land"}"#], port: port, path: "/command")
        let landingSeen = Date()
        let landing = await eventually(seconds: 2) {
            (ModeChangeEndToEndTests.status(socket: socket)?["state"] as? String)?.hasPrefix("landing") == true
        }
        let statusSeconds = Date().timeIntervalSince(landingSeen)
        print("cockpit guessing: the paired LAND answered in \(land.seconds) s: \(land.body)")
        #expect(land.status == 200 && land.body.contains(#""state":"landing(operator)""#), "\(land)")
        #expect(land.seconds < 0.5, "LAND took \(land.seconds) s under the attack")
        #expect(landing, "the status never said landing (\(statusSeconds) s)")

        let finished = await eventually(seconds: 30) { attack.poll() != nil }
        try #require(finished, "the guessing did not end")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(attack.stdoutLines.text.utf8)) as? [String: Any],
                                   "guesser: \(attack.stdoutLines.text) \(attack.stderrText.text)")
        print("cockpit guessing: \(attack.stdoutLines.text)")
        // Then nothing was found, nothing the guesser sent was accepted, and it did try hard
        #expect((summary["accepted"] as? [Any])?.isEmpty == true, "\(summary)")
        #expect((summary["requests"] as? Int ?? 0) > 500 && (summary["sources"] as? Int ?? 0) >= 250, "\(summary)")
        let statuses = summary["statuses"] as? [String: Int] ?? [:]
        #expect((statuses["401"] ?? 0) + (statuses["429"] ?? 0) == summary["requests"] as? Int, "\(statuses)")
        // And no operator command but the paired phone's LAND reached the flight
        let records = OperatorCommandEndToEndTests.operatorRecords(log)
        #expect(records.map(\.0) == ["land"] && records.first?.1 == "web 127.0.0.1", "\(records)")
        // And the journal has each wrong code with its address, and the lockout
        let stderr = run.stderrText.text
        #expect(stderr.contains("cockpit: pairing refused, wrong pairing code") && stderr.contains("client=127.0."), "\(stderr.suffix(1500))")
        #expect(stderr.contains("cockpit: pairing locked out"), "\(stderr.suffix(1500))")
        #expect(stderr.contains("cockpit: pairing attempts refused during the lockout"), "\(stderr.suffix(1500))")
        // And the paired phone's stream carried the warning
        let streamed = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(streamed.contains("event: security") && streamed.contains("someone is trying pairing codes from 127.0."),
                "\(streamed.suffix(600))")

        // And a new secret is refused while it lands; once landed it is made, and the paired phone must pair again
        let config = dir.appendingPathComponent("followme.toml").path
        if (ModeChangeEndToEndTests.status(socket: socket)?["state"] as? String)?.hasPrefix("landing") == true {
            let refused = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--config", config, "--new"], timeoutSeconds: 30)
            #expect(refused.exitCode == 1 && refused.stderr.contains("Land first"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: codeFile, encoding: .utf8) == "7294\n")
        }
        let landed = await eventually(seconds: 60) { ModeChangeEndToEndTests.status(socket: socket)?["state"] as? String == "landed" }
        #expect(landed)
        let rotated = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--config", config, "--new"], timeoutSeconds: 30)
        #expect(rotated.exitCode == 0, "\(rotated.stderr)")
        let unpaired = await eventually(seconds: 5) {
            (try? Self.curl(["-H", "X-FollowMe-Token: \(token)"], port: port, path: "/session").body.contains(#""paired":false"#)) == true
        }
        #expect(unpaired, "the old token still works after followme pair --new")

        run.signal(SIGTERM)
        #expect(await run.waitForExit(seconds: 60) == 0, "stderr:\n\(run.stderrText.text.suffix(2000))")
        await field.stop()
    }
}
