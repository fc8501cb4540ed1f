/// ArduPilot Copter's flight modes: HEARTBEAT `custom_mode` and DO_SET_MODE param2 (docs/mavlink.md
/// §5.3). GUIDED takes velocity setpoints; BRAKE stops at once and holds (the hold FollowMe asks for).
public enum ArduCopterMode: UInt32, CaseIterable, Sendable {
    case stabilize = 0, auto = 3, guided = 4, loiter = 5, rtl = 6, land = 9, brake = 17
}

/// A PX4 flight mode: main mode and sub mode, packed into HEARTBEAT `custom_mode` as
/// `main << 16 | sub << 24` (PX4's `px4_custom_mode` union; docs/mavlink.md §5.4).
public struct PX4Mode: Sendable, Hashable {
    public var mainMode: UInt8
    public var subMode: UInt8

    public init(mainMode: UInt8, subMode: UInt8 = 0) {
        self.mainMode = mainMode
        self.subMode = subMode
    }

    /// From HEARTBEAT `custom_mode`.
    public init(customMode: UInt32) {
        self.init(mainMode: UInt8(truncatingIfNeeded: customMode >> 16), subMode: UInt8(truncatingIfNeeded: customMode >> 24))
    }

    /// HEARTBEAT `custom_mode`.
    public var customMode: UInt32 { UInt32(mainMode) << 16 | UInt32(subMode) << 24 }

    /// `PX4_CUSTOM_MAIN_MODE_AUTO` = 4, `…_OFFBOARD` = 6.
    public static let mainAuto: UInt8 = 4
    public static let mainOffboard: UInt8 = 6
    /// Setpoints from the ground station (they must be streaming before and while switching in).
    public static let offboard = Self(mainMode: mainOffboard)
    /// AUTO.LOITER (`PX4_CUSTOM_SUB_MODE_AUTO_LOITER` = 3): hold position.
    public static let autoLoiter = Self(mainMode: mainAuto, subMode: 3)
    /// AUTO.LAND (`PX4_CUSTOM_SUB_MODE_AUTO_LAND` = 6).
    public static let autoLand = Self(mainMode: mainAuto, subMode: 6)
    /// AUTO.TAKEOFF (`PX4_CUSTOM_SUB_MODE_AUTO_TAKEOFF` = 2).
    public static let autoTakeoff = Self(mainMode: mainAuto, subMode: 2)
}
