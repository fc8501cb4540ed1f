import Foundation
import Testing
import TestSupport

/// `followme watch` in a real terminal (tmux: send-keys / capture-pane) against a real
/// `followme run` flying the simulator with a real gpsd: started before the flight it waits, then
/// shows the flight following; `q` quits and gives the terminal back.
@Suite(.serialized) struct WatchCommandTests {
    @Test("watch in tmux: waits for the flight, shows it following (state, distance, both fixes), then gone (last seen landed); q quits and restores the terminal",
          .timeLimit(.minutes(4)))
    func watchAFlightInTmux() async throws {
        let (dir, socket, _) = try flightScratch(label: "watch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tmux = try Tmux()

        // Given `followme watch` started in a 100 × 30 terminal before any flight
        try tmux.start(command: "\(FollowMeBinary.url.path) watch --socket \(socket); echo WATCH-EXITED $?; sleep 300")
        let waiting = await eventually(seconds: 20) { tmux.screen().contains("WAITING") }
        // Then it shows a waiting screen naming the socket, and keeps running
        #expect(waiting, "screen:\n\(tmux.screen())")
        #expect(tmux.screen().contains(socket))
        #expect(tmux.screen().contains("connect: No such file or directory"), "screen:\n\(tmux.screen())")

        // When the simulator, gpsd and `followme run --status-socket` start
        let field = try await SimField.start(in: dir)
        let run: ChildProcess
        do {
            run = try field.startRun(flightLog: dir.appendingPathComponent("flight.jsonl"),
                                     ["--status-socket", socket, "--land-timeout", "40"])
        } catch {
            await field.stop()
            throw error
        }

        // And a watcher that connects and never reads (a real process: python3, a plain Unix socket)
        let stalled = try ChildProcess(name: "stalled-watcher", executable: "python3", arguments: ["-c", """
            import socket, time
            while True:
                try:
                    s = socket.socket(socket.AF_UNIX); s.connect("\(socket)"); break
                except OSError:
                    time.sleep(0.2)
            print("connected", flush=True)
            time.sleep(300)
            """])
        defer { _ = stalled.stop(signal: SIGKILL) }

        // Then the watch attaches by itself and shows the flight following: state, distance, both fixes
        let following = await eventually(seconds: 120) {
            let s = tmux.screen()
            return s.contains("STATE     following") && s.contains("target    3D") && s.contains("onboard   3D")
        }
        let screen = tmux.screen()
        #expect(following, "screen:\n\(screen)\nrun stderr:\n\(run.stderrText.text.suffix(2000))")
        #expect(screen.range(of: #"PERSON    distance  \d+\.\d m"#, options: .regularExpression) != nil, "screen:\n\(screen)")
        #expect(screen.contains("CHANGES") && screen.contains("altitude-reached"), "screen:\n\(screen)")
        #expect(screen.range(of: #"navdata   \d+\.\d Hz"#, options: .regularExpression) != nil, "screen:\n\(screen)")
        // And, airborne, the wind failsafe's estimate once the follower flies the drone (the simulator's air
        // is calm: a small figure)
        let windRow = await eventually(seconds: 15) {
            tmux.screen().range(of: #"WIND      \d+\.\d m/s → \d{3}° [NESW]+, \d+ % of tilt"#, options: .regularExpression) != nil
        }
        #expect(windRow, "screen:\n\(tmux.screen())")
        print("followme watch, following (tmux 100 × 30):\n\(screen)")

        // And `--json --count 3` prints three raw status lines a script can read
        let json = try ChildProcess.run(FollowMeBinary.url.path, ["watch", "--socket", socket, "--json", "--count", "3", "--timeout", "20"],
                                        timeoutSeconds: 30)
        #expect(json.exitCode == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["state"] as? String == "following", "\(line)")
            #expect(object?["person"] != nil && object?["target"] != nil && object?["onboard"] != nil, "\(line)")
        }

        // And the watcher that does not read is disconnected (its buffer full, 8 lines skipped), while the
        // flight keeps sending the drone its commands (the sim counts them: ≥ 25 AT commands/s, as
        // RunShellSafetyTests asks of a stalled stderr; 86 when measured)
        #expect(stalled.stdoutLines.lines.contains("connected"))
        let dropped = await eventually(seconds: 60) {
            run.stderrText.text.contains("status watcher disconnected: it stopped reading")
        }
        #expect(dropped, "stderr:\n\(run.stderrText.text.suffix(2000))")
        let rates = field.sim.stdoutLines.lines.suffix(5).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["commands_per_s"] as? Double
        }
        #expect(rates.count == 5 && rates.allSatisfy { $0 >= 25 }, "AT commands/s the sim received: \(rates)")

        // When the flight lands on SIGTERM (it never noticed the watchers: exit 0, its socket removed)
        run.signal(SIGTERM)
        let status = await run.waitForExit(seconds: 60)
        #expect(status == 0, "stderr:\n\(run.stderrText.text.suffix(3000))")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(run.stderrText.text.contains("status socket closed"))
        #expect(run.stderrText.text.contains("watchers-dropped=1"), "stderr:\n\(run.stderrText.text.suffix(1000))")
        // Then the watch says the flight went away, with the last state it saw (the landing confirmed),
        // and keeps waiting for it to come back
        let gone = await eventually(seconds: 10) {
            let s = tmux.screen()
            return s.contains("the flight went away") && s.contains("LAST SEEN landed ")
        }
        #expect(gone, "screen:\n\(tmux.screen())")
        print("followme watch, after the flight (tmux 100 × 30):\n\(tmux.screen())")

        // When q is pressed
        tmux.sendKeys("q")
        // Then watch exits 0 and the terminal is back: main screen, cursor shown, the shell's output visible
        let exited = await eventually(seconds: 10) { tmux.screen().contains("WATCH-EXITED 0") }
        #expect(exited, "screen:\n\(tmux.screen())")
        #expect(!tmux.screen().contains("FollowMe watch"))
        #expect(tmux.format("#{alternate_on}") == "0")
        #expect(tmux.format("#{cursor_flag}") == "1")
        await field.stop()
    }
}

