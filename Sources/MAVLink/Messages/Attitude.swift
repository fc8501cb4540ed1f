/// ATTITUDE (30): roll, pitch, yaw and their rates (aircraft axes, right-handed).
public struct Attitude: MAVLinkMessage {
    public var timeBootMilliseconds: UInt32 = 0
    /// Roll, pitch, yaw (rad; yaw from north, clockwise).
    public var rollPitchYawRadians: [Float] = [0, 0, 0]
    /// Roll, pitch, yaw rates (rad/s).
    public var ratesRadiansPerSecond: [Float] = [0, 0, 0]

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 30, crcExtra: 39, name: "ATTITUDE")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds)] + .elements(["roll", "pitch", "yaw"], \.rollPitchYawRadians)
            + .elements(["rollspeed", "pitchspeed", "yawspeed"], \.ratesRadiansPerSecond)
    }
}
