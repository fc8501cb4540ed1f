import Foundation
import Testing
import TestSupport

/// On a terminal `followme run` draws a one-line status with `\r` (no newline); a log line written
/// meanwhile must first erase it (`\r\e[2K`), or the two end up glued on one line. Run for real on
/// a pseudo-terminal (util-linux `script`), over the simulator, as a dry run.
@Suite(.serialized) struct RunStatusLineTests {
    static let erase = "\r\u{1B}[2K"

    @Test("a log line after the status line starts by erasing it", .timeLimit(.minutes(2)),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func logLineErasesStatusLine() async throws {
        let dir = try scratchDirectory(label: "tty")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Given followme run on a terminal (script's pty), its status line on
        let field = try await SimField.start(in: dir)
        let config = dir.appendingPathComponent("followme.toml")
        try field.configText().write(to: config, atomically: true, encoding: .utf8)
        let typescript = dir.appendingPathComponent("typescript")
        // `exec`: script runs the command with `$SHELL -c`; whether that shell forks or execs is the
        // shell's choice, and a SIGTERM meant for followme must not end a shell in between instead
        // (CI saw exit 143 and no "shutdown requested" line).
        let command = ["exec", FollowMeBinary.url.path, "run", "--config", config.path, "--no-takeoff",
                       "--flight-log", dir.appendingPathComponent("flight.jsonl").path].joined(separator: " ")
        let script = try ChildProcess(name: "script", executable: "/usr/bin/script",
                                      arguments: ["-q", "-f", "-e", "-c", command, typescript.path])
        func screen() -> String { (try? String(contentsOf: typescript, encoding: .utf8)) ?? "" }

        // When the status line has been drawn a few times and SIGTERM makes followme log a line
        let drawn = await eventually(seconds: 30) { screen().components(separatedBy: Self.erase + "preflight").count > 3 }
        let followme = script.descendantPIDs(named: "followme")
        #expect(followme.count == 1, "followme processes under script: \(followme)")
        for pid in followme { kill(pid, SIGTERM) }
        let status = await script.waitForExit(seconds: 30)
        await script.terminate()
        await field.stop()

        // Then the shutdown line (and every log line after the first status line) starts with the erase
        #expect(drawn, "no status line: \(screen().debugDescription.suffix(2000))")
        #expect(status == 0, "\(String(describing: status))")
        let text = screen()
        let shutdown = try #require(text.range(of: "shutdown requested: landing"), "\(text.debugDescription.suffix(2000))")
        let lineStart = try #require(text[..<shutdown.lowerBound].range(of: Self.erase, options: .backwards))
        #expect(!text[lineStart.upperBound..<shutdown.lowerBound].contains("\r"), "\(text[lineStart.lowerBound...].debugDescription.prefix(400))")
        #expect(text[lineStart.upperBound...].first?.isNumber == true, "the erase is not the log line's own")
        let firstStatus = try #require(text.range(of: Self.erase + "preflight"))
        let after = String(text[firstStatus.upperBound...])
        let logLines = after.matches(of: try Regex(#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} "#))
        #expect(!logLines.isEmpty)
        for match in logLines {
            #expect(after[..<match.range.lowerBound].hasSuffix(Self.erase), "\(after[..<match.range.lowerBound].suffix(60).debugDescription)")
        }
    }
}
