import FollowCore

/// A WGS84 latitude and longitude in degE7 (degrees × 10⁷), the pair GLOBAL_POSITION_INT,
/// HOME_POSITION and FOLLOW_TARGET carry (docs/mavlink.md §4.4): about 1.1 cm of latitude per unit.
public struct LatitudeLongitudeE7: Sendable, Hashable {
    public var latitudeE7: Int32 = 0
    public var longitudeE7: Int32 = 0

    /// Degrees (every degE7 value is exact in a `Double`).
    public var latitudeDegrees: Double { Double(latitudeE7) / 1e7 }
    public var longitudeDegrees: Double { Double(longitudeE7) / 1e7 }

    /// The nearest degE7 pair to `coordinate` (a `GeoCoordinate` is inside ±90°/±180°, so it fits an `Int32`).
    public init(degrees coordinate: GeoCoordinate) {
        self.init(latitudeE7: Int32((coordinate.latitudeDegrees * 1e7).rounded()),
                  longitudeE7: Int32((coordinate.longitudeDegrees * 1e7).rounded()))
    }

    public init(latitudeE7: Int32 = 0, longitudeE7: Int32 = 0) {
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }
}
