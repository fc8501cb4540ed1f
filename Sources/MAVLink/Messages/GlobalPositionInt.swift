/// GLOBAL_POSITION_INT (33): the fused global position and NED velocity.
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
    public static let layout = MAVLinkLayout<Self>(id: 33, crcExtra: 104, name: "GLOBAL_POSITION_INT")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds), .scalar("lat", \.latitudeLongitude.latitudeE7), .scalar("lon", \.latitudeLongitude.longitudeE7),
         .scalar("alt", \.altitudeMSLMillimeters), .scalar("relative_alt", \.relativeAltitudeMillimeters)]
            + .elements(["vx", "vy", "vz"], \.velocityNEDCentimetersPerSecond)
            + [.scalar("hdg", \.headingCentidegrees)]
    }
}
