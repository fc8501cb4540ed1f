@testable import MAVLink
@testable import FollowCore
import Testing

// The allocation-free encoders (`encode(sequence:systemID:componentID:into:)`, the link's path) against
// the frame-level encoder fed a payload built from the fields' own `get` closures: same bytes, for
// every message type, into a buffer reused across frames of different lengths. Byte-exactness
// against pymavlink itself: PymavlinkCrossCheckTests (its frames come from the same encoder).

/// The v2 frame of `message` the slow way: payload from `get`, trailing zeros cut, `MAVLinkFrame.encoded`.
private func referenceFrame<M: MAVLinkMessage>(_ message: M, sequence: UInt8, systemID: UInt8, componentID: UInt8) throws -> [UInt8] {
    var payload: [UInt8] = []
    for field in M.allFields {
        for bits in field.get(message) {
            for index in 0..<field.type.size { payload.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
        }
    }
    while payload.count > 1, payload.last == 0 { payload.removeLast() }
    return try MAVLinkFrame(sequence: sequence, systemID: systemID, componentID: componentID, messageID: M.messageID,
                            payload: payload).encoded(crcExtra: M.crcExtra)
}

@Suite("MAVLink in-place encoding")
struct MAVLinkEncodeInPlaceTests {
    @Test("into a reused array and into a raw buffer: the reference bytes, for 5000 seeded messages of all 12 types")
    func inPlaceMatchesReference() throws {
        // Given one array and one raw buffer reused for every frame (long frames then short ones)
        var rng = SplitMix64(seed: 0x4D41_564C_1A7E)
        var reused: [UInt8] = []
        reused.reserveCapacity(MAVLinkFrame.maximumLength)
        let storage = reused.withUnsafeBufferPointer { $0.baseAddress }
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: MAVLinkFrame.maximumLength, alignment: 1)
        defer { raw.deallocate() }
        for index in 0..<5000 {
            var message = arbitraryMessage(using: &rng)
            if index % 7 == 0 { message = type(of: message).init() }  // all zero: the 1-byte payload
            let (sequence, system, component) = (rng.nextByte(), rng.nextByte(), rng.nextByte())
            raw.initializeMemory(as: UInt8.self, repeating: 0xAA)  // stale bytes must not leak into a frame
            // When it is encoded in place
            try check(message, sequence, system, component, reused: &reused, raw: raw)
        }
        // Then the array kept its storage (the same buffer: never reallocated, never released)
        #expect(reused.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    private func check<M: MAVLinkMessage>(
        _ message: M, _ sequence: UInt8, _ system: UInt8, _ component: UInt8, reused: inout [UInt8],
        raw: UnsafeMutableRawBufferPointer
    ) throws {
        let expected = try referenceFrame(message, sequence: sequence, systemID: system, componentID: component)
        message.encode(sequence: sequence, systemID: system, componentID: component, into: &reused)
        #expect(reused == expected, "\(M.messageName)")
        let count = message.encode(sequence: sequence, systemID: system, componentID: component, into: raw)
        #expect(Array(raw.prefix(count)) == expected, "\(M.messageName)")
        #expect(message.encoded(sequence: sequence, systemID: system, componentID: component) == expected)
        #expect(M.maximumFrameLength == 12 + M.maximumLength && expected.count <= M.maximumFrameLength)
    }

    @Test("the layout is the field tables with offsets: lengths as summed from the fields")
    func layoutLengths() {
        for type in MAVLinkMessages.all { check(type) }
    }

    private func check<M: MAVLinkMessage>(_ type: M.Type) {
        #expect(M.layout.baseLength == M.fields.reduce(0) { $0 + $1.size }, "\(M.messageName)")
        #expect(M.layout.maximumLength == M.layout.baseLength + M.extensionFields.reduce(0) { $0 + $1.size })
        #expect(M.allFields.map(\.name) == (M.fields + M.extensionFields).map(\.name))
    }
}
