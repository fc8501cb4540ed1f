/// One timestamped position of a recorded track (a GPX point, an NMEA RMC fix).
public struct TimedCoordinate: Sendable, Hashable {
    /// Seconds on any fixed scale (e.g. Unix time); only differences matter.
    public var timeSeconds: Double
    public var coordinate: GeoCoordinate

    public init(timeSeconds: Double, coordinate: GeoCoordinate) {
        self.timeSeconds = timeSeconds
        self.coordinate = coordinate
    }
}
