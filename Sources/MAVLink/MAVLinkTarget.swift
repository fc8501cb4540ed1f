import MemberwiseInit

/// Which system and component a command or setpoint is for (`target_system`, `target_component`;
/// 0 = broadcast; docs/mavlink.md §3).
@MemberwiseInit(.public)
public struct MAVLinkTarget: Sendable, Hashable {
    public var system: UInt8 = 0
    public var component: UInt8 = 0
}

/// One set of `MAV_SYS_STATUS_SENSOR` bitmasks of SYS_STATUS: which sensors are present, enabled and healthy.
@MemberwiseInit(.public)
public struct SensorBitmasks: Sendable, Hashable {
    public var present: UInt32 = 0
    public var enabled: UInt32 = 0
    public var health: UInt32 = 0
}
