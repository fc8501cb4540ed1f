/// Finds the one table header that crashes TOMLKit's parser, so it can be reported as a syntax error.
///
/// toml++ 3.x (the C++ parser inside TOMLKit) checks, in `parser::parse_key()`, that a key starts with
/// a bare-key character or a quote with `TOML_ASSERT_ASSUME` — an `assert` that stays on in our builds
/// (SwiftPM does not define `NDEBUG`, so it aborts the process; with `NDEBUG` it would be undefined
/// behaviour). `parse_table_header()` calls it after `[` / `[[` and blanks for anything but `]`, so a
/// header such as `[=]`, `[é]`, `[#]`, `[.a]` or a lone `[` at the end of a line kills `followme`
/// instead of printing `FILE:LINE: …` (found by `followme fuzz config`). Key-value pairs and inline
/// tables check the character first and are not affected.
///
/// The scan follows TOML's statement structure like toml++ does: a `[` counts as a header only at the
/// start of a statement, never inside a string, a multi-line string, an array or an inline table.
/// toml++ stops at the first error, so only a header after a valid prefix can crash it; on text that
/// is already malformed earlier the scan may still name a header, which is then reported instead of
/// toml++'s own (earlier) syntax error — the document is rejected either way.
enum TOMLHeaderGuard {
    /// A table header toml++ would crash on: 1-based line and column of the offending character.
    struct MalformedHeader: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// The first header in `text` whose key starts with a character toml++ cannot handle, or `nil`.
    static func malformedTableHeader(in text: String) -> MalformedHeader? {
        var scanner = HeaderScanner(bytes: Array(text.utf8))
        return scanner.scan()
    }
}

private struct HeaderScanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), cr = UInt8(ascii: "\r")
    private static let newline = UInt8(ascii: "\n"), hash = UInt8(ascii: "#")
    private static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    private static let equals = UInt8(ascii: "="), comma = UInt8(ascii: ",")

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    /// toml++ `is_ascii_bare_key_character` (unicode bare keys are an unreleased TOML feature it has off).
    private static func isBareKeyByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }

    mutating func scan() -> TOMLHeaderGuard.MalformedHeader? {
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
                    return malformed(at: index)
                }
                skipRestOfLine()  // a header is one line; its quoted keys cannot hold a newline
            } else {
                skipKeyValuePair()
                skipRestOfLine()
            }
        }
    }

    private func malformed(at offset: Int) -> TOMLHeaderGuard.MalformedHeader {
        // Column in characters, like TOMLKit's errors; the offending character decoded for the message.
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        var end = offset + 1
        while end < bytes.count, end - offset < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let found: String
        switch bytes[offset] {
        case Self.newline, Self.cr: found = "end of line"
        case Self.space...0x7E: found = "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
        case 0x80...: found = "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
        default: found = "control character U+00\(bytes[offset] < 0x10 ? "0" : "")\(String(bytes[offset], radix: 16, uppercase: true))"
        }
        return .init(line: line, column: column,
                     message: "Error while parsing table header: expected a bare key (A-Z a-z 0-9 _ -) or a "
                        + "quoted key after '[', saw \(found)")
    }

    // MARK: Key-value pairs

    /// `key = value`: a dotted / quoted key, `=`, then one value. Stops early on anything malformed
    /// (toml++ reports that itself).
    private mutating func skipKeyValuePair() {
        while let b = current, b != Self.equals, b != Self.newline {
            if b == Self.quote || b == Self.apostrophe {
                skipSingleLineString(delimiter: b)
            } else {
                index += 1
            }
        }
        guard current == Self.equals else { return }
        index += 1
        skipSpaces()
        skipValue()
    }

    /// One value, arrays and inline tables included, without recursion (nesting depth is unbounded
    /// in the text). Comments and newlines inside arrays are skipped; strings are skipped whole.
    private mutating func skipValue() {
        var depth = 0
        repeat {
            if depth > 0 { skipBlankLinesAndComments() }
            guard let b = current else { return }
            switch b {
            case Self.quote, Self.apostrophe:
                if peek(1) == b, peek(2) == b { skipMultilineString(delimiter: b) } else { skipSingleLineString(delimiter: b) }
            case Self.openBracket, Self.openBrace:
                depth += 1
                index += 1
            case Self.closeBracket, Self.closeBrace:
                guard depth > 0 else { return }
                depth -= 1
                index += 1
            case Self.comma, Self.equals, Self.space, Self.tab:
                guard depth > 0 else { return }
                index += 1
            case Self.newline, Self.hash:
                guard depth > 0 else { return }
            default:
                // Number, boolean, date/time, bare key inside an inline table: runs to a separator.
                index += 1
                while let c = current, !Self.endsScalar(c) { index += 1 }
            }
        } while depth > 0
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

    /// `"""…"""` or `'''…'''`; the closing run may hold up to two extra quotes that belong to the content.
    private mutating func skipMultilineString(delimiter: UInt8) {
        index += 3
        while let b = current {
            if b == Self.backslash, delimiter == Self.quote {
                index += 1
                if current == Self.newline { newLine() } else if current != nil { index += 1 }
                continue
            }
            if b == delimiter, peek(1) == delimiter, peek(2) == delimiter {
                index += 3
                var extra = 0
                while current == delimiter, extra < 2 { index += 1; extra += 1 }
                return
            }
            if b == Self.newline { newLine() } else { index += 1 }
        }
    }

    // MARK: Blanks and comments

    private mutating func newLine() {
        index += 1
        line += 1
        lineStart = index
    }

    private mutating func skipSpaces() {
        while let b = current, b == Self.space || b == Self.tab { index += 1 }
    }

    private mutating func skipBlankLinesAndComments() {
        while let b = current {
            if b == Self.space || b == Self.tab || b == Self.cr {
                index += 1
            } else if b == Self.newline {
                newLine()
            } else if b == Self.hash {
                while let c = current, c != Self.newline { index += 1 }
            } else {
                return
            }
        }
    }

    private mutating func skipRestOfLine() {
        while let b = current {
            if b == Self.newline {
                newLine()
                return
            }
            index += 1
        }
    }
}
