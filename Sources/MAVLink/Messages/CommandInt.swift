/// COMMAND_INT (75): one `MAV_CMD` with four float parameters and a position as integers — x/y in degE7
/// for a global frame, so a latitude keeps its 1.1 cm (COMMAND_LONG's float32 param5/6 keep ≈ 0.6 m at
/// 45°) — in the frame `frame` says; answered by COMMAND_ACK. Wire order (common.xml, largest type
/// first): param1…4, x, y, z, command, target_system, target_component, frame, current, autocontinue.
public struct CommandInt: MAVLinkMessage {
    /// param1 … param4 (meaning per command, `MAVCommand`).
    public var params: [Float] = [0, 0, 0, 0]
    /// x and y: latitude and longitude in degE7 for a global frame.
    public var position: LatitudeLongitudeE7 = LatitudeLongitudeE7()
    /// z: altitude in metres, measured as `frame` says.
    public var altitudeMeters: Float = 0
    public var command: MAVLinkEnum<MAVCommand> = .init(rawValue: 0)
    /// Who it is for.
    public var target: MAVLinkTarget = MAVLinkTarget()
    /// MAV_FRAME of x, y, z (`MAVFrame`).
    public var frame: MAVLinkEnum<MAVFrame> = .init(rawValue: 0)
    /// Unused for a command (0); autocontinue likewise.
    public var current: UInt8 = 0
    public var autocontinue: UInt8 = 0

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 75, crcExtra: 158, name: "COMMAND_INT")
    public static var fields: [MAVLinkField<Self>] {
        .elements((1...4).map { "param\($0)" }, \.params)
            + [.scalar("x", \.position.latitudeE7), .scalar("y", \.position.longitudeE7), .scalar("z", \.altitudeMeters),
               .scalar("command", \.command), .scalar("target_system", \.target.system),
               .scalar("target_component", \.target.component), .scalar("frame", \.frame),
               .scalar("current", \.current), .scalar("autocontinue", \.autocontinue)]
    }
}
