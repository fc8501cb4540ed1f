// The common.xml enum values a follow needs (docs/mavlink.md §5). Each is an open struct over its
// raw value (`MAVLinkOpenEnum`): values this file does not name still decode and re-encode.

/// `MAV_TYPE`: what kind of system sends the HEARTBEAT.
public struct MAVType: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let generic = Self(rawValue: 0)
    public static let quadrotor = Self(rawValue: 2)
    /// `MAV_TYPE_GCS`: what FollowMe's own HEARTBEAT says it is.
    public static let gcs = Self(rawValue: 6)
    public static let hexarotor = Self(rawValue: 13)
    public static let octorotor = Self(rawValue: 14)
}

/// `MAV_AUTOPILOT`: which autopilot firmware (selects the custom-mode table, §5.3–5.4).
public struct MAVAutopilot: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let generic = Self(rawValue: 0)
    /// ArduPilot (all vehicles).
    public static let ardupilotmega = Self(rawValue: 3)
    /// No autopilot: ground stations and other non-flight components.
    public static let invalid = Self(rawValue: 8)
    public static let px4 = Self(rawValue: 12)
}

/// `MAV_MODE_FLAG`: HEARTBEAT `base_mode` bits.
public struct MAVModeFlag: OptionSet, MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `custom_mode` holds the autopilot's own mode number (ArduPilot, PX4 always set it).
    public static let customModeEnabled = Self(rawValue: 1)
    public static let testEnabled = Self(rawValue: 2)
    public static let autoEnabled = Self(rawValue: 4)
    public static let guidedEnabled = Self(rawValue: 8)
    public static let stabilizeEnabled = Self(rawValue: 16)
    public static let hilEnabled = Self(rawValue: 32)
    public static let manualInputEnabled = Self(rawValue: 64)
    /// Motors armed.
    public static let safetyArmed = Self(rawValue: 128)
}

/// `MAV_STATE`: HEARTBEAT `system_status`.
public struct MAVState: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let uninitialized = Self(rawValue: 0)
    public static let boot = Self(rawValue: 1)
    public static let calibrating = Self(rawValue: 2)
    /// On the ground, ready to arm.
    public static let standby = Self(rawValue: 3)
    /// Armed / flying.
    public static let active = Self(rawValue: 4)
    public static let critical = Self(rawValue: 5)
    public static let emergency = Self(rawValue: 6)
    public static let poweroff = Self(rawValue: 7)
    public static let flightTermination = Self(rawValue: 8)
}

/// `MAV_LANDED_STATE`: EXTENDED_SYS_STATE `landed_state`, the landed-confirmation signal (§5.2).
public struct MAVLandedState: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let undefined = Self(rawValue: 0)
    public static let onGround = Self(rawValue: 1)
    public static let inAir = Self(rawValue: 2)
    public static let takeoff = Self(rawValue: 3)
    public static let landing = Self(rawValue: 4)
}

/// `MAV_VTOL_STATE`: EXTENDED_SYS_STATE `vtol_state` (multicopters send `.undefined`).
public struct MAVVTOLState: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let undefined = Self(rawValue: 0)
    public static let multicopter = Self(rawValue: 3)
    public static let fixedWing = Self(rawValue: 4)
}

/// `MAV_SEVERITY`: STATUSTEXT `severity` (syslog levels).
public struct MAVSeverity: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let emergency = Self(rawValue: 0)
    public static let alert = Self(rawValue: 1)
    public static let critical = Self(rawValue: 2)
    public static let error = Self(rawValue: 3)
    public static let warning = Self(rawValue: 4)
    public static let notice = Self(rawValue: 5)
    public static let info = Self(rawValue: 6)
    public static let debug = Self(rawValue: 7)
}

/// `MAV_CMD`: COMMAND_LONG `command`, the ones a follow sends (§5.1 has their parameters).
public struct MAVCommand: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `MAV_CMD_NAV_LAND`: land here (params 5–7 position; NaN = current).
    public static let navLand = Self(rawValue: 21)
    /// `MAV_CMD_NAV_TAKEOFF`: param7 = altitude (m).
    public static let navTakeoff = Self(rawValue: 22)
    /// `MAV_CMD_DO_SET_MODE`: param1 = base mode (custom enabled), param2/3 = custom (sub)mode.
    public static let doSetMode = Self(rawValue: 176)
    /// `MAV_CMD_COMPONENT_ARM_DISARM`: param1 = 1 arm, 0 disarm; param2 = 21196 forces.
    public static let componentArmDisarm = Self(rawValue: 400)
    /// `MAV_CMD_SET_MESSAGE_INTERVAL`: param1 = message id, param2 = interval (µs; -1 off, 0 default).
    public static let setMessageInterval = Self(rawValue: 511)
}

/// `MAV_RESULT`: COMMAND_ACK `result`.
public struct MAVResult: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let accepted = Self(rawValue: 0)
    public static let temporarilyRejected = Self(rawValue: 1)
    public static let denied = Self(rawValue: 2)
    public static let unsupported = Self(rawValue: 3)
    public static let failed = Self(rawValue: 4)
    public static let inProgress = Self(rawValue: 5)
    public static let cancelled = Self(rawValue: 6)
}

/// `MAV_FRAME`: SET_POSITION_TARGET_LOCAL_NED `coordinate_frame`.
public struct MAVFrame: MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `MAV_FRAME_LOCAL_NED`: north, east, down from the EKF origin; velocities in the same axes.
    public static let localNED = Self(rawValue: 1)
    public static let localOffsetNED = Self(rawValue: 7)
    public static let bodyNED = Self(rawValue: 8)
    public static let bodyOffsetNED = Self(rawValue: 9)
}

/// `POSITION_TARGET_TYPEMASK`: which SET_POSITION_TARGET_LOCAL_NED fields the autopilot ignores (§5.1).
public struct PositionTargetTypeMask: OptionSet, MAVLinkOpenEnum, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let xIgnore = Self(rawValue: 1)
    public static let yIgnore = Self(rawValue: 2)
    public static let zIgnore = Self(rawValue: 4)
    public static let vxIgnore = Self(rawValue: 8)
    public static let vyIgnore = Self(rawValue: 16)
    public static let vzIgnore = Self(rawValue: 32)
    public static let axIgnore = Self(rawValue: 64)
    public static let ayIgnore = Self(rawValue: 128)
    public static let azIgnore = Self(rawValue: 256)
    /// Acceleration fields are forces (not used by a follow).
    public static let forceSet = Self(rawValue: 512)
    public static let yawIgnore = Self(rawValue: 1024)
    public static let yawRateIgnore = Self(rawValue: 2048)
    /// Velocity and yaw rate only: 0x05C7 = 1479, the mask ArduPilot's Copter guide gives for it (§5.1).
    public static let velocityAndYawRate: Self = [.xIgnore, .yIgnore, .zIgnore, .axIgnore, .ayIgnore, .azIgnore, .yawIgnore]
}
