/// Why bytes were not accepted as a MAVLink frame or message (docs/mavlink.md §2).
public enum MAVLinkDecodingError: Error, Equatable, Sendable {
    /// Fewer bytes than the frame needs (its header says how many: header + payload + checksum,
    /// + 13 signature bytes when signed).
    case truncated(byteCount: Int, neededByteCount: Int)
    /// The first byte is neither 0xFD (v2) nor 0xFE (v1).
    case badMagic(found: UInt8)
    /// The checksum differs from CRC-16/MCRF4XX over header and payload plus the message's CRC_EXTRA.
    case badChecksum(messageID: UInt32, stored: UInt16, computed: UInt16)
    /// A message id this codec has no CRC_EXTRA for: the frame cannot be checked.
    case unknownMessageID(UInt32)
    /// An incompat flag other than "signed" (0x01) is set; the spec says to drop the frame.
    case unsupportedIncompatibilityFlags(UInt8)
    /// Bytes follow the one frame that was expected.
    case bytesAfterFrame(count: Int)
    /// A typed message was asked of a frame holding another message id.
    case messageIDMismatch(expected: UInt32, found: UInt32)

    /// Error category, for counting (parser counters, fuzzer reports).
    public enum Kind: String, Sendable, CaseIterable, Hashable {
        case truncated, badMagic, badChecksum, unknownMessageID, unsupportedIncompatibilityFlags
        case bytesAfterFrame, messageIDMismatch
    }

    public var kind: Kind {
        switch self {
        case .truncated: .truncated
        case .badMagic: .badMagic
        case .badChecksum: .badChecksum
        case .unknownMessageID: .unknownMessageID
        case .unsupportedIncompatibilityFlags: .unsupportedIncompatibilityFlags
        case .bytesAfterFrame: .bytesAfterFrame
        case .messageIDMismatch: .messageIDMismatch
        }
    }
}

/// Why a frame could not be encoded.
public enum MAVLinkEncodingError: Error, Equatable, Sendable {
    /// More than 255 payload bytes (the length field is one byte).
    case payloadTooLong(byteCount: Int)
    /// A v1 frame carries an 8-bit message id only.
    case messageIDTooLargeForV1(UInt32)
    /// A v2 message id is 24 bits.
    case messageIDTooLarge(UInt32)
    /// A signature is 13 bytes (link id, 6-byte timestamp, 6-byte signature), and only with the signed flag.
    case badSignature(byteCount: Int, signedFlag: Bool)
}
