import Foundation
import Testing
import TestSupport

/// The operator's commands end to end (issue 23 item 2): a real `followme run` flying the simulator
/// with a real gpsd, commanded from another process — `followme start|hold|resume|land` through the
/// status socket, and `followme watch`'s keys in a real terminal (tmux). Each command is in the
/// flight log with its source.
@Suite(.serialized) struct OperatorCommandEndToEndTests {
    static func command(_ words: [String], socket: String) throws -> ChildProcess.Completed {
        try ChildProcess.run(FollowMeBinary.url.path, words + ["--socket", socket], timeoutSeconds: 90)
    }

    /// The flight log's operator records: (command, source, outcome).
    static func operatorRecords(_ log: URL) -> [(String, String, String)] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["kind"] as? String == "operator",
                  let command = o["command"] as? String, let source = o["source"] as? String, let outcome = o["outcome"] as? String
            else { return nil }
            return (command, source, outcome)
        }
    }

    @Test("takeoff = start: waits on the ground for START; `followme start`, `hold`, `resume`, then `land --wait` from another shell lands it",
          .timeLimit(.minutes(5)))
    func commandLine() async throws {
        let (dir, socket, log) = try flightScratch(label: "operator-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Given a flight that takes off only on START, everything else ready
        let field = try await SimField.start(in: dir)
        let run: ChildProcess
        do {
            run = try field.startRun(flightLog: log, ["--status-socket", socket, "--land-timeout", "40"],
                                     overrides: ["follow": ["takeoff": "\"start\""]])
        } catch {
            await field.stop()
            throw error
        }
        defer { _ = run.stop(signal: SIGKILL) }
        let waiting = await eventually(seconds: 90) { watchedFlightState(socket: socket) == "preflight(waiting: start)" }
        #expect(waiting, "state \(watchedFlightState(socket: socket) ?? "?"); stderr:\n\(run.stderrText.text.suffix(2000))")
        // and stays down: no take-off for 3 s more
        try await Task.sleep(for: .seconds(3))
        #expect(watchedFlightState(socket: socket) == "preflight(waiting: start)")
        #expect(!run.stderrText.text.contains("taking-off"))

        // When `followme start` runs from another shell
        let start = try Self.command(["start"], socket: socket)
        // Then it is taken and the drone takes off and follows
        #expect(start.exitCode == 0 && start.stdout.hasPrefix("start: accepted; state "), "\(start.stdout) \(start.stderr)")
        let following = await eventually(seconds: 90) { watchedFlightState(socket: socket) == "following" }
        #expect(following, "state \(watchedFlightState(socket: socket) ?? "?")")
        // And a second START is refused now that it flies (exit 1, saying why)
        let again = try Self.command(["start"], socket: socket)
        #expect(again.exitCode == 1 && again.stderr.contains("refused:following"), "\(again.stderr)")

        // When `followme hold`, it holds for the operator; `followme resume` follows again
        let hold = try Self.command(["hold", "--json"], socket: socket)
        #expect(hold.exitCode == 0, "\(hold.stderr)")
        let reply = try JSONSerialization.jsonObject(with: Data(hold.stdout.utf8)) as? [String: Any]
        #expect(reply?["outcome"] as? String == "accepted" && reply?["state"] as? String == "holding(operator-hold)", "\(hold.stdout)")
        #expect(watchedFlightState(socket: socket) == "holding(operator-hold)")
        let resume = try Self.command(["resume"], socket: socket)
        #expect(resume.exitCode == 0, "\(resume.stderr)")
        #expect(await eventually(seconds: 30) { watchedFlightState(socket: socket) == "following" })

        // When `followme land --wait` runs from another shell
        let land = try Self.command(["land", "--wait", "--timeout", "60"], socket: socket)
        // Then it lands: accepted, and the flight reports landed (navdata says so) before it returns
        #expect(land.exitCode == 0, "\(land.stdout) \(land.stderr)")
        #expect(land.stdout.contains("land: accepted; state landing(operator)") && land.stdout.hasSuffix("landed\n"), "\(land.stdout)")
        #expect(watchedFlightState(socket: socket) == "landed")
        // And a LAND after that is refused (the flight is over), exit 1
        let late = try Self.command(["land"], socket: socket)
        #expect(late.exitCode == 1 && late.stderr.contains("refused:landed"), "\(late.stderr)")

        // And SIGTERM ends the run with exit 0; every command is in the flight log with its source
        run.signal(SIGTERM)
        #expect(await run.waitForExit(seconds: 30) == 0, "stderr:\n\(run.stderrText.text.suffix(2000))")
        let uid = getuid()
        let records = Self.operatorRecords(log)
        #expect(records.map(\.0) == ["start", "start", "hold", "resume", "land", "land"], "\(records)")
        #expect(records.allSatisfy { $0.1 == "cli uid=\(uid)" }, "\(records)")
        #expect(records.map(\.2) == ["accepted", "refused:following", "accepted", "accepted", "accepted", "refused:landed"])
        await field.stop()

        // And with no flight running, a command says what to check and exits 1
        let none = try Self.command(["land"], socket: socket)
        #expect(none.exitCode == 1 && none.stderr.contains("no flight to command at \(socket)"), "\(none.stderr)")
    }

    @Test("watch in tmux: H holds the flight, L lands it; the OPERATOR row shows each with its source",
          .timeLimit(.minutes(5)))
    func watchKeys() async throws {
        let (dir, socket, log) = try flightScratch(label: "operator-watch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tmux = try Tmux()
        // Given a flight following the simulated walker, and `followme watch` on it in a terminal
        let field = try await SimField.start(in: dir)
        let run: ChildProcess
        do {
            run = try field.startRun(flightLog: log, ["--status-socket", socket, "--land-timeout", "40"])
        } catch {
            await field.stop()
            throw error
        }
        defer { _ = run.stop(signal: SIGKILL) }
        try tmux.start(command: "\(FollowMeBinary.url.path) watch --socket \(socket); echo WATCH-EXITED $?; sleep 300")
        let following = await eventually(seconds: 120) { tmux.screen().contains("STATE     following") }
        #expect(following, "screen:\n\(tmux.screen())\nrun stderr:\n\(run.stderrText.text.suffix(2000))")
        #expect(tmux.screen().contains("L lands · H holds · R resumes"))

        // When H is pressed, the flight holds for the operator and the screen says who asked
        tmux.sendKeys("H")
        let held = await eventually(seconds: 10) {
            let s = tmux.screen()
            return s.contains("STATE     holding(operator-hold)") && s.contains("OPERATOR  HOLD accepted · from watch uid=\(getuid())")
        }
        #expect(held, "screen:\n\(tmux.screen())")

        // When L is pressed, it lands (landing(operator), then landed by navdata)
        tmux.sendKeys("L")
        let landed = await eventually(seconds: 60) { tmux.screen().contains("STATE     landed") }
        #expect(landed, "screen:\n\(tmux.screen())")
        #expect(tmux.screen().contains("OPERATOR  LAND accepted · from watch uid=\(getuid())"), "screen:\n\(tmux.screen())")
        print("followme watch after L (tmux):\n\(tmux.screen())")

        run.signal(SIGTERM)
        #expect(await run.waitForExit(seconds: 30) == 0, "stderr:\n\(run.stderrText.text.suffix(2000))")
        let records = Self.operatorRecords(log)
        #expect(records.map(\.0) == ["hold", "land"] && records.allSatisfy { $0.1 == "watch uid=\(getuid())" && $0.2 == "accepted" },
                "\(records)")
        tmux.sendKeys("q")
        await field.stop()
    }
}
