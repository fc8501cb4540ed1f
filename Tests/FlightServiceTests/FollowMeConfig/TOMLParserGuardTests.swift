import Testing
@testable import FlightService

/// Constructs that made toml++ abort the process (found by `followme fuzz config`) are syntax
/// errors now; brackets and braces inside strings, multi-line strings, arrays and inline tables that
/// toml++ handles are left to it.
@Suite("TOML parser guard")
struct TOMLParserGuardTests {

    static let crashing: [(text: String, line: Int, column: Int)] = [
        // parse_table_header → parse_key
        (text: "[=]\n", line: 1, column: 2),
        (text: "[\n", line: 1, column: 2),
        (text: "[é]\n", line: 1, column: 2),
        (text: "[#]\n", line: 1, column: 2),
        (text: "[ .a]\n", line: 1, column: 3),
        (text: "[[ +x]]\n", line: 1, column: 4),
        (text: "[gpsd]\nhost = \"x\"\n\n  [\u{1F681}]\n", line: 4, column: 4),
        (text: "a = [\n  1,\n  [2],\n]\n[\t=]\n", line: 5, column: 3),
        (text: "a = \"\"\"\nx\n\"\"\"\n[=]\n", line: 4, column: 2),
        // parse_array → parse_value
        (text: "a = [}]\n", line: 1, column: 6),
        (text: "a = [[ }]]\n", line: 1, column: 8),
        (text: "a = [1, }]\n", line: 1, column: 9),
        (text: "a = [\n# c\n}\n]\n", line: 3, column: 1),
        (text: "[gpsd]\nhost = { b = [}] }\n", line: 2, column: 15),
        (text: "x = [\"[\", '}', \"\"\"\n]\"\"\", }]\n", line: 2, column: 7),
        (text: "\u{FEFF}[=]\n", line: 1, column: 2),  // after a byte order mark
        (text: "a = [\u{85}]\n", line: 1, column: 6),
        (text: "a = [1,\n\u{2028}]\n", line: 2, column: 1),
        (text: "a = [[[\u{2029}]]]\n", line: 1, column: 8),
        // parse_date_time → parse_time (libFuzzer, Fuzz/findings/config/)
        (text: "t = 1979-05-27Tx7:32:00\n", line: 1, column: 16),
        (text: "[gpsd]\nt = [1979-05-27t:00:00]\n", line: 2, column: 17),
        (text: "t = 3958-05-27T::703t02arget_timeout_s =0Z\n", line: 1, column: 16),
        // a value in an inline table followed by '=' is still a value (libFuzzer, Fuzz/findings/config/)
        (text: "t = 1979-05-27T07:32:00z\nd = { po= 1979-05-27T:7032:00Zrt = 3.\n", line: 2, column: 22),
        (text: "x = { a = 1979-05-27T:00:00 = 1 }\n", line: 1, column: 22),
        (text: "x = { a = 1, b = 1979-05-27t:00:00 = 1 }\n", line: 1, column: 29),
        (text: "x = { a = { b = 1979-05-27Tx7:32:00 = 1 } }\n", line: 1, column: 28),
        // parse_value's scan after a date, a space and one digit (libFuzzer)
        (text: "t = 1979-05-1d 3\nd = *{i", line: 1, column: 17),
        (text: "[gpsd]\nt = [1979-05-27 3]\n", line: 2, column: 18),
        (text: "t = 1_979-05-27 3 # x\n", line: 1, column: 18),
        (text: "t = 1979-05-== 1 } } ]\nynim0xits]e.nimits]\n", line: 1, column: 17),
        (text: "t = 19w9-0\u{FFFD}-\u{FFFD}= 2#9ho(", line: 1, column: 17),
    ]

    @Test("A construct toml++ would abort on is one syntax error at its offending character", arguments: crashing)
    func crashingConstructIsSyntaxError(_ c: (text: String, line: Int, column: Int)) throws {
        // Given a document with a construct that trips an assertion in toml++
        let found = TOMLParserGuard.crashingConstruct(in: c.text)
        // Then the guard names it
        #expect(found?.line == c.line)
        #expect(found?.column == c.column)
        // And parse reports it as the one syntax error instead of crashing
        let result = Result { () throws(ConfigProblems) in try FollowMeConfiguration.parse(toml: c.text, path: "x.toml") }
        let problems = try #require(result.failure?.problems)
        #expect(problems == [.syntax(path: "x.toml", line: c.line, column: c.column, message: found?.message ?? "")])
    }

    static let harmless: [String] = [
        "[gpsd]\nhost = \"127.0.0.1\"\n",
        "[ gpsd ]\n[[x]]\n[\"quoted\"]\n['literal']\n[a.b]\n[-]\n[_]\n[0]\n",
        "x = \"[=]\"\n",
        "x = '[=]'\n",
        "x = \"\"\"\n[=]\n\"\"\"\n",
        "x = '''\n[é]\n'''\n",
        "x = \"\"\"\\\n[=]\"\"\"\n",
        "x = [\n[+1],\n[ {a = 1} ],\n# [=]\n]\n",
        "x = { a = [1, 2], b = \"[=]\" }\n",
        "x = [ {}, { a = { b = 1 } } ]\n",
        "x = [ \"}\", '}', \"\"\"}\"\"\" ]\n",
        "x = [1 }]\n",  // toml++ rejects it ("expected comma") without crashing
        "x = [1\u{2028}]\n",  // the same
        "x = { 1979-05-27Tx = 1 }\n",  // a bare key spelt like a date-time
        "x = { a = 1, 1979-05-27Tx = 2 }\n",  // the same after a comma
        "x = [ { 1979-05-27Tx = 1 }, {\t1979-05-27T:0 . b = 2 } ]\n",  // in an array; a dotted key with blanks
        "x = { a . 1979-05-27T:0 = 1 }\n",
        "x = 1979-05-27T07:32:00Z\n",
        "x = 1979-05-27 07:32:00\n",
        "x = 1979-05-27 # a local date, then a comment\n",
        "x = [\u{A0}]\n",  // toml++: "expected space or tab"
        "x = [\"\u{2028}\"]\n",  // inside a string
        "# [=] [}]\n",
        "[]\n",  // toml++ rejects "tables with blank bare keys" itself
        "[",  // toml++ reports the end of the text itself
    ]

    @Test("Brackets and braces that toml++ handles are not flagged", arguments: harmless)
    func harmlessTextPasses(_ text: String) {
        #expect(TOMLParserGuard.crashingConstruct(in: text) == nil)
        // And TOMLKit gets them and answers (a config or problems), without crashing.
        _ = Result { () throws(ConfigProblems) in try FollowMeConfiguration.parse(toml: text, path: "x.toml") }
    }
}
