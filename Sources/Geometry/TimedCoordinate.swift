import MemberwiseInit

/// One timestamped position of a recorded track (a GPX point, an NMEA RMC fix).
@MemberwiseInit
public struct TimedCoordinate: Sendable, Hashable {
    /// Seconds on any fixed scale (e.g. Unix time); only differences matter.
    public var timeSeconds: Double
    public var coordinate: GeoCoordinate
}
