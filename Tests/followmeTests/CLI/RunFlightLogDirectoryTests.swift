import Foundation
import Testing
import TestSupport

/// `[log] directory`: every `followme run` writes a new flight log named by its UTC start time,
/// the oldest removed past `max_flights`; the first line records the version and the config that
/// flew. `[log] path` still appends to one fixed file. Dry runs (`--no-takeoff`) over the simulator.
@Suite(.serialized) struct RunFlightLogDirectoryTests {
    /// One dry run with `overrides` on the field's config: started, SIGTERM, exit 0; its stderr.
    static func dryRun(field: SimField, dir: URL, overrides: ConfigOverrides) async throws -> (config: URL, stderr: String) {
        let config = dir.appendingPathComponent("followme.toml")
        try field.configText(overrides).write(to: config, atomically: true, encoding: .utf8)
        let run = try ChildProcess(name: "run", executable: FollowMeBinary.url.path,
                                   arguments: ["run", "--config", config.path, "--no-takeoff"])
        let started = await eventually(seconds: 30) { run.stderrText.text.contains("flight service started") }
        run.signal(SIGTERM)
        let status = await run.waitForExit(seconds: 30)
        await run.terminate()
        #expect(started && status == 0, "exit \(String(describing: status)): \(run.stderrText.text)")
        return (config, run.stderrText.text)
    }

    @Test("each flight gets its own file, the oldest goes past max_flights, the start line names version and config; an unusable directory costs the log, not the flight",
          .timeLimit(.minutes(3)))
    func oneFilePerFlight() async throws {
        let dir = try scratchDirectory(label: "flights")
        defer { try? FileManager.default.removeItem(at: dir) }
        let flights = dir.appendingPathComponent("flights")
        let field = try await SimField.start(in: dir)
        let overrides: ConfigOverrides = ["log": ["directory": "\"\(flights.path)\"", "max_flights": "2"]]
        func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: flights.path)) ?? []).sorted() }

        // When three flights run one after the other with the same config
        var seen: [[String]] = []
        var last = ""
        var configPath = ""
        for _ in 0..<3 {
            let (config, stderr) = try await Self.dryRun(field: field, dir: dir, overrides: overrides)
            seen.append(files())
            last = stderr
            configPath = config.path
        }
        // And one with a fixed [log] path
        let fixed = dir.appendingPathComponent("fixed.jsonl")
        _ = try await Self.dryRun(field: field, dir: dir, overrides: merged(overrides, ["log": ["path": "\"\(fixed.path)\""]]))
        _ = try await Self.dryRun(field: field, dir: dir, overrides: merged(overrides, ["log": ["path": "\"\(fixed.path)\""]]))
        // And one whose directory cannot be made (under a regular file)
        let (_, unusable) = try await Self.dryRun(field: field, dir: dir, overrides: merged(overrides, [
            "log": ["directory": "\"\(fixed.path)/flights\""],
        ]))
        await field.stop()

        // Then the first made one file, the second a second one, the third replaced the oldest
        #expect(seen.map(\.count) == [1, 2, 2], "\(seen)")
        guard seen.map(\.count) == [1, 2, 2] else { return }
        let first = seen[0][0]
        let second = Set(seen[1]).subtracting([first])
        let third = Set(seen[2]).subtracting(seen[1])
        #expect(second.count == 1 && third.count == 1 && Set(seen[2]) == second.union(third), "\(seen)")
        #expect(last.contains("old flight logs removed") && last.contains(first), "\(last)")
        for name in seen[2] {
            #expect(name.range(of: #"^\d{4}-\d\d-\d\dT\d{6}Z(-\d+)?\.jsonl$"#, options: .regularExpression) != nil, "\(name)")
        }
        // And each log's first line is the start record with the version and the config that flew
        let version = try FollowMeBinary.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        for name in seen[2] {
            let text = try String(contentsOf: flights.appendingPathComponent(name), encoding: .utf8)
            let first = try #require(text.split(separator: "\n").first)
            let start = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            #expect(start["kind"] as? String == "start")
            #expect(start["software_version"] as? String == version)
            #expect(start["config_path"] as? String == configPath)
            let config = try #require(start["config"] as? String)
            #expect(config.contains("\nmax_flights = 2  #") && config.contains("directory = \"\(flights.path)\""), "\(config)")
        }
        // And a directory that cannot be made costs the log, not the flight (dryRun expects exit 0)
        #expect(unusable.contains("error followme : ") && unusable.contains("no flight log: ") && unusable.contains("flying without one"),
                "\(unusable)")
        // And [log] path still means one fixed file both flights appended to; the directory is untouched
        let fixedStarts = try String(contentsOf: fixed, encoding: .utf8).split(separator: "\n").filter { $0.contains(#""kind":"start""#) }
        #expect(fixedStarts.count == 2)
        #expect(files() == seen[2])
    }
}
