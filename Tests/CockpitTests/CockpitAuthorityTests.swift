@testable import Cockpit
import FollowCore
import Foundation
import Testing

/// Who may command: tokens for the secret, the unit-wide limiter, the secret's file watched, the
/// tokens kept across a restart and voided by a new secret. Files in a temporary directory.
@Suite struct CockpitAuthorityTests {
    func at(_ seconds: Double) -> MonotonicTime { MonotonicTime(seconds: seconds) }

    func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func writeSecret(_ text: String, to path: String) throws {
        let temporary = path + ".tmp"
        try (text + "\n").write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(chmod(temporary, 0o600) == 0)
        #expect(rename(temporary, path) == 0)
    }

    func issued(_ verification: CockpitAuthority.Verification) -> String? {
        if case .accepted(let token?) = verification { token } else { nil }
    }

    @Test("the right secret gives a token that is paired; a made-up or altered token is not")
    func pairing() throws {
        let authority = CockpitAuthority(code: PairingCode("7K2QFM9XDA"), codeFile: nil, tokenFile: nil)
        let token = try #require(issued(authority.pair(secret: "7k2qf-m9xda", client: "192.0.2.7", now: at(1))))
        #expect(token.count == 16 + 1 + 32)
        #expect(authority.isPaired(token, now: at(2)))
        var altered = Array(token)
        altered[altered.count - 1] = altered.last == "0" ? "1" : "0"
        for other in [String(altered), "0000000000000000." + String(repeating: "0", count: 32), "", "x", token + "00"] {
            #expect(!authority.isPaired(other, now: at(2)), "\(other)")
        }
        #expect(!authority.isPaired(nil, now: at(2)))
    }

    @Test("guesses from many addresses share one lockout; during it the right secret is refused too, and every failure is an alert")
    func unitWideLockout() throws {
        let authority = CockpitAuthority(code: PairingCode("4711"), codeFile: nil, tokenFile: nil)
        let pairedBefore = try #require(issued(authority.pair(secret: "4711", client: "192.0.2.7", now: at(0))))
        var verdicts: [CockpitAuthority.Verification] = []
        for guess in 0..<(PairingLimiter.freeFailures + 1) {
            verdicts.append(authority.verify(code: String(format: "%04d", guess), client: "127.0.\(guess).9", now: at(1)))
        }
        #expect(verdicts.last == .wrong(failures: 6, lockoutSeconds: 30))
        #expect(authority.alert?.message.contains("127.0.5.9") == true && authority.alert?.sequence == 6)
        // Locked: the right secret is refused exactly like a wrong one, from anywhere.
        #expect(authority.pair(secret: "4711", client: "127.0.9.9", now: at(2)) == .lockedOut(retryAfterSeconds: 29))
        #expect(authority.verify(code: "0000", client: "127.0.9.9", now: at(2)) == .lockedOut(retryAfterSeconds: 29))
        // A phone paired before is untouched.
        #expect(authority.isPaired(pairedBefore, now: at(2)))
        #expect(issued(authority.pair(secret: "4711", client: "192.0.2.7", now: at(31))) != nil)
    }

    @Test("with a code file and a token file, tokens survive a restart; a new secret voids them, at once and after a restart")
    func rotation() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let secretFile = dir + "/pairing-secret", tokenFile = dir + "/cockpit-tokens"
        try writeSecret("7K2QFM9XDA", to: secretFile)
        let first = CockpitAuthority(code: try PairingCode(contentsOfFile: secretFile), codeFile: secretFile, tokenFile: tokenFile)
        let token = try #require(issued(first.pair(secret: "7K2QFM9XDA", client: "192.0.2.7", now: at(1))))
        var info = stat()
        #expect(stat(tokenFile, &info) == 0 && info.st_mode & 0o777 == 0o600)

        let restarted = CockpitAuthority(code: try PairingCode(contentsOfFile: secretFile), codeFile: secretFile, tokenFile: tokenFile)
        #expect(restarted.isPaired(token, now: at(100)))

        try writeSecret("N3WS3CR3TX", to: secretFile)
        // Looked at no more than once a second: still paired within the second, void after it.
        #expect(restarted.isPaired(token, now: at(100.5)))
        #expect(!restarted.isPaired(token, now: at(101.5)))
        #expect(restarted.pair(secret: "7K2QFM9XDA", client: "192.0.2.7", now: at(102)) == .wrong(failures: 1, lockoutSeconds: nil))
        #expect(issued(restarted.pair(secret: "N3WS3CR3TX", client: "192.0.2.7", now: at(103))) != nil)

        // Rotated while no followme ran: the stored tokens belong to the old secret's file, and are void.
        let before = CockpitAuthority(code: try PairingCode(contentsOfFile: secretFile), codeFile: secretFile, tokenFile: tokenFile)
        let kept = try #require(issued(before.pair(secret: "N3WS3CR3TX", client: "192.0.2.7", now: at(1))))
        try writeSecret("ANOTHER000", to: secretFile)
        let after = CockpitAuthority(code: try PairingCode(contentsOfFile: secretFile), codeFile: secretFile, tokenFile: tokenFile)
        #expect(!after.isPaired(kept, now: at(1)))
    }

    @Test("at most 64 tokens: the least recently used is forgotten, one in use is kept")
    func capacity() throws {
        let authority = CockpitAuthority(code: PairingCode("7K2QFM9XDA"), codeFile: nil, tokenFile: nil)
        let first = try #require(issued(authority.pair(secret: "7K2QFM9XDA", client: "a", now: at(0))))
        let second = try #require(issued(authority.pair(secret: "7K2QFM9XDA", client: "a", now: at(0))))
        for _ in 0..<(PairedTokens.capacity - 2) { _ = authority.pair(secret: "7K2QFM9XDA", client: "a", now: at(0)) }
        #expect(authority.isPaired(first, now: at(0)))  // used: now the most recent
        _ = authority.pair(secret: "7K2QFM9XDA", client: "a", now: at(0))
        #expect(authority.pairedCount == PairedTokens.capacity)
        #expect(authority.isPaired(first, now: at(0)) && !authority.isPaired(second, now: at(0)))
    }
}
