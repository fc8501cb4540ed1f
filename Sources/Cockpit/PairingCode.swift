import Foundation

/// The secret a phone must show before the cockpit passes its commands to the flight: 6 random
/// digits printed by `followme run` at every start, or a fixed code read from a root-only file
/// (`[web] code_file`), so a phone need not be paired again after a restart.
///
/// Compared in constant time: how long a wrong guess takes tells nothing about how much of it was right.
public struct PairingCode: Sendable {
    /// The code's text (digits for a generated one; any printable ASCII without spaces from a file):
    /// what `followme run` prints for a generated code.
    public let text: String

    /// How many digits a generated code has: our choice, what a person reads off a terminal or a
    /// journal line and types on a phone in one go; with the per-client rate limit
    /// (`CommandRateLimit`, 2 commands/s) guessing it takes days.
    public static let generatedDigits = 6
    /// The longest code a file may hold, bytes: our choice, far above any code a person types; a
    /// longer file is most likely the wrong file.
    public static let maxFileCodeBytes = 128

    /// A code as it is (tests; a code a caller has already checked).
    public init(_ text: String) { self.text = text }

    /// A new code of `generatedDigits` digits from `generator` (`SystemRandomNumberGenerator` in a flight).
    public static func random(using generator: inout some RandomNumberGenerator) -> PairingCode {
        PairingCode(String((0..<generatedDigits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }))
    }

    /// A new code from the system's generator (getrandom(2)).
    public static func random() -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The code held in `path`: its first line, blanks around it removed. Refuses a file that group or
    /// others may read or write, one owned by another user than root or this process's, an empty one,
    /// and one whose code has spaces, control characters or is over `maxFileCodeBytes`.
    public init(contentsOfFile path: String) throws(PairingCodeError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        let mode = Int(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: mode) }
        guard info.st_uid == 0 || info.st_uid == geteuid() else { throw .foreignOwner(path: path, uid: Int(info.st_uid)) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot be read by this user")
        }
        let firstLine = String(decoding: data.prefix(4096), as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let code = firstLine.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else { throw .empty(path: path) }
        guard code.utf8.count <= Self.maxFileCodeBytes,
              code.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { throw .malformed(path: path) }
        self.init(code)
    }

    /// Whether `candidate` is the code, in time that depends only on the candidate's length (bounded
    /// by the request body limit), never on where the first difference is.
    public func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let expected = Array(text.utf8), given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in given.indices {
            difference |= given[index] ^ (expected.isEmpty ? 0 : expected[index % expected.count])
        }
        return difference == 0 && !expected.isEmpty
    }
}

/// Why `[web] code_file` cannot serve as the pairing code: `followme run` exits 2 with this message
/// (a cockpit that anyone who can read a file could command must not start).
public enum PairingCodeError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case tooOpen(path: String, mode: Int)
    case foreignOwner(path: String, uid: Int)
    case empty(path: String)
    case malformed(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "[web] code_file \(path): \(reason); write the pairing code into it (one line) and chmod 600 \(path), or set code_file = \"\""
        case .tooOpen(let path, let mode):
            "[web] code_file \(path) has mode \(String(format: "%04o", mode)): group or others may read it, so anyone on this "
                + "computer could command the drone; chmod 600 \(path)"
        case .foreignOwner(let path, let uid):
            "[web] code_file \(path) belongs to uid \(uid), not root nor the user running followme: "
                + "chown root \(path) and chmod 600 \(path)"
        case .empty(let path):
            "[web] code_file \(path) is empty: write the pairing code into it (one line, chmod 600 \(path)), or set code_file = \"\""
        case .malformed(let path):
            "[web] code_file \(path): the code must be one line of at most \(PairingCode.maxFileCodeBytes) printable characters without spaces"
        }
    }
}
