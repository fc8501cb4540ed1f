/// A 2-D vector on the local tangent plane, east and north (metres, m/s, …: the binding's name says).
public struct PlaneVector: Sendable, Hashable, CustomStringConvertible {
    public var east: Double
    public var north: Double

    @inlinable public init(east: Double, north: Double) { self.east = east; self.north = north }

    public static let zero = PlaneVector(east: 0, north: 0)

    @inlinable public var length: Double { (east * east + north * north).squareRoot() }

    /// Compass bearing of this vector, degrees clockwise from north in [0, 360). Zero vector → 0.
    @inlinable public var bearingDegrees: Double {
        normalizedDegrees360(degrees(fromRadians: _atan2(east, north)))
    }

    /// Unit vector pointing along the compass bearing `degrees` (clockwise from north).
    @inlinable public static func unit(bearingDegrees: Double) -> PlaneVector {
        let r = radians(fromDegrees: bearingDegrees)
        return PlaneVector(east: _sin(r), north: _cos(r))
    }

    @inlinable public var isFinite: Bool { east.isFinite && north.isFinite }

    @inlinable public static func + (a: PlaneVector, b: PlaneVector) -> PlaneVector {
        PlaneVector(east: a.east + b.east, north: a.north + b.north)
    }
    @inlinable public static func - (a: PlaneVector, b: PlaneVector) -> PlaneVector {
        PlaneVector(east: a.east - b.east, north: a.north - b.north)
    }
    @inlinable public static func * (a: PlaneVector, k: Double) -> PlaneVector {
        PlaneVector(east: a.east * k, north: a.north * k)
    }
    @inlinable public static func * (k: Double, a: PlaneVector) -> PlaneVector { a * k }
    @inlinable public static func / (a: PlaneVector, k: Double) -> PlaneVector {
        PlaneVector(east: a.east / k, north: a.north / k)
    }
    @inlinable public static prefix func - (a: PlaneVector) -> PlaneVector {
        PlaneVector(east: -a.east, north: -a.north)
    }
    @inlinable public static func += (a: inout PlaneVector, b: PlaneVector) { a = a + b }
    @inlinable public static func -= (a: inout PlaneVector, b: PlaneVector) { a = a - b }

    @inlinable public func dot(_ o: PlaneVector) -> Double { east * o.east + north * o.north }

    /// This vector scaled down (never up) so its length is at most `maxLength`.
    @inlinable public func clamped(toLength maxLength: Double) -> PlaneVector {
        let l = length
        return l > maxLength && l > 0 ? self * (maxLength / l) : self
    }

    /// Components in a body frame whose nose points at compass heading `headingDegrees` (forward, right).
    @inlinable public func bodyFrame(headingDegrees: Double) -> (forward: Double, right: Double) {
        let r = radians(fromDegrees: headingDegrees)
        let s = _sin(r), c = _cos(r)
        return (forward: east * s + north * c, right: east * c - north * s)
    }

    public var description: String { "(E \(east), N \(north))" }
}
