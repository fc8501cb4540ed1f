/// One Parrot Video Encapsulation header: what the AR.Drone 2.0 puts in front of every encoded frame
/// on its TCP video ports (docs/video.md §1).
///
/// Layout (little endian, offsets in bytes): 0 `"PaVE"`, 4 version, 5 video_codec, 6 header_size
/// (uint16), 8 payload_size (uint32), 12/14 encoded width/height, 16/18 display width/height (uint16),
/// 20 frame_number (uint32), 24 timestamp (uint32, ms), 28 total_chunks, 29 chunk_index, 30 frame_type,
/// 31 control (uint8 each), 32 stream byte position (uint64 as two uint32 words, low first),
/// 40 stream_id (uint16), 42 total_slices, 43 slice_index, 44 header1_size (SPS), 45 header2_size (PPS),
/// 46 two reserved bytes, 48 advertised_size (uint32), 52 twelve reserved bytes: 64 bytes. A drone may
/// send a longer header (`header_size` says how long); the bytes past 64 are skipped.
public struct PaVEHeader: Sendable, Equatable {
    /// `"PaVE"`.
    public static let signature: [UInt8] = [0x50, 0x61, 0x56, 0x45]
    /// The bytes every field above occupies: the smallest `header_size` accepted.
    public static let fieldsSize = 64
    /// `PAVE_CURRENT_VERSION` of the SDK.
    public static let currentVersion: UInt8 = 2

    public var version: UInt8 = PaVEHeader.currentVersion
    /// The encapsulation's codec id (`PaVECodec`): 4 = H.264.
    public var videoCodec: UInt8 = PaVECodec.h264.rawValue
    /// Bytes from the signature to the payload, ≥ ``fieldsSize``.
    public var headerSize: UInt16 = UInt16(PaVEHeader.fieldsSize)
    /// Bytes of encoded video after the header.
    public var payloadSize: UInt32 = 0
    public var encodedWidth: UInt16 = 0
    public var encodedHeight: UInt16 = 0
    public var displayWidth: UInt16 = 0
    public var displayHeight: UInt16 = 0
    /// The frame's position in its stream.
    public var frameNumber: UInt32 = 0
    /// The drone's time stamp of the frame, milliseconds (its own clock, not the host's).
    public var timestampMilliseconds: UInt32 = 0
    public var totalChunks: UInt8 = 1
    public var chunkIndex: UInt8 = 0
    /// `PaVEFrameType`'s raw value (kept raw: an unknown type is data, not an error).
    public var frameType: UInt8 = PaVEFrameType.pFrame.rawValue
    /// Bit 0: advertisement (no data follows), bit 1: last frame in the stream.
    public var control: UInt8 = 0
    /// Byte position of this payload in the encoded stream.
    public var streamBytePosition: UInt64 = 0
    public var streamID: UInt16 = 0
    public var totalSlices: UInt8 = 1
    public var sliceIndex: UInt8 = 0
    /// Bytes of the SPS at the start of the payload (H.264 only; 0 = none).
    public var spsSize: UInt8 = 0
    /// Bytes of the PPS after the SPS (H.264 only; 0 = none).
    public var ppsSize: UInt8 = 0
    /// Size of a frame announced by an advertisement.
    public var advertisedSize: UInt32 = 0

    public init() {}

    /// Reads the fields from the first ``fieldsSize`` bytes of `bytes`; nil when fewer bytes are given
    /// or the signature is not `"PaVE"`. Sizes are not judged here (``PaVEReader`` does that).
    public init?(bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(Self.fieldsSize))
        guard b.count == Self.fieldsSize, Array(b[0..<4]) == Self.signature else { return nil }
        func u16(_ o: Int) -> UInt16 { UInt16(b[o]) | UInt16(b[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 { UInt32(u16(o)) | UInt32(u16(o + 2)) << 16 }
        version = b[4]
        videoCodec = b[5]
        headerSize = u16(6)
        payloadSize = u32(8)
        (encodedWidth, encodedHeight, displayWidth, displayHeight) = (u16(12), u16(14), u16(16), u16(18))
        frameNumber = u32(20)
        timestampMilliseconds = u32(24)
        (totalChunks, chunkIndex, frameType, control) = (b[28], b[29], b[30], b[31])
        streamBytePosition = UInt64(u32(32)) | UInt64(u32(36)) << 32
        streamID = u16(40)
        (totalSlices, sliceIndex, spsSize, ppsSize) = (b[42], b[43], b[44], b[45])
        advertisedSize = u32(48)
    }

    /// The header's bytes: the fields, zero reserved bytes, and zeros up to `headerSize`
    /// (at least ``fieldsSize`` bytes).
    public var encoded: [UInt8] {
        var b: [UInt8] = Self.signature
        b.reserveCapacity(max(Self.fieldsSize, Int(headerSize)))
        func u16(_ v: UInt16) { b.append(UInt8(v & 0xFF)); b.append(UInt8(v >> 8)) }
        func u32(_ v: UInt32) { u16(UInt16(v & 0xFFFF)); u16(UInt16(v >> 16)) }
        b.append(version)
        b.append(videoCodec)
        u16(headerSize)
        u32(payloadSize)
        u16(encodedWidth); u16(encodedHeight); u16(displayWidth); u16(displayHeight)
        u32(frameNumber)
        u32(timestampMilliseconds)
        b += [totalChunks, chunkIndex, frameType, control]
        u32(UInt32(truncatingIfNeeded: streamBytePosition)); u32(UInt32(truncatingIfNeeded: streamBytePosition >> 32))
        u16(streamID)
        b += [totalSlices, sliceIndex, spsSize, ppsSize, 0, 0]
        u32(advertisedSize)
        b += [UInt8](repeating: 0, count: max(Self.fieldsSize, Int(headerSize)) - b.count)
        return b
    }

    /// The frame type as a name for logs and the index: "idr", "i", "p", "headers", "unknown".
    public var frameTypeName: String { (PaVEFrameType(rawValue: frameType) ?? .unknown).name }
}

/// `parrot_video_encapsulation_frametypes_t`.
public enum PaVEFrameType: UInt8, Sendable, CaseIterable {
    case unknown = 0
    /// Headers (SPS, PPS) followed by an I-frame: where a decoder can start.
    case idr = 1
    case iFrame = 2
    case pFrame = 3
    case headers = 4

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .idr: "idr"
        case .iFrame: "i"
        case .pFrame: "p"
        case .headers: "headers"
        }
    }
}

/// `parrot_video_encapsulation_codecs_t`.
public enum PaVECodec: UInt8, Sendable {
    case unknown = 0, vlib = 1, p264 = 2, mpeg4Visual = 3, h264 = 4
}

/// One frame read from a PaVE stream: its header and its payload (H.264 Annex B for the codecs FollowMe asks for).
public struct PaVEFrame: Sendable, Equatable {
    public var header: PaVEHeader
    public var payload: [UInt8]
    /// Where the frame's signature started, counted in bytes from the first byte the reader was given.
    public var streamOffset: UInt64

    public init(header: PaVEHeader, payload: [UInt8], streamOffset: UInt64 = 0) {
        (self.header, self.payload, self.streamOffset) = (header, payload, streamOffset)
    }
}
