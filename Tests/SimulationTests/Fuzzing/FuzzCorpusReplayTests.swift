import Foundation  // test-only: list and read the corpus files
@testable import Simulation
import Testing

/// The libFuzzer targets' properties (``FuzzProperty``), replayed without a sanitizer over every input
/// in `Fuzz/corpus/<target>/` (seeds and what fuzzing kept) and `Fuzz/findings/<target>/` (every crash
/// found, kept as a regression input). The gpsd-json target is replayed by LinksTests (`HostileGPSDLineTests`).
@Suite("Fuzz corpus replay")
struct FuzzCorpusReplayTests {
    static let targets: [(name: String, property: @Sendable ([UInt8]) -> String?)] = [
        (name: "navdata", property: FuzzProperty.navdata),
        (name: "at", property: FuzzProperty.at),
        (name: "config", property: FuzzProperty.config),
        (name: "mavlink", property: FuzzProperty.mavlink),
        (name: "pave", property: FuzzProperty.pave),
    ]

    @Test("Every corpus and finding input keeps its target's property", arguments: targets.map(\.name))
    func replay(_ target: String) throws {
        // Given every input kept for the target
        let property = try #require(Self.targets.first { $0.name == target }?.property)
        let inputs = fuzzInputs(target)
        #expect(inputs.count >= 4, "corpus of \(target) is missing")
        // Then each keeps the property (a crash here is a regression of a fixed finding)
        for (name, bytes) in inputs {
            #expect(property(bytes) == nil, "\(target)/\(name)")
        }
    }
}

/// `(file name, bytes)` of every input of `Fuzz/corpus/<target>/` and `Fuzz/findings/<target>/`
/// (documentation files `*.md` excepted), found from this file's path.
func fuzzInputs(_ target: String, filePath: String = #filePath) -> [(String, [UInt8])] {
    var root = URL(fileURLWithPath: filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    return ["Fuzz/corpus", "Fuzz/findings"].flatMap { folder -> [(String, [UInt8])] in
        let directory = root.appendingPathComponent("\(folder)/\(target)")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
        return names.compactMap { name in
            FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map { ("\(folder)/\(name)", [UInt8]($0)) }
        }
    }
}
