/// LOCAL_POSITION_NED (32): position and velocity in the local NED frame (from the EKF origin).
public struct LocalPositionNED: MAVLinkMessage {
    public var timeBootMilliseconds: UInt32 = 0
    /// North, east, down (m).
    public var positionNEDMeters: [Float] = [0, 0, 0]
    /// North, east, down (m/s).
    public var velocityNEDMetersPerSecond: [Float] = [0, 0, 0]

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 32, crcExtra: 185, name: "LOCAL_POSITION_NED")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds)] + .elements(["x", "y", "z"], \.positionNEDMeters)
            + .elements(["vx", "vy", "vz"], \.velocityNEDMetersPerSecond)
    }
}
