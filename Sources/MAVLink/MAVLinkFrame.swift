/// One MAVLink frame (packet) as on the wire, payload still raw (docs/mavlink.md §2).
///
/// Holds exactly what was received, so an accepted frame re-encodes to the same bytes: the payload
/// as sent (a v2 sender truncates trailing zeros, docs/mavlink.md §2.4; this type neither
/// truncates nor extends it) and the 13 signature bytes of a signed frame (kept, never checked:
/// FollowMe does not sign, §2.5). Messages are read from and written to `payload` by the message
/// types (`MAVLinkMessage`), which know the layout.
public struct MAVLinkFrame: Sendable, Hashable {
    /// Which framing: v2 (magic 0xFD, 10-byte header) or v1 (0xFE, 6-byte header; decode only in practice).
    public enum Version: Sendable, Hashable { case v1, v2 }

    public var version: Version = .v2
    /// v2 `incompat_flags`: 0x01 = signed, any other bit makes a receiver drop the frame (§2.2).
    public var incompatibilityFlags: UInt8 = 0
    /// v2 `compat_flags`: ignored by receivers that do not understand them (§2.2).
    public var compatibilityFlags: UInt8 = 0
    /// Per-sender counter, wrapping at 255 (§2.2): receivers count gaps as lost frames.
    public var sequence: UInt8 = 0
    /// The sender's system id (1 = usually the vehicle; ground stations use 255, §3).
    public var systemID: UInt8 = 0
    /// The sender's component id (1 = autopilot, 190 = mission planner / ground station, §3).
    public var componentID: UInt8 = 0
    /// 24 bits in v2, 8 bits in v1.
    public var messageID: UInt32 = 0
    /// The payload bytes as on the wire (at most 255).
    public var payload: [UInt8] = []
    /// The 13 signature bytes of a signed v2 frame (link id, timestamp, signature); nil when unsigned.
    public var signature: [UInt8]? = nil
}

extension MAVLinkFrame {
    /// Start-of-frame bytes (`MAVLINK_STX`, `MAVLINK_STX_MAVLINK1`), docs/mavlink.md §2.1.
    public static let magicV2: UInt8 = 0xFD
    public static let magicV1: UInt8 = 0xFE
    /// Bytes before the payload, magic included: v2 10, v1 6 (§2.1).
    static let headerLengthV2 = 10
    static let headerLengthV1 = 6
    /// Checksum bytes after the payload (§2.3).
    static let checksumLength = 2
    /// Signature bytes after the checksum when `incompat_flags` has bit 0 (§2.5).
    public static let signatureLength = 13
    /// `MAVLINK_IFLAG_SIGNED`.
    public static let incompatibilityFlagSigned: UInt8 = 0x01
    /// The longest frame: v2 header + 255 payload + checksum + signature = 280 (§2.1).
    public static let maximumLength = headerLengthV2 + 255 + checksumLength + signatureLength

    /// Bytes on the wire: header, payload, checksum, and the signature when signed.
    public var wireLength: Int {
        (version == .v2 ? Self.headerLengthV2 : Self.headerLengthV1) + payload.count + Self.checksumLength
            + (version == .v2 && isSigned ? Self.signatureLength : 0)
    }

    /// Whether the signed flag is set.
    public var isSigned: Bool { incompatibilityFlags & Self.incompatibilityFlagSigned != 0 }

    /// The wire bytes, with the checksum computed over header and payload plus `crcExtra`
    /// (the message's CRC_EXTRA, §2.3).
    public func encoded(crcExtra: UInt8) throws(MAVLinkEncodingError) -> [UInt8] {
        guard payload.count <= 255 else { throw .payloadTooLong(byteCount: payload.count) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.maximumLength)
        switch version {
        case .v1:
            guard messageID <= 0xFF else { throw .messageIDTooLargeForV1(messageID) }
            bytes += [Self.magicV1, UInt8(payload.count), sequence, systemID, componentID, UInt8(messageID)]
        case .v2:
            guard messageID <= 0xFF_FFFF else { throw .messageIDTooLarge(messageID) }
            bytes += [Self.magicV2, UInt8(payload.count), incompatibilityFlags, compatibilityFlags, sequence, systemID, componentID]
            bytes += [UInt8(truncatingIfNeeded: messageID), UInt8(truncatingIfNeeded: messageID >> 8), UInt8(truncatingIfNeeded: messageID >> 16)]
        }
        bytes += payload
        let checksum = MAVLinkCRC.checksum(bytes.dropFirst(), crcExtra: crcExtra)
        bytes += [UInt8(truncatingIfNeeded: checksum), UInt8(truncatingIfNeeded: checksum >> 8)]
        let signed = version == .v2 && isSigned
        if signature != nil || signed {
            guard let signature, signed, signature.count == Self.signatureLength else {
                throw .badSignature(byteCount: signature?.count ?? 0, signedFlag: signed)
            }
            bytes += signature
        }
        return bytes
    }

