import Foundation
import Testing

/// Every fact the code cites lives in this repository: comments, scripts, deployment files and docs
/// cite `docs/<file>.md §N.N` (or `docs/style.md habit N`), and this suite checks that each cited
/// file exists, each cited section is a heading of that file, each cited habit exists, and that
/// nothing names the team's old out-of-repo notes (docs/style.md habit 22; issue 13 item 4).
@Suite struct DocCitationTests {
    // MARK: - The repository

    /// The package checkout (this file is Tests/followmeTests/CLI/DocCitationTests.swift).
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where citations may appear: folders (walked recursively) and single files.
    static let scannedRoots = ["Sources", "Tests", "Performance", "Fuzz", "scripts", "etc", "udev", "docs", ".ci", "tracks",
                               "README.md", "PERFORMANCE.md", "Package.swift"]
    /// Text files that can carry a citation. Files without an extension are scanned under etc/,
    /// udev/, scripts/ and .ci/ only (etc/default/gpsd is a shell fragment, .ci/run a script).
    static let scannedExtensions: Set<String> = ["swift", "sh", "py", "toml", "service", "rules", "md", "h", "c",
                                                 "yml", "yaml"]

    /// One scanned line.
    struct SourceLine: Sendable, CustomStringConvertible {
        let path: String
        let number: Int
        let text: String
        var description: String { "\(path):\(number)" }
    }