/// `followme watch --config`: the socket comes from the config's `[status] socket`.
@Suite struct WatchConfigTests {
    static func config(socket: String) -> String {
        """
        [target]
        device = "/dev/gpstarget"
        [onboard]
        device = "/dev/gpsonboard"
        [status]
        socket = "\(socket)"
        """
    }

    @Test("--config with a [status] socket and no flight: waits on that socket saying what to check; --timeout with nothing seen: exit 1 naming the socket")
    func configSocket() throws {
        let dir = try scratchDirectory(label: "watchcfg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s.sock").path
        let config = try temporaryConfig(Self.config(socket: socket), directory: dir)
        let r = try ChildProcess.run(FollowMeBinary.url.path, ["watch", "--config", config.path, "--json", "--timeout", "1"],
                                     timeoutSeconds: 20)
        #expect(r.exitCode == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("waiting for the flight's status on \(socket) (connect: No such file or directory)"), "\(r.stderr)")
        // What to check: the flight itself and the service, named beside the symptom (issue 23 item 6)
        #expect(r.stderr.contains("is `followme run` running?") && r.stderr.contains("`systemctl status followme`"), "\(r.stderr)")
        #expect(r.stderr.contains("no flight status on \(socket) within 1 s (connect: No such file or directory)"), "\(r.stderr)")
    }

