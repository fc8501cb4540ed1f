import FollowCore

/// A typed MAVLink message: its id, CRC_EXTRA and wire layout (docs/mavlink.md §4).
///
/// Conformers are structs of wire values, every property defaulting to zero; `fields` lists them in
/// wire order (by type size, largest first, stable in declaration order), `extensionFields` after
/// them in declaration order (§4.2). Encoding and decoding are written once, here, from that table.
/// `layout` declares the id, CRC_EXTRA and name and holds the tables built once (`public static let
/// layout = MAVLinkLayout<Self>(id: 0, crcExtra: 50, name: "HEARTBEAT")`): encoding reads it and
/// allocates nothing. A message is built as its zeros plus the fields a sender sets (`Configurable`):
/// `Heartbeat { $0.type = .init(.gcs) }`.
public protocol MAVLinkMessage: Sendable, Equatable, Configurable {
    /// Base fields in wire order.
    static var fields: [MAVLinkField<Self>] { get }
    /// Extension fields (after `<extensions/>`), in declaration order; empty when none.
    static var extensionFields: [MAVLinkField<Self>] { get }
    /// Id, CRC_EXTRA and name; `fields` and `extensionFields` with offsets and lengths; built once (a `static let`).
    static var layout: MAVLinkLayout<Self> { get }
    /// Every field zero.
    init()
}

extension MAVLinkMessage {
    public static var defaults: Self { Self() }
}

/// What identifies a message on the wire (docs/mavlink.md §4.4).
public struct MAVLinkMessageInfo: Sendable, Hashable {
    /// The message id (`<message id=…>` in common.xml).
    public let id: UInt32
    /// The message's CRC_EXTRA seed: a hash of its name and base fields (§2.3), from common.xml via pymavlink.
    public let crcExtra: UInt8
    /// The common.xml name (`HEARTBEAT`).
    public let name: String

    public init(id: UInt32, crcExtra: UInt8, name: String) {
        (self.id, self.crcExtra, self.name) = (id, crcExtra, name)
    }
}

extension MAVLinkMessage {
    /// Id, CRC_EXTRA and name.
    public static var info: MAVLinkMessageInfo { layout.info }
    public static var messageID: UInt32 { info.id }
    public static var crcExtra: UInt8 { info.crcExtra }
    public static var messageName: String { info.name }
    public static var extensionFields: [MAVLinkField<Self>] { [] }

    /// Every field, wire order.
    public static var allFields: [MAVLinkField<Self>] { layout.allFields }

    /// Bytes of the base fields (the v1 payload length; a v2 payload may be shorter, §2.4).
    public static var baseLength: Int { layout.baseLength }
    /// Bytes with extension fields.
    public static var maximumLength: Int { layout.maximumLength }
    /// Bytes of the longest unsigned v2 frame of this message: header, untruncated payload, checksum.
    public static var maximumFrameLength: Int { MAVLinkFrame.headerLengthV2 + maximumLength + MAVLinkFrame.checksumLength }

