/// HOME_POSITION (242): where the vehicle returns to and its local-frame offset.
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
    public static let layout = MAVLinkLayout<Self>(id: 242, crcExtra: 104, name: "HOME_POSITION")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("latitude", \.latitudeLongitude.latitudeE7), .scalar("longitude", \.latitudeLongitude.longitudeE7), .scalar("altitude", \.altitudeMSLMillimeters)]
            + .elements(["x", "y", "z"], \.positionNEDMeters) + [.array("q", \.quaternion, count: 4)]
            + .elements(["approach_x", "approach_y", "approach_z"], \.approachNEDMeters)
    }
    public static var extensionFields: [MAVLinkField<Self>] { [.scalar("time_usec", \.timeMicroseconds)] }
}
