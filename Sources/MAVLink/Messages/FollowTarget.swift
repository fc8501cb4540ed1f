/// FOLLOW_TARGET (144): the target's position and motion, as a follow-me ground station sends it.
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
    public static let layout = MAVLinkLayout<Self>(id: 144, crcExtra: 127, name: "FOLLOW_TARGET")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("timestamp", \.timestampMilliseconds), .scalar("custom_state", \.customState),
         .scalar("lat", \.latitudeLongitude.latitudeE7), .scalar("lon", \.latitudeLongitude.longitudeE7), .scalar("alt", \.altitudeMSLMeters),
         .array("vel", \.velocityNEDMetersPerSecond, count: 3), .array("acc", \.accelerationNEDMetersPerSecondSquared, count: 3),
         .array("attitude_q", \.attitudeQuaternion, count: 4), .array("rates", \.ratesRadiansPerSecond, count: 3),
         .array("position_cov", \.positionCovariance, count: 3), .scalar("est_capabilities", \.estimatorCapabilities)]
    }
}
