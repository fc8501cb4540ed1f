import Foundation  // test-only: read the shipped etc/followme.toml from disk
@testable import Simulation
import Testing
@testable import FlightService

@Suite("Config fuzzer")
struct ConfigFuzzTests {
    /// `<repo>/etc/followme.toml`, found from this file's path (`<repo>/Tests/SimulationTests/Fuzzing/…`).
    static func shippedCorpus() throws -> [String] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return [try String(contentsOfFile: url.appendingPathComponent("etc/followme.toml").path, encoding: .utf8)]
    }

    @Test("Config fuzz slice: 5000 mutations of etc/followme.toml, no crash, every problem keeps the contract")
    func fuzzSlice() throws {
        let report = ConfigFuzzer.run(iterations: 5_000, seed: 0xC0F1_6, corpus: try Self.shippedCorpus())
        #expect(report.iterations == 5_000)
        #expect(report.acceptedCount + report.rejectedCount == 5_000)
        #expect(report.invariantViolationCount == 0, "\(String(describing: report.firstInvariantViolation))")
        #expect(report.roundTripMismatchCount == 0, "first: \(report.firstRoundTripMismatch ?? "")")
        // The mutations reach every layer: TOML syntax, structure, types, ranges and cross-field rules,
        // and some mutated documents are still accepted.
        #expect(report.acceptedCount > 100)
        for kind: ConfigProblemKind in [.syntax, .unknownTable, .unknownKey, .wrongType, .outOfRange, .invalid] {
            #expect(report.problemCountsByKind[kind, default: 0] > 0, "\(kind) never produced")
        }
        #expect(report.problemCountsByKind[.unreadable, default: 0] == 0)
    }

    @Test("Config fuzz runs are deterministic for a seed and differ between seeds")
    func determinism() {
        let corpus = ConfigFuzzer.builtInCorpus
        #expect(ConfigFuzzer.run(iterations: 300, seed: 1, corpus: corpus)
            == ConfigFuzzer.run(iterations: 300, seed: 1, corpus: corpus))
        #expect(ConfigFuzzer.run(iterations: 300, seed: 1, corpus: corpus)
            != ConfigFuzzer.run(iterations: 300, seed: 2, corpus: corpus))
    }

    @Test("The built-in corpus document parses with zero problems")
    func builtInCorpusParses() throws {
        for text in ConfigFuzzer.builtInCorpus {
            #expect(try FollowMeConfiguration.parse(toml: text, path: "built-in") == .defaultsWithDevices)
        }
    }

    // The checker itself must be able to fail: feed it problems that break the contract.
    struct ViolationCase: Sendable, CustomTestStringConvertible {
        var name: String
        var problems: [ConfigError]
        var testDescription: String { name }
    }

    static let path = ConfigFuzzer.fuzzPath
    static let violationCases: [ViolationCase] = [
        ViolationCase(name: "wrong path", problems: [.unknownKey(path: "other.toml", line: 1, key: "a", suggestion: nil)]),
        ViolationCase(name: "empty key", problems: [.invalid(path: path, line: 1, key: "", reason: "x")]),
        ViolationCase(name: "line past the end", problems: [.outOfRange(path: path, line: 4, key: "follow.standoff_m",
                                                                          value: "1", range: "2 to 50")]),
        ViolationCase(name: "line 0", problems: [.wrongType(path: path, line: 0, key: "gpsd.port", expected: "an integer",
                                                            found: "float 1.5")]),
        ViolationCase(name: "syntax error with company", problems: [
            .syntax(path: path, line: 1, column: 1, message: "x"),
            .unknownKey(path: path, line: 2, key: "a", suggestion: nil),
        ]),
        ViolationCase(name: "syntax error in column 0", problems: [.syntax(path: path, line: 1, column: 0, message: "x")]),
        ViolationCase(name: "file-level problem", problems: [.unreadable(path: path, reason: "TOML parser failed")]),
    ]

    @Test("The invariant check flags problems that break the contract", arguments: violationCases)
    func checkerFlags(_ violation: ViolationCase) {
        // Given a three-line document
        let text = "a = 1\nb = 2\nc = 3"
        // When the checker sees the problems, then it names a violation
        #expect(ConfigFuzzer.invariantViolation(ConfigProblems(problems: violation.problems), text: text) != nil)
    }

    @Test("The invariant check accepts well-formed problems")
    func checkerAccepts() {
        let text = "a = 1\nb = 2\nc = 3"
        let problems = ConfigProblems(problems: [
            .unknownKey(path: Self.path, line: 3, key: "c", suggestion: nil),
            .outOfRange(path: Self.path, line: nil, key: "follow.altitude_m", value: "3", range: "1 to 2"),
        ])
        #expect(ConfigFuzzer.invariantViolation(problems, text: text) == nil)
        #expect(ConfigFuzzer.invariantViolation(
            ConfigProblems(problems: [.syntax(path: Self.path, line: 3, column: 9, message: "x")]), text: text) == nil)
    }

    @Test("The report prints every problem kind")
    func reportDescription() {
        let text = ConfigFuzzer.run(iterations: 40, seed: 3, corpus: ConfigFuzzer.builtInCorpus).description
        #expect(text.contains("iterations: 40"))
        for kind in ConfigProblemKind.allCases { #expect(text.contains(kind.rawValue)) }
    }
}

extension FollowMeConfiguration {
    /// `defaults` with the two device paths the shipped file documents.
    fileprivate static var defaultsWithDevices: FollowMeConfiguration {
        var c = FollowMeConfiguration.defaults
        c.target.device = "/dev/gpstarget"
        c.onboard.device = "/dev/gpsonboard"
        return c
    }
}
