import MemberwiseInit

// What a vehicle streams: its state, position, attitude and battery (docs/mavlink.md §4.4).
// Property order is the wire order of `fields` (largest type first, §4.2); extensions last.

/// HEARTBEAT (0): who is on the link, its mode and whether it is armed; sent at 1 Hz by every side.
@MemberwiseInit(.public)
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
    public static let info = MAVLinkMessageInfo(id: 0, crcExtra: 50, name: "HEARTBEAT")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("custom_mode", \.customMode), .scalar("type", \.type), .scalar("autopilot", \.autopilot),
         .scalar("base_mode", \.baseMode), .scalar("system_status", \.systemStatus),
         .scalar("mavlink_version", \.mavlinkVersion)]
    }
}

/// SYS_STATUS (1): sensor health bitmasks and the battery.
@MemberwiseInit(.public)
public struct SysStatus: MAVLinkMessage {
    /// `MAV_SYS_STATUS_SENSOR` bitmasks: present, enabled, healthy.
    public var sensorsPresent: UInt32 = 0
    public var sensorsEnabled: UInt32 = 0
    public var sensorsHealth: UInt32 = 0
    /// Main loop load, 0–1000 (d%).
    public var loadPermille: UInt16 = 0
    /// Battery voltage (mV); UINT16_MAX = unknown.
    public var batteryVoltageMillivolts: UInt16 = 0
    /// Battery current (cA, 10 mA); -1 = unknown.
    public var batteryCurrentCentiamperes: Int16 = 0
    /// Dropped packets on all links (c%, 0–10000).
    public var dropRateCommCentipercent: UInt16 = 0
    public var errorsComm: UInt16 = 0
    /// Autopilot-specific error counters 1–4.
    public var errorsCount: [UInt16] = [0, 0, 0, 0]
    /// Remaining battery (%); -1 = unknown.
    public var batteryRemainingPercent: Int8 = 0
    /// Extensions: the `MAV_SYS_STATUS_SENSOR_EXTENDED` bitmasks.
    public var sensorsPresentExtended: UInt32 = 0
    public var sensorsEnabledExtended: UInt32 = 0
    public var sensorsHealthExtended: UInt32 = 0

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 1, crcExtra: 124, name: "SYS_STATUS")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("onboard_control_sensors_present", \.sensorsPresent),
         .scalar("onboard_control_sensors_enabled", \.sensorsEnabled),
         .scalar("onboard_control_sensors_health", \.sensorsHealth), .scalar("load", \.loadPermille),
         .scalar("voltage_battery", \.batteryVoltageMillivolts), .scalar("current_battery", \.batteryCurrentCentiamperes),
         .scalar("drop_rate_comm", \.dropRateCommCentipercent), .scalar("errors_comm", \.errorsComm)]
            + (1...4).map { MAVLinkField.element("errors_count\($0)", \.errorsCount, index: $0 - 1) }
            + [.scalar("battery_remaining", \.batteryRemainingPercent)]
    }
    public static var extensionFields: [MAVLinkField<Self>] {
        [.scalar("onboard_control_sensors_present_extended", \.sensorsPresentExtended),
         .scalar("onboard_control_sensors_enabled_extended", \.sensorsEnabledExtended),
         .scalar("onboard_control_sensors_health_extended", \.sensorsHealthExtended)]
    }
}

/// GLOBAL_POSITION_INT (33): the fused global position and NED velocity.
@MemberwiseInit(.public)
public struct GlobalPositionInt: MAVLinkMessage {
    /// Since the autopilot booted (ms).
    public var timeBootMilliseconds: UInt32 = 0
    /// WGS84 latitude, longitude (degE7).
    public var latitudeLongitude: LatitudeLongitudeE7 = LatitudeLongitudeE7()
    /// Altitude above mean sea level (mm).
    public var altitudeMSLMillimeters: Int32 = 0
    /// Altitude above home (mm).
    public var relativeAltitudeMillimeters: Int32 = 0
    /// Ground speed north, east, down (cm/s).
    public var velocityNEDCentimetersPerSecond: [Int16] = [0, 0, 0]
    /// Heading, 0–35999 (cdeg); UINT16_MAX = unknown.
    public var headingCentidegrees: UInt16 = 0

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 33, crcExtra: 104, name: "GLOBAL_POSITION_INT")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds), .scalar("lat", \.latitudeLongitude.latitudeE7), .scalar("lon", \.latitudeLongitude.longitudeE7),
         .scalar("alt", \.altitudeMSLMillimeters), .scalar("relative_alt", \.relativeAltitudeMillimeters)]
            + .elements(["vx", "vy", "vz"], \.velocityNEDCentimetersPerSecond)
            + [.scalar("hdg", \.headingCentidegrees)]
    }
}

