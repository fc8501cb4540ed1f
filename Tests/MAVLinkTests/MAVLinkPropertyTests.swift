@testable import MAVLink
@testable import FollowCore
import Testing

// Seeded property and mutation tests, like the navdata fuzzer (Sources/Simulation/Fuzzing/NavdataFuzzer.swift):
// any bytes decode without trapping, and every accepted frame re-encodes to the same bytes.

/// Arbitrary bits for every field of a random message type (signalling NaNs included).
func arbitraryMessage(using rng: inout SplitMix64, quietNaNsOnly: Bool = false) -> any MAVLinkMessage {
    let type = rng.pick(MAVLinkMessages.all)
    return type.init(fieldValues: arbitraryFieldValues(of: type, using: &rng, quietNaNsOnly: quietNaNsOnly))
}

/// Element bits per field: edge values (0, all ones, sign bit, NaN, ±inf) or random, and now and
/// then every extension field zero (an older sender).
func arbitraryFieldValues(
    of type: any MAVLinkMessage.Type, using rng: inout SplitMix64, quietNaNsOnly: Bool
) -> [String: [UInt64]] {
    let edges: [UInt64] = [0, 1, .max, 0x80, 0x8000, 0x8000_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x7F80_0001, 0xFFC1_2345]
    var values: [String: [UInt64]] = [:]
    for (name, bits) in type.init().fieldValues {
        values[name] = bits.map { _ in
            var element = rng.chance(1, in: 3) ? rng.pick(edges) : rng.next()
            if quietNaNsOnly, element & 0x7F80_0000 == 0x7F80_0000, element & 0x007F_FFFF != 0 { element |= 0x0040_0000 }
            return element
        }
    }
    return values
}

/// One mutation of a frame stream.
private func mutate(_ bytes: inout [UInt8], using rng: inout SplitMix64) {
    switch rng.nextInt(below: 6) {
    case 0 where !bytes.isEmpty: bytes[rng.nextInt(below: bytes.count)] ^= UInt8(1) << UInt8(rng.nextInt(below: 8))
    case 1 where !bytes.isEmpty: bytes[rng.nextInt(below: bytes.count)] = rng.pick([0x00, 0xFD, 0xFE, 0xFF, rng.nextByte()])
    case 2: bytes.removeLast(rng.nextInt(below: bytes.count + 1))
    case 3: bytes.insert(contentsOf: (0..<rng.nextInt(in: 1...8)).map { _ in rng.nextByte() }, at: rng.nextInt(below: bytes.count + 1))
    case 4 where bytes.count > 2: bytes[1] = rng.nextByte()  // the length byte
    default: bytes.removeFirst(min(bytes.count, rng.nextInt(in: 0...3)))
    }
}

/// Recomputes the checksum of a v2/v1 frame at the start of `bytes` if it is long enough, so a
/// mutated frame gets past the checksum into the length and payload handling.
private func fixChecksum(_ bytes: inout [UInt8]) {
    guard let magic = bytes.first, magic == 0xFD || magic == 0xFE, bytes.count >= 3 else { return }
    let isV2 = magic == 0xFD
    let header = isV2 ? 10 : 6
    guard bytes.count >= header else { return }
    let id = isV2 ? UInt32(bytes[7]) | UInt32(bytes[8]) << 8 | UInt32(bytes[9]) << 16 : UInt32(bytes[5])
    let end = header + Int(bytes[1])
    guard let extra = MAVLinkMessages.crcExtra(id), bytes.count >= end + 2 else { return }
    // CRC over bytes[1..<end] + extra, as MAVLinkFrame.encoded does.
    let encoded = (try? MAVLinkFrame(version: isV2 ? .v2 : .v1, incompatibilityFlags: isV2 ? bytes[2] & ~1 : 0,
                                     compatibilityFlags: isV2 ? bytes[3] : 0, sequence: bytes[isV2 ? 4 : 2],
                                     systemID: bytes[isV2 ? 5 : 3], componentID: bytes[isV2 ? 6 : 4], messageID: id,
                                     payload: Array(bytes[header..<end])).encoded(crcExtra: extra)) ?? []
    guard encoded.count == end + 2 else { return }
    bytes[end] = encoded[end]
    bytes[end + 1] = encoded[end + 1]
}

