import FollowCore
import TOMLKit

/// Reads typed values out of a parsed TOML document and collects every problem instead of stopping.
///
/// Mechanics only: what is allowed (defaults, ranges) is decided by each key's row (`ConfigKeys`), the
/// cross-field rules by `FollowMeConfiguration+Parsing.swift`. Each read returns a usable value (the default when the key
/// is absent or rejected) so reading can go on; rejected keys are remembered in `rejectedKeys` so
/// cross-field checks do not pile a second, misleading problem on top.
struct ConfigReader {
    let path: String
    let root: TOMLTable
    let locator: TOMLLineLocator
    private(set) var problems: [ConfigError] = []
    private(set) var rejectedKeys: Set<String> = []

    // MARK: Structure

    /// Reports unknown tables and keys, and known tables that are not tables (`gpsd = 5`, `[[gpsd]]`).
    mutating func checkStructure() {
        for name in root.keys.sorted() {
            guard let value = root[name] else { continue }
            guard let knownKeys = ConfigSchema.keys(inTable: name) else {
                if value.type == .table {
                    add(.unknownTable(path: path, line: locator.line(of: [name]), table: name,
                                      suggestion: ConfigSchema.suggestTable(for: name)))
                } else {
                    // A root key is either a key missing its [table] header or a misspelt [[table]].
                    let suggestion = ConfigSchema.suggestKey(for: name, inTable: "")
                        ?? ConfigSchema.suggestTable(for: name).map { "[\($0)]" }
                    add(.unknownKey(path: path, line: locator.line(of: [name]), key: name, suggestion: suggestion))
                }
                continue
            }
            guard let table = value.table else {
                reject(name, .wrongType(path: path, line: locator.line(of: [name]), key: name,
                                        expected: "a table ([\(name)])", found: Self.describe(value)))
                continue
            }
            for key in table.keys.sorted() where !knownKeys.contains(key) {
                let dotted = "\(name).\(key)"
                let line = locator.line(of: [name, key])
                if table[key]?.type == .table {
                    add(.unknownTable(path: path, line: line, table: dotted, suggestion: nil))
                } else {
                    add(.unknownKey(path: path, line: line, key: dotted,
                                    suggestion: ConfigSchema.suggestKey(for: key, inTable: name)))
                }
            }
        }
    }

    // MARK: Typed reads

    /// A number (integer or float) within `range` (`nil` = any finite number); NaN and ±inf are out of
    /// range. `rangeNote` says where a bound comes from when it depends on another key.
    mutating func double(_ table: String, _ key: String, default defaultValue: Double,
                         range: ClosedRange<Double>?, rangeNote: String? = nil) -> Double {
        guard let value = value(table, key) else { return defaultValue }
        let number: Double
        if let int = value.int {
            number = Double(int)
        } else if let double = value.double {
            number = double
        } else {
            rejectWrongType(table, key, expected: "a number", found: value)
            return defaultValue
        }
        let inRange = number.isFinite && (range?.contains(number) ?? true)
        guard inRange else {
            reject(dotted(table, key), .outOfRange(
                path: path, line: line(table, key), key: dotted(table, key),
                value: Self.format(number),
                range: (range.map(Self.format) ?? "any finite number") + (rangeNote.map { " (\($0))" } ?? "")))
            return defaultValue
        }
        return number
    }

    /// An integer within `range`. A float is a wrong type even when whole: `2947.0` is not a port.
    mutating func int(_ table: String, _ key: String, default defaultValue: Int, range: ClosedRange<Int>) -> Int {
        guard let value = value(table, key) else { return defaultValue }
        guard let int = value.int else {
            rejectWrongType(table, key, expected: "an integer", found: value)
            return defaultValue
        }
        guard range.contains(int) else {
            reject(dotted(table, key), .outOfRange(
                path: path, line: line(table, key), key: dotted(table, key),
                value: String(int), range: "\(range.lowerBound) to \(range.upperBound)"))
            return defaultValue
        }
        return int
    }

    /// A boolean.
    mutating func bool(_ table: String, _ key: String, default defaultValue: Bool) -> Bool {
        guard let value = value(table, key) else { return defaultValue }
        guard let bool = value.bool else {
            rejectWrongType(table, key, expected: "true or false", found: value)
            return defaultValue
        }
        return bool
    }

    /// A string; `problem` returns why a string is unusable, or `nil` if it is fine.
    mutating func string(_ table: String, _ key: String, default defaultValue: String,
                         problem: (String) -> String?) -> String {
        guard let value = value(table, key) else { return defaultValue }
        guard let string = value.string else {
            rejectWrongType(table, key, expected: "a string", found: value)
            return defaultValue
        }
        if let reason = problem(string) {
            reject(dotted(table, key), .invalid(path: path, line: line(table, key), key: dotted(table, key),
                                                reason: reason))
            return defaultValue
        }
        return string
    }

