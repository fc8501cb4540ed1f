/// follow sends velocity + yaw rate (`MAVLinkBitmask.velocityAndYawRate`) in `.localNED`.
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
    /// Who it is for.
    public var target: MAVLinkTarget = MAVLinkTarget()
    public var coordinateFrame: MAVLinkEnum<MAVFrame> = .init(rawValue: 0)

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 84, crcExtra: 143, name: "SET_POSITION_TARGET_LOCAL_NED")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds)] + .elements(["x", "y", "z"], \.positionNEDMeters)
            + .elements(["vx", "vy", "vz"], \.velocityNEDMetersPerSecond)
            + .elements(["afx", "afy", "afz"], \.accelerationNEDMetersPerSecondSquared)
            + [.scalar("yaw", \.yawRadians), .scalar("yaw_rate", \.yawRateRadiansPerSecond), .scalar("type_mask", \.typeMask),
               .scalar("target_system", \.target.system), .scalar("target_component", \.target.component),
               .scalar("coordinate_frame", \.coordinateFrame)]
    }
}
