@testable import Simulation
import Testing
@testable import ARDrone

/// Recomputes the checksum of a packet whose checksum option is its last 8 bytes.
private func withFixedChecksum(_ bytes: [UInt8]) -> [UInt8] {
    var fixed = bytes
    NavdataFuzzer.fixChecksum(&fixed)
    return fixed
}

/// One byte of a capture incremented, and the checksum mismatch the decoder must report:
/// (fixture, byte index, stored checksum, computed checksum).
@Test("Incrementing one byte fails the checksum", arguments: [
    (Fixture.fw248GPS, 23, 46179, 46180), // node-ar-drone negative test
    (Fixture.full2012, 20, 36358, 36359), // go-ardrone negative test
] as [(String, Int, UInt32, UInt32)])
func incrementedByteChecksum(fixture: String, byteIndex: Int, stored: UInt32, computed: UInt32) throws {
    var bytes = try Fixture.bytes(fixture)
    bytes[byteIndex] &+= 1
    #expect(throws: NavdataDecodingError.checksumMismatch(stored: stored, computed: computed)) {
        try Navdata(bytes: bytes)
    }
}

@Test("Truncating the last 8 bytes throws instead of looping")
func truncatedChecksum() throws {
    let bytes = try Fixture.bytes(Fixture.fw248GPS)
    #expect(throws: NavdataDecodingError.missingChecksum) {
        try Navdata(bytes: Array(bytes.dropLast(8)))
    }
}

@Test("Every truncation of the capture is rejected, never crashes")
func everyTruncation() throws {
    let bytes = try Fixture.bytes(Fixture.fw248GPS)
    for length in 0..<bytes.count {
        #expect(throws: NavdataDecodingError.self) { try Navdata(bytes: Array(bytes.prefix(length))) }
    }
}

struct MalformedNavdata: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: NavdataDecodingError
    var testDescription: String { name }
}

