import FollowCore

/// The names FollowMe accepts in `followme.toml`, and the views of ``ConfigKeys/all`` the parser,
/// the printer and the tests read: every table and key in file order, the numeric keys' specs.
///
/// Anything else is an error (a misspelt safety limit must not silently fall back to its default).
package enum ConfigSchema {
    /// Every table with its keys, in file order.
    package static let tables: [(name: String, keys: [String])] = ConfigKeys.all.reduce(into: []) { tables, key in
        if tables.last?.name == key.table {
            tables[tables.count - 1].keys.append(key.name)
        } else {
            tables.append((key.table, [key.name]))
        }
    }

    /// Unit, range and default of each numeric key, by `table.key`: the flight core's declarations where
    /// the core reads the key, so a value `config check` accepts is one the core accepts
    /// (mount_offset_deg: any finite angle, normalised into [0, 360) before it reaches the core).
    package static let specs: [String: ParameterSpec] = Dictionary(
        uniqueKeysWithValues: ConfigKeys.all.compactMap { key in key.spec.map { (key.dotted, $0) } })

    /// Numeric keys written as whole numbers (a float there is a wrong type).
    package static let integerKeys: Set<String> = Set(ConfigKeys.all.filter { $0.spec != nil && $0.isInteger }.map(\.dotted))

    /// The rows in the order they are read: file order, except that within a table a key another key's
    /// range depends on is read first (`gps_relative_error_m` before `min_separation_m`). Problems are
    /// reported by line; on one line (an inline table) in this order.
    static let readOrder: [ConfigKey] = {
        let dependencies = Set(ConfigKeys.all.flatMap(\.dependsOn))
        return tables.flatMap { table in
            let rows = ConfigKeys.all.filter { $0.table == table.name }
            return rows.filter { dependencies.contains($0.dotted) } + rows.filter { !dependencies.contains($0.dotted) }
        }
    }()

    /// The declared spec of a numeric key; a missing entry is a programming error caught by every test.
    static func spec(_ table: String, _ key: String) -> ParameterSpec {
        guard let spec = specs["\(table).\(key)"] else { preconditionFailure("no ParameterSpec for \(table).\(key)") }
        return spec
    }

    package static var tableNames: [String] { tables.map(\.name) }

    /// The keys of a known table, or `nil` for an unknown one.
    static func keys(inTable table: String) -> [String]? {
        tables.first { $0.name == table }?.keys
    }

    /// Every known key as `table.key`.
    package static var dottedKeys: [String] { tables.flatMap { t in t.keys.map { "\(t.name).\($0)" } } }

    /// The closest known table name to `name`, if close enough to be a typo.
    static func suggestTable(for name: String) -> String? {
        closest(to: name, among: tableNames)
    }

    /// The closest known `table.key` for an unknown `key` found in `table` ("" = the root).
    ///
    /// Tries, in order: a near miss within the same table (`mount_ofset_deg` → `onboard.mount_offset_deg`);
    /// the exact key in another table, i.e. a key under the wrong header; a near miss anywhere.
    static func suggestKey(for key: String, inTable table: String) -> String? {
        if let keys = keys(inTable: table), let near = closest(to: key, among: keys) {
            return "\(table).\(near)"
        }
        if let home = tables.first(where: { $0.name != table && $0.keys.contains(key) }) {
            return "\(home.name).\(key)"
        }
        let elsewhere = tables.filter { $0.name != table }.flatMap { t in t.keys.map { (t.name, $0) } }
        if let near = closest(to: key, among: elsewhere.map(\.1)),
            let match = elsewhere.first(where: { $0.1 == near })
        {
            return "\(match.0).\(match.1)"
        }
        return nil
    }

    /// The candidate with the smallest edit distance (case-insensitive), if it is small enough to be a
    /// typo: at most a quarter of the longer name's length, between 1 and 3 edits. Ties go to the first.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            let allowed = min(3, max(1, max(name.count, candidate.count) / 4))
            guard distance <= allowed else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }
}

/// Optimal-string-alignment edit distance: insertions, deletions, substitutions and adjacent
/// transpositions each cost 1 (`ofset` → `offset` is 1, `prot` → `port` is 1).
func editDistance(_ a: String, _ b: String) -> Int {
    let s = Array(a), t = Array(b)
    if s.isEmpty { return t.count }
    if t.isEmpty { return s.count }
    // d[i][j] = distance between s[..<i] and t[..<j].
    var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
    for i in 0...s.count { d[i][0] = i }
    for j in 0...t.count { d[0][j] = j }
    for i in 1...s.count {
        for j in 1...t.count {
            let cost = s[i - 1] == t[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[s.count][t.count]
}
