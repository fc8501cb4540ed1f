/// COMMAND_LONG (76): one `MAV_CMD` with seven float parameters; answered by COMMAND_ACK.
public struct CommandLong: MAVLinkMessage {
    /// param1 … param7 (meaning per command, `MAVCommand`); unused ones 0 (or NaN where the command says).
    public var params: [Float] = [0, 0, 0, 0, 0, 0, 0]
    public var command: MAVLinkEnum<MAVCommand> = .init(rawValue: 0)
    /// Who it is for.
    public var target: MAVLinkTarget = MAVLinkTarget()
    /// 0 for the first transmission, incremented on each retry.
    public var confirmation: UInt8 = 0

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 76, crcExtra: 152, name: "COMMAND_LONG")
    public static var fields: [MAVLinkField<Self>] {
        .elements((1...7).map { "param\($0)" }, \.params)
            + [.scalar("command", \.command), .scalar("target_system", \.target.system),
               .scalar("target_component", \.target.component), .scalar("confirmation", \.confirmation)]
    }
}