    @Test("--config without a [status] socket: exit 2, naming the file; --count not reached: exit 1")
    func noSocket() throws {
        let dir = try scratchDirectory(label: "watchcfg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try temporaryConfig(Self.config(socket: ""), directory: dir)
        let none = try ChildProcess.run(FollowMeBinary.url.path, ["watch", "--config", config.path], timeoutSeconds: 20)
        #expect(none.exitCode == 2)
        #expect(none.stderr.contains("\(config.path) has no [status] socket"), "\(none.stderr)")
        let short = try ChildProcess.run(FollowMeBinary.url.path, [
            "watch", "--socket", dir.appendingPathComponent("none.sock").path, "--json", "--count", "1", "--timeout", "1",
        ], timeoutSeconds: 20)
        #expect(short.exitCode == 1)
        #expect(short.stderr.contains("stopped after 0 of 1 status lines"), "\(short.stderr)")
    }
}

/// `followme watch` without a terminal, against a stand-in publisher (python3, a plain Unix socket)
/// that serves one status, goes away, and comes back with another.
@Suite struct WatchReconnectTests {
    static func publisher(socket: String) -> [String] {
        ["-c", """
        import os, socket, time
        for state in ["following", "holding(target-stale)"]:
            if os.path.exists("\(socket)"): os.unlink("\(socket)")
            server = socket.socket(socket.AF_UNIX); server.bind("\(socket)"); server.listen(1)
            conn, _ = server.accept()
            conn.sendall(('{"t":1,"flight_s":1,"state":"%s","dry_run":false,"transitions":[]}\\n' % state).encode())
            time.sleep(0.5); conn.close(); server.close(); os.unlink("\(socket)")
            time.sleep(1.5)
        """]
    }

    @Test("the flight goes away and comes back: watch says so, retries, and reads the new one (--json, then text)",
          arguments: [true, false])
    func reconnects(json: Bool) async throws {
        let dir = try scratchDirectory(label: "watchre")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s.sock").path
        // Given a watch started before any publisher
        let watch = try ChildProcess(name: "watch", executable: FollowMeBinary.url.path, arguments: [
            "watch", "--socket", socket, "--count", "2", "--timeout", "20",
        ] + (json ? ["--json"] : []))
        // When a publisher serves one status, goes away and comes back with another
        let publisher = try ChildProcess(name: "publisher", executable: "python3", arguments: Self.publisher(socket: socket))
        defer { _ = publisher.stop(signal: SIGKILL) }
        // Then watch prints both (raw lines, or the one-line summary without a terminal) and exits 0
        let status = await watch.waitForExit(seconds: 25)
        watch.stdoutLines.waitForEOF(seconds: 5)
        #expect(status == 0, "stderr: \(watch.stderrText.text)")
        let lines = watch.stdoutLines.lines
        if json {
            #expect(lines.count == 2 && lines[0].contains(#""state":"following""#) && lines[1].contains("holding(target-stale)"), "\(lines)")
        } else {
            #expect(lines == ["following | target - | onboard -", "holding(target-stale) | target - | onboard -"])
        }
        #expect(watch.stderrText.text.contains("the flight went away (its status socket closed); retrying"), "\(watch.stderrText.text)")
    }
}

/// A private tmux server (its own `-L` socket) with one detached 100 × 30 session, killed when the
/// test lets go of it.
final class Tmux {
    let server = "followme-watch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let session = "watch"
    let executable: String

    init() throws {
        executable = try #require(ChildProcess.locate("tmux"), "tmux is not installed (scripts/ensure-deps.sh --test installs it)")
    }

    func tmux(_ arguments: [String]) -> ChildProcess.Completed? {
        try? ChildProcess.run(executable, ["-L", server] + arguments, timeoutSeconds: 10)
    }

    func start(command: String) throws {
        let r = tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command])
        try #require(r?.exitCode == 0, "tmux new-session failed: \(r?.stderr ?? "?")")
    }

    /// The visible pane, as a person sees it.
    func screen() -> String { tmux(["capture-pane", "-p", "-t", session])?.stdout ?? "" }

    func sendKeys(_ keys: String) { _ = tmux(["send-keys", "-t", session, keys]) }

    /// A tmux format of the pane (`#{alternate_on}`, `#{cursor_flag}`).
    func format(_ f: String) -> String {
        (tmux(["display-message", "-p", "-t", session, f])?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ends this test's tmux server only (and the shell and watch in its pane).
    func killServer() { _ = tmux(["kill-server"]) }

    /// The server ends with its last use in the test, on every path out of it.
    deinit { killServer() }
}
