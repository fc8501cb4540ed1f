import Foundation  // test-only: read Package.swift, docs/architecture.md and the sources from disk
import Testing

/// The module map is written once, in docs/architecture.md §1, and it is the one Package.swift builds
/// and Sources/ holds: the same targets, kinds, folders and dependencies; the pure modules really are
/// pure (no clock, socket, file, logger, Foundation or shell module); each test target is named after
/// the module it tests (docs/architecture.md §1.1).
@Suite("Architecture: docs/architecture.md's map = Package.swift = Sources/; pure modules stay pure")
struct ArchitectureTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The drone families and the shell module each family sub-folder is compiled into, as
    /// Package.swift's `families` and `familyParts` say (`familyFoldersMatchPackage` checks).
    static let families = ["ARDrone", "MAVLink"]
    static let familyParts = ["Link": "Links", "Service": "FlightService", "Simulation": "Simulation", "Drone": "followme"]

    /// The module a file under Sources/ is compiled into: `ARDrone/Link/DroneLink.swift` → Links.
    static func module(ofSource file: String) -> String {
        let parts = file.split(separator: "/").map(String.init)
        if parts.count > 2, families.contains(parts[0]), let shell = familyParts[parts[1]] { return shell }
        return parts[0]
    }

    /// The Swift files of `module` (paths under Sources/), wherever Package.swift takes them from.
    static func sourceFiles(of module: String) -> [String] {
        let all = FileManager.default.enumerator(atPath: repo.appendingPathComponent("Sources").path)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".swift") && Self.module(ofSource: $0) == module }
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: repo.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Non-test targets declared in Package.swift (`.target`, `.executableTarget`, `.systemLibrary`, `.macro`).
    static func packageTargets() throws -> Set<String> {
        let package = try text("Package.swift")
        let pattern = /\.(?:target|executableTarget|systemLibrary|macro|plugin)\(\s*name:\s*"([A-Za-z0-9_]+)"/
        return Set(package.matches(of: pattern).map { String($0.1) })
    }

    /// Test targets declared in Package.swift (`.testTarget(name: "X"` or its `tests("X", …)` helper).
    static func testTargets() throws -> Set<String> {
        let package = try text("Package.swift")
        let pattern = /(?:\.testTarget\(\s*name:\s*|\btests\(\s*)"([A-Za-z0-9_]+)"/
        return Set(package.matches(of: pattern).map { String($0.1) })
    }

    /// One row of the map: kind (`pure`, `shell`, `C`, `CLI`, `tool`, `test`), folders, own-package uses.
    struct MapRow: Equatable {
        var kind: String
        /// Sub-folders of Sources/<module>; "(top level…)" means files directly in it.
        var folders: [String]
        var uses: Set<String>
    }

    /// The table after the `module-map` marker in docs/architecture.md.
    static func moduleMap() throws -> [String: MapRow] {
        let doc = try text("docs/architecture.md")
        guard let marker = doc.range(of: "<!-- module-map") else { return [:] }
        var map: [String: MapRow] = [:]
        for line in doc[marker.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let folders = cells[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let uses = Set(cells[4].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "—" })
            map[name] = MapRow(kind: cells[2], folders: folders, uses: uses)
        }
        return map
    }

    @Test("the map lists exactly the targets Package.swift declares, and no macro")
    func mapMatchesPackage() throws {
        let targets = try Self.packageTargets()
        let map = try Self.moduleMap()
        #expect(!targets.isEmpty && !map.isEmpty)
        #expect(Set(map.keys) == targets,
                "only in Package.swift: \(targets.subtracting(map.keys).sorted()); only in the map: \(Set(map.keys).subtracting(targets).sorted())")
        let package = try Self.text("Package.swift")
        #expect(!package.contains(".macro(") && !package.contains("swift-syntax"), "a macro target or swift-syntax is back")
    }

    @Test("every test target is named after a module of the map plus `Tests`; Tests/ holds the test targets and the map's test support")
    func testTargetsNamedAfterModules() throws {
        let map = try Self.moduleMap()
        let modules = map.filter { $0.value.kind != "test" }.keys
        let support = Set(map.filter { $0.value.kind == "test" }.keys)
        let testTargets = try Self.testTargets()
        #expect(testTargets.count >= 5 && !support.isEmpty, "test targets \(testTargets.sorted()), support \(support.sorted())")
        let named = Set(modules.map { $0 + "Tests" })
        #expect(testTargets.isSubset(of: named), "not named after a module: \(testTargets.subtracting(named).sorted())")
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.repo.appendingPathComponent("Tests").path)
            .filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == testTargets.union(support), "Tests/ holds \(folders.sorted())")
    }

    @Test("each module's folders in Sources/ are the ones the map names")
    func foldersMatchMap() throws {
        let map = try Self.moduleMap()
        #expect(map.count >= 8)
        for (module, row) in map where !["C", "test"].contains(row.kind) {
            let directory = Self.repo.appendingPathComponent("Sources/\(module)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            var isDirectory: ObjCBool = false
            let folders = Set(entries.filter {
                FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }).subtracting(Self.families.contains(module) ? Set(Self.familyParts.keys) : [])
            let named = Set(row.folders.filter { !$0.hasPrefix("(") })
            #expect(folders == named, "\(module): in Sources/ \(folders.sorted()), in the map \(named.sorted())")
            let topLevel = entries.contains { $0.hasSuffix(".swift") }
            #expect(topLevel == row.folders.contains { $0.hasPrefix("(top level") },
                    "\(module): files at the top level \(topLevel), the map says \(row.folders)")
        }
    }

    @Test("each module uses exactly the package modules the map says (Package.swift's dependencies)")
    func usesMatchMap() throws {
        let map = try Self.moduleMap()
        let declared = try Self.declaredDependencies()
        for (module, row) in map where row.kind != "C" {
            #expect(declared[module] == row.uses, "\(module): Package.swift \(declared[module]?.sorted() ?? []), the map \(row.uses.sorted())")
        }
    }

    /// What a pure module must never import or call (docs/style.md: functional core, imperative shell).
    /// (Glibc is allowed: the pure modules use its maths, `sin`/`atan2`; its clocks are in `forbiddenCalls`.)
    static let forbiddenImports = ["Foundation", "FoundationEssentials", "NIOCore", "NIOPosix", "Logging", "Dispatch", "CGPS",
                                   "Links", "FlightRecords", "FlightService", "Simulation", "ServiceLifecycle", "TOMLKit",
                                   "ArgumentParser"]
    static let forbiddenCalls = ["ContinuousClock", "SuspendingClock", "Date()", "clock_gettime", "SystemClock",
                                 "FileManager", "contentsOfFile", "Thread.sleep", "usleep(", "print("]

    @Test("pure modules import no shell module and call no clock, file system or printer")
    func pureModulesArePure() throws {
        let pure = try Self.moduleMap().filter { $0.value.kind == "pure" }.keys.sorted()
        #expect(pure.count >= 3, "the map marks too few modules pure: \(pure)")
        for module in pure {
            let files = Self.sourceFiles(of: module)
            #expect(!files.isEmpty, "\(module) has no sources")
            for file in files {
                let source = try Self.text("Sources/\(file)")
                let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                #expect(!source.contains("@MemberwiseInit"), "\(file) uses the removed macro")
                for line in code {
                    for name in Self.forbiddenImports where line.hasPrefix("import \(name)") || line.hasPrefix("@testable import \(name)") {
                        Issue.record("\(file) imports \(name)")
                    }
                    for call in Self.forbiddenCalls where line.contains(call) {
                        Issue.record("\(file) uses \(call): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
    }

    @Test("a drone family's folder (its pure module and its shell parts) does not import another family's module")
    func familiesStayApart() throws {
        let families = Self.families
        for family in families {
            let directory = Self.repo.appendingPathComponent("Sources/\(family)")
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "\(family) has no sources")
            for file in files {
                let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for other in families where other != family {
                    for line in source.split(separator: "\n") where line.hasPrefix("import \(other)") || line.hasPrefix("@testable import \(other)") {
                        Issue.record("\(family)/\(file): \(line)")
                    }
                }
            }
        }
    }

    @Test("Package.swift compiles each family's sub-folders into the shell modules this test assumes")
    func familyFoldersMatchPackage() throws {
        let package = try Self.text("Package.swift")
        let families = try #require(package.firstMatch(of: /let families = \[([^\]]*)\]/))
        #expect(families.1.matches(of: /"([A-Za-z0-9]+)"/).map { String($0.1) } == Self.families)
        let parts = try #require(package.firstMatch(of: /let familyParts: [^=]*= \[([^\]]*)\]/))
        let pairs = parts.1.matches(of: /"([A-Za-z]+)": "([A-Za-z]+)"/).map { (String($0.1), String($0.2)) }
        #expect(Dictionary(uniqueKeysWithValues: pairs) == Self.familyParts)
        for family in Self.families {
            #expect(FileManager.default.fileExists(atPath: Self.repo.appendingPathComponent("Sources/\(family)/Link").path),
                    "\(family) has no link folder")
        }
    }

    /// Shell files outside the family folders that still name a family's module, and why. A new one
    /// fails `shellReachesFamiliesThroughTheirFolders`: put the code in the family's folder (its Link/,
    /// Simulation/ or Drone/ part) or behind the registry instead (docs/architecture.md §4.1).
    static let familyImportsOutsideFamilies: [String: String] = [
        "FlightService/Config/DroneFamilies.swift": "the registry: one line per family",
        "FollowMeTools/BenchCommand.swift": "the bench's --drone choice and the MAVLink set-point scale it prints",
        "FollowMeTools/FuzzCommand.swift": "the fuzz targets are the families' decoders",
        "Simulation/Bench/BenchConfiguration.swift": "the bench picks the simulated vehicle per family",
        "Simulation/Fuzzing/ATFuzzer.swift": "fuzzes the AR.Drone AT codec",
        "Simulation/Fuzzing/ArbitraryValues.swift": "arbitrary navdata and PCMD values for the fuzzers",
        "Simulation/Fuzzing/FuzzProperty.swift": "properties of the families' decoders",
        "Simulation/Fuzzing/FuzzProperty+MAVLink.swift": "properties of the MAVLink decoder",
        "Simulation/Fuzzing/FuzzProperty+PaVE.swift": "properties of the AR.Drone PaVE video reader",
        "Simulation/Fuzzing/NavdataFuzzer.swift": "fuzzes the AR.Drone navdata decoder",
        "Simulation/NaiveBaselineController.swift": "the bench's naive baseline speaks PCMD to the AR.Drone plant",
        "Simulation/Server/SimulatorCore.swift": "`followme sim` serves either family's simulated vehicle",
        "Simulation/Server/SimulatorControl.swift": "the simulator's control socket reaches either vehicle",
        "Simulation/Server/SimulatorSnapshot.swift": "the simulator's status names each vehicle's state",
        "followme/Drone/DroneConnectionOptions.swift": "`followme drone` picks the family's link configuration",
        "followme/Drone/DroneStatusCommand.swift": "`followme drone status` dispatches per family",
        "followme/Drone/DroneTakeoffCommand.swift": "`followme drone takeoff` dispatches per family",
    ]

    @Test("outside the family folders, only the listed shell files import a family's module")
    func shellReachesFamiliesThroughTheirFolders() throws {
        let all = FileManager.default.enumerator(atPath: Self.repo.appendingPathComponent("Sources").path)?.allObjects as? [String] ?? []
        var found: Set<String> = []
        for file in all where file.hasSuffix(".swift") && !Self.families.contains(String(file.split(separator: "/")[0])) {
            let source = try Self.text("Sources/\(file)")
            for line in source.split(separator: "\n") {
                for family in Self.families where line == "import \(family)" || line == "@testable import \(family)" {
                    found.insert(file)
                }
            }
        }
        #expect(found.count > 0, "the scan found nothing: is Sources/ there?")
        let listed = Set(Self.familyImportsOutsideFamilies.keys)
        #expect(found.subtracting(listed).isEmpty, "new: \(found.subtracting(listed).sorted())")
        #expect(listed.subtracting(found).isEmpty, "listed but no longer importing a family: \(listed.subtracting(found).sorted())")
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
                let module = root == "Sources" ? Self.module(ofSource: file) : "TestSupport"
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
    /// `.target(name: "X", dependencies: ["A", "B", …])` and of test targets, `tests("X", ["A", …])`).
    static func declaredDependencies() throws -> [String: Set<String>] {
        let package = try text("Package.swift")
        let targets = try packageTargets()
        var result: [String: Set<String>] = [:]
        let opener = /(?:\.(?:target|executableTarget|testTarget|macro|systemLibrary)\(\s*name:\s*|\btests\(\s*)"([A-Za-z0-9_]+)"/
        let matches = package.matches(of: opener)
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : package.endIndex
            let block = package[match.range.upperBound..<end]
            var deps: Set<String> = []
            for quoted in block.matches(of: /"([A-Za-z0-9_]+)"/) where targets.contains(String(quoted.1)) {
                if quoted.1 != match.1 { deps.insert(String(quoted.1)) }
            }
            result[String(match.1), default: []].formUnion(deps)
        }
        return result
    }

    @Test("every module imports only the package's modules it declares as dependencies (a release build needs them)")
    func importsAreDeclared() throws {
        let targets = try Self.packageTargets()
        let declared = try Self.declaredDependencies()
        // Test targets are declared through Package.swift's tests(…) helper: the parse must see them.
        #expect(declared["followmeTests"] == ["FlightService", "Links", "FlightRecords", "TestSupport"], "\(declared["followmeTests"] ?? [])")
        var undeclared: [String] = []
        for root in ["Sources", "Tests"] {
            let directory = Self.repo.appendingPathComponent(root)
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }
            for file in files {
                let module = root == "Sources" ? Self.module(ofSource: file) : String(file.split(separator: "/")[0])
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
        #expect(declared.count > 20)
        #expect(undeclared.isEmpty, "\(undeclared.sorted())")
    }
}

extension ArchitectureTests {
    /// The one place the flight's rules run the state machine (issue 25, docs/architecture.md §3.2).
    static let flightLoopCore = "Sources/FollowCore/Link/FlightLoopCore.swift"
    /// The machine itself, which may run its own steps.
    static let stateMachineFolder = "Sources/FollowCore/Flight/"
    /// The FollowCore tests' flight harness: the closed loop against `TestPlant`, and `World`.
    static let closedLoopHarness = ["Tests/FollowCoreTests/ClosedLoop.swift", "Tests/FollowCoreTests/World.swift",
                                    "Tests/FollowCoreTests/TestPlant.swift"]
    /// Inputs only the flight loop hands the machine: the link's events, and SIGTERM.
    static let loopInputs = ["droneConfiguration", "vehicleReleased", "vehicleControl", "vehicleBraking", "shutdownRequested"]

    /// The lines of `source` that run a `FlightStateMachine`'s control step (`.tick(now:` on
    /// `machine` or on anything declared or built as a `FlightStateMachine`) or hand a machine one of
    /// `loopInputs`.
    static func flightRuleCalls(in source: String) throws -> [String] {
        var machines: Set<String> = ["machine"]
        let declared = /(?:var|let)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*FlightStateMachine\b|=\s*(?:try[?!]?\s+)?FlightStateMachine\s*\()/
        for match in source.matches(of: declared) { machines.insert(String(match.1)) }
        let ticks = try machines.map { try Regex("\\b\($0)\\s*\\.tick\\(\\s*now:").wordBoundaryKind(.simple) }
        return source.split(separator: "\n").filter { line in
            guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return false }
            return loopInputs.contains { line.contains(".handle(.\($0)") } || ticks.contains { line.contains($0) }
        }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("one flight loop: outside the state machine only FlightLoopCore ticks it or hands it the link's events (Sources/, the closed-loop harness)")
    func oneFlightLoop() throws {
        let sources = (FileManager.default.enumerator(atPath: Self.repo.appendingPathComponent("Sources").path)?.allObjects
            as? [String] ?? []).filter { $0.hasSuffix(".swift") }.map { "Sources/\($0)" }
        let files = sources.filter { !$0.hasPrefix(Self.stateMachineFolder) } + Self.closedLoopHarness
        #expect(files.count > 100 && files.contains(Self.flightLoopCore) && files.contains("Sources/Simulation/Bench/BenchRunner.swift"))
        var offenders: [String] = []
        for file in files where file != Self.flightLoopCore {
            offenders += try Self.flightRuleCalls(in: Self.text(file)).map { "\(file): \($0)" }
        }
        #expect(offenders.isEmpty, "a second copy of the flight's rules: \(offenders)")
        // The check sees what it looks for: FlightLoopCore does all of it, and the harness drives it.
        let core = try Self.flightRuleCalls(in: Self.text(Self.flightLoopCore))
        #expect(core.contains { $0.contains("machine.tick(now:") } && Self.loopInputs.allSatisfy { input in
            core.contains { $0.contains(".handle(.\(input)") }
        }, "\(core)")
        for file in Self.closedLoopHarness.dropLast() {
            #expect(try Self.text(file).contains("FlightLoopCore"), "\(file) does not drive FlightLoopCore")
        }
    }

    @Test("the one-flight-loop check catches a harness or a bench that ticks its own machine")
    func oneFlightLoopCatches() throws {
        let offenders = try Self.flightRuleCalls(in: """
            var engine = try FlightStateMachine(follow: follow)
            let decision = engine.tick(now: now)
            flight.machine.tick(now: now)
            machine.handle(.vehicleControl(inControl: false), now: now)
            // machine.tick(now: now) in a comment
            session.tick(now: now, output: &output)
            case .vehicleBraking(let acceleration, let jerk, _):
            """)
        #expect(offenders == ["let decision = engine.tick(now: now)", "flight.machine.tick(now: now)",
                              "machine.handle(.vehicleControl(inControl: false), now: now)"])
    }
}
