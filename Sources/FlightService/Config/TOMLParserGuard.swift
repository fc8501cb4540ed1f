/// Finds the constructs that crash TOMLKit's parser, so they can be reported as syntax errors.
///
/// toml++ 3.x (the C++ parser inside TOMLKit) states some of its expectations with
/// `TOML_ASSERT_ASSUME` — an `assert` that stays on in our builds (SwiftPM does not define `NDEBUG`)
/// and aborts the process; with `NDEBUG` it would be undefined behaviour. Four are reachable from text
/// it has not rejected yet (1 and 2 found by `followme fuzz config`, 3 and 4 by libFuzzer):
///
/// 1. `parser::parse_key()` expects a bare-key character or a quote. `parse_table_header()` calls it
///    after `[` / `[[` and blanks for anything but `]`: `[=]`, `[é]`, `[#]`, `[.a]`, a lone `[` at the
///    end of a line. (Key-value pairs and inline tables check the character first.)
/// 2. `parser::parse_value()` expects no value terminator. `parse_array()` calls it, where an element
///    may start, for anything it does not skip itself (blanks, line breaks, comments) or handle (`,`
///    `]`): `}` and the non-ASCII line breaks U+0085, U+2028, U+2029 reach it — `[}]`, `[1, }]`,
///    `{ b = [}] }`, `[` U+2028 `]`.
///
/// 3. `parser::parse_time()` expects a digit. `parse_date_time()` calls it after a date and its `T`
///    for any value toml++ classifies as a date-time (digits, `-`, `:` and a `T`): `1979-05-27Tx7:32:00`
///    (found by the libFuzzer `config` target, docs/fuzzing.md), also as a value in an inline table that
///    an `=` follows: `{ a = 1979-05-27T:00:00 = 1 }` (libFuzzer again: in an inline table only a scalar
///    right after `{` or `,` is a key, which parse_key reads without reaching the assertion).
/// 4. `parser::parse_value()`'s scan expects no value terminator. After a 10-character date it rescans
///    ` ` + digit as a date-time, and after a single digit it meets the terminator: `1979-05-27 3` and
///    a line break, `[1979-05-27 3]` (libFuzzer).
///
/// Any of them would make `followme` die with SIGABRT instead of printing `FILE:LINE: …` and exiting 2.
/// The scan follows TOML's structure like toml++ does: a `[` is a header only at the start of a
/// statement, never inside a string, a multi-line string or a value; an array element starts after
/// `[` or `,`. toml++ stops at its first error, so only a construct after a valid prefix can crash
/// it; on text that is malformed earlier the scan may still name a later construct, which is then
/// reported instead of toml++'s own (earlier) syntax error — the document is rejected either way.
enum TOMLParserGuard {
    /// A construct toml++ would crash on: 1-based line and column of the offending character.
    struct Finding: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// The first construct in `text` that toml++ cannot handle, or `nil`.
    static func crashingConstruct(in text: String) -> Finding? {
        var scanner = GuardScanner(bytes: Array(text.utf8))
        return scanner.scan()
    }
}

