import FlightService
import FollowCore
/// Deterministic mutation fuzzer for ``FollowMeConfiguration/parse(toml:path:)``.
///
/// Each iteration mutates a corpus document (normally the shipped `etc/followme.toml`, handed in by
/// the shell) 1–4 times — byte flips and replacements, line deletions / duplications / moves /
/// joins, key renames (typos, keys of other tables, quoted, dotted, unicode, empty), values
/// replaced by nan / inf / huge / negative / wrong-typed / random ones, inserted table headers,
/// deep nesting, truncation (also inside a UTF-8 sequence), random unicode, CRLF — or, 1 time in 16,
/// builds a purely random document. Every input is parsed, which must either return a
/// configuration or throw ``ConfigProblems``; a crash ends the process (the failure a fuzz run looks
/// for). Thrown problems are checked: at least one; each names the document's path; every problem
/// but a syntax error names a key; lines lie inside the document; a syntax error comes alone. An
/// accepted configuration must render to TOML that parses back to an equal value.
/// The same seed and corpus always produce the same report.
public enum ConfigFuzzer {
    /// Path handed to the parser; every problem must carry it.
    public static let fuzzPath = "fuzz/followme.toml"
    /// Inputs longer than this (bytes) are cut, so deep-nesting and duplication runs stay bounded.
    static let maximumInputBytes = 65_536

    /// A compact flyable document built in: the per-key defaults rendered, with both device paths
    /// set (what `etc/followme.toml` holds, without its comments). For runs without a corpus file.
    public static var builtInCorpus: [String] {
        var flyable = FollowMeConfiguration.defaults
        flyable.target.device = "/dev/gpstarget"
        flyable.onboard.device = "/dev/gpsonboard"
        return [flyable.renderedTOML()]
    }

    /// Runs `iterations` inputs mutated from `corpus` (documents; must not be empty).
    public static func run(iterations: Int, seed: UInt64, corpus: [String]) -> ConfigFuzzReport {
        precondition(!corpus.isEmpty, "the fuzz corpus must not be empty")
        let documents = corpus.map { Array($0.utf8) }
        var rng = SplitMix64(seed: seed)
        var report = ConfigFuzzReport()
        var input: [UInt8] = []
        input.reserveCapacity(maximumInputBytes)
        for _ in 0..<iterations {
            makeInput(into: &input, corpus: documents, using: &rng)
            check(String(decoding: input, as: UTF8.self), into: &report)
        }
        return report
    }

    /// Parses one document and records the outcome and any broken invariant in `report`.
    package static func check(_ text: String, into report: inout ConfigFuzzReport) {
        report.iterations += 1
        let result = Result { () throws(ConfigProblems) in try FollowMeConfiguration.parse(toml: text, path: fuzzPath) }
        switch result {
        case .success(let configuration):
            report.acceptedCount += 1
            let rendered = configuration.renderedTOML()
            let reparsed = Result { () throws(ConfigProblems) in
                try FollowMeConfiguration.parse(toml: rendered, path: fuzzPath)
            }
            if case .success(let again) = reparsed, again == configuration { return }
            report.roundTripMismatchCount += 1
            if report.firstRoundTripMismatch == nil { report.firstRoundTripMismatch = text }
        case .failure(let problems):
            report.rejectedCount += 1
            if let violation = invariantViolation(problems, text: text) {
                report.invariantViolationCount += 1
                if report.firstInvariantViolation == nil {
                    report.firstInvariantViolation = ConfigFuzzReport.Violation(reason: violation, input: text)
                }
            }
            for problem in problems.problems {
                report.problemCountsByKind[ConfigProblemKind(problem), default: 0] += 1
            }
        }
    }

