/// HEARTBEAT (0): who is on the link, its mode and whether it is armed; sent at 1 Hz by every side.
public struct Heartbeat: MAVLinkMessage {
    /// Autopilot-specific mode (`ArduCopterMode`, `PX4Mode.customMode`).
    public var customMode: UInt32 = 0
    public var type: MAVLinkEnum<MAVType> = .init(.generic)
    public var autopilot: MAVLinkEnum<MAVAutopilot> = .init(.generic)
    public var baseMode: MAVLinkBitmask<MAVModeFlag> = []
    public var systemStatus: MAVLinkEnum<MAVState> = .init(.uninitialized)
    /// 3 for MAVLink 2 (`MAVLINK_VERSION`), sent by all.
    public var mavlinkVersion: UInt8 = 0

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 0, crcExtra: 50, name: "HEARTBEAT")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("custom_mode", \.customMode), .scalar("type", \.type), .scalar("autopilot", \.autopilot),
         .scalar("base_mode", \.baseMode), .scalar("system_status", \.systemStatus),
         .scalar("mavlink_version", \.mavlinkVersion)]
    }
}
