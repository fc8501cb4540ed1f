import Geometry

/// Everything the after-flight page shows, as time series on one clock (seconds since the flight
/// started). Built from a flight log (FlightLog) or a bench run (FollowBench); rendered by
/// `FlightReportPage`. Pure values: no file, clock or socket.
public struct FlightTimeline: Sendable, Hashable {
    /// One value at one time, seconds since the start.
    public struct Sample: Sendable, Hashable {
        public var t: Double
        public var value: Double
        public init(t: Double, value: Double) {
            self.t = t
            self.value = value
        }
    }

    public var title: String

    public init(title: String) {
        self.title = title
    }
}
