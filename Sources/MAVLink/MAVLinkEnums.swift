// The common.xml enum values a follow needs (docs/mavlink.md §5). The named values are Swift enums;
// a message field holds `MAVLinkEnum<E>` (or `MAVLinkBitmask<E>` for flag sets), which keeps the raw
// value, so a value this file does not name still decodes, re-encodes and never traps.

/// An enum field's raw value; `known` is the named value, nil when this codec does not name it.
public struct MAVLinkEnum<Known: RawRepresentable & Hashable & Sendable>: MAVLinkOpenEnum, Sendable
where Known.RawValue: MAVLinkWireValue & Hashable {
    public var rawValue: Known.RawValue
    public init(rawValue: Known.RawValue) { self.rawValue = rawValue }
    public init(_ known: Known) { rawValue = known.rawValue }
    public var known: Known? { Known(rawValue: rawValue) }
}

/// A bitmask field: the raw bits, with set operations over the named bits `Bit` (each a power of two).
public struct MAVLinkBitmask<Bit: RawRepresentable & Hashable & Sendable>: MAVLinkOpenEnum, Sendable, ExpressibleByArrayLiteral
where Bit.RawValue: MAVLinkWireValue & FixedWidthInteger {
    public var rawValue: Bit.RawValue
    public init(rawValue: Bit.RawValue) { self.rawValue = rawValue }
    public init(arrayLiteral bits: Bit...) { rawValue = bits.reduce(0) { $0 | $1.rawValue } }
    public func contains(_ bit: Bit) -> Bool { rawValue & bit.rawValue == bit.rawValue }
    public mutating func insert(_ bit: Bit) { rawValue |= bit.rawValue }
}

/// `MAV_TYPE`: what sends the HEARTBEAT (`gcs` = 6: what FollowMe says it is). Values from common.xml
/// (cross-checked with pymavlink 2.4.50).
public enum MAVType: UInt8, CaseIterable, Sendable {
    case generic = 0, fixedWing = 1, quadrotor = 2, coaxial = 3, helicopter = 4, antennaTracker = 5, gcs = 6
    case groundRover = 10, hexarotor = 13, octorotor = 14, tricopter = 15, onboardController = 18
    case dodecarotor = 29, camera = 30, decarotor = 35

    /// The rotorcraft that fly ArduCopter's and PX4's multicopter modes (GUIDED 4, OFFBOARD, NAV_TAKEOFF
    /// climbing vertically). ArduCopter's HEARTBEAT `type` is its motors' frame type
    /// (ArduCopter/GCS_Mavlink.cpp `GCS_Copter::frame_type` → `motors->get_frame_mav_type()`), one of
    /// these; PX4 sends its `MAV_TYPE` parameter (docs/mavlink.md §7.7).
    public static let multirotors: Set<MAVType> = [
        .quadrotor, .coaxial, .helicopter, .hexarotor, .octorotor, .tricopter, .dodecarotor, .decarotor,
    ]
}

/// `MAV_SYS_STATUS_SENSOR` bits of SYS_STATUS `onboard_control_sensors_*` (common.xml).
public enum MAVSysStatusSensor {
    /// MAV_SYS_STATUS_PREARM_CHECK (0x10000000): present and enabled when the autopilot reports its
    /// arming checks; healthy when they pass.
    public static let prearmCheck: UInt32 = 0x1000_0000
}

/// `MAV_AUTOPILOT`: which firmware (selects the custom-mode table, §5.3–5.4); `invalid` = 8 is what
/// ground stations and other non-flight components send.
public enum MAVAutopilot: UInt8, CaseIterable, Sendable {
    case generic = 0, ardupilotmega = 3, invalid = 8, px4 = 12
}

/// `MAV_MODE_FLAG`: HEARTBEAT `base_mode` bits; `customModeEnabled` says `custom_mode` holds the
/// autopilot's own mode number, `safetyArmed` that the motors are armed (§5.2).
public enum MAVModeFlag: UInt8, CaseIterable, Sendable {
    case customModeEnabled = 1, testEnabled = 2, autoEnabled = 4, guidedEnabled = 8, stabilizeEnabled = 16
    case hilEnabled = 32, manualInputEnabled = 64, safetyArmed = 128
}

/// `MAV_STATE`: HEARTBEAT `system_status` (`standby` = on the ground, ready to arm; `active` = armed / flying).
public enum MAVState: UInt8, CaseIterable, Sendable {
    case uninitialized = 0, boot, calibrating, standby, active, critical, emergency, poweroff, flightTermination
}

