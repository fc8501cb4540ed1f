/// A typed MAVLink message: its id, CRC_EXTRA and wire layout (docs/mavlink.md §4).
///
/// Conformers are structs of wire values, every property defaulting to zero; `fields` lists them in
/// wire order (by type size, largest first, stable in declaration order), `extensionFields` after
/// them in declaration order (§4.2). Encoding and decoding are written once, here, from that table.
public protocol MAVLinkMessage: Sendable, Equatable {
    /// Id, CRC_EXTRA and name.
    static var info: MAVLinkMessageInfo { get }
    /// Base fields in wire order.
    static var fields: [MAVLinkField<Self>] { get }
    /// Extension fields (after `<extensions/>`), in declaration order; empty when none.
    static var extensionFields: [MAVLinkField<Self>] { get }
    /// Every field zero.
    init()
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
    public static var messageID: UInt32 { info.id }
    public static var crcExtra: UInt8 { info.crcExtra }
    public static var messageName: String { info.name }
    public static var extensionFields: [MAVLinkField<Self>] { [] }

    /// Every field, wire order.
    public static var allFields: [MAVLinkField<Self>] { fields + extensionFields }

    /// Bytes of the base fields (the v1 payload length; a v2 payload may be shorter, §2.4).
    public static var baseLength: Int { fields.reduce(0) { $0 + $1.size } }
    /// Bytes with extension fields.
    public static var maximumLength: Int { allFields.reduce(0) { $0 + $1.size } }

    /// The full payload, `maximumLength` bytes, not truncated.
    public func payload() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.maximumLength)
        for field in Self.allFields {
            for bits in field.get(self) {
                for index in 0..<field.type.size { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
            }
        }
        return bytes
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

    /// The wire bytes of `frame(sequence:systemID:componentID:)`.
    public func encoded(sequence: UInt8, systemID: UInt8, componentID: UInt8) -> [UInt8] {
        // Cannot throw: an unsigned v2 frame, 24-bit id, payload of at most 255 bytes.
        (try? frame(sequence: sequence, systemID: systemID, componentID: componentID).encoded(crcExtra: Self.crcExtra)) ?? []
    }
}
