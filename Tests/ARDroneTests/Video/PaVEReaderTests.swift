@testable import ARDrone
import FollowCore
import Testing

/// `PaVEReader`: frames whole or cut anywhere, garbage between them, absurd sizes, bounded memory.
@Suite("PaVE reader")
struct PaVEReaderTests {
    /// A frame numbered `n` with `size` payload bytes that name it (so a mix-up shows).
    static func frame(_ n: UInt32, size: Int = 40, headerSize: UInt16 = 64, type: PaVEFrameType = .pFrame) -> PaVEFrame {
        var header = PaVEHeader()
        header.frameNumber = n
        header.timestampMilliseconds = n * 33
        header.headerSize = headerSize
        header.payloadSize = UInt32(size)
        header.frameType = type.rawValue
        (header.encodedWidth, header.encodedHeight, header.displayWidth, header.displayHeight) = (1280, 720, 1280, 720)
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: Int(n) &* 31 &+ $0) }
        return PaVEFrame(header: header, payload: payload)
    }

    static func bytes(_ frames: [PaVEFrame]) -> [UInt8] { frames.flatMap { $0.header.encoded + $0.payload } }

    static func strip(_ frames: [PaVEFrame]) -> [PaVEFrame] { frames.map { PaVEFrame(header: $0.header, payload: $0.payload) } }

    @Test("A header encodes to the SDK layout and reads back")
    func headerLayout() throws {
        // Given a header with every field set
        var h = PaVEHeader()
        (h.version, h.videoCodec, h.headerSize, h.payloadSize) = (2, 4, 68, 0x0102_0304)
        (h.encodedWidth, h.encodedHeight, h.displayWidth, h.displayHeight) = (1280, 720, 1280, 720)
        (h.frameNumber, h.timestampMilliseconds) = (0x0A0B_0C0D, 123_456)
        (h.totalChunks, h.chunkIndex, h.frameType, h.control) = (1, 0, 1, 2)
        (h.streamBytePosition, h.streamID, h.totalSlices, h.sliceIndex) = (0x1_0000_0002, 7, 1, 0)
        (h.spsSize, h.ppsSize, h.advertisedSize) = (11, 4, 99)
        // When it is encoded
        let b = h.encoded
        // Then the bytes sit where parrot_video_encapsulation_t puts them (docs/video.md §1)
        #expect(b.count == 68)
        #expect(Array(b[0..<4]) == Array("PaVE".utf8))
        #expect(b[4] == 2 && b[5] == 4 && b[6] == 68 && b[7] == 0)
        #expect(Array(b[8..<12]) == [0x04, 0x03, 0x02, 0x01])
        #expect(Array(b[12..<14]) == [0x00, 0x05] && Array(b[14..<16]) == [0xD0, 0x02])
        #expect(Array(b[20..<24]) == [0x0D, 0x0C, 0x0B, 0x0A])
        #expect(Array(b[28..<32]) == [1, 0, 1, 2])
        #expect(Array(b[32..<40]) == [2, 0, 0, 0, 1, 0, 0, 0])
        #expect(b[40] == 7 && b[44] == 11 && b[45] == 4 && b[48] == 99)
        // And it reads back equal
        #expect(PaVEHeader(bytes: b) == h)
        #expect(h.frameTypeName == "idr")
    }

    @Test("Frames given whole come out whole, in order, with their offsets")
    func whole() {
        let frames = (0..<5).map { Self.frame($0, size: 10 + Int($0) * 7) }
        var reader = PaVEReader()
        let out = reader.read(Self.bytes(frames))
        #expect(Self.strip(out) == frames)
        #expect(out.map(\.streamOffset) == [0, 74, 155, 243, 338])
        #expect(reader.counters.frames == 5 && reader.counters.bytesSkipped == 0 && reader.pendingByteCount == 0)
    }

    @Test("Split at every byte: the same frames whatever the cut")
    func splitEverywhere() {
        let frames = [Self.frame(1, size: 30, type: .idr), Self.frame(2, size: 0), Self.frame(3, size: 17, headerSize: 76)]
        let stream = Self.bytes(frames)
        for cut in 0...stream.count {
            var reader = PaVEReader()
            let out = reader.read(stream[..<cut]) + reader.read(stream[cut...])
            #expect(Self.strip(out) == frames, "cut at \(cut)")
            #expect(reader.counters.bytesSkipped == 0 && reader.pendingByteCount == 0, "cut at \(cut)")
        }
        // And one byte at a time
        var reader = PaVEReader()
        let out = stream.flatMap { reader.read([$0]) }
        #expect(Self.strip(out) == frames)
    }

    @Test("Garbage before, between and after frames is skipped and counted")
    func garbage() {
        let a = Self.frame(1), b = Self.frame(2), c = Self.frame(3)
        // "PaV" and "Pa" look like the start of a signature; 0x50 'P' alone too.
        let junk1: [UInt8] = [1, 2, 3, 0x50, 0x61, 0x56], junk2: [UInt8] = Array("xxPaPPaV".utf8), tail: [UInt8] = [0x50, 0x61]
        let stream = junk1 + Self.bytes([a]) + junk2 + Self.bytes([b, c]) + tail
        for cut in 0...stream.count {
            var reader = PaVEReader()
            let out = reader.read(stream[..<cut]) + reader.read(stream[cut...])
            #expect(Self.strip(out) == [a, b, c], "cut at \(cut)")
            #expect(reader.counters.bytesSkipped == UInt64(junk1.count + junk2.count), "cut at \(cut)")
            #expect(reader.counters.resyncs == 2, "cut at \(cut)")
            #expect(reader.pendingByteCount == tail.count)
        }
    }

    @Test("A stream joined in the middle of a frame resynchronises on the next signature")
    func joinedMidFrame() {
        let stream = Self.bytes([Self.frame(1, size: 200), Self.frame(2), Self.frame(3)])
        var reader = PaVEReader()
        let out = reader.read(stream[100...])
        #expect(out.map(\.header.frameNumber) == [2, 3])
        #expect(reader.counters.bytesSkipped == 164)
    }

    @Test("Absurd sizes are refused, counted, and reading resumes at the next frame",
          arguments: [(UInt16(10), UInt32(5)), (UInt16(63), UInt32(5)), (UInt16(4000), UInt32(5)), (UInt16(64), UInt32.max),
                      (UInt16(64), UInt32(2_000_000))])
    func absurd(headerSize: UInt16, payloadSize: UInt32) {
        var bad = PaVEHeader()
        (bad.headerSize, bad.payloadSize) = (headerSize, payloadSize)
        let good = Self.frame(9)
        let stream = bad.encoded.prefix(64) + Self.bytes([good])
        var reader = PaVEReader()
        let out = reader.read(Array(stream))
        #expect(Self.strip(out) == [good])
        #expect(reader.counters.headersRefused == 1)
        #expect(reader.counters.bytesSkipped == 64)
    }

    @Test("Memory stays bounded: a header announcing the largest payload, then a flood")
    func bounded() {
        let limits = PaVEReader.Limits(maxHeaderBytes: 128, maxPayloadBytes: 4096)
        var reader = PaVEReader(limits: limits)
        var liar = PaVEHeader()
        liar.payloadSize = 4096
        var most = 0
        // Given a header that promises 4096 bytes, then 1 MB of anything, in chunks of every size
        _ = reader.read(liar.encoded)
        var produced = 0
        var size = 1
        while produced < 1_000_000 {
            _ = reader.read([UInt8](repeating: 0x50, count: size))
            most = max(most, reader.pendingByteCount)
            produced += size
            size = size * 3 % 70_001 + 1
        }
        // Then the reader never held more than its cap (the liar's frame was returned once complete)
        #expect(most <= limits.maxBufferedBytes)
        #expect(reader.counters.frames == 1)
        // And a single huge chunk is taken in pieces too
        var fresh = PaVEReader(limits: limits)
        _ = fresh.read([UInt8](repeating: 0x41, count: 3_000_000))
        #expect(fresh.pendingByteCount <= 3 && fresh.counters.bytesSkipped == 3_000_000)
    }

    @Test("Accounting: every byte is in a frame, skipped, or pending")
    func accounting() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var stream: [UInt8] = []
            for n in 0..<UInt32(random.next() % 6) {
                if random.next() % 3 == 0 { stream += (0..<Int(random.next() % 90)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
                stream += Self.bytes([Self.frame(n, size: Int(random.next() % 300))])
            }
            var reader = PaVEReader(limits: .init(maxHeaderBytes: 96, maxPayloadBytes: 512))
            var i = 0
            while i < stream.count {
                let n = min(stream.count - i, Int(random.next() % 150) + 1)
                _ = reader.read(stream[i..<(i + n)])
                i += n
            }
            let c = reader.counters
            #expect(c.bytesRead == UInt64(stream.count))
            #expect(c.frameBytes + c.bytesSkipped + UInt64(reader.pendingByteCount) == c.bytesRead)
        }
    }
}
