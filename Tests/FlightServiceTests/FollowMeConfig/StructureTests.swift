import Testing
@testable import FlightService

@Suite("Unknown tables and keys, wrong table types, syntax errors")
struct StructureTests {
    static let path = TestDocument.path


    static let unknownKeyCases: [(table: String, key: String, suggestion: String?)] = [
        (table: "onboard", key: "mount_ofset_deg", suggestion: "onboard.mount_offset_deg"),
        (table: "follow", key: "standof_m", suggestion: "follow.standoff_m"),
        (table: "follow", key: "standoff", suggestion: "follow.standoff_m"),
        (table: "gpsd", key: "prot", suggestion: "gpsd.port"),
        (table: "gpsd", key: "Port", suggestion: "gpsd.port"),
        (table: "drone", key: "altitude_max", suggestion: "drone.altitude_max_m"),
        (table: "failsafe", key: "land_after", suggestion: "failsafe.land_after_s"),
        // The right key under the wrong header points to its table.
        (table: "follow", key: "min_battery_pct", suggestion: "failsafe.min_battery_pct"),
        (table: "drone", key: "geofence_m", suggestion: "failsafe.geofence_m"),
        // A near miss of a key in another table.
        (table: "drone", key: "standof_m", suggestion: "follow.standoff_m"),
        // Nothing close.
        (table: "follow", key: "wind_speed_limit", suggestion: nil),
        (table: "log", key: "level", suggestion: nil),
    ]

