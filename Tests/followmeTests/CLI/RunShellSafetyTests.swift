import Foundation
import Testing
import TestSupport

/// `followme run` end to end (sim + real gpsd) for two shell faults: a stderr nobody reads, and a
/// dry run started while the drone is already airborne.
@Suite(.serialized) struct RunShellSafetyTests {
    /// `F_SETPIPE_SZ` from <linux/fcntl.h> (F_LINUX_SPECIFIC_BASE 1024 + 7); not in Swift's Glibc module.
    static let setPipeSize: Int32 = 1031

    /// A scratch directory and the simulated field (optionally behind the AT relay) in it, for the
    /// length of `body`, which stops the field; then the directory is removed.
    private static func withField(relayAT: Bool = false, _ body: (URL, FlightField) async throws -> Void) async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await body(dir, try await FlightField.start(in: dir, relayAT: relayAT))
    }

    @Test("a stderr pipe nobody reads: PCMD still ≥ 25 Hz at the sim, log lines held back (not the commands), SIGTERM lands, exit 0",
          .timeLimit(.minutes(4)))
    func stalledStderrKeepsCommandsFlowing() async throws {
        // Given the simulated field and followme run logging every command (trace) into a 4 KiB
        // stderr pipe that nobody reads (full within a second)
        try await Self.withField { dir, field in
            let log = dir.appendingPathComponent("flight.jsonl")
            let config = try temporaryConfig(field.configText(), directory: dir)
            let stalled = Pipe()
            let process = Process()
            process.executableURL = FollowMeBinary.url
            process.arguments = ["run", "--config", config.path, "--flight-log", log.path, "--land-timeout", "40",
                                 "--log-level", "trace"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stalled
            _ = fcntl(stalled.fileHandleForWriting.fileDescriptor, Self.setPipeSize, 4096)
            do {
                try process.run()
            } catch {
                await field.stop()
                throw error
            }
            func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
            func stopAll() async {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                await field.stop()
            }

            // When it has taken off and follows the walking person
            let following = await eventually(seconds: 90) { logText().contains(#""to":"following""#) }
            #expect(following, "never reached following; flight log tail:\n\(logText().suffix(2000))")
            guard following else { return await stopAll() }

            // Then over 5 s of following, the simulator receives at least 25 AT datagrams (one PCMD each) a second
            let first = try field.status()
            try await Task.sleep(for: .seconds(5))
            let second = try field.status()
            let datagrams = (second["at_datagrams"] as? Int ?? 0) - (first["at_datagrams"] as? Int ?? 0)
            let seconds = (second["t"] as? Double ?? 0) - (first["t"] as? Double ?? 1)
            let rateHz = Double(datagrams) / seconds
            print("MEASURED stalled-stderr PCMD rate at the sim: \(rateHz) Hz over \(seconds) s; max command gap since start \(second["max_command_gap_s"] ?? "?") s")
            #expect(rateHz >= 25, "PCMD rate \(rateHz) Hz")
            #expect(second["state"] as? String == "flying")

            // and the log lines were held back by the stalled pipe (waiting in the writer's queue, or
            // dropped and counted once it is full), as the flight log's statistics show
            let statistics = logText().split(separator: "\n").compactMap { line -> [String: Any]? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["log_lines_waiting"] != nil else { return nil }
                return object
            }
            let waiting = statistics.last?["log_lines_waiting"] as? Int ?? 0
            let dropped = statistics.last?["log_lines_dropped"] as? Int ?? 0
            print("MEASURED stalled-stderr log lines waiting \(waiting), dropped \(dropped) (last statistics record)")
            #expect(waiting + dropped > 100)

            // When SIGTERM arrives, it lands, navdata confirms, and it exits 0 (stderr still unread)
            kill(process.processIdentifier, SIGTERM)
            let exited = await eventually(seconds: 60) { !process.isRunning }
            #expect(exited)
            if exited { #expect(process.terminationStatus == 0) }
            let text = logText()
            #expect(text.contains(#""to":"landing(shutdown)""#))
            #expect(text.contains(#""to":"landed""#))
            #expect(text.contains(#""kind":"log","event":"final""#))
            #expect(try field.status()["state"] as? String == "landed")
            await stopAll()
        }
    }

    @Test("--no-takeoff with a drone already flying: no progressive PCMD, REF unchanged, the drone stays put",
          .timeLimit(.minutes(4)))
    func dryRunNeverFliesAnAirborneDrone() async throws {
        // Given the simulated field with every AT datagram going through a recording relay, and a
        // first followme run that took off and follows the walking person
        try await Self.withField(relayAT: true) { dir, field in
            let relay = try #require(field.relay)
            let firstLog = dir.appendingPathComponent("flight-1.jsonl")
            let first = try field.startRun(flightLog: firstLog)
            func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
            let following = await eventually(seconds: 90) { text(firstLog).contains(#""to":"following""#) }
            #expect(following, "stderr:\n\(first.stderrText.text.suffix(2000))")
            guard following else {
                await first.terminate()
                return await field.stop()
            }
            // and it was killed (SIGKILL) while flying
            first.signal(SIGKILL)
            _ = await first.waitForExit(seconds: 10)

            // When a dry run starts against the still-flying drone and runs for 6 s
            let dryLog = dir.appendingPathComponent("flight-dry.jsonl")
            let dryStart = Date()
            let dry = try field.startRun(flightLog: dryLog, ["--no-takeoff"], name: "dry-run")
            let adopted = await eventually(seconds: 20) { text(dryLog).contains(#""was_flying":true"#) }
            #expect(adopted, "stderr:\n\(dry.stderrText.text.suffix(2000))")
            // (the first run's last command may still be braking the drone: measure from 1.5 s on)
            try await Task.sleep(for: .milliseconds(1500))
            let before = try field.status()
            try await Task.sleep(for: .seconds(6))
            let after = try field.status()

            // Then every PCMD it sent had the progressive flag clear (hover), and every REF kept bit 9
            // set as the drone was (REF never changed)
            let sent = relay.recorded
            let pcmds = sent.pcmdFlags.filter { $0.at > dryStart }
            let refs = sent.refs.filter { $0.at > dryStart }
            #expect(pcmds.count > 100, "only \(pcmds.count) PCMDs from the dry run")
            #expect(pcmds.allSatisfy { $0.flag & 1 == 0 }, "\(pcmds.filter { $0.flag & 1 != 0 }.count) progressive PCMDs")
            #expect(Set(refs.map(\.value)) == [0x1154_0200], "REF values \(Set(refs.map(\.value)))")
            // and the drone kept flying where it was while the person walked on
            #expect(after["state"] as? String == "flying")
            let east = (after["east"] as? Double ?? 0) - (before["east"] as? Double ?? 0)
            let north = (after["north"] as? Double ?? 0) - (before["north"] as? Double ?? 0)
            let moved = (east * east + north * north).squareRoot()
            print("MEASURED dry run over an airborne drone: moved \(moved) m in 6 s; \(pcmds.count) PCMDs, progressive \(pcmds.filter { $0.flag & 1 != 0 }.count)")
            #expect(moved < 1.0, "the drone moved \(moved) m during the dry run")
            // and the dry run logged what it would have sent
            #expect(dry.stderrText.text.contains("dry run: would send"))

            // When SIGTERM arrives it ends without landing the drone: exit 1, the drone still flying
            dry.signal(SIGTERM)
            let status = await dry.waitForExit(seconds: 10)
            #expect(status == 1, "exit \(String(describing: status))")
            #expect(try field.status()["state"] as? String == "flying")
            await dry.terminate()
            await field.stop()
        }
    }

    @Test("the drone falls back to bootstrap navdata mid-flight (reboot, config forgotten): followme configures it again and flies on",
          .timeLimit(.minutes(4)))
    func bootstrapFallbackMidFlight() async throws {
        // Given followme following the walking person
        try await Self.withField { dir, field in
            let log = dir.appendingPathComponent("flight.jsonl")
            let run = try field.startRun(flightLog: log, ["--land-timeout", "40"])
            func records() -> [[String: Any]] {
                ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
            }
            func events(_ name: String) -> [[String: Any]] { records().filter { $0["event"] as? String == name } }
            let following = await eventually(seconds: 90) {
                records().contains { $0["kind"] as? String == "transition" && $0["to"] as? String == "following" }
            }
            #expect(following, "stderr:\n\(run.stderrText.text.suffix(2000))")
            guard following else {
                await run.terminate()
                return await field.stop()
            }
            // and its configuration was complete before it took off
            let firstComplete = try #require(events("config-complete").first)
            #expect(firstComplete["failed"] as? String == "")
            let takeOff = try #require(records().first { $0["to"] as? String == "taking-off" })
            #expect((firstComplete["t"] as? Double ?? .infinity) < (takeOff["t"] as? Double ?? 0))

            // When the drone falls back to bootstrap navdata and forgets every config key
            let reply = try field.control.exchange(["command": "navdata-bootstrap", "forget": "all", "restart_sequence": true])
            #expect(reply["ok"] as? Bool == true, "\(reply)")

            // Then followme reports the fallback, writes navdata_demo and every limit again, all acknowledged
            let reconfigured = await eventually(seconds: 15) {
                events("bootstrap-fallback").count == 1 && events("config-complete").count == 2
            }
            #expect(reconfigured, "link events: \(records().filter { $0["kind"] as? String == "link" && $0["event"] as? String != "statistics" }.suffix(12))")
            #expect(events("config-complete").last?["failed"] as? String == "")
            if let fallback = events("bootstrap-fallback").first?["t"] as? Double,
               let complete = events("config-complete").last?["t"] as? Double {
                print("MEASURED bootstrap fallback mid-flight: reconfigured \(complete - fallback) s after followme saw it")
            }
            // and the drone is back in demo mode and still flying (never landed)
            try await Task.sleep(for: .seconds(3))
            let status = try field.status()
            #expect(status["navdata_mode"] as? String == "demo")
            #expect(status["state"] as? String == "flying")
            #expect(!records().contains { ($0["to"] as? String)?.hasPrefix("landing") == true })

            // When SIGTERM arrives it lands and exits 0
            run.signal(SIGTERM)
            let exit = await run.waitForExit(seconds: 60)
            #expect(exit == 0)
            await run.terminate()
            await field.stop()
        }
    }
}
