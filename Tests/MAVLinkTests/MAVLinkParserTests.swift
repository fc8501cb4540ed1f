@testable import MAVLink
import Testing

// The streaming parser on the byte streams a UDP link delivers: several frames per datagram,
// garbage, bad checksums, unknown ids, cut frames (docs/mavlink.md §2.6).

private func heartbeat(_ sequence: UInt8) -> [UInt8] {
    Heartbeat {
        ($0.customMode, $0.type, $0.autopilot) = (ArduCopterMode.guided.rawValue, .init(.quadrotor), .init(.ardupilotmega))
        ($0.baseMode, $0.systemStatus, $0.mavlinkVersion) = ([.customModeEnabled, .safetyArmed], .init(.active), 3)
    }
        .encoded(sequence: sequence, systemID: 1, componentID: 1)
}

private func attitude(_ sequence: UInt8) -> [UInt8] {
    Attitude {
        $0.timeBootMilliseconds = 1234
        $0.rollPitchYawRadians = [0.1, -0.2, 3]
        $0.ratesRadiansPerSecond = [0, 0, 0.5]
    }
        .encoded(sequence: sequence, systemID: 1, componentID: 1)
}

/// A well-formed v2 frame for `messageID` (unknown to the codec) with a checksum made with `crcExtra`.
private func foreignFrame(messageID: UInt32, payload: [UInt8], crcExtra: UInt8 = 0x42) throws -> [UInt8] {
    try MAVLinkFrame(sequence: 9, systemID: 1, componentID: 1, messageID: messageID, payload: payload).encoded(crcExtra: crcExtra)
}

private func sequences(_ items: [MAVLinkParser.Item]) -> [UInt8] {
    items.compactMap { if case .frame(let frame) = $0 { frame.sequence } else { nil } }
}

@Suite("MAVLinkParser")
struct MAVLinkParserTests {
    @Test("several frames in one datagram come out in order")
    func severalFramesPerDatagram() {
        var parser = MAVLinkParser()
        let items = parser.parse(heartbeat(1) + attitude(2) + heartbeat(3))
        #expect(sequences(items) == [1, 2, 3])
        #expect(parser.counters.frames == 3 && parser.pendingByteCount == 0)
    }

    @Test("a stream fed one byte at a time yields the same frames", arguments: [1, 2, 7, 64])
    func arbitraryChunks(chunkSize: Int) {
        let stream = heartbeat(1) + attitude(2) + heartbeat(3)
        var parser = MAVLinkParser()
        var items: [MAVLinkParser.Item] = []
        for start in stride(from: 0, to: stream.count, by: chunkSize) {
            items += parser.parse(stream[start..<min(start + chunkSize, stream.count)])
        }
        #expect(sequences(items) == [1, 2, 3])
    }

    @Test("garbage before and between frames is skipped and counted")
    func garbageResync() {
        var parser = MAVLinkParser()
        let garbage: [UInt8] = [0x00, 0x55, 0x10, 0xFF, 0x20]
        let items = parser.parse(garbage + heartbeat(1) + garbage + garbage + attitude(2))
        #expect(sequences(items) == [1, 2])
        #expect(parser.counters.garbageBytes == 15)
    }

    @Test("a bad checksum drops that frame only, counted; the next frame is found")
    func badChecksumDropped() {
        // Given three frames, the middle one with a payload byte changed
        var middle = attitude(2)
        middle[12] ^= 0x01
        var parser = MAVLinkParser()
        // When parsed
        let items = parser.parse(heartbeat(1) + middle + heartbeat(3))
        // Then the good ones come out and one bad checksum is counted
        #expect(sequences(items) == [1, 3])
        #expect(parser.counters.badChecksums == 1)
    }

    @Test("an unknown message id is skipped by its length (0xFD inside it is not a frame) and handed back unchecked")
    func unknownSkippedByLength() throws {
        let foreign = try foreignFrame(messageID: 0x01_2345, payload: [0xFD, 0x05, 0x00, 0xFE, 0x01] + heartbeat(7))
        var parser = MAVLinkParser()
        let items = parser.parse(foreign + heartbeat(1))
        #expect(items.count == 2)
        guard case .unknown(let frame) = items.first else { Issue.record("expected .unknown first: \(items)"); return }
        #expect(frame.messageID == 0x01_2345 && frame.payload.count == 5 + heartbeat(7).count)
        #expect(sequences(items) == [1])
        #expect(parser.counters.unknownMessages == 1 && parser.counters.badChecksums == 0)
    }

