/// The cursor the two TOML scanners share (`TOMLLineLocator`'s and `TOMLParserGuard`'s): the bytes,
/// the position, the ASCII bytes TOML's structure is made of, and the skips that mean the same to
/// both (blank lines, comments, the rest of a line). Each scanner counts lines in `newLine()`.
protocol TOMLByteScanner {
    var bytes: [UInt8] { get }
    var index: Int { get set }
    /// Steps over the newline at `index` and counts the line.
    mutating func newLine()
}

extension TOMLByteScanner {
    static var space: UInt8 { UInt8(ascii: " ") }
    static var tab: UInt8 { UInt8(ascii: "\t") }
    static var cr: UInt8 { UInt8(ascii: "\r") }
    static var newline: UInt8 { UInt8(ascii: "\n") }
    static var hash: UInt8 { UInt8(ascii: "#") }
    static var quote: UInt8 { UInt8(ascii: "\"") }
    static var apostrophe: UInt8 { UInt8(ascii: "'") }
    static var backslash: UInt8 { UInt8(ascii: "\\") }
    static var openBracket: UInt8 { UInt8(ascii: "[") }
    static var closeBracket: UInt8 { UInt8(ascii: "]") }
    static var openBrace: UInt8 { UInt8(ascii: "{") }
    static var closeBrace: UInt8 { UInt8(ascii: "}") }
    static var equals: UInt8 { UInt8(ascii: "=") }
    static var dot: UInt8 { UInt8(ascii: ".") }
    static var comma: UInt8 { UInt8(ascii: ",") }

    /// The byte at the cursor, `nil` at the end.
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The byte `offset` past the cursor, `nil` past the end.
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    /// Skips spaces, tabs, carriage returns, newlines and `#` comments up to the next content.
    mutating func skipBlankLinesAndComments() {
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

    /// Skips to just after the next newline (a trailing comment, the `]` of a header, a date's time part).
    mutating func skipRestOfLine() {
        while let b = current {
            if b == Self.newline {
                newLine()
                return
            }
            index += 1
        }
    }

    /// `"""…"""` or `'''…'''`; the closing run may hold up to two extra quotes that belong to the content.
    mutating func skipMultilineString(delimiter: UInt8) {
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
}