/// `MAV_LANDED_STATE`: EXTENDED_SYS_STATE `landed_state`, the autopilot's landed confirmation (§5.2).
public enum MAVLandedState: UInt8, CaseIterable, Sendable {
    case undefined = 0, onGround, inAir, takeoff, landing
}

/// `MAV_VTOL_STATE`: EXTENDED_SYS_STATE `vtol_state` (multicopters send `undefined`).
public enum MAVVTOLState: UInt8, CaseIterable, Sendable {
    case undefined = 0, transitionToFixedWing, transitionToMulticopter, multicopter, fixedWing
}

/// `MAV_SEVERITY`: STATUSTEXT `severity` (the syslog levels).
public enum MAVSeverity: UInt8, CaseIterable, Sendable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug
}

/// `MAV_CMD`: the COMMAND_LONG commands a follow sends; their parameters are in docs/mavlink.md §5.1.
public enum MAVCommand: UInt16, CaseIterable, Sendable {
    case navLand = 21, navTakeoff = 22, doSetMode = 176, componentArmDisarm = 400, setMessageInterval = 511
    /// MAV_CMD_DO_SET_ROI_LOCATION: param1 gimbal device id (0 = all), param5/6/7 latitude, longitude
    /// (degrees) and altitude (m) of the point to look at; MAV_CMD_DO_SET_ROI_NONE: param1 the same,
    /// cancels it (mavlink common.xml, checked against pymavlink's `common` dialect: 195 and 197).
    case doSetROILocation = 195, doSetROINone = 197
    /// MAV_CMD_REQUEST_MESSAGE: param1 the message id to send once (512); MAV_CMD_VIDEO_START_CAPTURE: param1
    /// stream id (0 = all), param2 CAMERA_CAPTURE_STATUS frequency (Hz, 0 = none) (2500);
    /// MAV_CMD_VIDEO_STOP_CAPTURE: param1 stream id (2501) (common.xml, checked against pymavlink 2.4.50;
    /// docs/mavlink.md §5.1).
    case requestMessage = 512, videoStartCapture = 2500, videoStopCapture = 2501
}

/// `CAMERA_CAP_FLAGS`: CAMERA_INFORMATION `flags` bits (common.xml, checked against pymavlink 2.4.50).
public enum CameraCapability: UInt32, CaseIterable, Sendable {
    case captureVideo = 1, captureImage = 2, hasModes = 4, canCaptureImageInVideoMode = 8, canCaptureVideoInImageMode = 16
    case hasImageSurveyMode = 32, hasBasicZoom = 64, hasBasicFocus = 128, hasVideoStream = 256
}

/// `MAV_RESULT`: COMMAND_ACK `result`.
public enum MAVResult: UInt8, CaseIterable, Sendable {
    case accepted = 0, temporarilyRejected, denied, unsupported, failed, inProgress, cancelled
}

/// `MAV_FRAME`: SET_POSITION_TARGET_LOCAL_NED `coordinate_frame`, COMMAND_INT `frame`. `localNED` (1): north,
/// east, down from the EKF origin, velocities in the same axes. `globalInt` (5): x/y degE7, z above mean sea
/// level; `globalRelativeAltitudeInt` (6): the same with z above home (common.xml).
public enum MAVFrame: UInt8, CaseIterable, Sendable {
    case localNED = 1, globalInt = 5, globalRelativeAltitudeInt = 6, localOffsetNED = 7, bodyNED = 8, bodyOffsetNED = 9
}

/// `POSITION_TARGET_TYPEMASK`: the SET_POSITION_TARGET_LOCAL_NED fields the autopilot *ignores*
/// (§5.1); `forceSet` makes the acceleration fields forces.
public enum PositionTargetTypeBit: UInt16, CaseIterable, Sendable {
    case xIgnore = 1, yIgnore = 2, zIgnore = 4, vxIgnore = 8, vyIgnore = 16, vzIgnore = 32
    case axIgnore = 64, ayIgnore = 128, azIgnore = 256, forceSet = 512, yawIgnore = 1024, yawRateIgnore = 2048
}

extension MAVLinkBitmask where Bit == PositionTargetTypeBit {
    /// Velocity and yaw rate only (position, acceleration and yaw ignored): 0x05C7 = 1479 (§5.1).
    public static var velocityAndYawRate: Self { [.xIgnore, .yIgnore, .zIgnore, .axIgnore, .ayIgnore, .azIgnore, .yawIgnore] }
}