    /// Why `problems` break the contract of `parse` for `text`, or `nil` if they keep it.
    package static func invariantViolation(_ problems: ConfigProblems, text: String) -> String? {
        guard !problems.problems.isEmpty else { return "ConfigProblems is empty" }
        let lineCount = text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        for problem in problems.problems {
            let kind = ConfigProblemKind(problem)
            if problem.path != fuzzPath { return "\(kind.rawValue) problem has path \"\(problem.path)\"" }
            switch problem {
            case .fileNotFound, .unreadable:
                // Only the shell reads files; the parser must classify everything it rejects.
                return "parse reported a file-level problem: \(problem.description)"
            case .syntax(_, let line, let column, _):
                if problems.problems.count != 1 { return "a syntax error is not reported alone" }
                if line < 1 || line > lineCount { return "syntax error on line \(line) of \(lineCount)" }
                if column < 1 { return "syntax error in column \(column)" }
            default:
                guard let key = problem.key else { return "\(kind.rawValue) problem without a key" }
                // An empty name is legal TOML (`[""]`, `"" = 1`), but only if the document writes one.
                if key.isEmpty, !text.contains("\"\""), !text.contains("''") {
                    return "\(kind.rawValue) problem with an empty key"
                }
                if let line = problem.line, line < 1 || line > lineCount {
                    return "\(kind.rawValue) problem for \(key) on line \(line) of \(lineCount)"
                }
            }
            if !problem.description.hasPrefix(fuzzPath) { return "message does not start with the path" }
        }
        return nil
    }

    // MARK: Inputs

    /// Fills `input` with the next fuzz input (UTF-8 bytes; invalid sequences become U+FFFD).
    package static func makeInput(into input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        let mutated = makeMutatedInput(
            into: &input, corpus: corpus, using: &rng, randomOneIn: 16, mutationCount: 1...4,
            random: { makeRandomDocument(into: &$0, using: &$1) },
            mutate: { mutate(&$0, corpus: corpus, using: &$1) })
        if mutated && input.count > maximumInputBytes { input.removeSubrange(maximumInputBytes...) }
    }

    /// Random lines of headers, `key = value` pairs, comments and noise.
    private static func makeRandomDocument(into input: inout [UInt8], using rng: inout SplitMix64) {
        for _ in 0..<rng.nextInt(in: 0...24) {
            switch rng.nextInt(below: 6) {
            case 0: append(rng.pick(tableHeaders), to: &input)
            case 1, 2: append("\(randomKey(using: &rng)) = \(randomValue(using: &rng))", to: &input)
            case 3: append("# " + randomUnicode(count: rng.nextInt(below: 40), using: &rng), to: &input)
            case 4: append(randomUnicode(count: rng.nextInt(below: 40), using: &rng), to: &input)
            default: for _ in 0..<rng.nextInt(below: 40) { input.append(rng.nextByte()) }
            }
            input.append(UInt8(ascii: "\n"))
        }
    }

