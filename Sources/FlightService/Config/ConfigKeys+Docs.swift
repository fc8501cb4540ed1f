/// The key table as people read it: docs/config-keys.md and `followme config keys`.
extension ConfigKeys {
    /// docs/config-keys.md: one Markdown table per `[table]`, one line per row of ``all``.
    ///
    /// A test fails when the file differs from this text; `followme config keys --markdown` prints it.
    package static func markdown() -> String {
        var lines = [
            "# followme.toml keys",
            "",
            "<!-- Generated from the rows of ConfigKeys.all (Sources/FlightService/Config/ConfigKeys.swift); do not edit.",
            "     Regenerate: swift run followme config keys --markdown > docs/config-keys.md",
            "     (or FOLLOWME_REGENERATE_DOCS=1 swift test --filter ConfigKeysTests). -->",
            "",
            "Every key of `etc/followme.toml` (the commented, shipped file). Every key is optional: an absent key",
            "takes its default. `followme config check FILE` checks a file and prints the effective values;",
            "a problem is reported as `FILE:LINE: KEY: message`.",
        ]
        for table in ConfigSchema.tables {
            lines += ["", "## [\(table.name)]", "", "| Key | Type | Unit | Range | Default | What it does |",
                      "|---|---|---|---|---|---|"]
            for key in all where key.table == table.name {
                let cells = ["`\(key.name)`", key.typeText, key.unitText, key.rangeText, "`\(key.defaultText)`", key.help]
                lines.append("| " + cells.map(escaped).joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per key, tab-separated: `table.key`, type, unit, range, default.
    package static func plainList() -> String {
        all.map { [$0.dotted, $0.typeText, $0.unitText, $0.rangeText, $0.defaultText].joined(separator: "\t") }
            .joined(separator: "\n") + "\n"
    }

    /// A table cell: `|` escaped, so a value cannot end its cell.
    private static func escaped(_ cell: String) -> String {
        var out = ""
        for character in cell { if character == "|" { out += "\\|" } else { out.append(character) } }
        return out
    }
}
