/// A local tangent plane (east/north metres) around a fixed origin: east = N·cosφ₀·Δλ, north = M·Δφ
/// with the WGS84 radii at the origin (exact to ~1e-8 at follow-me ranges, docs/dynamics-and-follow.md
/// §6.2); Δλ wrapped to [−180°, 180°), so continuous across the antimeridian.
public struct LocalPlane: Sendable, Hashable {
    /// The point that maps to (0, 0).
    public let origin: GeoCoordinate
    /// Metres of northing per radian of latitude at the origin.
    public let metersPerRadianNorth: Double
    /// Metres of easting per radian of longitude at the origin (N·cosφ₀).
    public let metersPerRadianEast: Double

    @inlinable
    public init(origin: GeoCoordinate) {
        self.origin = origin
        let lat = origin.latitudeDegrees
        self.metersPerRadianNorth = WGS84.meridianRadiusMeters(latitudeDegrees: lat)
        self.metersPerRadianEast = WGS84.primeVerticalRadiusMeters(latitudeDegrees: lat) * cosDeg(lat)
    }

    /// Projects a coordinate onto the plane, metres east/north of the origin.
    @inlinable
    public func project(_ p: GeoCoordinate) -> PlaneVector {
        let dLat = radians(fromDegrees: p.latitudeDegrees - origin.latitudeDegrees)
        let dLon = radians(fromDegrees: wrappedDegrees180(p.longitudeDegrees - origin.longitudeDegrees))
        return PlaneVector(east: dLon * metersPerRadianEast, north: dLat * metersPerRadianNorth)
    }

    /// The coordinate at a plane position; nil for non-finite input or beyond a pole.
    @inlinable
    public func unproject(_ v: PlaneVector) -> GeoCoordinate? {
        guard v.isFinite, metersPerRadianEast > 0 else { return nil }
        let lat = origin.latitudeDegrees + degrees(fromRadians: v.north / metersPerRadianNorth)
        let lon = wrappedDegrees180(origin.longitudeDegrees + degrees(fromRadians: v.east / metersPerRadianEast))
        return GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon)
    }
}

/// Bearing and distance from one point to another on the plane.
public struct BearingDistance: Sendable, Hashable {
    /// Compass bearing, degrees clockwise from true north, [0, 360).
    public var bearingDegrees: Double
    /// Horizontal distance, metres.
    public var distanceMeters: Double

    /// Bearing and distance from `a` to `b` on a tangent plane at their mid-latitude.
    @inlinable
    public static func between(_ a: GeoCoordinate, _ b: GeoCoordinate) -> BearingDistance {
        let midLat = (a.latitudeDegrees + b.latitudeDegrees) / 2
        // The origin's longitude is a: Δλ is wrapped, so the antimeridian needs no special case.
        let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: midLat, longitudeDegrees: a.longitudeDegrees)!)
        let d = plane.project(b) - plane.project(a)
        return BearingDistance(bearingDegrees: d.bearingDegrees, distanceMeters: d.length)
    }

    @inlinable public init(bearingDegrees: Double, distanceMeters: Double) {
        self.bearingDegrees = bearingDegrees
        self.distanceMeters = distanceMeters
    }
}