    /// Decodes exactly one frame, checking its checksum with `crcExtra(messageID)` (nil: unknown id).
    public init(
        bytes: [UInt8], crcExtra: (UInt32) -> UInt8? = MAVLinkMessages.crcExtra
    ) throws(MAVLinkDecodingError) {
        switch Self.scan(bytes, from: 0, crcExtra: crcExtra) {
        case .needMore(let needed): throw .truncated(byteCount: bytes.count, neededByteCount: needed)
        case .rejected(let error, _): throw error
        case .unknown(let frame, _): throw .unknownMessageID(frame.messageID)
        case .frame(let frame, let length):
            guard length == bytes.count else { throw .bytesAfterFrame(count: bytes.count - length) }
            self = frame
        }
    }

    /// What the bytes at one offset hold.
    enum Scan: Equatable {
        /// A checked frame of `length` bytes.
        case frame(MAVLinkFrame, length: Int)
        /// A well-formed frame of `length` bytes whose id has no CRC_EXTRA here: unchecked.
        case unknown(MAVLinkFrame, length: Int)
        /// Not a frame; the caller moves on `skip` bytes (1 when the length itself is not trusted).
        case rejected(MAVLinkDecodingError, skip: Int)
        /// A frame may start here but needs this many bytes in all.
        case needMore(Int)
    }

    /// Reads the frame starting at `bytes[start]` (docs/mavlink.md §2.6 has the order of checks).
    ///
    /// A bad checksum skips only the magic byte: the length byte is then not trusted, so a frame cut
    /// short by a lost datagram does not swallow the good frame after it. An unknown id cannot be
    /// checked and is skipped by its length, as pymavlink and the C library do.
    static func scan(_ bytes: [UInt8], from start: Int, crcExtra: (UInt32) -> UInt8?) -> Scan {
        let available = bytes.count - start
        guard available >= 1 else { return .needMore(1) }
        let magic = bytes[start]
        guard magic == magicV2 || magic == magicV1 else { return .rejected(.badMagic(found: magic), skip: 1) }
        let isV2 = magic == magicV2
        let headerLength = isV2 ? headerLengthV2 : headerLengthV1
        guard available >= headerLength else { return .needMore(headerLength) }
        let payloadLength = Int(bytes[start + 1])
        let incompat = isV2 ? bytes[start + 2] : 0
        let signed = incompat & incompatibilityFlagSigned != 0
        let length = headerLength + payloadLength + checksumLength + (signed ? signatureLength : 0)
        guard available >= length else { return .needMore(length) }
        var frame = MAVLinkFrame()
        frame.version = isV2 ? .v2 : .v1
        frame.incompatibilityFlags = incompat
        frame.compatibilityFlags = isV2 ? bytes[start + 3] : 0
        let idAt = start + (isV2 ? 4 : 2)
        (frame.sequence, frame.systemID, frame.componentID) = (bytes[idAt], bytes[idAt + 1], bytes[idAt + 2])
        frame.messageID = isV2
            ? UInt32(bytes[idAt + 3]) | UInt32(bytes[idAt + 4]) << 8 | UInt32(bytes[idAt + 5]) << 16
            : UInt32(bytes[idAt + 3])
        let payloadStart = start + headerLength
        let checksumAt = payloadStart + payloadLength
        frame.payload = Array(bytes[payloadStart..<checksumAt])
        if signed { frame.signature = Array(bytes[(checksumAt + checksumLength)..<(start + length)]) }
        guard let extra = crcExtra(frame.messageID) else { return .unknown(frame, length: length) }
        let stored = UInt16(bytes[checksumAt]) | UInt16(bytes[checksumAt + 1]) << 8
        let computed = MAVLinkCRC.checksum(bytes[(start + 1)..<checksumAt], crcExtra: extra)
        guard stored == computed else {
            return .rejected(.badChecksum(messageID: frame.messageID, stored: stored, computed: computed), skip: 1)
        }
        guard incompat & ~incompatibilityFlagSigned == 0 else {
            return .rejected(.unsupportedIncompatibilityFlags(incompat), skip: length)
        }
        return .frame(frame, length: length)
    }
}
