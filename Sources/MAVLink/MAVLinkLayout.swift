/// A message type's wire layout, built once per type (`MAVLinkMessage.layout`, a `static let`): its
/// id, CRC_EXTRA and name, the field tables, every field's payload offset and the lengths
/// (docs/mavlink.md §4.2, §4.4).
///
/// Computed once so that encoding a message — every 30 Hz tick sends a SET_POSITION_TARGET_LOCAL_NED —
/// neither rebuilds the tables nor allocates (PERFORMANCE.md, `mavlink-tick`).
public struct MAVLinkLayout<Message>: Sendable {
    /// Id, CRC_EXTRA and name.
    public let info: MAVLinkMessageInfo
    /// Base fields in wire order.
    public let fields: [MAVLinkField<Message>]
    /// Extension fields, in declaration order.
    public let extensionFields: [MAVLinkField<Message>]
    /// `fields` then `extensionFields`.
    public let allFields: [MAVLinkField<Message>]
    /// Payload byte offset of each of `allFields`.
    let offsets: [Int]
    /// Bytes of the base fields (the v1 payload length).
    public let baseLength: Int
    /// Bytes with extension fields: the untruncated payload.
    public let maximumLength: Int

    public init(info: MAVLinkMessageInfo, fields: [MAVLinkField<Message>], extensionFields: [MAVLinkField<Message>] = []) {
        self.info = info
        self.fields = fields
        self.extensionFields = extensionFields
        allFields = fields + extensionFields
        var offsets: [Int] = []
        var offset = 0
        for field in allFields {
            offsets.append(offset)
            offset += field.size
        }
        self.offsets = offsets
        baseLength = fields.reduce(0) { $0 + $1.size }
        maximumLength = offset
        // A MAVLink v2 payload length is one byte (docs/mavlink.md §2.1): no message may be longer.
        precondition(maximumLength <= 255, "\(info.name): payload of \(maximumLength) bytes > 255")
    }

    /// Writes `message`'s full payload (`maximumLength` bytes, not truncated) to the start of `payload`,
    /// which must hold at least that many; allocates nothing.
    public func write(_ message: Message, into payload: UnsafeMutableRawBufferPointer) {
        precondition(payload.count >= maximumLength, "payload buffer of \(payload.count) bytes < \(maximumLength)")
        // Indexed through buffer pointers, not `zip` or `for … in`: this generic code runs unspecialized
        // (called across modules), where the stdlib's generic iterators allocated twice per field
        // (`FollowMeBenchmarks --filter mavlink-tick --allocation-stacks`).
        allFields.withUnsafeBufferPointer { fields in
            offsets.withUnsafeBufferPointer { offsets in
                for index in 0..<fields.count {
                    let (field, offset) = (fields[index], offsets[index])
                    field.write(message, UnsafeMutableRawBufferPointer(rebasing: payload[offset..<(offset + field.size)]))
                }
            }
        }
    }
}

extension MAVLinkLayout where Message: MAVLinkMessage {
    /// `Message`'s layout, from its `fields` and `extensionFields`: the one declaration a message type
    /// makes of its identity and wire form (`public static let layout = MAVLinkLayout<Self>(id: 0,
    /// crcExtra: 50, name: "HEARTBEAT")`).
    public init(id: UInt32, crcExtra: UInt8, name: String) {
        self.init(info: MAVLinkMessageInfo(id: id, crcExtra: crcExtra, name: name),
                  fields: Message.fields, extensionFields: Message.extensionFields)
    }
}
