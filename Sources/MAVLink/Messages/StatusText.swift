/// STATUSTEXT (253): a line of text for the operator (arming refusals, failsafes).
public struct StatusText: MAVLinkMessage {
    public var severity: MAVLinkEnum<MAVSeverity> = .init(.emergency)
    /// Up to 50 bytes, NUL-terminated only when shorter (`text.string` reads it).
    public var text: MAVLinkText = MAVLinkText(bytes: [])
    /// Extensions: message id for a text split into chunks (0 = one chunk), and the chunk's index.
    public var id: UInt16 = 0
    public var chunkSequence: UInt8 = 0

    public init() {}
    /// `char text[50]`.
    public static let textLength = 50
    public static let layout = MAVLinkLayout<Self>(id: 253, crcExtra: 83, name: "STATUSTEXT")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("severity", \.severity), .text("text", \.text, count: textLength)]
    }
    public static var extensionFields: [MAVLinkField<Self>] { [.scalar("id", \.id), .scalar("chunk_seq", \.chunkSequence)] }
}
