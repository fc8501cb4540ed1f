/// A WGS84 latitude/longitude in degrees, always finite and in range: the failable initializer is the
/// only way in.
public struct GeoCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// Geodetic latitude, degrees north, in [−90, 90].
    public let latitudeDegrees: Double
    /// Longitude, degrees east, in [−180, 180].
    public let longitudeDegrees: Double

    @inlinable
    public init?(latitudeDegrees: Double, longitudeDegrees: Double) {
        guard latitudeDegrees.isFinite, longitudeDegrees.isFinite,
              abs(latitudeDegrees) <= 90, abs(longitudeDegrees) <= 180
        else { return nil }
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
    }

    public var description: String { "(\(latitudeDegrees), \(longitudeDegrees))" }
}

/// The WGS84 ellipsoid and its radii of curvature.
public enum WGS84 {
    /// Semi-major axis, metres (NIMA TR8350.2).
    public static let semiMajorAxisMeters = 6_378_137.0
    /// Flattening 1/298.257223563 (NIMA TR8350.2).
    public static let flattening = 1 / 298.257223563
    /// First eccentricity squared, e² = f(2 − f).
    public static let eccentricitySquared = flattening * (2 - flattening)

    /// Meridian radius of curvature M(φ) = a(1 − e²)/(1 − e² sin²φ)^{3/2}, metres per radian of latitude.
    @inlinable
    public static func meridianRadiusMeters(latitudeDegrees: Double) -> Double {
        let s = sinDeg(latitudeDegrees)
        let w = 1 - eccentricitySquared * s * s
        return semiMajorAxisMeters * (1 - eccentricitySquared) / (w * w.squareRoot())
    }

    /// Prime-vertical radius of curvature N(φ) = a/√(1 − e² sin²φ), metres.
    @inlinable
    public static func primeVerticalRadiusMeters(latitudeDegrees: Double) -> Double {
        let s = sinDeg(latitudeDegrees)
        return semiMajorAxisMeters / (1 - eccentricitySquared * s * s).squareRoot()
    }
}

@usableFromInline
func sinDeg(_ d: Double) -> Double { _sin(radians(fromDegrees: d)) }
@usableFromInline
func cosDeg(_ d: Double) -> Double { _cos(radians(fromDegrees: d)) }
