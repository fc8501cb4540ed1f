@testable import MAVLink
import Testing

// Both directions against pymavlink's own frames (Fixtures/pymavlink-vectors.json, written by
// pymavlink_vectors.py; PymavlinkCrossCheckTests proves the file is still what pymavlink says).
// Pure: no Python here.

/// Loaded once for the parameterised tests (a load failure fails the suite, not skips it).
private let vectors: [Vector] = (try? Fixture.vectors()) ?? []

@Suite("pymavlink vectors (checked-in)")
struct PymavlinkVectorTests {
    @Test("the vector file covers all 17 messages, v1, signed, NaN, extremes and extensions")
    func coverage() throws {
        let loaded = try Fixture.vectors()
        #expect(loaded.count == vectors.count)
        #expect(Set(loaded.map(\.message)) == Set(MAVLinkMessages.all.map { $0.messageName }))
        #expect(loaded.contains { $0.header.version == .v1 })
        #expect(loaded.contains { $0.header.isSigned })
        let floats = loaded.flatMap { $0.fields.values.flatMap { $0 } }
        #expect(floats.contains(0x7FC1_2345))  // a NaN with a payload
        #expect(floats.contains(0xFF80_0000))  // -inf
        // Extensions present and absent: HOME_POSITION with and without time_usec.
        let homes = loaded.filter { $0.message == "HOME_POSITION" }
        #expect(homes.contains { $0.fields["time_usec"] != [0] } && homes.contains { $0.fields["time_usec"] == [0] })
    }

    @Test("we encode each vector's values to pymavlink's bytes", arguments: vectors)
    func encodesLikePymavlink(vector: Vector) throws {
        // Given the values pymavlink encoded
        let message = try vector.type.init(fieldValues: vector.fields)
        // When we frame them with the same header
        let header = vector.header
        var frame = message.frame(sequence: header.sequence, systemID: header.systemID, componentID: header.componentID, version: header.version)
        if header.isSigned {  // we do not sign: carry pymavlink's signature over to compare the rest
            frame.incompatibilityFlags = MAVLinkFrame.incompatibilityFlagSigned
            frame.signature = Array(vector.bytes.suffix(MAVLinkFrame.signatureLength))
        }
        // Then the bytes are pymavlink's, to the last byte
        #expect(Hex.string(try frame.encoded(crcExtra: type(of: message).crcExtra)) == vector.hex)
    }

    @Test("we decode each of pymavlink's frames to its values", arguments: vectors)
    func decodesPymavlinkFrames(vector: Vector) throws {
        var parser = MAVLinkParser()
        let items = parser.parse(vector.bytes)
        guard items.count == 1, case .frame(let frame) = items[0] else {
            Issue.record("expected one frame, got \(items) \(parser.counters)")
            return
        }
        var header = frame
        (header.payload, header.signature) = ([], nil)
        #expect(header == vector.header)
        let message = try #require(MAVLinkMessages.message(in: frame))
        #expect(type(of: message).messageName == vector.message)
        #expect(Fixture.bits(of: message) == vector.fields)
        // And the frame re-encodes to the same bytes (signature kept).
        #expect(try frame.encoded(crcExtra: type(of: message).crcExtra) == vector.bytes)
    }

    @Test("CRC_EXTRA, ids and lengths per message match common.xml (via pymavlink 2.4.50)")
    func messageTable() {
        // From pymavlink's generated common.py: (crc_extra, id, base length, length with extensions).
        let expected: [String: (UInt8, UInt32, Int, Int)] = [
            "HEARTBEAT": (50, 0, 9, 9), "SYS_STATUS": (124, 1, 31, 43), "PARAM_REQUEST_READ": (214, 20, 20, 20),
            "PARAM_VALUE": (220, 22, 25, 25), "ATTITUDE": (39, 30, 28, 28),
            "LOCAL_POSITION_NED": (185, 32, 28, 28), "GLOBAL_POSITION_INT": (104, 33, 28, 28),
            "COMMAND_INT": (158, 75, 35, 35), "COMMAND_LONG": (152, 76, 33, 33), "COMMAND_ACK": (143, 77, 3, 10),
            "SET_POSITION_TARGET_LOCAL_NED": (143, 84, 53, 53), "FOLLOW_TARGET": (127, 144, 93, 93),
            "HOME_POSITION": (104, 242, 52, 60), "EXTENDED_SYS_STATE": (130, 245, 2, 2), "STATUSTEXT": (83, 253, 51, 54),
            "CAMERA_INFORMATION": (92, 259, 235, 237), "CAMERA_CAPTURE_STATUS": (12, 262, 18, 23),
        ]
        #expect(MAVLinkMessages.all.count == expected.count)
        for type in MAVLinkMessages.all {
            let row = expected[type.messageName]
            #expect(row?.0 == type.crcExtra && row?.1 == type.messageID, "\(type.messageName)")
            #expect(row?.2 == type.baseLength && row?.3 == type.maximumLength, "\(type.messageName)")
        }
    }
}
