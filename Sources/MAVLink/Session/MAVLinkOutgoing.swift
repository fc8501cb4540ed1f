import FollowCore

/// A message the session wants sent to the vehicle, one UDP datagram each.
public enum MAVLinkOutgoing: Sendable, Equatable {
    case heartbeat(Heartbeat)
    case command(CommandLong)
    /// A command carrying a position (COMMAND_INT: degE7, no float32 rounding).
    case positionCommand(CommandInt)
    case setpoint(SetPositionTargetLocalNED)
    case parameterRead(ParamRequestRead)

    /// The message itself.
    public var message: any MAVLinkMessage {
        switch self {
        case .heartbeat(let message): message
        case .command(let message): message
        case .positionCommand(let message): message
        case .setpoint(let message): message
        case .parameterRead(let message): message
        }
    }
}

/// What the shell must do after the session handled an input: send `messages` in order, publish `events` in order.
public struct MAVLinkSessionOutput: Sendable {
    public var messages: [MAVLinkOutgoing] = []
    public var events: [LinkEvent] = []

    public init() {}

    public mutating func reset() {
        messages.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
    }
}

/// Numbers and encodes outgoing messages as MAVLink v2 frames from our system and component id:
/// the sequence is given when encoding, not when the message is made (docs/style.md habit 10).
public struct MAVLinkSender: Sendable {
    public let systemID: UInt8
    public let componentID: UInt8
    /// The next frame's sequence number (wraps at 255, docs/mavlink.md §2.2).
    public private(set) var sequence: UInt8 = 0

    public init(systemID: UInt8, componentID: UInt8) {
        self.systemID = systemID
        self.componentID = componentID
    }

    /// The wire bytes of `outgoing` with the next sequence number (a new array; see `encode(_:into:)`).
    public mutating func encode(_ outgoing: MAVLinkOutgoing) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(outgoing, into: &bytes)
        return bytes
    }

    /// Replaces `bytes` with the wire bytes of `outgoing`, with the next sequence number; allocates
    /// nothing once `bytes` has the capacity of `MAVLinkFrame.maximumLength`.
    public mutating func encode(_ outgoing: MAVLinkOutgoing, into bytes: inout [UInt8]) {
        bytes.replaceContents(maximumCount: MAVLinkFrame.maximumLength) { encode(outgoing, into: $0) }
    }

    /// Writes the wire bytes of `outgoing`, with the next sequence number, to the start of `buffer`
    /// (at least `MAVLinkFrame.maximumLength` bytes); returns their count. Allocates nothing: the
    /// message is encoded as its own type (`any MAVLinkMessage` would box the larger ones).
    public mutating func encode(_ outgoing: MAVLinkOutgoing, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        defer { sequence &+= 1 }
        switch outgoing {
        case .heartbeat(let message): return encode(message, into: buffer)
        case .command(let message): return encode(message, into: buffer)
        case .positionCommand(let message): return encode(message, into: buffer)
        case .setpoint(let message): return encode(message, into: buffer)
        case .parameterRead(let message): return encode(message, into: buffer)
        }
    }

    private func encode(_ message: some MAVLinkMessage, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        message.encode(sequence: sequence, systemID: systemID, componentID: componentID, into: buffer)
    }
}
