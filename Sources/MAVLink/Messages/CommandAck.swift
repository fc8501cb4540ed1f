/// COMMAND_ACK (77): the result of a command.
public struct CommandAck: MAVLinkMessage {
    public var command: MAVLinkEnum<MAVCommand> = .init(rawValue: 0)
    public var result: MAVLinkEnum<MAVResult> = .init(.accepted)
    /// Extensions: progress (%, 255 = unknown) while `.inProgress`; a command-specific value;
    /// who the ack is for.
    public var progress: UInt8 = 0
    public var resultParam2: Int32 = 0
    public var target: MAVLinkTarget = MAVLinkTarget()

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 77, crcExtra: 143, name: "COMMAND_ACK")
    public static var fields: [MAVLinkField<Self>] { [.scalar("command", \.command), .scalar("result", \.result)] }
    public static var extensionFields: [MAVLinkField<Self>] {
        [.scalar("progress", \.progress), .scalar("result_param2", \.resultParam2),
         .scalar("target_system", \.target.system), .scalar("target_component", \.target.component)]
    }
}