    @Test("a frame cut short is held, then dropped when the next datagram's bytes do not complete it; the next frame survives")
    func truncatedFrameThenGoodFrame() {
        var parser = MAVLinkParser()
        let cut = Array(attitude(1).prefix(20))
        // Given a datagram that ends mid-frame
        #expect(parser.parse(cut).isEmpty)
        #expect(parser.pendingByteCount == 20)
        // When the next datagram holds two whole frames
        let items = parser.parse(heartbeat(2) + heartbeat(3))
        // Then the cut frame fails its checksum (its length swallowed the next bytes) and the scan
        // resumes after its magic: both following frames are found
        #expect(sequences(items) == [2, 3])
        #expect(parser.counters.badChecksums == 1)
    }

    @Test("a signed frame is parsed by its length (13 signature bytes) and the next frame follows")
    func signedFrameSkippedByLength() throws {
        let signed = MAVLinkFrame(incompatibilityFlags: MAVLinkFrame.incompatibilityFlagSigned, sequence: 5, systemID: 255,
                                  componentID: 190, messageID: Heartbeat.messageID, payload: [1, 2, 3],
                                  signature: Array(0..<13))
        let bytes = try signed.encoded(crcExtra: Heartbeat.crcExtra)
        var parser = MAVLinkParser()
        let items = parser.parse(bytes + heartbeat(6))
        #expect(items == [.frame(signed), .frame(try MAVLinkFrame(bytes: heartbeat(6)))])
    }

    @Test("an incompat flag other than signed drops the frame (checked, counted) and parsing goes on")
    func unsupportedIncompatFlag() throws {
        let flagged = try MAVLinkFrame(incompatibilityFlags: 0x02, sequence: 1, systemID: 1, componentID: 1,
                                       messageID: Heartbeat.messageID, payload: [1]).encoded(crcExtra: Heartbeat.crcExtra)
        var parser = MAVLinkParser()
        #expect(sequences(parser.parse(flagged + heartbeat(2))) == [2])
        #expect(parser.counters.unsupportedFlags == 1)
        #expect(throws: MAVLinkDecodingError.unsupportedIncompatibilityFlags(0x02)) { try MAVLinkFrame(bytes: flagged) }
    }

    @Test("a v1 frame decodes; extensions it lacks (C library style: base fields only) read as zero")
    func v1Frame() throws {
        // Given a COMMAND_ACK as pymavlink sends v1 (every field) and as the C library does (base 3 bytes)
        let ack = CommandAck { $0.command = .init(.componentArmDisarm); $0.result = .init(.denied); $0.progress = 50 }
        let full = ack.frame(sequence: 1, systemID: 1, componentID: 1, version: .v1)
        var base = full
        base.payload = Array(full.payload.prefix(CommandAck.baseLength))
        // When decoded
        let fromFull = try CommandAck(frame: MAVLinkFrame(bytes: full.encoded(crcExtra: CommandAck.crcExtra)))
        let fromBase = try CommandAck(frame: MAVLinkFrame(bytes: base.encoded(crcExtra: CommandAck.crcExtra)))
        // Then both carry the command; only the full one the extension
        #expect(try full.encoded(crcExtra: CommandAck.crcExtra).first == MAVLinkFrame.magicV1)
        #expect(fromFull == ack)
        #expect(fromBase == CommandAck { $0.command = .init(.componentArmDisarm); $0.result = .init(.denied) })
    }

    @Test("one-shot decoding says what is wrong", arguments: [
        ("empty", [], MAVLinkDecodingError.Kind.truncated),
        ("header only", Array(heartbeat(1).prefix(10)), .truncated),
        ("bad magic", [0x55] + heartbeat(1).dropFirst(), .badMagic),
        ("bad checksum", Array(heartbeat(1).dropLast()) + [heartbeat(1).last! ^ 0xFF], .badChecksum),
        ("trailing byte", heartbeat(1) + [0], .bytesAfterFrame),
    ] as [(String, [UInt8], MAVLinkDecodingError.Kind)])
    func oneShotErrors(name: String, bytes: [UInt8], kind: MAVLinkDecodingError.Kind) {
        #expect(throws: MAVLinkDecodingError.self) { try MAVLinkFrame(bytes: bytes) }
        do {
            _ = try MAVLinkFrame(bytes: bytes)
        } catch {
            #expect(error.kind == kind, "\(name)")
        }
    }

    @Test("an unknown id and a typed decode of the wrong message are errors with a kind")
    func unknownAndMismatch() throws {
        let foreign = try foreignFrame(messageID: 4000, payload: [1, 2])
        #expect(throws: MAVLinkDecodingError.unknownMessageID(4000)) { try MAVLinkFrame(bytes: foreign) }
        let frame = try MAVLinkFrame(bytes: heartbeat(1))
        #expect(throws: MAVLinkDecodingError.messageIDMismatch(expected: Attitude.messageID, found: 0)) { try Attitude(frame: frame) }
    }
}
