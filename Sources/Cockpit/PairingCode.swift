import Foundation

/// The secret a phone must show once (`POST /pair`) before the cockpit gives it a token for its
/// commands: the unit's secret, read from `[web] code_file` (the package's postinst writes one per
/// unit, `followme pair` shows it and its QR code), or — with `code_file = ""` — a new one printed by
/// `followme run` at every start.
///
/// A generated secret is `generatedLength` characters of Crockford's base32 (50 bits): with the
/// unit-wide lockout (`PairingLimiter`) an attacker gets about 100 guesses a day, so the expected time
/// to guess it is ~10^10 years (docs/commands.md §4.8 has the arithmetic). Compared in constant time:
/// how long a wrong guess takes tells nothing about how much of it was right.
public struct PairingCode: Sendable {
    /// The code's text (digits for a generated one; any printable ASCII without spaces from a file):
    /// what `followme run` prints for a generated code.
    public let text: String

    /// How many characters a generated secret has: 10 of base32's 32 symbols = 50 bits, typed on a
    /// phone as two groups of five when the QR code cannot be scanned. Our choice: 50 bits against
    /// ~35,000 guesses a year (`PairingLimiter`'s ceiling) leave no practical chance.
    public static let generatedLength = 10
    /// Crockford's base32 alphabet: digits and upper-case letters without I, L, O and U, so nothing
    /// read off a screen is ambiguous (`normalized` maps the look-alikes back).
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// The longest code a file may hold, bytes: our choice, far above any code a person types; a
    /// longer file is most likely the wrong file.
    public static let maxFileCodeBytes = 128

    /// A code as it is (tests; a code a caller has already checked).
    public init(_ text: String) { self.text = text }

    /// A new secret of `generatedLength` base32 characters from `generator` (`SystemRandomNumberGenerator`,
    /// i.e. getrandom(2), in a flight and in `followme pair --new`).
    public static func random(using generator: inout some RandomNumberGenerator) -> PairingCode {
        PairingCode(String((0..<generatedLength).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }))
    }

    /// The secret as a person reads it: two groups of five (`7K2QF-M9XDA`); `matches` takes either form.
    public var display: String {
        guard isBase32Secret else { return text }
        return "\(text.prefix(5))-\(text.dropFirst(5))"
    }

    /// Whether the code has a generated secret's form (`generatedLength` base32 symbols), so that a
    /// candidate may be typed in lower case, with the dash or spaces, or with O/I/L for 0/1
    /// (`normalized`); any other code (a file's own) must match exactly.
    var isBase32Secret: Bool { text.count == Self.generatedLength && text.allSatisfy { Self.alphabet.contains($0) } }

    /// `candidate` as the secret's canonical form: upper case, no dashes or blanks, O → 0, I and L → 1.
    static func normalized(_ candidate: String) -> String {
        String(candidate.uppercased().compactMap { character -> Character? in
            switch character {
            case "-", " ": nil
            case "O": "0"
            case "I", "L": "1"
            default: character
            }
        })
    }

    /// A new code from the system's generator (getrandom(2)).
    public static func random() -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The code held in `path`: its first line, blanks around it removed. Refuses a file that group or
    /// others may read or write, one owned by another user than root, this process's or `followme`, an empty one,
    /// and one whose code has spaces, control characters or is over `maxFileCodeBytes`.
    public init(contentsOfFile path: String) throws(PairingCodeError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        let mode = Int(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: mode) }
        guard info.st_uid == 0 || info.st_uid == geteuid() || info.st_uid == Self.serviceUserID else {
            throw .foreignOwner(path: path, uid: Int(info.st_uid))
        }
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

    /// The uid of the system user the service runs as (`followme`, debian/followme.sysusers), which
    /// owns the packaged secret so the service can read it; nil on a machine without that user.
    static var serviceUserID: uid_t? { getpwnam("followme").map { $0.pointee.pw_uid } }

    /// Whether `candidate` is the code, in time that depends only on the candidate's length (bounded
    /// by the request body limit), never on where the first difference is.
    public func matches(_ candidate: String?) -> Bool {
        guard var candidate else { return false }
        if isBase32Secret { candidate = Self.normalized(candidate) }
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
