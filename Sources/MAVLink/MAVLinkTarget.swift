/// Which system and component a command or setpoint is for (`target_system`, `target_component`;
/// 0 = broadcast; docs/mavlink.md §3).
public struct MAVLinkTarget: Sendable, Hashable {
    public var system: UInt8 = 0
    public var component: UInt8 = 0

    public init(system: UInt8 = 0, component: UInt8 = 0) {
        self.system = system
        self.component = component
    }
}

/// One set of `MAV_SYS_STATUS_SENSOR` bitmasks of SYS_STATUS: which sensors are present, enabled and healthy.
public struct SensorBitmasks: Sendable, Hashable {
    public var present: UInt32 = 0
    public var enabled: UInt32 = 0
    public var health: UInt32 = 0

    public init(present: UInt32 = 0, enabled: UInt32 = 0, health: UInt32 = 0) {
        self.present = present
        self.enabled = enabled
        self.health = health
    }
}
