/// One problem with a config file, carrying what failed and where.
///
/// `description` reads `FILE:LINE: KEY: message`, e.g.
/// `etc/followme.toml:23: onboard.mount_offset_deg: expected a number, found string "ninety"`.
/// `line` is 1-based; it is `nil` only when the key is not written in the file (a default that
/// conflicts with another key) and no related line could be found.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist (raised by the shell, which does the reading).
    case fileNotFound(path: String)
    /// The file exists but could not be read or is not UTF-8 (raised by the shell).
    case unreadable(path: String, reason: String)
    /// Not valid TOML; `column` is 1-based. TOML parsing stops at the first such error.
    case syntax(path: String, line: Int, column: Int, message: String)
    /// A `[table]` FollowMe does not know; `suggestion` is the closest known table, if any is close.
    case unknownTable(path: String, line: Int?, table: String, suggestion: String?)
    /// A key FollowMe does not know (`table.key`); `suggestion` is the closest known `table.key`, if close.
    case unknownKey(path: String, line: Int?, key: String, suggestion: String?)
    /// The value has the wrong TOML type; `expected` and `found` are phrases ("a number", `string "ninety"`).
    case wrongType(path: String, line: Int?, key: String, expected: String, found: String)
    /// A number outside its allowed range (NaN and ±inf are always outside); both as written for a person.
    case outOfRange(path: String, line: Int?, key: String, value: String, range: String)
    /// A value that is well-typed and in range but unusable, alone or together with another key.
    case invalid(path: String, line: Int?, key: String, reason: String)

    /// The config file the problem is in.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .unreadable(let path, _), .syntax(let path, _, _, _),
            .unknownTable(let path, _, _, _), .unknownKey(let path, _, _, _),
            .wrongType(let path, _, _, _, _), .outOfRange(let path, _, _, _, _), .invalid(let path, _, _, _):
            return path
        }
    }

    /// 1-based line of the problem, when known.
    public var line: Int? {
        switch self {
        case .fileNotFound, .unreadable: return nil
        case .syntax(_, let line, _, _): return line
        case .unknownTable(_, let line, _, _), .unknownKey(_, let line, _, _), .wrongType(_, let line, _, _, _),
            .outOfRange(_, let line, _, _, _), .invalid(_, let line, _, _):
            return line
        }
    }

    /// The dotted key (`follow.standoff_m`) or table name the problem is about, when there is one.
    public var key: String? {
        switch self {
        case .fileNotFound, .unreadable, .syntax: return nil
        case .unknownTable(_, _, let table, _): return table
        case .unknownKey(_, _, let key, _), .wrongType(_, _, let key, _, _), .outOfRange(_, _, let key, _, _),
            .invalid(_, _, let key, _):
            return key
        }
    }

    public var description: String {
        let location = line.map { "\(path):\($0)" } ?? path
        switch self {
        case .fileNotFound(let path):
            return "\(path): config file not found (start from the documented etc/followme.toml)"
        case .unreadable(let path, let reason):
            return "\(path): cannot read config file: \(reason)"
        case .syntax(let path, let line, let column, let message):
            return "\(path):\(line):\(column): TOML syntax error: \(message)"
        case .unknownTable(_, _, let table, let suggestion):
            let hint = suggestion.map { "did you mean [\($0)]?" }
                ?? "known tables: \(ConfigSchema.tableNames.joined(separator: ", "))"
            return "\(location): \(table): unknown table [\(table)], refusing to guess what it means; \(hint)"
        case .unknownKey(_, _, let key, let suggestion):
            let hint = suggestion.map { "did you mean \($0)?" } ?? Self.knownKeysHint(for: key)
            return "\(location): \(key): unknown key, refusing to guess what it means; \(hint)"
        case .wrongType(_, _, let key, let expected, let found):
            return "\(location): \(key): expected \(expected), found \(found)"
        case .outOfRange(_, _, let key, let value, let range):
            return "\(location): \(key): \(value) is out of range; allowed: \(range)"
        case .invalid(_, _, let key, let reason):
            return "\(location): \(key): \(reason)"
        }
    }

    private static func knownKeysHint(for dottedKey: String) -> String {
        let table = dottedKey.split(separator: ".", maxSplits: 1).count == 2
            ? String(dottedKey.split(separator: ".", maxSplits: 1)[0]) : ""
        if let keys = ConfigSchema.keys(inTable: table) {
            return "keys in [\(table)]: \(keys.joined(separator: ", "))"
        }
        return "keys belong in a table: \(ConfigSchema.tableNames.map { "[\($0)]" }.joined(separator: ", "))"
    }
}

/// Every problem found in one config file, in line order. Thrown by ``FollowMeConfiguration/parse(toml:path:)``.
public struct ConfigProblems: Error, Sendable, Equatable, CustomStringConvertible {
    /// Never empty; ordered by line (problems without a line last), then as found.
    public let problems: [ConfigError]

    public init(problems: [ConfigError]) {
        self.problems = problems.enumerated()
            .sorted { ($0.element.line ?? Int.max, $0.offset) < ($1.element.line ?? Int.max, $1.offset) }
            .map(\.element)
    }

    /// One problem per line, each `FILE:LINE: KEY: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A key that is valid but has no effect with the file's other keys (a `[mavlink]` port in an
/// AR.Drone file): `config check` prints it as a warning; it never stops a flight.
public struct ConfigNote: Sendable, Equatable, CustomStringConvertible {
    /// The config file.
    public let path: String
    /// 1-based line of the key.
    public let line: Int
    /// The dotted key (`mavlink.port`).
    public let key: String
    /// Why it has no effect, and what to change if it should.
    public let message: String

    /// `FILE:LINE: KEY: message`, as problems read.
    public var description: String { "\(path):\(line): \(key): \(message)" }
}
