import Testing
@testable import FlightRecords

@Suite("TextFormats: JSON and TOML strings, XML escapes, fixed decimals")
struct TextFormatsTests {
    @Test("a JSON string escapes quotes, backslashes and control characters (lower-case hex, DEL as is)")
    func jsonString() {
        var out = ""
        JSONLine.appendString("a\"b\\c\nd\t\u{01}\u{7F}é", to: &out)
        #expect(out == "\"a\\\"b\\\\c\\nd\\t\\u0001\u{7F}é\"")
    }

    @Test("a TOML basic string escapes the same plus DEL, upper-case hex")
    func tomlString() {
        var out = ""
        appendQuoted("x\u{1B}\u{7F}\"", to: &out, uppercaseHex: true, escapeDelete: true)
        #expect(out == "\"x\\u001B\\u007F\\\"\"")
    }

    @Test("the five XML specials are escaped, everything else kept")
    func xml() {
        #expect(xmlEscaped("<a href=\"x\">Tom & Jerry's</a> ü") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt; ü")
    }

    @Test("fixed rounds half away from zero, pads, and spells out non-finite values", arguments: [
        (-1.25, 1, "-1.3"), (0.004, 2, "0.00"), (-0.004, 2, "0.00"), (2, 0, "2"), (1.5, 3, "1.500"),
        (Double.nan, 1, "nan"), (-Double.infinity, 2, "-inf"),
    ])
    func fixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(fixed(value, decimals: decimals) == expected)
    }

    @Test("a JSON line keeps insertion order and writes non-finite numbers as null")
    func jsonLine() {
        var line = JSONLine()
        line.add("role", "target"); line.add("speed", Double.nan); line.add("n", 3); line.add("ok", true)
        #expect(line.string == "{\"role\":\"target\",\"speed\":null,\"n\":3,\"ok\":true}")
    }
}