    /// One of an enumeration's raw values (`protocol = "mavlink"`); anything else names the allowed values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ table: String, _ key: String,
                                                                  default defaultValue: Choice) -> Choice
    where Choice.RawValue == String {
        guard let value = value(table, key) else { return defaultValue }
        let allowed = Choice.allCases.map { renderTOMLString($0.rawValue) }
        let allowedText = allowed.dropLast().joined(separator: ", ") + " or " + (allowed.last ?? "")
        guard let string = value.string else {
            rejectWrongType(table, key, expected: allowedText, found: value)
            return defaultValue
        }
        guard let choice = Choice(rawValue: string) else {
            reject(dotted(table, key), .invalid(path: path, line: line(table, key), key: dotted(table, key),
                                                reason: "\(renderTOMLString(string)) is not one of the allowed "
                                                    + "values: \(allowed.joined(separator: ", "))"))
            return defaultValue
        }
        return choice
    }

    /// A string from `keywords`, or a number (integer or float) within `range` checked as `double` does.
    /// Returns the keyword or the number; the default keyword when absent or rejected.
    mutating func keywordOrNumber(_ table: String, _ key: String, keywords: [String], default defaultKeyword: String,
                                  range: ClosedRange<Double>) -> (keyword: String?, number: Double?) {
        guard let value = value(table, key) else { return (defaultKeyword, nil) }
        let choices = keywords.map(renderTOMLString).joined(separator: ", ") + " or a number " + Self.format(range)
        if let string = value.string {
            if keywords.contains(string) { return (string, nil) }
            reject(dotted(table, key), .invalid(path: path, line: line(table, key), key: dotted(table, key),
                                                reason: "\(renderTOMLString(string)) is not \(choices)"))
            return (defaultKeyword, nil)
        }
        if value.int != nil || value.double != nil {
            let number = double(table, key, default: .nan, range: range)
            return number.isNaN ? (defaultKeyword, nil) : (nil, number)
        }
        rejectWrongType(table, key, expected: choices, found: value)
        return (defaultKeyword, nil)
    }

    // MARK: Problems and lines

    /// Records a problem that is not about one key's own value (cross-field rules).
    mutating func add(_ problem: ConfigError) { problems.append(problem) }

    /// True if the key was present but rejected (or its table was).
    func isRejected(_ table: String, _ key: String) -> Bool {
        rejectedKeys.contains(table) || rejectedKeys.contains(dotted(table, key))
    }

    /// True if the key is written in the file (as opposed to taking its default).
    func isWritten(_ table: String, _ key: String) -> Bool { value(table, key) != nil }

    /// Line of `table.key`, else of `[table]`, else `nil`.
    func line(_ table: String, _ key: String) -> Int? {
        locator.line(of: [table, key]) ?? locator.line(of: [table])
    }

    /// Line of `table.key` only if written in the file.
    func lineIfWritten(_ table: String, _ key: String) -> Int? { locator.line(of: [table, key]) }

    private mutating func reject(_ key: String, _ problem: ConfigError) {
        rejectedKeys.insert(key)
        problems.append(problem)
    }

    private mutating func rejectWrongType(_ table: String, _ key: String, expected: String,
                                          found: any TOMLValueConvertible) {
        reject(dotted(table, key), .wrongType(path: path, line: line(table, key), key: dotted(table, key),
                                              expected: expected, found: Self.describe(found)))
    }

    private func value(_ table: String, _ key: String) -> (any TOMLValueConvertible)? {
        root[table]?.table?[key]
    }

    private func dotted(_ table: String, _ key: String) -> String { "\(table).\(key)" }

    // MARK: Formatting for messages

    /// What was found, for a person: `string "ninety"`, `integer 7`, `float 1.5`, `boolean true`, `table`.
    static func describe(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: return "string \(renderTOMLString(value.string ?? ""))"
        case .int: return "integer \(value.int.map(String.init) ?? "?")"
        case .double: return "float \(value.double.map(formatFloat) ?? "?")"
        case .bool: return "boolean \(value.bool.map(String.init) ?? "?")"
        case .array: return "an array"
        case .table: return "a table"
        case .date, .time, .dateTime: return "\(value.type) \(value.debugDescription)"
        }
    }

    /// A number as a person would write it in the file: `6`, `0.7`, `-45`, `nan`, `inf`, `-inf`.
    static func format(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// A float as TOML writes it, keeping the decimal point: `2947.0`, `1.5`, `nan`, `-inf`.
    static func formatFloat(_ number: Double) -> String {
        number.isFinite ? String(number) : format(number)
    }

    static func format(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound)) to \(format(range.upperBound))"
    }
}