/// Header (magic, state 0, seq 1, vision 0) followed by `rest`.
private func packet(magic: UInt32 = 0x5566_7788, _ rest: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendLittleEndian(magic)
    bytes += [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    return bytes + rest
}

private let checksumOption: [UInt8] = [0xFF, 0xFF, 0x08, 0x00, 0, 0, 0, 0]

private let malformedNavdata: [MalformedNavdata] = [
    .init(name: "empty", bytes: [], expected: .packetTooShort(byteCount: 0, minimumByteCount: 24)),
    .init(name: "23 bytes", bytes: Array(packet(checksumOption).prefix(23)),
          expected: .packetTooShort(byteCount: 23, minimumByteCount: 24)),
    .init(name: "over 4096 bytes", bytes: packet([UInt8](repeating: 0, count: 4081)),
          expected: .packetTooLong(byteCount: 4097, maximumByteCount: 4096)),
    .init(name: "bad magic", bytes: withFixedChecksum(packet(magic: 0x5566_778A, checksumOption)),
          expected: .badMagic(found: 0x5566_778A)),
    .init(name: "zero option size", bytes: packet([0x00, 0x00, 0x00, 0x00] + checksumOption),
          expected: .invalidOptionSize(tag: 0, offset: 16, size: 0)),
    .init(name: "option size 3", bytes: packet([0x05, 0x00, 0x03, 0x00] + checksumOption),
          expected: .invalidOptionSize(tag: 5, offset: 16, size: 3)),
    .init(name: "option past the end", bytes: packet([0x05, 0x00, 0x20, 0x00] + checksumOption),
          expected: .optionExceedsPacket(tag: 5, offset: 16, size: 32, bytesRemaining: 12)),
    .init(name: "truncated option header", bytes: packet([0x05, 0x00, 0x04, 0x00, 0x05, 0x00, 0x04, 0x00, 0x01, 0x02]),
          expected: .truncatedOptionHeader(offset: 24, bytesRemaining: 2)),
    .init(name: "no checksum option", bytes: packet([0x05, 0x00, 0x08, 0x00, 1, 2, 3, 4]), expected: .missingChecksum),
    .init(name: "checksum option size 12", bytes: packet([0xFF, 0xFF, 0x0C, 0x00] + [UInt8](repeating: 0, count: 8)),
          expected: .invalidChecksumOptionSize(offset: 16, size: 12)),
    .init(name: "bytes after checksum", bytes: withFixedChecksum(packet(checksumOption)) + [0x00],
          expected: .bytesAfterChecksum(offset: 24, count: 1)),
    .init(name: "wrong checksum", bytes: packet(checksumOption), expected: .checksumMismatch(stored: 0, computed: 0x1BB)),
    .init(name: "demo option too short",
          bytes: withFixedChecksum(packet([0x00, 0x00, 0x0C, 0x00] + [UInt8](repeating: 0, count: 8) + checksumOption)),
          expected: .optionTooShort(tag: 0, offset: 16, size: 12, minimumSize: 148)),
    .init(name: "magneto option too short",
          bytes: withFixedChecksum(packet([0x16, 0x00, 0x4A, 0x00] + [UInt8](repeating: 0, count: 70) + checksumOption)),
          expected: .optionTooShort(tag: 22, offset: 16, size: 74, minimumSize: 75)),
    .init(name: "time option too short",
          bytes: withFixedChecksum(packet([0x01, 0x00, 0x06, 0x00, 0, 0] + checksumOption)),
          expected: .optionTooShort(tag: 1, offset: 16, size: 6, minimumSize: 8)),
]

@Test("Malformed navdata is rejected with the error that names the problem", arguments: malformedNavdata)
func malformed(example: MalformedNavdata) {
    #expect(throws: example.expected) { try Navdata(bytes: example.bytes) }
}

@Test("The alternate magic 0x55667789 is accepted and preserved")
func alternateMagic() throws {
    let bytes = withFixedChecksum(packet(magic: 0x5566_7789, checksumOption))
    let navdata = try Navdata(bytes: bytes)
    #expect(navdata.magic == .alternate)
    #expect(try navdata.encoded() == bytes)
}

@Test("Unknown tags and odd-sized known options are kept as raw data")
func unknownTagsKeptRaw() throws {
    // Given an unknown tag 28 and a 20-byte GPS option
    let bytes = withFixedChecksum(packet([0x1C, 0x00, 0x07, 0x00, 0xAA, 0xBB, 0xCC,
                                          0x1B, 0x00, 0x14, 0x00] + [UInt8](repeating: 7, count: 16) + checksumOption))
    // When decoded
    let navdata = try Navdata(bytes: bytes)
    // Then both survive as raw options and re-encode exactly
    #expect(navdata.options == [
        .raw(NavdataRawOption(tag: NavdataOptionTag(rawValue: 28), payload: [0xAA, 0xBB, 0xCC])),
        .raw(NavdataRawOption(tag: .gps, payload: [UInt8](repeating: 7, count: 16))),
    ])
    #expect(try navdata.encoded() == bytes)
}

@Test("Encoder refuses values the wire cannot carry")
func encoderErrors() {
    let checksumTag = Navdata(state: [], sequenceNumber: 1,
                              options: [.raw(NavdataRawOption(tag: .checksum, payload: []))])
    #expect(throws: NavdataEncodingError.reservedChecksumTag) { try checksumTag.encoded() }
    let huge = Navdata(state: [], sequenceNumber: 1,
                       options: [.raw(NavdataRawOption(tag: .games, payload: [UInt8](repeating: 0, count: 70_000)))])
    #expect(throws: NavdataEncodingError.optionTooLarge(tag: 20, byteCount: 70_004)) { try huge.encoded() }
    let long = Navdata(state: [], sequenceNumber: 1,
                       options: [.raw(NavdataRawOption(tag: .games, payload: [UInt8](repeating: 0, count: 4070)))])
    #expect(throws: NavdataEncodingError.packetTooLong(byteCount: 4098, maximumByteCount: 4096)) { try long.encoded() }
}
