import Foundation  // test-only: read the seed captures from disk
import Testing
@testable import ARDrone
@testable import Simulation
@testable import FollowCore

@Test("Navdata fuzz slice: 20000 inputs, no crash, every decoded packet re-encodes exactly")
func navdataFuzzSlice() {
    let report = NavdataFuzzer.run(iterations: 20_000, seed: 0xF00D, corpus: NavdataFuzzer.corpus(captures: seedCaptures()))
    #expect(report.iterations == 20_000)
    #expect(report.decodedCount + report.rejectedCount == 20_000)
    #expect(report.roundTripMismatchCount == 0, "first mismatch: \(String(describing: report.firstRoundTripMismatch))")
    // The mutations reach deep: both accepted packets and every structural error occur.
    #expect(report.decodedCount > 1000)
    for kind: NavdataDecodingError.Kind in [.packetTooShort, .badMagic, .invalidOptionSize, .optionExceedsPacket,
                                           .optionTooShort, .checksumMismatch, .missingChecksum,
                                           .bytesAfterChecksum, .truncatedOptionHeader] {
        #expect(report.rejectedCountsByKind[kind, default: 0] > 0, "\(kind) never produced")
    }
}

@Test("AT fuzz slice: 20000 inputs, no crash, every decoded datagram re-encodes exactly")
func atFuzzSlice() {
    let report = ATFuzzer.run(iterations: 20_000, seed: 0xBEEF)
    #expect(report.iterations == 20_000)
    #expect(report.decodedCount + report.rejectedCount == 20_000)
    #expect(report.roundTripMismatchCount == 0, "first mismatch: \(String(describing: report.firstRoundTripMismatch))")
    #expect(report.decodedCount > 1000)
    for kind in ATDecodingError.Kind.allCases {
        #expect(report.rejectedCountsByKind[kind, default: 0] > 0, "\(kind) never produced")
    }
}

@Test("Fuzz runs are deterministic for a seed and differ between seeds")
func fuzzDeterminism() {
    #expect(NavdataFuzzer.run(iterations: 500, seed: 1) == NavdataFuzzer.run(iterations: 500, seed: 1))
    #expect(NavdataFuzzer.run(iterations: 500, seed: 1) != NavdataFuzzer.run(iterations: 500, seed: 2))
    #expect(ATFuzzer.run(iterations: 500, seed: 1) == ATFuzzer.run(iterations: 500, seed: 1))
    #expect(ATFuzzer.run(iterations: 500, seed: 1) != ATFuzzer.run(iterations: 500, seed: 2))
}

@Test("SplitMix64 matches the reference sequence for seed 1234567")
func splitMixReference() {
    // Reference outputs of Vigna's splitmix64.c with x = 1234567.
    var rng = SplitMix64(seed: 1_234_567)
    let expected: [UInt64] = [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                              4_593_380_528_125_082_431, 16_408_922_859_458_223_821]
    #expect((0..<5).map { _ in rng.next() } == expected)
}

@Test("Fuzz report prints every error kind")
func reportDescription() {
    let text = NavdataFuzzer.run(iterations: 50, seed: 3).description
    #expect(text.contains("iterations: 50"))
    for kind in NavdataDecodingError.Kind.allCases { #expect(text.contains(kind.rawValue)) }
}

/// The real navdata captures of `Fuzz/corpus/navdata/` (copies of the ARDroneTests fixtures).
func seedCaptures() -> [[UInt8]] {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    let directory = url.appendingPathComponent("Fuzz/corpus/navdata")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
    return names.compactMap { FileManager.default.contents(atPath: directory.appendingPathComponent($0).path).map { [UInt8]($0) } }
}

@Test("The seed corpus holds the four real captures")
func seedCorpusPresent() {
    #expect(seedCaptures().map(\.count).sorted() == [24, 1916, 2120, 2384])
}
