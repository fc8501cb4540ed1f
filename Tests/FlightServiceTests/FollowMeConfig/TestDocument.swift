import Testing
@testable import FlightService

/// Builds small `followme.toml` documents for tests and remembers, by its own line counting, on which
/// line it wrote each key: an expectation independent of `TOMLLineLocator`.
struct TestDocument {
    /// `(table, key, TOML value text)` in the order written; tables are grouped in first-seen order.
    var entries: [(table: String, key: String, value: String)]

    /// The two device paths every flyable document needs (both receivers on one gpsd by default).
    static let deviceEntries: [(table: String, key: String, value: String)] = [
        ("target", "device", "\"/dev/gpstarget\""),
        ("onboard", "device", "\"/dev/gpsonboard\""),
    ]

    /// The device paths plus `overrides`; an override of a device key replaces it.
    static func flyable(_ overrides: [(table: String, key: String, value: String)] = []) -> TestDocument {
        let base = deviceEntries.filter { d in !overrides.contains { $0.table == d.table && $0.key == d.key } }
        return TestDocument(entries: base + overrides)
    }

    /// Convenience for one override given as `"table.key"`.
    static func flyable(_ dottedKey: String, _ value: String) -> TestDocument {
        let parts = dottedKey.split(separator: ".", maxSplits: 1).map(String.init)
        return flyable([(parts[0], parts[1], value)])
    }

    /// The text plus the 1-based line of each `table.key` and of each `[table]` header.
    var rendered: (text: String, lines: [String: Int]) {
        var tableOrder: [String] = []
        for entry in entries where !tableOrder.contains(entry.table) { tableOrder.append(entry.table) }
        var out: [String] = ["# test document"]
        var lines: [String: Int] = [:]
        for table in tableOrder {
            out.append("")
            out.append("[\(table)]")
            lines[table] = out.count
            for entry in entries where entry.table == table {
                out.append("\(entry.key) = \(entry.value)")
                lines["\(table).\(entry.key)"] = out.count
            }
        }
        return (out.joined(separator: "\n") + "\n", lines)
    }

    var text: String { rendered.text }

    func line(of dottedKey: String) -> Int? { rendered.lines[dottedKey] }

    static let path = "test/followme.toml"

    /// Parses the document and expects exactly one problem, for `key`, reported on the line of
    /// `lineKey` (a dotted key or a table name); returns the problems for further checks.
    @discardableResult
    func expectSoleProblem(key: String, onLineOf lineKey: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> [ConfigError] {
        let problems = try #require(parse().failure, sourceLocation: sourceLocation).problems
        #expect(problems.map(\.key) == [key], sourceLocation: sourceLocation)
        #expect(problems.map(\.line) == [line(of: lineKey)], sourceLocation: sourceLocation)
        return problems
    }

    /// Parses; returns the configuration or the problems.
    func parse() -> Result<FollowMeConfiguration, ConfigProblems> {
        Result { () throws(ConfigProblems) in try FollowMeConfiguration.parse(toml: text, path: Self.path) }
    }
}

extension TestDocument {
    /// Parses a flyable document with `dottedKey` written as `value`, which must give exactly one
    /// problem: that problem and the line the key was written on.
    static func soleProblem(writing dottedKey: String, _ value: String) throws -> (problem: ConfigError, line: Int?) {
        let doc = flyable(dottedKey, value)
        let problems = try #require(doc.parse().failure).problems
        try #require(problems.count == 1, "\(problems)")
        return (problems[0], doc.line(of: dottedKey))
    }
}

/// Parses `text`, returning the problems (empty if it parsed).
func problems(in text: String, path: String = TestDocument.path) -> [ConfigError] {
    do {
        _ = try FollowMeConfiguration.parse(toml: text, path: path)
        return []
    } catch {
        return error.problems
    }
}

extension Result {
    var success: Success? { if case .success(let v) = self { v } else { nil } }
    var failure: Failure? { if case .failure(let e) = self { e } else { nil } }
}

extension FollowMeConfiguration {
    /// `defaults` with the two device paths of `TestDocument.deviceEntries`.
    static var defaultsWithDevices: FollowMeConfiguration {
        var c = FollowMeConfiguration.defaults
        c.target.device = "/dev/gpstarget"
        c.onboard.device = "/dev/gpsonboard"
        return c
    }
}
