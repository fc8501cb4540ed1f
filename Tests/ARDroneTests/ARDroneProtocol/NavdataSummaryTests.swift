@testable import Simulation
import Testing
@testable import ARDrone
@testable import FollowCore

/// `NavdataSummary` is what `DroneLink` decodes on every datagram; these tests pin it to the full
/// decoder: same packets accepted, same errors, same header and demo values.
@Suite("Navdata summary (the link's allocation-free decode)")
struct NavdataSummaryTests {
    @Test("The captures' summaries carry the full decode's header and demo option",
          arguments: Fixture.allNavdata)
    func captures(name: String) throws {
        let bytes = try Fixture.bytes(name)
        let navdata = try Navdata(bytes: bytes)
        let summary = try NavdataSummary(bytes: bytes)
        #expect(summary == NavdataSummary(navdata))
        #expect(summary.sequenceNumber == navdata.sequenceNumber && summary.state == navdata.state)
        #expect(summary.demo == navdata.demo)
        #expect(summary.optionCount == navdata.options.count)
    }

    @Test("fw 2.4.8 capture: the summary's demo values are the fixture's expected ones")
    func fw248Values() throws {
        let summary = try NavdataSummary(bytes: Fixture.bytes(Fixture.fw248GPS))
        #expect(summary.sequenceNumber == 300_711 && summary.state.rawValue == 0x4F80_00D0)
        #expect(summary.isVisionDefined && summary.optionCount == 28)
        let demo = try #require(summary.demo)
        #expect(demo.controlState == .landed && demo.batteryPercent == 50)
        #expect(demo.thetaMillidegrees == 2974 && demo.phiMillidegrees == 550 && demo.psiMillidegrees == 1933)
        #expect(demo.bodyVelocityMillimetersPerSecond.y == Float(-0.8817979097366333))
    }

    @Test("The bootstrap capture has no demo option")
    func bootstrap() throws {
        let summary = try NavdataSummary(bytes: Fixture.bytes(Fixture.bootstrap))
        #expect(summary.demo == nil && summary.optionCount == 0)
        #expect(summary.state.contains(.navdataBootstrap))
    }

    @Test("Over 20000 fuzzed datagrams both decoders accept the same ones, with the same errors and values")
    func agreesWithFullDecoder() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let corpus = NavdataFuzzer.corpus(captures: try Fixture.allNavdata.map(Fixture.bytes))
        var input: [UInt8] = []
        var accepted = 0, rejected = 0, withDemo = 0
        for _ in 0..<20_000 {
            NavdataFuzzer.makeInput(into: &input, corpus: corpus, using: &rng)
            let full = Result { () throws(NavdataDecodingError) in try Navdata(bytes: input) }
            let summary = Result { () throws(NavdataDecodingError) in try NavdataSummary(bytes: input) }
            switch (full, summary) {
            case (.success(let navdata), .success(let summary)):
                accepted += 1
                if summary.demo != nil { withDemo += 1 }
                // Compared by bits: fuzzed floats include NaNs, which are never == themselves.
                #expect(try bitPattern(summary) == bitPattern(NavdataSummary(navdata)), "\(input)")
            case (.failure(let a), .failure(let b)):
                rejected += 1
                #expect(a == b, "\(input)")
            default:
                Issue.record("decoders disagree on \(input): full \(full), summary \(summary)")
            }
        }
        // The corpus reaches both outcomes, and demo options (typed and too short) in both.
        #expect(accepted > 1000 && rejected > 1000 && withDemo > 500)
    }

    @Test("A demo option shorter than 148 bytes is rejected by both decoders alike")
    func shortDemo() throws {
        var bytes = Array(try Navdata(state: [], sequenceNumber: 1).encoded().dropLast(Navdata.checksumOptionByteCount))
        bytes += [0, 0, 40, 0] + [UInt8](repeating: 0, count: 36)   // tag 0, size 40
        NavdataFuzzer.appendChecksumOption(to: &bytes)
        let expected = NavdataDecodingError.optionTooShort(tag: 0, offset: 16, size: 40, minimumSize: 148)
        #expect(throws: expected) { try NavdataSummary(bytes: bytes) }
        #expect(throws: expected) { try Navdata(bytes: bytes) }
    }

    @Test("Demo options keep their 108 legacy bytes and any extension through decode and encode")
    func demoTrailer() throws {
        let trailer = (0..<115).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let demo = NavdataDemo(controlStateWord: 0x0003_0000, batteryPercent: 61, thetaMillidegrees: 1,
                               phiMillidegrees: 2, psiMillidegrees: 3, altitudeMillimeters: 4,
                               bodyVelocityMillimetersPerSecond: .zero, trailingBytes: trailer)
        #expect(demo.trailingBytes == trailer)
        #expect(demo.extensionBytes == Array(trailer[108...]))
        let packet = Navdata.demoPacket(state: [], sequenceNumber: 9, demo: demo)
        let bytes = try packet.encoded()
        #expect(bytes.count == 16 + 148 + 7 + 8)
        #expect(try Navdata(bytes: bytes).demo == demo)
        #expect(try NavdataSummary(bytes: bytes).demo == demo)
        var other = trailer
        other[50] ^= 1
        #expect(NavdataDemo(controlStateWord: 0x0003_0000, batteryPercent: 61, thetaMillidegrees: 1,
                            phiMillidegrees: 2, psiMillidegrees: 3, altitudeMillimeters: 4,
                            bodyVelocityMillimetersPerSecond: .zero, trailingBytes: other) != demo)
    }
}

/// A summary as bytes (its fields re-encoded as a packet, plus the option count), so two summaries
/// compare equal exactly when every field has the same bits.
private func bitPattern(_ summary: NavdataSummary) throws -> [UInt8] {
    let packet = Navdata(magic: summary.magic, state: summary.state, sequenceNumber: summary.sequenceNumber,
                         visionFlag: summary.visionFlag, options: summary.demo.map { [.demo($0)] } ?? [])
    return try packet.encoded() + [UInt8(truncatingIfNeeded: summary.optionCount)]
}