    @Test("an unknown key is an error, with a suggestion when it is close to a known one",
          arguments: unknownKeyCases)
    func unknownKey(_ c: (table: String, key: String, suggestion: String?)) throws {
        // Given a flyable document with one unknown key
        let doc = TestDocument.flyable([(c.table, c.key, "1")])
        // When it is parsed
        let problems = try #require(doc.parse().failure).problems
        // Then it is reported on its line with the expected suggestion
        let dotted = "\(c.table).\(c.key)"
        #expect(problems == [.unknownKey(path: Self.path, line: doc.line(of: dotted), key: dotted,
                                         suggestion: c.suggestion)])
    }

    @Test("the typo message names the key to use")
    func typoMessage() throws {
        let doc = TestDocument.flyable([("onboard", "mount_ofset_deg", "90")])
        let problems = try #require(doc.parse().failure)
        let line = try #require(doc.line(of: "onboard.mount_ofset_deg"))
        #expect(problems.description == "\(Self.path):\(line): onboard.mount_ofset_deg: unknown key, refusing to "
            + "guess what it means; did you mean onboard.mount_offset_deg?")
    }

    @Test("without a suggestion the message lists the table's keys")
    func listsKeysWithoutSuggestion() throws {
        let problems = try #require(TestDocument.flyable([("log", "level", "1")]).parse().failure)
        #expect(problems.description.hasSuffix("keys in [log]: path, directory, max_flights, max_total_mb"))
    }

    @Test("an unknown table is an error on its header line, with a suggestion when close",
          arguments: [("folow", "follow"), ("failsafes", "failsafe"), ("GPSD", "gpsd"), ("weather", nil)]
              as [(String, String?)])
    func unknownTable(name: String, suggestion: String?) throws {
        let doc = TestDocument.flyable([(name, "x", "1")])
        let problems = try #require(doc.parse().failure).problems
        #expect(problems == [.unknownTable(path: Self.path, line: doc.line(of: name), table: name,
                                           suggestion: suggestion)])
    }

    @Test("a sub-table inside a known table is an unknown table")
    func unknownSubTable() throws {
        let text = "[follow]\nstandoff_m = 6\n\n[follow.extra]\nx = 1\n"
        #expect(problems(in: text).contains(.unknownTable(path: Self.path, line: 4, table: "follow.extra",
                                                           suggestion: nil)))
    }

    @Test("a key at the root (no table header) is unknown and points to its table")
    func rootKey() {
        let text = "standoff_m = 6\n[target]\ndevice = \"/dev/gpstarget\"\n[onboard]\ndevice = \"/dev/gpsonboard\"\n"
        #expect(problems(in: text) == [.unknownKey(path: Self.path, line: 1, key: "standoff_m",
                                                   suggestion: "follow.standoff_m")])
    }

    @Test("a misspelt array of tables at the root suggests the table")
    func misspeltArrayOfTables() {
        let text = "[[folow]]\nstandoff_m = 6\n[target]\ndevice = \"/dev/gpstarget\"\n[onboard]\ndevice = \"/dev/gpsonboard\"\n"
        #expect(problems(in: text) == [.unknownKey(path: Self.path, line: 1, key: "folow", suggestion: "[follow]")])
    }

    @Test("a known table name used for a non-table value is a wrong type",
          arguments: [
              ("gpsd = 5\n", "integer 5"), ("[[follow]]\nstandoff_m = 6\n", "an array"),
              ("log = \"/tmp/x\"\n", "string \"/tmp/x\""),
          ])
    func tableOfWrongType(text: String, found: String) throws {
        let all = problems(in: text + "[target]\ndevice = \"/dev/gpstarget\"\n[onboard]\ndevice = \"/dev/gpsonboard\"\n")
        let table = String(text.prefix { $0 != " " && $0 != "\n" }.filter { $0 != "[" && $0 != "]" })
        #expect(all == [.wrongType(path: Self.path, line: 1, key: table, expected: "a table ([\(table)])",
                                   found: found)])
    }

    @Test("a TOML syntax error is reported alone with its line and column",
          arguments: [
              ("[follow]\nstandoff_m = 6\naltitude_m = = 3\n", 3),
              ("[gpsd]\nhost = \"127.0.0.1\nport = 2947\n", 2),
              ("[follow]\nstandoff_m = 6\nstandoff_m = 7\n", 3),  // duplicate key
              ("[follow\nstandoff_m = 6\n", 1),
              ("# fine\n\n\n[drone]\naddress = 192.168.1.1\n", 5),  // unquoted string
          ])
    func syntaxError(text: String, line: Int) throws {
        let all = problems(in: text)
        try #require(all.count == 1, "\(all)")
        guard case .syntax(let path, let reportedLine, let column, let message) = all[0] else {
            Issue.record("expected .syntax, got \(all[0])")
            return
        }
        #expect(path == Self.path && reportedLine == line && column >= 1 && !message.isEmpty)
    }

    @Test("a NUL byte is a syntax error at its position, not a silently shortened file")
    func nulByte() {
        let text = "[follow]\nstandoff_m = 6\nalt\u{0}itude_m = 3\n"
        #expect(problems(in: text) == [.syntax(path: Self.path, line: 3, column: 4,
                                               message: "NUL character (is this a binary file?)")])
    }

    @Test("all problems are reported at once, in line order")
    func collectsAllProblems() throws {
        // Given a document with problems of four kinds on lines 2, 4, 5 and 7
        let text = """
            [follow]
            standof_m = 6
            [onboard]
            mount_offset_deg = "ninety"
            device = "/dev/gpsonboard"
            [failsafe]
            min_battery_pct = 95
            [target]
            device = "/dev/gpstarget"
            [weather]
            """
        // When it is parsed
        let all = problems(in: text)
        // Then every problem is there, ordered by line
        #expect(all == [
            .unknownKey(path: Self.path, line: 2, key: "follow.standof_m", suggestion: "follow.standoff_m"),
            .wrongType(path: Self.path, line: 4, key: "onboard.mount_offset_deg", expected: "a number",
                       found: "string \"ninety\""),
            .outOfRange(path: Self.path, line: 7, key: "failsafe.min_battery_pct", value: "95", range: "5 to 90"),
            .unknownTable(path: Self.path, line: 10, table: "weather", suggestion: nil),
        ])
    }

    @Test("keys work the same through inline tables, dotted keys and quoted keys")
    func alternativeSpellings() throws {
        let text = """
            target = { device = "/dev/gpstarget" }
            onboard.device = "/dev/gpsonboard"
            [ follow ]
            "standoff_m" = 12
            'altitude_m' = 4
            """
        let c = try FollowMeConfiguration.parse(toml: text, path: Self.path)
        #expect(c.target.device == "/dev/gpstarget" && c.onboard.device == "/dev/gpsonboard")
        #expect(c.follow.standoffMeters == 12 && c.follow.altitudeMeters == 4)
    }

    @Test("an error inside an inline table is located on its line")
    func inlineTableLine() {
        let text = "# x\nonboard = { device = \"/dev/gpsonboard\", port = \"2947\" }\ntarget.device = \"/dev/gpstarget\"\n"
        #expect(problems(in: text) == [.wrongType(path: Self.path, line: 2, key: "onboard.port",
                                                  expected: "an integer", found: "string \"2947\"")])
    }
}

@Suite("Edit distance and suggestions")
struct SuggestionTests {
    @Test("optimal-string-alignment distance",
          arguments: [
              ("ofset", "offset", 1), ("prot", "port", 1), ("kitten", "sitting", 3), ("", "abc", 3),
              ("abc", "", 3), ("same", "same", 0), ("ab", "ba", 1), ("host", "port", 2),
          ])
    func distance(a: String, b: String, expected: Int) {
        #expect(editDistance(a, b) == expected)
        #expect(editDistance(b, a) == expected)
    }

    @Test("short names only match within one edit")
    func shortNamesStrict() {
        #expect(ConfigSchema.closest(to: "hots", among: ["host", "port"]) == "host")
        #expect(ConfigSchema.closest(to: "pots", among: ["host", "port"]) == nil)
    }
}
