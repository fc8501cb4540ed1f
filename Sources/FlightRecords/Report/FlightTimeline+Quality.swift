extension FlightTimeline {
    /// A stretch of time something was missing (a receiver without a fix, navdata lost), drawn as a
    /// shaded gap that the chart's lines do not cross.
    public struct Gap: Sendable, Hashable {
        public var startSeconds: Double
        public var endSeconds: Double
        /// What was missing and why: `no fix: connection-lost`, `navdata lost`, …
        public var reason: String

        public init(startSeconds: Double, endSeconds: Double, reason: String) {
            (self.startSeconds, self.endSeconds, self.reason) = (startSeconds, endSeconds, reason)
        }

        public var durationSeconds: Double { max(0, endSeconds - startSeconds) }
    }

    /// One receiver's own account of its quality over the flight, for the GPS uncertainty chart
    /// (after PX4 Flight Review's "GPS Uncertainty"): gpsd's error estimate of each fix, and its
    /// SKY reports (gpsd's `uSat`, `nSat`, `hdop`).
    public struct ReceiverQuality: Sendable, Hashable {
        /// gpsd's horizontal position error estimate of each fix that has one (`eph`), metres.
        public var ephMeters: [Sample] = []
        /// Horizontal dilution of precision of each SKY report that has one (no unit).
        public var hdop: [Sample] = []
        /// Satellites used in the solution, and in view, of each SKY report that has them.
        public var satellitesUsed: [Sample] = []
        public var satellitesVisible: [Sample] = []
        /// When the receiver had no fix: before its first fix, from a loss to its next fix, and
        /// silences between fixes longer than `FlightTimeline.fixGapSeconds`.
        public var noFix: [Gap] = []

        public init() {}

        /// Whether there is nothing to draw (a bench run, a log without this receiver).
        public var isEmpty: Bool {
            ephMeters.isEmpty && hdop.isEmpty && satellitesUsed.isEmpty && satellitesVisible.isEmpty && noFix.isEmpty
        }
    }

    /// The drone link's rates over the flight, from the cumulative counters of its periodic
    /// `statistics` lines: each rate is the counter's increase over the interval since the previous
    /// line, divided by that interval, at the interval's end (as the link's own `navdata_rate_hz`).
    public struct LinkRates: Sendable, Hashable {
        /// Navdata (AR.Drone) or telemetry (MAVLink) messages accepted per second (`navdata_received`).
        public var telemetryHertz: [Sample] = []
        /// Datagrams sent to the drone per second (`datagrams_sent`).
        public var sentHertz: [Sample] = []
        /// Telemetry dropped per second: `dropped_unexpected_source` + `dropped_malformed` +
        /// `dropped_sequence`.
        public var droppedPerSecond: [Sample] = []
        /// From each `navdata-lost` to the next `navdata-restored` (or the end of the log).
        public var telemetryLost: [Gap] = []

        public init() {}
    }

    /// Fixes further apart than this leave a gap ("no fix") between them, seconds. Our choice: twice
    /// the period of a 1 Hz receiver, the slowest FollowMe flies with (docs/gps-rate.md).
    public static let fixGapSeconds = 2.0
}
