@testable import Cockpit
import Foundation
import Testing

/// The pairing code: 6 random digits, or a root-only file's first line; compared in constant time.
@Suite struct PairingCodeTests {
    /// A seeded generator (SplitMix64): the code's digits come from it. (A generator stuck at one
    /// value would never end `Int.random(in:)`'s rejection sampling.)
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("a generated code is 6 digits, and two codes from the system generator differ (almost surely)")
    func generated() {
        let codes = (0..<8).map { _ in PairingCode.random().text }
        for code in codes { #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(code)") }
        #expect(Set(codes).count > 1)
        var a = SplitMix(state: 7), b = SplitMix(state: 7)
        #expect(PairingCode.random(using: &a).text == PairingCode.random(using: &b).text)
    }

    @Test("matches only the exact code", arguments: [
        ("123456", true), ("123457", false), ("12345", false), ("1234567", false), ("", false), (" 123456", false),
    ])
    func matches(candidate: String, expected: Bool) {
        #expect(PairingCode("123456").matches(candidate) == expected)
    }

    @Test("a missing code never matches, nor does anything match an empty code")
    func missing() {
        #expect(!PairingCode("123456").matches(nil))
        #expect(!PairingCode("").matches(""))
    }

    func write(_ text: String, mode: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cockpit-code-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode_t(mode)) == 0)
        return path
    }

    @Test("a code file of mode 0600 gives its first line, blanks trimmed")
    func fileCode() throws {
        let path = try write("  884422 \nsecond line\n", mode: 0o600)
        defer { unlink(path) }
        #expect(try PairingCode(contentsOfFile: path).text == "884422")
    }

    @Test("a code file readable by group or others is refused, and the message says chmod 600", arguments: [0o644, 0o640, 0o604, 0o660])
    func tooOpen(mode: Int) throws {
        let path = try write("884422\n", mode: mode)
        defer { unlink(path) }
        let error = #expect(throws: PairingCodeError.self) { try PairingCode(contentsOfFile: path) }
        #expect(error == .tooOpen(path: path, mode: mode))
        #expect(error.map { "\($0)" }?.contains("chmod 600 \(path)") == true, "\(String(describing: error))")
    }

    @Test("an empty, missing or malformed code file is refused with what to do")
    func badFiles() throws {
        let empty = try write(" \n", mode: 0o600)
        let spaced = try write("12 34\n", mode: 0o600)
        defer { unlink(empty); unlink(spaced) }
        #expect(throws: PairingCodeError.empty(path: empty)) { try PairingCode(contentsOfFile: empty) }
        #expect(throws: PairingCodeError.malformed(path: spaced)) { try PairingCode(contentsOfFile: spaced) }
        let missing = "/nonexistent/cockpit-code"
        let error = #expect(throws: PairingCodeError.self) { try PairingCode(contentsOfFile: missing) }
        #expect("\(error!)".contains(missing) && "\(error!)".contains("chmod 600"))
    }
}
