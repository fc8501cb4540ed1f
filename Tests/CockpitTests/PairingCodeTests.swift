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

    @Test("a generated secret is 10 base32 characters (50 bits), shown in two groups; two from the system generator differ")
    func generated() {
        let codes = (0..<8).map { _ in PairingCode.random().text }
        for code in codes {
            #expect(code.count == 10 && code.allSatisfy { PairingCode.alphabet.contains($0) }, "\(code)")
        }
        #expect(Set(codes).count > 1)
        var a = SplitMix(state: 7), b = SplitMix(state: 7)
        #expect(PairingCode.random(using: &a).text == PairingCode.random(using: &b).text)
        #expect(PairingCode("7K2QFM9XDA").display == "7K2QF-M9XDA")
        #expect(PairingCode("123456").display == "123456")
    }

    @Test("a base32 secret matches as typed on a phone: lower case, with its dash or spaces, O/I/L for 0/1; nothing else", arguments: [
        ("7K2QFM9XDA", true), ("7k2qf-m9xda", true), ("7K2QF M9XDA", true), ("7K2QFM9XDB", false), ("7K2QFM9XD", false), ("", false),
    ])
    func typedSecret(candidate: String, expected: Bool) {
        #expect(PairingCode("7K2QFM9XDA").matches(candidate) == expected)
        #expect(PairingCode("10K2QFM9XD").matches("IOk2qf-m9xd"))
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
