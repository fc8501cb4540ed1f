import FlightRecords

extension FollowMeConfiguration {
    /// The effective configuration as TOML: every table and key, defaults filled in, `[target]` and
    /// `[onboard]` endpoints resolved, `mount_offset_deg` normalised. Each line carries its unit and range.
    ///
    /// What `followme config check FILE` prints: one line per `ConfigKeys` row, in file order.
    /// `protocol` and `[mavlink]` are written only for a MAVLink file, so an AR.Drone file (every file
    /// from before MAVLink) prints and logs exactly what it did; its `[mavlink]` holds the defaults.
    /// Parsing the output gives back an equal value.
    public func renderedTOML() -> String {
        var lines = ["# FollowMe effective configuration: every key, defaults filled in."]
        for table in ConfigSchema.tables {
            let keys = ConfigKeys.all.filter { $0.table == table.name && (drone.linkProtocol == .mavlink || !$0.printedOnlyWithMAVLink) }
            guard !keys.isEmpty else { continue }
            lines += ["", "[\(table.name)]"] + keys.map { $0.render(self) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `text` as a TOML basic string: quoted, with `"`, `\` and control characters escaped.
package func renderTOMLString(_ text: String) -> String {
    var out = ""
    appendQuoted(text, to: &out, uppercaseHex: true, escapeDelete: true)
    return out
}
