import Foundation
import Testing
import TestSupport

/// `followme run` under systemd: with `JOURNAL_STREAM` naming its stderr (as systemd sets it for a
/// service whose stderr is the journal), every log line starts with its syslog priority, so
/// `journalctl -p warning` finds holds and landings and `-p err` forced landings. Run here over the
/// simulator with stderr a pipe: the child is started through `sh`, which sets `JOURNAL_STREAM` to
/// that pipe's `device:inode` exactly as systemd does for the journal's socket (systemd.exec(5)).
@Suite(.serialized) struct RunJournalTests {
    /// `followme run …` through `sh`, `JOURNAL_STREAM` = the stderr the child will have (or `fixed`).
    static func startRun(field: SimField, dir: URL, overrides: ConfigOverrides, extra: [String],
                         journalStream fixed: String? = nil) throws -> ChildProcess {
        let config = dir.appendingPathComponent("followme.toml")
        try field.configText(overrides).write(to: config, atomically: true, encoding: .utf8)
        let stream = fixed.map { "'\($0)'" } ?? "$(stat -L -c %d:%i /proc/self/fd/2)"
        return try ChildProcess(name: "run", executable: "/bin/sh", arguments: [
            "-c", "JOURNAL_STREAM=\(stream) exec \"$0\" \"$@\"", FollowMeBinary.url.path,
            "run", "--config", config.path, "--flight-log", dir.appendingPathComponent("flight.jsonl").path,
        ] + extra)
    }

    /// The stderr line of the transition into `state`, if any (metadata is sorted: `… to=STATE [source] flight state`).
    static func transitionLine(_ lines: [String], to state: String) -> String? {
        lines.first { $0.hasSuffix("] flight state") && $0.contains(" to=\(state) [") }
    }

    @Test("a target-stale hold is <4> (warning), its forced landing <3> (error), every line carries a priority",
          .timeLimit(.minutes(3)))
    func holdAndForcedLandingPriorities() async throws {
        let dir = try scratchDirectory(label: "journal")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Given the simulated field and followme run with short failsafes, its stderr "the journal"
        let field = try await SimField.start(in: dir, control: true)
        let overrides: ConfigOverrides = ["failsafe": ["target_timeout_s": "1.0", "land_after_s": "3.0"]]
        let run: ChildProcess
        do {
            run = try Self.startRun(field: field, dir: dir, overrides: overrides, extra: ["--land-timeout", "40"])
        } catch {
            await field.stop()
            throw error
        }
        let log = dir.appendingPathComponent("flight.jsonl")
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        // When it follows and then the person's receiver goes silent
        let following = await eventually(seconds: 90) { logText().contains(#""to":"following""#) }
        #expect(following, "never reached following; stderr:\n\(run.stderrText.text.suffix(3000))")
        if following {
            _ = try field.control?.silence("person", true)
            // Then it holds, lands on the expired hold, and is down
            let landed = await eventually(seconds: 30) { logText().contains(#""to":"landed""#) }
            #expect(landed, "never landed; stderr:\n\(run.stderrText.text.suffix(3000))")
        }
        run.signal(SIGTERM)
        _ = await run.waitForExit(seconds: 60)
        await run.terminate()
        await field.stop()
        guard following else { return }

        let lines = run.stderrText.lines
        let hold = Self.transitionLine(lines, to: "holding(target-stale)")
        let landing = Self.transitionLine(lines, to: "landing(hold-expired:target-stale)")
        #expect(hold?.hasPrefix("<4>") == true, "\(hold ?? "no hold line")\n\(lines.joined(separator: "\n"))")
        #expect(landing?.hasPrefix("<3>") == true, "\(landing ?? "no landing line")")
        // And the ordinary lines keep their levels: notice for following, info for the service
        #expect(Self.transitionLine(lines, to: "following")?.hasPrefix("<5>") == true)
        #expect(lines.contains { $0.hasPrefix("<6>") && $0.contains("flight service started") }, "\(lines)")
        // And not one line without a priority (the journal would store it at the unit's default)
        let bare = lines.filter { !$0.isEmpty && $0.range(of: #"^<[0-7]>"#, options: .regularExpression) == nil }
        #expect(bare.isEmpty, "\(bare)")
    }

    @Test("a config that does not validate: every FILE:LINE problem and the refusal are <3> (error), exit 2")
    func badConfigIsError() async throws {
        let dir = try scratchDirectory(label: "journal")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Given a config with two bad keys, and stderr "the journal"
        let config = dir.appendingPathComponent("bad.toml")
        try "[follow]\nstandoff_m = \"far\"\n[log]\nmax_flights = -1\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try ChildProcess(name: "run", executable: "/bin/sh", arguments: [
            "-c", "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec \"$0\" \"$@\"", FollowMeBinary.url.path,
            "run", "--config", config.path,
        ])
        // When followme run starts, then it refuses with exit 2
        let status = await run.waitForExit(seconds: 30)
        await run.terminate()
        #expect(status == 2)
        // And each line is an error for the journal, the problems named FILE:LINE: KEY
        let lines = run.stderrText.lines.filter { !$0.isEmpty }
        #expect(lines.count >= 3, "\(lines)")
        #expect(lines.last?.hasPrefix("<3>followme: refusing to start: ") == true, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("<3>") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<3>\(config.path):2: follow.standoff_m: ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<3>\(config.path):4: log.max_flights: ") }, "\(lines)")
    }

    @Test("JOURNAL_STREAM naming another stream (inherited, stderr elsewhere) adds no prefix", .timeLimit(.minutes(2)))
    func foreignJournalStreamIgnored() async throws {
        let dir = try scratchDirectory(label: "journal")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Given a dry run whose JOURNAL_STREAM names some other device and inode
        let field = try await SimField.start(in: dir)
        let run: ChildProcess
        do {
            run = try Self.startRun(field: field, dir: dir, overrides: [:], extra: ["--no-takeoff"], journalStream: "1:1")
        } catch {
            await field.stop()
            throw error
        }
        // When it has started and is stopped
        let started = await eventually(seconds: 30) { run.stderrText.text.contains("flight service started") }
        run.signal(SIGTERM)
        _ = await run.waitForExit(seconds: 30)
        await run.terminate()
        await field.stop()

        // Then its lines are plain StreamLogHandler lines
        #expect(started, "\(run.stderrText.text)")
        let lines = run.stderrText.lines.filter { !$0.isEmpty }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.first?.isNumber == true }, "\(lines)")
    }
}