    private static func mutate(_ input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        switch rng.nextInt(below: 16) {
        case 0:  // bit flips
            guard !input.isEmpty else { return }
            for _ in 0..<rng.nextInt(in: 1...8) {
                input[rng.nextInt(below: input.count)] ^= 1 << UInt8(rng.nextInt(below: 8))
            }
        case 1:  // bytes replaced by TOML grammar bytes, controls or UTF-8 lead bytes
            guard !input.isEmpty else { return }
            for _ in 0..<rng.nextInt(in: 1...4) {
                input[rng.nextInt(below: input.count)] = rng.pick(interestingBytes)
            }
        case 2:  // delete a line
            guard let line = randomLine(input, using: &rng) else { return }
            input.removeSubrange(line.lowerBound..<min(line.upperBound + 1, input.count))
        case 3:  // duplicate a line (a key or header defined twice)
            guard let line = randomLine(input, using: &rng) else { return }
            let copy = Array(input[line]) + [UInt8(ascii: "\n")]
            input.insert(contentsOf: copy, at: line.lowerBound)
        case 4:  // move a line elsewhere (a key under another table)
            guard let line = randomLine(input, using: &rng) else { return }
            let moved = Array(input[line]) + [UInt8(ascii: "\n")]
            input.removeSubrange(line.lowerBound..<min(line.upperBound + 1, input.count))
            let target = randomLine(input, using: &rng)?.lowerBound ?? 0
            input.insert(contentsOf: moved, at: target)
        case 5, 6:  // rename a key
            guard let (key, _) = randomAssignment(input, using: &rng) else { return }
            let old = String(decoding: input[key], as: UTF8.self)
            input.replaceSubrange(key, with: Array(renamedKey(old, using: &rng).utf8))
        case 7, 8, 9:  // replace a value
            guard let (_, value) = randomAssignment(input, using: &rng) else { return }
            input.replaceSubrange(value, with: Array(randomValue(using: &rng).utf8))
        case 10:  // truncate anywhere, also inside a UTF-8 sequence
            guard !input.isEmpty else { return }
            input.removeSubrange(rng.nextInt(below: input.count)...)
        case 11:  // insert random unicode
            let text = Array(randomUnicode(count: rng.nextInt(in: 1...16), using: &rng).utf8)
            input.insert(contentsOf: text, at: rng.nextInt(below: input.count + 1))
        case 12:  // insert a table header or a known key with a value at a line start
            let line = rng.chance(1, in: 2)
                ? rng.pick(tableHeaders)
                : "\(rng.pick(knownKeys)) = \(randomValue(using: &rng))"
            let at = randomLine(input, using: &rng)?.lowerBound ?? 0
            input.insert(contentsOf: Array((line + "\n").utf8), at: at)
        case 13:  // deep nesting as a value
            guard let (_, value) = randomAssignment(input, using: &rng) else { return }
            input.replaceSubrange(value, with: Array(nested(depth: rng.pick([8, 100, 300, 1000, 5000]),
                                                            inlineTables: rng.chance(1, in: 2)).utf8))
        case 14:  // line structure: join two lines, CRLF, tabs, a stray carriage return
            guard let line = randomLine(input, using: &rng) else { return }
            switch rng.nextInt(below: 4) {
            case 0 where line.upperBound < input.count: input.remove(at: line.upperBound)
            case 1: input.insert(UInt8(ascii: "\r"), at: line.upperBound)
            case 2: input.insert(UInt8(ascii: "\t"), at: line.lowerBound)
            default: input = Array(String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\r\n").utf8)
            }
        default:  // splice: head of this document + tail of another corpus document
            let other = rng.pick(corpus)
            guard !input.isEmpty, !other.isEmpty else { return }
            input.removeSubrange(rng.nextInt(below: input.count)...)
            input.append(contentsOf: other[rng.nextInt(below: other.count)...])
        }
    }

    // MARK: Mutation material

    private static let interestingBytes: [UInt8] = Array("\"'[]{}=#.,\\ \t\n0-+e_:".utf8)
        + [0x00, 0x01, 0x08, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF8, 0xFF]

    private static let tableHeaders: [String] = ConfigSchema.tableNames.map { "[\($0)]" } + [
        "[[gpsd]]", "[[follow]]", "[unknown]", "[folow]", "[failsafes]", "[follow.extra]", "[ \"follow\" ]",
        "['log']", "[a.b.c]", "[]", "[[]]", "[gpsd", "gpsd]", "[\"\"]", "[\"ünïcode\"]", "[\"\u{1F681}\"]",
        "[follow] # comment", "[ drone . limits ]",
    ]

    private static let knownKeys: [String] = ConfigSchema.dottedKeys.map { dotted in
        String(dotted.split(separator: ".", maxSplits: 1)[1])
    }

    private static let values: [String] = [
        "nan", "+nan", "-nan", "inf", "+inf", "-inf", "1e308", "-1e308", "1e309", "1.7976931348623157e308",
        "5e-324", "2.2250738585072014e-308", "-0.0", "0", "-0", "0.0", "-1", "-45", "1", "2", "3", "4.99", "5",
        "6", "10", "49.5", "50", "50.0000001", "90", "100", "359.999", "360", "720", "65535", "65536", "2947.0",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999",
        "1_000", "1__0", "0x7FFF_FFFF", "0xFFFFFFFFFFFFFFFF", "0o777", "0b1010", "1e2", "1E-2", "3.", ".5",
        "01", "+5", "6.0", "true", "false", "TRUE", "yes", "\"\"", "\"ninety\"", "''", "'/dev/x'", "\"6\"",
        "\"\"\"\nmulti\nline\"\"\"", "'''lit\n[gpsd]\nhost = 1'''", "[]", "[1, 2]", "[\"a\", 1]", "[[1], [2]]",
        "{}", "{ a = 1 }", "{ host = \"x\" }", "{ port = 2947, port = 1 }", "1979-05-27T07:32:00Z",
        "1979-05-27", "07:32:00", "1979-05-27 07:32:00.999999-07:00", "1979-02-30", "\"\\u0000\"",
        "\"\\uD800\"", "\"\\U0010FFFF\"", "\"\\U00110000\"", "\"\\x41\"", "\"\\e\"", "\"tcp://127.0.0.1:2947\"",
        "\"::1\"", "\"fe80::1%eth0\"", "\"127.0.0.1:2947\"", "\"256.1.1.1\"", "\"1.2.3\"", "\"/dev/gps target\"",
        "\"/dev/gpstarget\"", "\"/dev/gpsonboard\"", "\"relative/path\"", "\"127.0.0.1\"", "\"192.168.1.1\"",
        "\"" + String(repeating: "a", count: 300) + "\"", "\"/dev/" + String(repeating: "g", count: 130) + "\"",
        "nan # comment", "6 6", "= 6", "", "\"unterminated", "'unterminated", "\"\"\"unterminated",
    ]

    private static func randomValue(using rng: inout SplitMix64) -> String {
        switch rng.nextInt(below: 8) {
        case 0:  // a random double at a random scale, printed the shortest way
            let magnitude = rng.pick([1e-3, 0.5, 1, 3, 10, 100, 1e4, 1e9, 1e20, 1e300])
            let value = (Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1) * magnitude
            return "\(value)"
        case 1:  // a random integer, small or not
            return rng.chance(1, in: 2) ? "\(rng.nextInt(in: -100...70_000))" : "\(Int64(bitPattern: rng.next()))"
        case 2:  // a random string
            return "\"" + randomUnicode(count: rng.nextInt(below: 24), using: &rng)
                .replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
        default:
            return rng.pick(values)
        }
    }

    private static func randomKey(using rng: inout SplitMix64) -> String {
        rng.chance(1, in: 2) ? rng.pick(knownKeys) : renamedKey(rng.pick(knownKeys), using: &rng)
    }

    /// A typo of `key`, another table's key, a quoted / dotted / unicode / empty key, or noise.
    private static func renamedKey(_ key: String, using rng: inout SplitMix64) -> String {
        var scalars = Array(key.unicodeScalars)
        switch rng.nextInt(below: 10) {
        case 0 where !scalars.isEmpty:  // delete one character
            scalars.remove(at: rng.nextInt(below: scalars.count))
        case 1:  // insert one character
            scalars.insert(Unicode.Scalar(UInt8(rng.pick(Array("abcdefghijklmnopqrstuvwxyz_-0".utf8)))),
                           at: rng.nextInt(below: scalars.count + 1))
        case 2 where scalars.count >= 2:  // swap two neighbours
            let i = rng.nextInt(below: scalars.count - 1)
            scalars.swapAt(i, i + 1)
        case 3:  // a key of any table (often the wrong one)
            return rng.pick(knownKeys)
        case 4:  // upper case
            return String(String.UnicodeScalarView(scalars)).uppercased()
        case 5:  // quoted: the same key, or with a space
            return rng.chance(1, in: 2) ? "\"\(key)\"" : "\"\(key) \""
        case 6:  // dotted
            return rng.pick(["\(key).x", "gpsd.\(key)", "\(key).\(key)", "a.b.c.d", "'\(key)'.x"])
        case 7:  // unicode, quoted
            return "\"" + randomUnicode(count: rng.nextInt(in: 1...8), using: &rng)
                .replacingAll("\\", with: "").replacingAll("\"", with: "") + "\""
        case 8:
            return rng.pick(["\"\"", "''", "1234", "-", "_", "true", "nan", "inf", "a b", "é", "\u{1F681}", "[x]"])
        default:  // a random bare key
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz_-0123456789ABCZ".utf8)
            var bytes: [UInt8] = []
            for _ in 0..<rng.nextInt(in: 1...20) { bytes.append(rng.pick(alphabet)) }
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// `depth` nested arrays (`[[[…]]]`) or inline tables (`{ a = { a = … } }`).
    private static func nested(depth: Int, inlineTables: Bool) -> String {
        inlineTables
            ? String(repeating: "{ a = ", count: depth) + "1" + String(repeating: " }", count: depth)
            : String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// Unicode scalars from ranges chosen to upset parsers: controls, NUL, Latin-1, combining marks,
    /// zero-width and bidi controls, line/paragraph separators, BOM, CJK, emoji, private use, U+10FFFF.
    private static func randomUnicode(count: Int, using rng: inout SplitMix64) -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x20...0x7E, 0x00...0x1F, 0x7F...0x7F, 0x80...0xFF, 0x300...0x36F, 0x200B...0x200F,
            0x202A...0x202E, 0x2028...0x2029, 0xFEFF...0xFEFF, 0xFFFD...0xFFFF, 0x4E00...0x9FFF,
            0x1F300...0x1FAFF, 0xE000...0xE0FF, 0x10FFFF...0x10FFFF,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            let range = rng.pick(ranges)
            let value = range.lowerBound + UInt32(rng.nextInt(below: Int(range.upperBound - range.lowerBound) + 1))
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    // MARK: Finding lines and assignments

    /// A random line (without its newline); nil for empty input.
    private static func randomLine(_ input: [UInt8], using rng: inout SplitMix64) -> Range<Int>? {
        guard !input.isEmpty else { return nil }
        let lines = lineRanges(input)
        return rng.pick(lines)
    }

    private static func lineRanges(_ input: [UInt8]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for (index, byte) in input.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(start..<index)
            start = index + 1
        }
        if start < input.count { lines.append(start..<input.count) }
        return lines
    }

    /// A random `key = value` line: the key's byte range and the value's (from after `= ` to the
    /// end of the line, trailing comment included); nil if there is none.
    private static func randomAssignment(
        _ input: [UInt8], using rng: inout SplitMix64
    ) -> (key: Range<Int>, value: Range<Int>)? {
        let assignments = lineRanges(input).compactMap { line -> (Range<Int>, Range<Int>)? in
            var keyStart = line.lowerBound
            while keyStart < line.upperBound, input[keyStart] == UInt8(ascii: " ") || input[keyStart] == UInt8(ascii: "\t") {
                keyStart += 1
            }
            guard keyStart < line.upperBound, input[keyStart] != UInt8(ascii: "#"),
                input[keyStart] != UInt8(ascii: "["),
                let equals = input[keyStart..<line.upperBound].firstIndex(of: UInt8(ascii: "="))
            else { return nil }
            var keyEnd = equals
            while keyEnd > keyStart, input[keyEnd - 1] == UInt8(ascii: " ") { keyEnd -= 1 }
            var valueStart = equals + 1
            while valueStart < line.upperBound, input[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            return (keyStart..<keyEnd, valueStart..<line.upperBound)
        }
        return assignments.isEmpty ? nil : rng.pick(assignments)
    }

    private static func append(_ text: String, to input: inout [UInt8]) {
        input.append(contentsOf: text.utf8)
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation in pure modules).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