@Suite("MAVLink properties (seeded)")
struct MAVLinkPropertyTests {
    @Test("any field bits, signalling NaNs included, survive encode → decode bit for bit (5000 messages)")
    func encodeDecodeRoundTrip() throws {
        var rng = SplitMix64(seed: 0x4D41_564C_0001)
        for _ in 0..<5000 {
            let message = arbitraryMessage(using: &rng)
            let sequence = rng.nextByte()
            let bytes = message.encoded(sequence: sequence, systemID: rng.nextByte(), componentID: rng.nextByte())
            let frame = try MAVLinkFrame(bytes: bytes)
            let decoded = try #require(MAVLinkMessages.message(in: frame))
            #expect(decoded.payload() == message.payload() && frame.sequence == sequence)
            // Truncation keeps the first byte and drops only zeros.
            #expect(frame.payload.count >= 1 && frame.payload == Array(message.payload().prefix(frame.payload.count)))
            #expect(message.payload().dropFirst(frame.payload.count).allSatisfy { $0 == 0 })
        }
    }

    @Test("20000 mutated streams: no trap; every accepted frame re-encodes to its bytes; every frame the parser returns is a run of the input")
    func mutationFuzz() throws {
        var rng = SplitMix64(seed: 0x4D41_564C_F022)
        let corpus = try Fixture.vectors().map(\.bytes)
        var accepted = 0
        var rejectedKinds: [MAVLinkDecodingError.Kind: Int] = [:]
        for _ in 0..<20_000 {
            var input = rng.pick(corpus)
            if rng.chance(1, in: 4) { input += rng.pick(corpus) }
            for _ in 0..<rng.nextInt(in: 1...3) { mutate(&input, using: &rng) }
            if rng.chance(3, in: 4) { fixChecksum(&input) }
            // One-shot: accepted ⇒ byte-exact re-encoding and a typed decode that never traps.
            switch Result(catching: { () throws(MAVLinkDecodingError) in try MAVLinkFrame(bytes: input) }) {
            case .failure(let error):
                rejectedKinds[error.kind, default: 0] += 1
            case .success(let frame):
                accepted += 1
                let extra = try #require(MAVLinkMessages.crcExtra(frame.messageID))
                #expect(try frame.encoded(crcExtra: extra) == input, "\(input)")
                let message = try #require(MAVLinkMessages.message(in: frame))
                let full = frame.payload + Array(repeating: 0, count: max(0, type(of: message).maximumLength - frame.payload.count))
                #expect(message.payload() == Array(full.prefix(type(of: message).maximumLength)))
            }
            // Streaming, in random chunks: every frame it returns is a run of the input's bytes.
            var parser = MAVLinkParser()
            var start = 0
            while start < input.count {
                let end = min(input.count, start + rng.nextInt(in: 1...64))
                for case .frame(let frame) in parser.parse(input[start..<end]) {
                    let bytes = try frame.encoded(crcExtra: try #require(MAVLinkMessages.crcExtra(frame.messageID)))
                    #expect(input.firstRange(of: bytes) != nil)
                }
                start = end
            }
            #expect(parser.pendingByteCount <= MAVLinkFrame.maximumLength)
        }
        // The mutations reach every stage: accepted frames and each rejection.
        #expect(accepted > 1000)
        for kind: MAVLinkDecodingError.Kind in [.truncated, .badMagic, .badChecksum, .bytesAfterFrame, .unknownMessageID] {
            #expect(rejectedKinds[kind, default: 0] > 0, "\(kind) never produced: \(rejectedKinds)")
        }
    }

    @Test("purely random bytes never trap the parser, and every byte is accounted for")
    func randomBytes() {
        var rng = SplitMix64(seed: 0x4D41_564C_0BAD)
        var parser = MAVLinkParser()
        var total = 0
        var framedBytes = 0
        for _ in 0..<2000 {
            let chunk = (0..<rng.nextInt(in: 0...300)).map { _ in rng.nextByte() }
            total += chunk.count
            for item in parser.parse(chunk) {
                switch item {
                case .frame(let frame), .unknown(let frame): framedBytes += frame.wireLength
                }
            }
        }
        // Garbage, a skipped magic per bad checksum, frames handed back (random 0xFD… with an
        // unknown id is skipped by its length, §2.6), and what waits for more.
        let counters = parser.counters
        #expect(counters.unsupportedFlags == 0)
        #expect(counters.garbageBytes + counters.badChecksums + framedBytes + parser.pendingByteCount == total)
        #expect(counters.garbageBytes > total / 3 && counters.unknownMessages > 0 && counters.badChecksums > 0)
        #expect(parser.pendingByteCount <= MAVLinkFrame.maximumLength)
    }
}
