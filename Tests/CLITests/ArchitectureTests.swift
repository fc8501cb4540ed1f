import Foundation  // test-only: read Package.swift, README.md and the sources from disk
import Testing

/// The architecture a newcomer reads (README's table, docs/architecture.md) is the one Package.swift
/// builds, and the pure modules really are pure: no clock, socket, file, logger or shell module.
@Suite("Architecture: README table = Package.swift; pure modules stay pure")
struct ArchitectureTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: repo.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Non-test targets declared in Package.swift (`.target`, `.executableTarget`, `.systemLibrary`, `.macro`).
    static func packageTargets() throws -> Set<String> {
        let package = try text("Package.swift")
        let pattern = /\.(?:target|executableTarget|systemLibrary|macro)\(\s*name:\s*"([A-Za-z0-9_]+)"/
        return Set(package.matches(of: pattern).map { String($0.1) })
    }

    /// The README's architecture table: module name → kind (`pure`, `shell`, `C`, `CLI`, `tool`, `test`).
    static func readmeTable() throws -> [String: String] {
        let readme = try text("README.md")
        guard let start = readme.range(of: "\n## Architecture\n") else { return [:] }
        let section = readme[start.upperBound...].prefix { _ in true }
        var table: [String: String] = [:]
        for line in section.split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { continue }
            // A row may name several modules: `A`, `B`.
            for name in cells[1].split(separator: ",") {
                table[name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[2]
            }
        }
        return table
    }

    @Test("the README's architecture table lists exactly the targets Package.swift declares")
    func tableMatchesPackage() throws {
        let targets = try Self.packageTargets()
        let table = try Self.readmeTable()
        #expect(!targets.isEmpty && !table.isEmpty)
        #expect(Set(table.keys) == targets,
                "only in Package.swift: \(targets.subtracting(table.keys).sorted()); only in README: \(Set(table.keys).subtracting(targets).sorted())")
    }

    /// What a pure module must never import or call (docs/style.md: functional core, imperative shell).
    /// (Glibc is allowed: the pure modules use its maths, `sin`/`atan2`; its clocks are in `forbiddenCalls`.)
    static let forbiddenImports = ["NIOCore", "NIOPosix", "Logging", "Dispatch", "CGPS", "ShellSupport", "DroneLink",
                                   "GPSClient", "FlightService", "FlightLog", "SimulatorServer", "TrackFiles",
                                   "ServiceLifecycle"]
    static let forbiddenCalls = ["ContinuousClock", "SuspendingClock", "Date()", "clock_gettime", "SystemClock",
                                 "FileManager", "contentsOfFile", "Thread.sleep", "usleep(", "print("]

    @Test("pure modules import no shell module and call no clock, file system or printer")
    func pureModulesArePure() throws {
        let pure = try Self.readmeTable().filter { $0.value == "pure" }.keys.sorted()
        #expect(pure.count >= 6, "the README marks too few modules pure: \(pure)")
        for module in pure {
            let directory = Self.repo.appendingPathComponent("Sources/\(module)")
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "\(module) has no sources")
            for file in files {
                let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                for line in code {
                    for name in Self.forbiddenImports where line.hasPrefix("import \(name)") || line.hasPrefix("@testable import \(name)") {
                        Issue.record("\(module)/\(file) imports \(name)")
                    }
                    for call in Self.forbiddenCalls where line.contains(call) {
                        Issue.record("\(module)/\(file) uses \(call): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
    }

    @Test("no source file is over 450 lines (split by concern)")
    func fileSizes() throws {
        var oversized: [String] = []
        for root in ["Sources", "Tests", "Performance"] {
            let directory = Self.repo.appendingPathComponent(root)
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") && !$0.contains(".build/") }
            for file in files {
                let lines = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false).count
                if lines > 451 { oversized.append("\(root)/\(file): \(lines)") }
            }
        }
        #expect(oversized.isEmpty, "\(oversized.sorted())")
    }

    @Test("no two modules declare a top-level type of the same name")
    func uniqueTypeNames() throws {
        let pattern = /^(?:public |package |internal )?(?:final )?(?:struct|enum|class|actor|protocol) ([A-Z][A-Za-z0-9_]*)/
        var owners: [String: Set<String>] = [:]
        for root in ["Sources", "Tests/TestSupport"] {
            let directory = Self.repo.appendingPathComponent(root)
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }
            for file in files {
                let module = root == "Sources" ? String(file.split(separator: "/")[0]) : "TestSupport"
                let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in source.split(separator: "\n") {
                    if let match = line.prefixMatch(of: pattern) { owners[String(match.1), default: []].insert(module) }
                }
            }
        }
        let shared = owners.filter { $0.value.count > 1 }.map { "\($0.key): \($0.value.sorted())" }.sorted()
        #expect(owners.count > 50)
        #expect(shared.isEmpty, "\(shared)")
    }

    /// Each target's own-package dependencies as Package.swift declares them (a rough parse of
    /// `.target(name: "X", dependencies: ["A", "B", …])`; every regular and executable target also
    /// gets `MemberwiseInit` from the loop at the end of the manifest).
    static func declaredDependencies() throws -> [String: Set<String>] {
        let package = try text("Package.swift")
        let targets = try packageTargets()
        var result: [String: Set<String>] = [:]
        let opener = /\.(?:target|executableTarget|testTarget|macro)\(\s*name:\s*"([A-Za-z0-9_]+)"/
        let matches = package.matches(of: opener)
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : package.endIndex
            let block = package[match.range.upperBound..<end]
            var deps: Set<String> = ["MemberwiseInit"]
            for quoted in block.matches(of: /"([A-Za-z0-9_]+)"/) where targets.contains(String(quoted.1)) {
                deps.insert(String(quoted.1))
            }
            result[String(match.1), default: []].formUnion(deps)
        }
        return result
    }

    @Test("every module imports only the package's modules it declares as dependencies (a release build needs them)")
    func importsAreDeclared() throws {
        let targets = try Self.packageTargets()
        let declared = try Self.declaredDependencies()
        var undeclared: [String] = []
        for root in ["Sources", "Tests"] {
            let directory = Self.repo.appendingPathComponent(root)
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }
            for file in files {
                let module = String(file.split(separator: "/")[0])
                guard let deps = declared[module] else { continue }
                let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in source.split(separator: "\n") {
                    guard let match = line.prefixMatch(of: /(?:@testable )?import ([A-Za-z0-9_]+)$/) else { continue }
                    let imported = String(match.1)
                    if targets.contains(imported) && imported != module && !deps.contains(imported) {
                        undeclared.append("\(root)/\(file) imports \(imported)")
                    }
                }
            }
        }
        #expect(declared.count > 30)
        #expect(undeclared.isEmpty, "\(undeclared.sorted())")
    }
}