private struct GuardScanner: TOMLByteScanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// U+0085 (C2 85), U+2028 (E2 80 A8) or U+2029 (E2 80 A9): toml++ `is_non_ascii_vertical_whitespace`.
    private func startsNonASCIILineBreak() -> Bool {
        switch (current, peek(1), peek(2)) {
        case (0xC2, 0x85, _), (0xE2, 0x80, 0xA8), (0xE2, 0x80, 0xA9): return true
        default: return false
        }
    }

    /// toml++ `is_ascii_bare_key_character` (unicode bare keys are an unreleased TOML feature it has off).
    private static func isBareKeyByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }

    mutating func scan() -> TOMLParserGuard.Finding? {
        // toml++ skips a UTF-8 byte order mark at the start of the document (utf8_reader).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        while true {
            skipBlankLinesAndComments()
            guard let byte = current else { return nil }
            if byte == Self.openBracket {
                // parse_table_header: '[', blanks, optional second '[', blanks, then ']' or a key.
                index += 1
                skipSpaces()
                if current == Self.openBracket {
                    index += 1
                    skipSpaces()
                }
                if let first = current, !Self.isBareKeyByte(first), first != Self.quote, first != Self.apostrophe,
                    first != Self.closeBracket
                {
                    return finding(at: index, "Error while parsing table header: expected a bare key "
                        + "(A-Z a-z 0-9 _ -) or a quoted key after '[', saw")
                }
                skipRestOfLine()  // a header is one line; its quoted keys cannot hold a newline
            } else {
                if let found = skipKeyValuePair() { return found }
                skipRestOfLine()
            }
        }
    }

    private func finding(at offset: Int, _ message: String) -> TOMLParserGuard.Finding {
        // Column in characters, like TOMLKit's errors; the offending character decoded for the message.
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        var end = offset + 1
        while end < bytes.count, end - offset < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let found: String
        switch bytes[offset] {
        case Self.newline, Self.cr: found = "end of line"
        case Self.space...0x7E, 0x80...: found = "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
        default: found = "control character 0x\(String(bytes[offset], radix: 16, uppercase: true))"
        }
        return .init(line: line, column: column, message: "\(message) \(found)")
    }

    // MARK: Key-value pairs

    /// `key = value`: a dotted / quoted key, `=`, then one value. Stops early on anything malformed
    /// (toml++ reports that itself).
    private mutating func skipKeyValuePair() -> TOMLParserGuard.Finding? {
        while let b = current, b != Self.equals, b != Self.newline {
            if b == Self.quote || b == Self.apostrophe {
                skipSingleLineString(delimiter: b)
            } else {
                index += 1
            }
        }
        guard current == Self.equals else { return nil }
        index += 1
        skipSpaces()
        return skipValue()
    }

    /// One value, arrays and inline tables included, without recursion (nesting depth is unbounded
    /// in the text). Comments and newlines inside arrays are skipped; strings are skipped whole.
    private mutating func skipValue() -> TOMLParserGuard.Finding? {
        var containers: [UInt8] = []   // open '[' and '{', innermost last
        var elementMayStart = false    // just after '[' or ',' inside an array (parse_array's `prev != val`)
        var keyPosition = false        // just after '{' or ',' inside an inline table: toml++ reads a key, not a value
        repeat {
            if !containers.isEmpty { skipBlankLinesAndComments() }
            guard let b = current else { return nil }
            let inArray = containers.last == Self.openBracket
            if inArray, elementMayStart, b == Self.closeBrace || startsNonASCIILineBreak() {
                return finding(at: index, "Error while parsing array: expected a value, ',' or ']', saw")
            }
            elementMayStart = false
            let scalarIsKey = keyPosition
            keyPosition = false
            switch b {
            case Self.quote, Self.apostrophe:
                if peek(1) == b, peek(2) == b { skipMultilineString(delimiter: b) } else { skipSingleLineString(delimiter: b) }
            case Self.openBracket, Self.openBrace:
                containers.append(b)
                elementMayStart = b == Self.openBracket
                keyPosition = b == Self.openBrace
                index += 1
            case Self.closeBracket, Self.closeBrace:
                guard !containers.isEmpty else { return nil }
                containers.removeLast()
                index += 1
            case Self.comma:
                guard !containers.isEmpty else { return nil }
                elementMayStart = inArray
                keyPosition = !inArray
                index += 1
            case Self.space, Self.tab:
                guard !containers.isEmpty else { return nil }
                keyPosition = scalarIsKey  // blanks between '{' / ',' and the key
                index += 1
            case Self.equals:
                guard !containers.isEmpty else { return nil }
                index += 1
            case Self.newline, Self.hash:
                guard !containers.isEmpty else { return nil }
                keyPosition = scalarIsKey  // toml++ rejects a line break in an inline table itself
            default:
                // Number, boolean, date/time, bare key inside an inline table: runs to a separator.
                let start = index
                index += 1
                while let c = current, !Self.endsScalar(c) { index += 1 }
                // A key in an inline table goes to parse_key, which cannot reach either assertion;
                // after its '=' the scalar is a value, whatever follows it (`{ a = 1979-05-27T:00 = 1 }`).
                if scalarIsKey {
                    keyPosition = current == Self.space || current == Self.tab  // `{ a . b = 1 }`: still the key
                    continue
                }
                if let found = dateTimeWithoutHour(at: start) ?? dateThenOneDigit(at: start) { return found }
            }
        } while !containers.isEmpty
        return nil
    }

    /// Construct 3: `YYYY-MM-DDT` (or `t`) followed by anything but a digit, in a value scalar running from
    /// `start` to `index`.
    private func dateTimeWithoutHour(at start: Int) -> TOMLParserGuard.Finding? {
        let hour = start + 11
        guard hour < bytes.count, index > start + 10 else { return nil }
        let isDigit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let datePattern = Array("0000-00-00".utf8)
        for (offset, expected) in datePattern.enumerated() {
            let b = bytes[start + offset]
            guard expected == UInt8(ascii: "-") ? b == expected : isDigit(b) else { return nil }
        }
        guard bytes[start + 10] == UInt8(ascii: "T") || bytes[start + 10] == UInt8(ascii: "t"), !isDigit(bytes[hour])
        else { return nil }
        return finding(at: hour, "Error while parsing date-time: expected 2-digit hour after 'T', saw")
    }

    /// Construct 4: a value of 10 characters (toml++ counts code points up to a value terminator and skips `_`)
    /// with `-` 5th and 8th, a space, one digit, then anything but a digit: toml++ rescans it as a date-time
    /// and asserts on the terminator. Any such text is invalid TOML, so flagging more than the crash is safe.
    private func dateThenOneDigit(at start: Int) -> TOMLParserGuard.Finding? {
        let isDigit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard isDigit(bytes[start]) else { return nil }
        var characters: [Unicode.Scalar] = []
        var end = start  // byte offset just after toml++'s token
        for scalar in String(decoding: bytes[start..<min(bytes.count, start + 64)], as: UTF8.self).unicodeScalars {
            if scalar.properties.isWhitespace || ",]}#".unicodeScalars.contains(scalar) { break }
            end += String(scalar).utf8.count
            if scalar != "_" { characters.append(scalar) }
        }
        guard characters.count == 10, characters[4] == "-", characters[7] == "-",
              end + 2 < bytes.count, bytes[end] == Self.space, isDigit(bytes[end + 1]), !isDigit(bytes[end + 2])
        else { return nil }
        return finding(at: end + 2, "Error while parsing date-time: expected a 2-digit hour after the date, saw")
    }

    private static func endsScalar(_ b: UInt8) -> Bool {
        b == space || b == tab || b == cr || b == newline || b == comma || b == closeBracket || b == closeBrace
            || b == hash || b == equals || b == openBracket || b == openBrace || b == quote || b == apostrophe
    }

    // MARK: Strings

    /// `"…"` (with escapes) or `'…'`; ends at the closing delimiter or the end of the line.
    private mutating func skipSingleLineString(delimiter: UInt8) {
        index += 1
        while let b = current, b != Self.newline {
            index += 1
            if b == delimiter { return }
            if b == Self.backslash, delimiter == Self.quote, current != Self.newline, current != nil { index += 1 }
        }
    }

    // MARK: Blanks and comments

    mutating func newLine() {
        index += 1
        line += 1
        lineStart = index
    }

    private mutating func skipSpaces() {
        while let b = current, b == Self.space || b == Self.tab { index += 1 }
    }
}
