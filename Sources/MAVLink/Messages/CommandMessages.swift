import MemberwiseInit

// What a ground station sends and what answers it: commands, setpoints, text, the target
// (docs/mavlink.md §4.4). Property order is the wire order of `fields`; extensions last.

/// STATUSTEXT (253): a line of text for the operator (arming refusals, failsafes).
@MemberwiseInit(.public)
public struct StatusText: MAVLinkMessage {
    public var severity: MAVLinkEnum<MAVSeverity> = .init(.emergency)
    /// Up to 50 bytes, NUL-terminated only when shorter (`text.string` reads it).
    public var text: MAVLinkText = MAVLinkText(bytes: [])
    /// Extensions: message id for a text split into chunks (0 = one chunk), and the chunk's index.
    public var id: UInt16 = 0
    public var chunkSequence: UInt8 = 0

    public init() {}
    /// `char text[50]`.
    public static let textLength = 50
    public static let info = MAVLinkMessageInfo(id: 253, crcExtra: 83, name: "STATUSTEXT")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("severity", \.severity), .text("text", \.text, count: textLength)]
    }
    public static var extensionFields: [MAVLinkField<Self>] { [.scalar("id", \.id), .scalar("chunk_seq", \.chunkSequence)] }
}

/// COMMAND_LONG (76): one `MAV_CMD` with seven float parameters; answered by COMMAND_ACK.
@MemberwiseInit(.public)
public struct CommandLong: MAVLinkMessage {
    /// param1 … param7 (meaning per command, `MAVCommand`); unused ones 0 (or NaN where the command says).
    public var params: [Float] = [0, 0, 0, 0, 0, 0, 0]
    public var command: MAVLinkEnum<MAVCommand> = .init(rawValue: 0)
    public var targetSystem: UInt8 = 0
    public var targetComponent: UInt8 = 0
    /// 0 for the first transmission, incremented on each retry.
    public var confirmation: UInt8 = 0

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 76, crcExtra: 152, name: "COMMAND_LONG")
    public static var fields: [MAVLinkField<Self>] {
        .elements((1...7).map { "param\($0)" }, \.params)
            + [.scalar("command", \.command), .scalar("target_system", \.targetSystem),
               .scalar("target_component", \.targetComponent), .scalar("confirmation", \.confirmation)]
    }
}

/// COMMAND_ACK (77): the result of a command.
@MemberwiseInit(.public)
public struct CommandAck: MAVLinkMessage {
    public var command: MAVLinkEnum<MAVCommand> = .init(rawValue: 0)
    public var result: MAVLinkEnum<MAVResult> = .init(.accepted)
    /// Extensions: progress (%, 255 = unknown) while `.inProgress`; a command-specific value;
    /// who the ack is for.
    public var progress: UInt8 = 0
    public var resultParam2: Int32 = 0
    public var targetSystem: UInt8 = 0
    public var targetComponent: UInt8 = 0

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 77, crcExtra: 143, name: "COMMAND_ACK")
    public static var fields: [MAVLinkField<Self>] { [.scalar("command", \.command), .scalar("result", \.result)] }
    public static var extensionFields: [MAVLinkField<Self>] {
        [.scalar("progress", \.progress), .scalar("result_param2", \.resultParam2),
         .scalar("target_system", \.targetSystem), .scalar("target_component", \.targetComponent)]
    }
}

/// SET_POSITION_TARGET_LOCAL_NED (84): a position / velocity / acceleration / yaw setpoint; the
/// follow sends velocity + yaw rate (`MAVLinkBitmask.velocityAndYawRate`) in `.localNED`.
@MemberwiseInit(.public)
public struct SetPositionTargetLocalNED: MAVLinkMessage {
    public var timeBootMilliseconds: UInt32 = 0
    /// North, east, down (m).
    public var positionNEDMeters: [Float] = [0, 0, 0]
    /// North, east, down (m/s).
    public var velocityNEDMetersPerSecond: [Float] = [0, 0, 0]
    /// North, east, down (m/s², or N with `.forceSet`).
    public var accelerationNEDMetersPerSecondSquared: [Float] = [0, 0, 0]
    public var yawRadians: Float = 0
    public var yawRateRadiansPerSecond: Float = 0
    public var typeMask: MAVLinkBitmask<PositionTargetTypeBit> = []
    public var targetSystem: UInt8 = 0
    public var targetComponent: UInt8 = 0
    public var coordinateFrame: MAVLinkEnum<MAVFrame> = .init(rawValue: 0)

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 84, crcExtra: 143, name: "SET_POSITION_TARGET_LOCAL_NED")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds)] + .elements(["x", "y", "z"], \.positionNEDMeters)
            + .elements(["vx", "vy", "vz"], \.velocityNEDMetersPerSecond)
            + .elements(["afx", "afy", "afz"], \.accelerationNEDMetersPerSecondSquared)
            + [.scalar("yaw", \.yawRadians), .scalar("yaw_rate", \.yawRateRadiansPerSecond), .scalar("type_mask", \.typeMask),
               .scalar("target_system", \.targetSystem), .scalar("target_component", \.targetComponent),
               .scalar("coordinate_frame", \.coordinateFrame)]
    }
}

/// FOLLOW_TARGET (144): the target's position and motion, as a follow-me ground station sends it.
@MemberwiseInit(.public)
public struct FollowTarget: MAVLinkMessage {
    /// Timestamp (ms since boot or UNIX epoch).
    public var timestampMilliseconds: UInt64 = 0
    /// Application-specific state.
    public var customState: UInt64 = 0
    /// WGS84 latitude, longitude (degE7).
    public var latitudeLongitude: LatitudeLongitudeE7 = LatitudeLongitudeE7()
    /// Altitude above mean sea level (m).
    public var altitudeMSLMeters: Float = 0
    /// Velocity north, east, down (m/s); 0 where unknown (see `estimatorCapabilities`).
    public var velocityNEDMetersPerSecond: [Float] = [0, 0, 0]
    /// Acceleration north, east, down (m/s²).
    public var accelerationNEDMetersPerSecondSquared: [Float] = [0, 0, 0]
    /// Attitude quaternion w, x, y, z (1, 0, 0, 0 = unknown).
    public var attitudeQuaternion: [Float] = [0, 0, 0, 0]
    /// Body rates (rad/s).
    public var ratesRadiansPerSecond: [Float] = [0, 0, 0]
    /// Position variance north, east, down (m²).
    public var positionCovariance: [Float] = [0, 0, 0]
    /// Bits: 0 position, 1 velocity, 2 acceleration, 3 attitude + rates.
    public var estimatorCapabilities: UInt8 = 0

    public init() {}
    public static let info = MAVLinkMessageInfo(id: 144, crcExtra: 127, name: "FOLLOW_TARGET")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("timestamp", \.timestampMilliseconds), .scalar("custom_state", \.customState),
         .scalar("lat", \.latitudeLongitude.latitudeE7), .scalar("lon", \.latitudeLongitude.longitudeE7), .scalar("alt", \.altitudeMSLMeters),
         .array("vel", \.velocityNEDMetersPerSecond, count: 3), .array("acc", \.accelerationNEDMetersPerSecondSquared, count: 3),
         .array("attitude_q", \.attitudeQuaternion, count: 4), .array("rates", \.ratesRadiansPerSecond, count: 3),
         .array("position_cov", \.positionCovariance, count: 3), .scalar("est_capabilities", \.estimatorCapabilities)]
    }
}
