import FlightRecords

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

    /// followme.toml(5): the same rows as ``markdown()`` as a man page (man(7) macros), for the package.
    /// `date` (YYYY-MM-DD) and `version` (`FollowMeVersion.current`: given by the caller, so this file
    /// builds on its own in the config fuzzer) go into the header; one build always writes the same page.
    package static func manPage(date: String, version: String) -> String {
        var lines = [
            #".TH FOLLOWME.TOML 5 "\#(date)" "followme \#(version)" "File Formats""#,
            ".SH NAME", #"followme.toml \- configuration file of followme(1)"#,
            ".SH SYNOPSIS", ".B /etc/followme/followme.toml",
            ".SH DESCRIPTION",
            "TOML. Every key is optional: an absent key takes its default. Check a file with",
            ".B followme config check FILE",
            "(exit 0 and the effective values, or exit 2 and one FILE:LINE: KEY: problem per line).",
            "The package's postinst checks the installed file after every upgrade; followme.service",
            "does not start on a file that fails (followme run exits 2).",
        ]
        for table in ConfigSchema.tables {
            lines += [".SH [\(roff(table.name))]"]
            for key in all where key.table == table.name {
                lines += [".TP", ".B \(roff(key.name))",
                          roff(([key.typeText] + [("unit", key.unitText), ("range", key.rangeText), ("default", key.defaultText)]
                              .filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1)" }).joined(separator: "; ") + "."),
                          ".br", roff(key.help)]
            }
        }
        lines += [".SH FILES", "/etc/followme/followme.toml (a conffile: an upgrade keeps your edits and puts its own",
                  "version next to it as followme.toml.dpkg-dist).",
                  ".SH SEE ALSO", ".BR followme (1),", ".BR gpsd (8)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe in a roff line: backslashes escaped, no line starting a request (`.` or `'`).
    private static func roff(_ text: String) -> String {
        var escaped = ""
        for character in text { if character == "\\" { escaped += "\\e" } else { escaped.append(character) } }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
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
