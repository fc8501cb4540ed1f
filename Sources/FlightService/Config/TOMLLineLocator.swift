/// Finds the line on which each table and key of a TOML document is first written.
///
/// TOMLKit does not expose source positions of nodes, so error messages would have no line without
/// this. It scans the raw text the way TOML does: `[table]` and `[[array.of.tables]]` headers (spaces
/// inside the brackets allowed), bare / `"quoted"` / `'literal'` / dotted keys, inline tables, and it
/// skips comments, strings (including multi-line ones) and arrays, so a `[x]` or `k = v` inside a
/// string or array is not mistaken for a header or key.
///
/// Meant for documents TOMLKit has already accepted; on malformed text it skips what it cannot read
/// instead of failing. Lines are 1-based, like TOMLKit's parse errors.
struct TOMLLineLocator: Sendable {
    /// Key path (`["onboard", "mount_offset_deg"]`) → first line that defines it. A table's line is its
    /// header, or the first dotted key / inline table that creates it implicitly.
    private(set) var lines: [[String]: Int] = [:]

    init(text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.scanDocument()
        lines = scanner.lines
    }

    /// The line where the table or key at `path` is first written, or `nil` if it is not in the text.
    func line(of path: [String]) -> Int? { lines[path] }

    /// Convenience for `line(of: [table, key])`.
    func line(table: String, key: String) -> Int? { lines[[table, key]] }
}

private struct Scanner: TOMLByteScanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lines: [[String]: Int] = [:]

    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Document level

    mutating func scanDocument() {
        var table: [String] = []
        while true {
            skipBlankLinesAndComments()
            guard let byte = current else { return }
            let startLine = line
            if byte == Self.openBracket {
                let isArrayOfTables = peek(1) == Self.openBracket
                index += isArrayOfTables ? 2 : 1
                skipSpaces()
                if let path = keyPath() {
                    table = path
                    record(path, line: startLine)
                }
            } else if let path = keyPath() {
                skipSpaces()
                if current == Self.equals {
                    index += 1
                    record(table + path, line: startLine)
                    skipSpaces()
                    skipValue(recordingKeysUnder: table + path)
                }
            }
            skipRestOfLine()
        }
    }

    /// Records `path` and each of its prefixes (the implicitly created tables) at their first line.
    private mutating func record(_ path: [String], line: Int) {
        guard !path.isEmpty else { return }
        for length in 1...path.count where lines[Array(path.prefix(length))] == nil {
            lines[Array(path.prefix(length))] = line
        }
    }

    // MARK: Keys

    /// `a.b."c d".'e'` with optional spaces around the dots; `nil` if no key starts here.
    private mutating func keyPath() -> [String]? {
        var path: [String] = []
        while true {
            guard let part = simpleKey() else { return path.isEmpty ? nil : path }
            path.append(part)
            skipSpaces()
            guard current == Self.dot else { return path }
            index += 1
            skipSpaces()
        }
    }

    private mutating func simpleKey() -> String? {
        guard let byte = current else { return nil }
        if byte == Self.quote { return basicString() }
        if byte == Self.apostrophe { return literalString() }
        let start = index
        while let b = current, Self.isBareKeyByte(b) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    private static func isBareKeyByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }

    /// A single-line `"…"` string with its escapes decoded; the cursor is on the opening quote.
    private mutating func basicString() -> String {
        index += 1
        var decoded: [UInt8] = []
        while let b = current, b != Self.quote, b != Self.newline {
            index += 1
            guard b == Self.backslash, let escaped = current else {
                decoded.append(b)
                continue
            }
            index += 1
            switch escaped {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "u"): decoded.append(contentsOf: unicodeEscape(digits: 4))
            case UInt8(ascii: "U"): decoded.append(contentsOf: unicodeEscape(digits: 8))
            default: decoded.append(escaped)  // \" and \\ (anything else is rejected by TOMLKit first)
            }
        }
        if current == Self.quote { index += 1 }
        return String(decoding: decoded, as: UTF8.self)
    }

    private mutating func unicodeEscape(digits: Int) -> [UInt8] {
        let end = min(index + digits, bytes.count)
        let hex = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end
        guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { return [] }
        return Array(String(Character(scalar)).utf8)
    }

    /// A single-line `'…'` string (no escapes); the cursor is on the opening apostrophe.
    private mutating func literalString() -> String {
        index += 1
        let start = index
        while let b = current, b != Self.apostrophe, b != Self.newline { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if current == Self.apostrophe { index += 1 }
        return text
    }

    // MARK: Values

    /// Skips one value. Inline-table keys are recorded under `prefix`; array contents are not keys.
    private mutating func skipValue(recordingKeysUnder prefix: [String]?) {
        guard let byte = current else { return }
        switch byte {
        case Self.quote, Self.apostrophe:
            if peek(1) == byte, peek(2) == byte {
                skipMultilineString(delimiter: byte)
            } else if byte == Self.quote {
                _ = basicString()
            } else {
                _ = literalString()
            }
        case Self.openBracket:
            index += 1
            while nextElement(closedBy: Self.closeBracket) {
                skipValue(recordingKeysUnder: nil)
            }
        case Self.openBrace:
            index += 1
            while nextElement(closedBy: Self.closeBrace) {
                let keyLine = line
                guard let path = keyPath() else { index += 1; continue }
                skipSpaces()
                guard current == Self.equals else { continue }
                index += 1
                if let prefix { record(prefix + path, line: keyLine) }
                skipSpaces()
                skipValue(recordingKeysUnder: prefix.map { $0 + path })
            }
        default:
            // Number, boolean, date/time, nan/inf: runs to the next separator. Always advance, so a
            // stray byte in malformed text cannot stall the scan.
            index += 1
            while let b = current, !Self.endsScalar(b) { index += 1 }
        }
    }

    /// Steps over blank lines, comments and commas inside an array or inline table to the next
    /// element: true there; false at the end of the text or once `close` is stepped over.
    private mutating func nextElement(closedBy close: UInt8) -> Bool {
        while true {
            skipBlankLinesAndComments()
            guard let b = current else { return false }
            if b == close { index += 1; return false }
            if b == Self.comma { index += 1; continue }
            return true
        }
    }

    private static func endsScalar(_ b: UInt8) -> Bool {
        b == space || b == tab || b == cr || b == newline || b == comma || b == closeBracket || b == closeBrace
            || b == hash
    }

    // MARK: Whitespace and comments

    mutating func newLine() {
        index += 1
        line += 1
    }

    private mutating func skipSpaces() {
        while let b = current, b == Self.space || b == Self.tab || b == Self.cr { index += 1 }
    }
}
