import Foundation  // test-only: run scripts/fuzz.sh --print-dict for the libFuzzer dictionary
@testable import Simulation
import Testing
@testable import FlightService

/// The libFuzzer `config` target's inputs follow the key table (`ConfigKeys.all`): its dictionary names
/// every table and key (scripts/fuzz.sh reads them from docs/config-keys.md), and its corpus reaches every
/// kind of problem, so a new key or rule needs no second list and coverage-guided fuzzing starts from
/// every layer of the parser.
@Suite("Config fuzz target: dictionary and corpus")
struct ConfigFuzzCorpusTests {
    /// The entries (`"…"` values) of the config target's dictionary as `scripts/fuzz.sh config --print-dict`
    /// prints it: `Fuzz/dict/config.dict` plus the tables and keys of docs/config-keys.md.
    static func dictionaryEntries() throws -> Set<String> {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [root.appendingPathComponent("scripts/fuzz.sh").path, "config", "--print-dict"]
        let output = Pipe()
        script.standardOutput = output
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        try #require(script.terminationStatus == 0, "scripts/fuzz.sh config --print-dict exited \(script.terminationStatus)")
        return Set(text.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "="), line.last == "\"" else { return nil }
            return String(line[line.index(equals, offsetBy: 2)..<line.index(before: line.endIndex)])
        })
    }

    @Test("the config fuzz dictionary names every table and key of the key table")
    func dictionaryCoversTheKeys() throws {
        let entries = try Self.dictionaryEntries()
        let wanted = ConfigSchema.tables.flatMap { table in ["[\(table.name)]"] + table.keys.map { "\($0) =" } }
        let missing = wanted.filter { !entries.contains($0) }
        #expect(missing.isEmpty, "scripts/fuzz.sh config --print-dict lacks: \(missing)")
    }

    @Test("the config corpus reaches every problem kind the parser reports, and flyable files of both links")
    func corpusReachesEveryLayer() throws {
        // Given every kept input of the config target
        var kinds: Set<ConfigProblemKind> = []
        var accepted: [FollowMeConfiguration] = []
        for (_, bytes) in fuzzInputs("config") {
            do throws(ConfigProblems) {
                accepted.append(try FollowMeConfiguration.parse(toml: String(decoding: bytes, as: UTF8.self), path: "f.toml"))
            } catch {
                kinds.formUnion(error.problems.map(ConfigProblemKind.init))
            }
        }
        // Then syntax, structure, types, ranges and the content / cross-field rules are all reached
        #expect(kinds == [.syntax, .unknownTable, .unknownKey, .wrongType, .outOfRange, .invalid])
        // And an AR.Drone and a MAVLink file are accepted (the rendering of both is fuzzed)
        #expect(accepted.contains { $0.drone.linkProtocol == .ardrone })
        #expect(accepted.contains { $0.drone.linkProtocol == .mavlink })
    }
}