    /// All scanned lines, read once per test process.
    static let lines: [SourceLine] = {
        var result: [SourceLine] = []
        let manager = FileManager.default
        for root in scannedRoots {
            let rootURL = repo.appendingPathComponent(root)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: rootURL.path, isDirectory: &isDirectory) else { continue }
            var files: [String] = []
            if isDirectory.boolValue {
                let enumerator = manager.enumerator(atPath: rootURL.path)
                while let relative = enumerator?.nextObject() as? String {
                    let components = relative.split(separator: "/")
                    // Build products and SwiftPM state are not the repo's text.
                    if components.contains(where: { $0.hasPrefix(".build") || $0 == ".swiftpm" }) { continue }
                    files.append(root + "/" + relative)
                }
            } else {
                files.append(root)
            }
            for file in files.sorted() where isScanned(file) {
                guard let text = try? String(contentsOf: repo.appendingPathComponent(file), encoding: .utf8) else {
                    continue
                }
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    result.append(SourceLine(path: file, number: index + 1, text: String(line)))
                }
            }
        }
        return result
    }()

    static func isScanned(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: repo.appendingPathComponent(path).path, isDirectory: &isDirectory),
              !isDirectory.boolValue else { return false }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return scannedExtensions.contains(String(name[name.index(after: dot)...]))
        }
        return ["etc/", "udev/", "scripts/", ".ci/"].contains { path.hasPrefix($0) }
    }

    // MARK: - Citations

    /// What a citation points at inside the cited file.
    enum Target: Equatable, Sendable, CustomStringConvertible {
        /// A section number (`§3.4`, `section 0`, or a bare `3.4`), optionally a numbered item in it (`§1.5 #1`).
        case section(String, item: Int?)
        /// A habit of docs/style.md (`habit 12`, or a bare `18`).
        case habit(Int)
        var description: String {
            switch self {
            case let .section(number, item?): "§\(number) #\(item)"
            case let .section(number, nil): "§\(number)"
            case let .habit(number): "habit \(number)"
            }
        }
    }

    /// One `docs/<file>.md …` citation on one line.
    struct Citation: Sendable, CustomStringConvertible {
        let line: SourceLine
        /// Path inside the repo, e.g. `docs/gpsd.md`.
        let file: String
        let targets: [Target]
        var description: String {
            "\(line): \(file)" + (targets.isEmpty ? "" : " " + targets.map(\.description).joined(separator: ", "))
        }
    }

    /// `docs/<path>.md`, also written `../docs/…` from a subfolder.
    nonisolated(unsafe) static let docPath = #/(?:\.\./)?(docs/[A-Za-z0-9_./-]+?\.md)/#
    /// One reference after the file name: `§3.4`, `§ 3.4`, `section 0`, `habit 12`, `18`, a range
    /// `§2.2–2.4` (both ends are checked) and an item `§1.5 #1`.
    nonisolated(unsafe) static let reference =
        #/^(§ ?|section |habit )?(\d{1,2}(?:\.\d{1,2})*)(?: ?[–-] ?§?(\d{1,2}(?:\.\d{1,2})*))?(?: #(\d{1,2}))?(?![\d.]*\d)/#
    /// Between two references: `, ` `/` ` and `.
    nonisolated(unsafe) static let separator = #/^\s*(?:,|/|and)\s*/#

    /// The targets cited right after a file name: `tail` is the rest of the line after `….md`.
    static func targets(in tail: Substring, habits: Bool) -> [Target] {
        var rest = tail
        if rest.hasPrefix("`") { rest = rest.dropFirst() }
        rest = rest.drop { $0 == " " }
        var targets: [Target] = []
        var sawMarker = false
        while let match = rest.prefixMatch(of: reference) {
            let marker = match.output.1.map(String.init)
            // After a `§` reference, a bare number is prose ("§1.3, 200 Hz"), not a section.
            if marker == nil && sawMarker { break }
            sawMarker = sawMarker || marker != nil
            let number = String(match.output.2)
            if habits || marker == "habit " {
                if let habit = Int(number) { targets.append(.habit(habit)) }
            } else {
                let item = match.output.4.flatMap { Int($0) }
                targets.append(.section(number, item: item))
                if let end = match.output.3 { targets.append(.section(String(end), item: nil)) }
            }
            rest = rest[match.range.upperBound...]
            guard let gap = rest.prefixMatch(of: separator) else { break }
            rest = rest[gap.range.upperBound...]
        }
        return targets
    }

    /// Every citation in the scanned files. A file name that ends its line continues on the next
    /// comment line (`…docs/ardrone-protocol.md` / `/// §2.3): …`), so that line's start is its tail.
    static let citations: [Citation] = lines.indices.flatMap { index in
        let line = lines[index]
        return line.text.matches(of: docPath).map { match in
            let file = String(match.output.1)
            var tail = line.text[match.range.upperBound...]
            if tail.allSatisfy(\.isWhitespace), index + 1 < lines.count, lines[index + 1].path == line.path {
                tail = lines[index + 1].text.drop { " \t/#*".contains($0) }
            }
            return Citation(line: line, file: file, targets: targets(in: tail, habits: file == "docs/style.md"))
        }
    }

    // MARK: - Headings and habits of the cited docs

    /// Section numbers of a markdown file: headings like `## 3. Navdata`, `### 3.4 Demo option`,
    /// `## §1 AT*REF…` give "3", "3.4", "1".
    static func sectionNumbers(of markdown: String) -> [String: Int] {
        var sections: [String: Int] = [:]
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let match = line.prefixMatch(of: #/^#{1,6}\s*§?\s*(\d+(?:\.\d+)*)\.?(?:\s|$)/#) {
                sections[String(match.output.1)] = index
            }
        }
        return sections
    }

    /// The numbered list items (`1. …`) between a heading and the next heading.
    static func items(of markdown: String, sectionLine: Int) -> Set<Int> {
        var items: Set<Int> = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(sectionLine + 1) {
            if line.hasPrefix("#") { break }
            if let match = line.prefixMatch(of: #/^\s*(\d+)\.\s/#), let number = Int(match.output.1) {
                items.insert(number)
            }
        }
        return items
    }

    /// docs/style.md's habits: top-level numbered items `12. **…`.
    static func habitNumbers(of markdown: String) -> Set<Int> {
        Set(markdown.split(separator: "\n").compactMap { line in
            line.prefixMatch(of: #/^(\d+)\.\s/#).flatMap { Int($0.output.1) }
        })
    }

    /// The cited docs, read once (nil for a missing file).
    static let docTexts: [String: String] = Dictionary(
        Set(citations.map(\.file)).compactMap { file in
            (try? String(contentsOf: repo.appendingPathComponent(file), encoding: .utf8)).map { (file, $0) }
        },
        uniquingKeysWith: { first, _ in first })

    static func text(of file: String) -> String? { docTexts[file] }

    // MARK: - The parser reads the forms the repo uses

    @Test("a citation's tail is read as sections, ranges, items and habits", arguments: [
        ("docs/ardrone-protocol.md §3.4).", false, [Target.section("3.4", item: nil)]),
        ("docs/ardrone-protocol.md §2.1, §2.3, §9.2) and counts", false,
         [.section("2.1", item: nil), .section("2.3", item: nil), .section("9.2", item: nil)]),
        ("docs/gpsd.md §2.2–2.4: `-n`", false, [.section("2.2", item: nil), .section("2.4", item: nil)]),
        ("docs/gpsd.md §1.5 #1), so", false, [.section("1.5", item: 1)]),
        ("docs/dynamics-and-follow.md §1.2/§1.4 with the", false,
         [.section("1.2", item: nil), .section("1.4", item: nil)]),
        ("docs/ardrone-protocol.md 1.1, 4.", false, [.section("1.1", item: nil), .section("4", item: nil)]),
        ("docs/dynamics-and-follow.md section 0).", false, [.section("0", item: nil)]),
        ("`../docs/gpsd.md` §5.", false, [.section("5", item: nil)]),
        ("docs/ardrone-protocol.md §1.3, 200 Hz", false, [.section("1.3", item: nil)]),
        ("docs/stopping-model.md): 10.34 m", false, []),
        ("docs/style.md habit 20, docs/gpsd.md §2.3", true, [.habit(20)]),
        ("docs/style.md 18)", true, [.habit(18)]),
    ])
    func parsesTheForms(line: String, habits: Bool, expected: [Target]) throws {
        // Given a line with one citation, when its tail is parsed
        let match = try #require(line.firstMatch(of: Self.docPath))
        let parsed = Self.targets(in: line[match.range.upperBound...], habits: habits)
        // Then the targets are exactly the cited ones
        #expect(parsed == expected)
    }

    @Test("the scan finds the repo's citations (it cannot pass by finding none)")
    func scanFindsCitations() {
        let withTargets = Self.citations.filter { !$0.targets.isEmpty }
        // About 100 citations at the time of writing; a broken scanner would find (almost) none.
        #expect(Self.citations.count >= 80, "only \(Self.citations.count) citations found")
        #expect(withTargets.count >= 60, "only \(withTargets.count) citations name a section or habit")
        let files = Set(Self.citations.map(\.file))
        for doc in ["docs/ardrone-protocol.md", "docs/gpsd.md", "docs/dynamics-and-follow.md", "docs/style.md"] {
            #expect(files.contains(doc), "no citation of \(doc) found")
        }
    }

    // MARK: - The checks

    @Test("every cited docs/ file exists in the repo")
    func citedFilesExist() {
        let missing = Self.citations.filter { Self.text(of: $0.file) == nil }
        #expect(missing.isEmpty, "cited files missing:\n\(missing.map(\.description).joined(separator: "\n"))")
    }

    @Test("every cited section is a heading of the cited file (and a cited #item is in it)")
    func citedSectionsExist() {
        var problems: [String] = []
        let sectionsByFile = Self.docTexts.mapValues(Self.sectionNumbers(of:))
        for citation in Self.citations where citation.file != "docs/style.md" {
            // A missing file is citedFilesExist's failure.
            guard let markdown = Self.text(of: citation.file), let sections = sectionsByFile[citation.file] else { continue }
            for case let .section(number, item) in citation.targets {
                guard let line = sections[number] else {
                    problems.append("\(citation): no heading §\(number) in \(citation.file)")
                    continue
                }
                if let item, !Self.items(of: markdown, sectionLine: line).contains(item) {
                    problems.append("\(citation): §\(number) of \(citation.file) has no item \(item).")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) broken section citations:\n\(problems.joined(separator: "\n"))")
    }

    @Test("every cited habit exists in docs/style.md")
    func citedHabitsExist() throws {
        let habits = Self.habitNumbers(of: try #require(Self.text(of: "docs/style.md")))
        #expect(habits.count >= 20, "docs/style.md lists only \(habits.count) habits")
        let broken = Self.citations.filter { citation in
            citation.file == "docs/style.md" && citation.targets.contains { target in
                if case let .habit(number) = target { return !habits.contains(number) }
                return true  // a § section of style.md: habits are numbered, not sectioned
            }
        }
        #expect(broken.isEmpty, "broken habit citations:\n\(broken.map(\.description).joined(separator: "\n"))")
    }

    /// The old citation forms and paths outside the repo: the team's notes lived in a sibling
    /// `shared/` folder (`reference/<topic>.md`, `STYLE.md`); a doc named without `docs/` or "reference §…" does
    /// not say which file of this repo is meant.
    static let bareDocName = "a doc named without docs/"
    static let forbidden: [(pattern: String, why: String)] = [
        (#"\.\./shared\b"#, "names a path outside the repo"),
        (#"\bshared/(?:reference|fixtures)/"#, "names the out-of-repo notes"),
        (#"(?<![\w/])reference/[\w-]+\.md"#, "old citation form: cite docs/<topic>.md"),
        (#"\bSTYLE\.md"#, "old citation form: cite docs/style.md habit N"),
        (#"(?<![\w/.-])(?:ardrone-protocol|gpsd|dynamics-and-follow|style)\.md"#, bareDocName),
        (#"\breference (?:doc )?§"#, "\"reference §\": name the file, docs/<topic>.md §N"),
    ]

    @Test("nothing names the out-of-repo notes or cites a doc without its path")
    func noOutOfRepoPaths() {
        let patterns = Self.forbidden.map { (try! NSRegularExpression(pattern: $0.pattern), $0.why) }
        var problems: [String] = []
        for line in Self.lines where !line.path.hasSuffix("/DocCitationTests.swift") {
            let range = NSRange(line.text.startIndex..., in: line.text)
            for (pattern, why) in patterns where pattern.firstMatch(in: line.text, range: range) != nil {
                // Inside docs/ a sibling note is linked by its bare name (`[gpsd.md](gpsd.md)`).
                if why == Self.bareDocName && line.path.hasPrefix("docs/") { continue }
                problems.append("\(line): \(why): \(line.text.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) lines:\n\(problems.joined(separator: "\n"))")
    }
}