/// LOCAL_POSITION_NED (32): position and velocity in the local NED frame (from the EKF origin).
@MemberwiseInit(.public)
public struct LocalPositionNED: MAVLinkMessage {
    public var timeBootMilliseconds: UInt32 = 0
    /// North, east, down (m).
    public var positionNEDMeters: [Float] = [0, 0, 0]
    /// North, east, down (m/s).
    public var velocityNEDMetersPerSecond: [Float] = [0, 0, 0]

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 32, crcExtra: 185, name: "LOCAL_POSITION_NED")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds)] + .elements(["x", "y", "z"], \.positionNEDMeters)
            + .elements(["vx", "vy", "vz"], \.velocityNEDMetersPerSecond)
    }
}

/// ATTITUDE (30): roll, pitch, yaw and their rates (aircraft axes, right-handed).
@MemberwiseInit(.public)
public struct Attitude: MAVLinkMessage {
    public var timeBootMilliseconds: UInt32 = 0
    /// Roll, pitch, yaw (rad; yaw from north, clockwise).
    public var rollPitchYawRadians: [Float] = [0, 0, 0]
    /// Roll, pitch, yaw rates (rad/s).
    public var ratesRadiansPerSecond: [Float] = [0, 0, 0]

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 30, crcExtra: 39, name: "ATTITUDE")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds)] + .elements(["roll", "pitch", "yaw"], \.rollPitchYawRadians)
            + .elements(["rollspeed", "pitchspeed", "yawspeed"], \.ratesRadiansPerSecond)
    }
}

/// EXTENDED_SYS_STATE (245): landed state (on ground, taking off, in air, landing).
@MemberwiseInit(.public)
public struct ExtendedSysState: MAVLinkMessage {
    public var vtolState: MAVLinkEnum<MAVVTOLState> = .init(.undefined)
    public var landedState: MAVLinkEnum<MAVLandedState> = .init(.undefined)

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 245, crcExtra: 130, name: "EXTENDED_SYS_STATE")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("vtol_state", \.vtolState), .scalar("landed_state", \.landedState)]
    }
}

/// HOME_POSITION (242): where the vehicle returns to and its local-frame offset.
@MemberwiseInit(.public)
public struct HomePosition: MAVLinkMessage {
    /// WGS84 latitude, longitude (degE7).
    public var latitudeLongitude: LatitudeLongitudeE7 = LatitudeLongitudeE7()
    /// Altitude above mean sea level (mm).
    public var altitudeMSLMillimeters: Int32 = 0
    /// Home in the local NED frame (m).
    public var positionNEDMeters: [Float] = [0, 0, 0]
    /// Surface orientation quaternion w, x, y, z.
    public var quaternion: [Float] = [0, 0, 0, 0]
    /// Local approach vector end (m).
    public var approachNEDMeters: [Float] = [0, 0, 0]
    /// Extension: timestamp (µs since UNIX epoch or boot); 0 = unknown.
    public var timeMicroseconds: UInt64 = 0

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 242, crcExtra: 104, name: "HOME_POSITION")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("latitude", \.latitudeLongitude.latitudeE7), .scalar("longitude", \.latitudeLongitude.longitudeE7), .scalar("altitude", \.altitudeMSLMillimeters)]
            + .elements(["x", "y", "z"], \.positionNEDMeters) + [.array("q", \.quaternion, count: 4)]
            + .elements(["approach_x", "approach_y", "approach_z"], \.approachNEDMeters)
    }
    public static var extensionFields: [MAVLinkField<Self>] { [.scalar("time_usec", \.timeMicroseconds)] }
}