    /// The full payload, `maximumLength` bytes, not truncated.
    public func payload() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Self.maximumLength) { bytes, count in
            Self.layout.write(self, into: UnsafeMutableRawBufferPointer(bytes))
            count = Self.maximumLength
        }
    }

    /// Reads a payload of any length: missing bytes are zero (a v2 sender truncates trailing zeros
    /// and an older sender omits extensions, §2.4), bytes past `maximumLength` are ignored.
    public init(payload: [UInt8]) {
        self.init()
        var offset = 0
        for field in Self.allFields {
            var elements: [UInt64] = []
            elements.reserveCapacity(field.count)
            for _ in 0..<field.count {
                var bits: UInt64 = 0
                for index in 0..<field.type.size where offset + index < payload.count {
                    bits |= UInt64(payload[offset + index]) << (8 * UInt64(index))
                }
                elements.append(bits)
                offset += field.type.size
            }
            field.set(&self, elements)
        }
    }

    /// The message in `frame`.
    public init(frame: MAVLinkFrame) throws(MAVLinkDecodingError) {
        guard frame.messageID == Self.messageID else {
            throw .messageIDMismatch(expected: Self.messageID, found: frame.messageID)
        }
        self.init(payload: frame.payload)
    }

    /// A frame carrying this message. v2: trailing zero bytes of the payload removed, the first byte
    /// always kept (§2.4, as mavlink's `_mav_trim_payload` and pymavlink do). v1 (FollowMe never
    /// sends it; for tests and tools): every field, untruncated, as pymavlink sends it (the C library
    /// sends only the base fields; receivers ignore the extra bytes, §2.7).
    public func frame(sequence: UInt8, systemID: UInt8, componentID: UInt8, version: MAVLinkFrame.Version = .v2) -> MAVLinkFrame {
        var bytes = payload()
        switch version {
        case .v2: while bytes.count > 1, bytes.last == 0 { bytes.removeLast() }
        case .v1: break
        }
        return MAVLinkFrame(version: version, sequence: sequence, systemID: systemID, componentID: componentID,
                            messageID: Self.messageID, payload: bytes)
    }

    /// Every field's element bits by common.xml name, wire order (for logs, tests, tools).
    public var fieldValues: [(name: String, bits: [UInt64])] {
        Self.allFields.map { ($0.name, $0.get(self)) }
    }

    /// A message from element bits by common.xml name; fields not given are zero, unknown names ignored.
    public init(fieldValues: [String: [UInt64]]) {
        self.init()
        for field in Self.allFields {
            guard let bits = fieldValues[field.name] else { continue }
            field.set(&self, (0..<field.count).map { $0 < bits.count ? bits[$0] : 0 })
        }
    }

    /// The wire bytes of `frame(sequence:systemID:componentID:)` (a new array; the link uses
    /// `encode(sequence:systemID:componentID:into:)`).
    public func encoded(sequence: UInt8, systemID: UInt8, componentID: UInt8) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(sequence: sequence, systemID: systemID, componentID: componentID, into: &bytes)
        return bytes
    }

    /// Replaces `bytes` with the wire bytes of `frame(sequence:systemID:componentID:)`; allocates
    /// nothing when `bytes` has the capacity (`maximumFrameLength`, or `MAVLinkFrame.maximumLength` for any message).
    public func encode(sequence: UInt8, systemID: UInt8, componentID: UInt8, into bytes: inout [UInt8]) {
        bytes.replaceContents(maximumCount: Self.maximumFrameLength) {
            encode(sequence: sequence, systemID: systemID, componentID: componentID, into: $0)
        }
    }

    /// Writes the wire bytes of `frame(sequence:systemID:componentID:)` — an unsigned v2 frame, the
    /// payload's trailing zeros cut (§2.4) — to the start of `buffer`, which must hold
    /// `maximumFrameLength` bytes; returns their count. Allocates nothing: the payload is written in
    /// place from the static `layout`, the checksum read over the buffer (§2.3).
    public func encode(sequence: UInt8, systemID: UInt8, componentID: UInt8, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        precondition(buffer.count >= Self.maximumFrameLength, "frame buffer of \(buffer.count) bytes < \(Self.maximumFrameLength)")
        let header = MAVLinkFrame.headerLengthV2
        let payload = UnsafeMutableRawBufferPointer(rebasing: buffer[header..<(header + Self.maximumLength)])
        Self.layout.write(self, into: payload)
        var payloadLength = Self.maximumLength
        while payloadLength > 1, payload[payloadLength - 1] == 0 { payloadLength -= 1 }
        let id = Self.messageID
        // Magic, length, incompat_flags and compat_flags 0 (unsigned, nothing optional), sequence,
        // system, component, 24-bit id (§2.2).
        buffer[0] = MAVLinkFrame.magicV2
        buffer[1] = UInt8(payloadLength)
        (buffer[2], buffer[3], buffer[4], buffer[5], buffer[6]) = (0, 0, sequence, systemID, componentID)
        (buffer[7], buffer[8], buffer[9]) = (UInt8(truncatingIfNeeded: id), UInt8(truncatingIfNeeded: id >> 8), UInt8(truncatingIfNeeded: id >> 16))
        let end = header + payloadLength
        let checksum = MAVLinkCRC.checksum(UnsafeRawBufferPointer(rebasing: buffer[1..<end]), crcExtra: Self.crcExtra)
        (buffer[end], buffer[end + 1]) = (UInt8(truncatingIfNeeded: checksum), UInt8(truncatingIfNeeded: checksum >> 8))
        return end + MAVLinkFrame.checksumLength
    }
}

extension Array<UInt8> {
    /// Replaces the contents with the bytes `write` puts at the start of the `maximumCount`-byte
    /// buffer it is given (it returns how many); allocates only when the capacity is short.
    package mutating func replaceContents(maximumCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) {
        removeAll(keepingCapacity: true)
        append(contentsOf: repeatElement(0, count: maximumCount))
        let count = withUnsafeMutableBytes(write)
        removeLast(self.count - count)
    }
}
