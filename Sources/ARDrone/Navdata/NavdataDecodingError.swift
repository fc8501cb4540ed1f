/// Why a navdata packet was rejected. Offsets are byte offsets into the packet.
public enum NavdataDecodingError: Error, Equatable, Sendable {
    /// Fewer bytes than a header plus checksum option (24).
    case packetTooShort(byteCount: Int, minimumByteCount: Int)
    /// More than `NAVDATA_MAX_SIZE` (4096) bytes.
    case packetTooLong(byteCount: Int, maximumByteCount: Int)
    /// The first 4 bytes are neither 0x55667788 nor 0x55667789.
    case badMagic(found: UInt32)
    /// Fewer than 4 bytes left where an option header should start.
    case truncatedOptionHeader(offset: Int, bytesRemaining: Int)
    /// An option `size` below 4 (it includes its own 4-byte header); 0 included.
    case invalidOptionSize(tag: UInt16, offset: Int, size: UInt16)
    /// An option whose `size` runs past the end of the packet.
    case optionExceedsPacket(tag: UInt16, offset: Int, size: UInt16, bytesRemaining: Int)
    /// A known option smaller than its layout (demo 148, time 8, magneto 75).
    case optionTooShort(tag: UInt16, offset: Int, size: UInt16, minimumSize: Int)
    /// The checksum option's size is not 8.
    case invalidChecksumOptionSize(offset: Int, size: UInt16)
    /// The stored checksum differs from the byte sum of everything before the checksum option.
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// The options end exactly at the end of the packet without a checksum option.
    case missingChecksum
    /// Bytes follow the checksum option.
    case bytesAfterChecksum(offset: Int, count: Int)

    /// Error category, for counting (fuzzer reports).
    public enum Kind: String, Sendable, CaseIterable, Hashable {
        case packetTooShort, packetTooLong, badMagic, truncatedOptionHeader, invalidOptionSize
        case optionExceedsPacket, optionTooShort, invalidChecksumOptionSize, checksumMismatch
        case missingChecksum, bytesAfterChecksum
    }

    public var kind: Kind {
        switch self {
        case .packetTooShort: .packetTooShort
        case .packetTooLong: .packetTooLong
        case .badMagic: .badMagic
        case .truncatedOptionHeader: .truncatedOptionHeader
        case .invalidOptionSize: .invalidOptionSize
        case .optionExceedsPacket: .optionExceedsPacket
        case .optionTooShort: .optionTooShort
        case .invalidChecksumOptionSize: .invalidChecksumOptionSize
        case .checksumMismatch: .checksumMismatch
        case .missingChecksum: .missingChecksum
        case .bytesAfterChecksum: .bytesAfterChecksum
        }
    }
}

/// Why a `Navdata` value could not be encoded.
public enum NavdataEncodingError: Error, Equatable, Sendable {
    /// An option's size (payload + 4) does not fit the 16-bit size field.
    case optionTooLarge(tag: UInt16, byteCount: Int)
    /// A raw option uses the reserved checksum tag 0xFFFF.
    case reservedChecksumTag
    /// The packet would exceed `NAVDATA_MAX_SIZE` (4096), which decoders reject.
    case packetTooLong(byteCount: Int, maximumByteCount: Int)
}
