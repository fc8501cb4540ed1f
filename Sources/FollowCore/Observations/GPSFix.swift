/// Which receiver a value came from.
public enum ReceiverRole: String, Sendable, Hashable, CaseIterable, Codable {
    /// The handheld puck carried by the person the drone follows.
    case target
    /// The receiver riding on the drone.
    case onboard
}

/// gpsd's fix mode, restricted to the modes that carry a position (gpsd_json(5) TPV `mode`).
public enum FixMode: Int, Sendable, Hashable, Codable {
    case twoD = 2
    case threeD = 3
}

/// A receiver's own UTC timestamp for a fix (gpsd `fix.time`), seconds + nanoseconds: only for
/// ordering one device's fixes, never for age (replays are years off, docs/gpsd.md §1.5 #5).
public struct FixTime: Sendable, Hashable, Comparable {
    public var seconds: Int64
    public var nanoseconds: Int32

    @inlinable public static func < (a: FixTime, b: FixTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// Seconds since the Unix epoch as a Double (for display and JSON only).
    @inlinable public var unixSeconds: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    @inlinable public init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }
}

/// One position fix from one receiver. Cannot hold NaN: non-finite optional fields become nil, and a
/// non-finite or out-of-range position fails the initializer.
public struct GPSFix: Sendable, Hashable {
    public let role: ReceiverRole
    /// The gpsd device path that produced it (exactly as gpsd names it).
    public let device: String
    public let mode: FixMode
    public let coordinate: GeoCoordinate
    /// The receiver's timestamp, if it sent one.
    public let fixTime: FixTime?
    /// Monotonic time at which the shell received the fix from gpsd.
    public let receivedAt: MonotonicTime
    /// Height above the WGS84 ellipsoid, metres (3-D fixes only).
    public let altitudeHAEMeters: Double?
    /// Course over ground, degrees clockwise from true north, [0, 360).
    public let trackDegrees: Double?
    /// Speed over ground, m/s (≥ 0).
    public let speedMetersPerSecond: Double?
    /// Climb rate, m/s, positive up.
    public let climbMetersPerSecond: Double?
    /// gpsd's horizontal / vertical position and speed error estimates (metres, metres, m/s).
    public let ephMeters: Double?
    public let epvMeters: Double?
    public let epsMetersPerSecond: Double?
    /// How old the fix was on arrival, as its receiver's `FixAgeMeter` gave it (the shell sets it as the
    /// fix arrives); nil: the estimator's configured latency. The fix describes `receivedAt − age`.
    public var age: FixAge? = nil

    public init?(
        role: ReceiverRole, device: String, mode: FixMode,
        latitudeDegrees: Double, longitudeDegrees: Double,
        fixTime: FixTime?, receivedAt: MonotonicTime,
        altitudeHAEMeters: Double? = nil, trackDegrees: Double? = nil,
        speedMetersPerSecond: Double? = nil, climbMetersPerSecond: Double? = nil,
        ephMeters: Double? = nil, epvMeters: Double? = nil, epsMetersPerSecond: Double? = nil
    ) {
        guard let c = GeoCoordinate(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees) else {
            return nil
        }
        self.role = role
        self.device = device
        self.mode = mode
        self.coordinate = c
        self.fixTime = fixTime
        self.receivedAt = receivedAt
        self.altitudeHAEMeters = mode == .threeD ? altitudeHAEMeters.finite : nil
        self.trackDegrees = trackDegrees.finite.map(normalizedDegrees360)
        self.speedMetersPerSecond = speedMetersPerSecond.finite.flatMap { $0 >= 0 ? $0 : nil }
        self.climbMetersPerSecond = climbMetersPerSecond.finite
        self.ephMeters = ephMeters.finite.flatMap { $0 >= 0 ? $0 : nil }
        self.epvMeters = epvMeters.finite.flatMap { $0 >= 0 ? $0 : nil }
        self.epsMetersPerSecond = epsMetersPerSecond.finite.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// A heading report from a receiver with a compass or dual antenna (gpsd ATT, e.g. from `$HCHDT`).
public struct HeadingReport: Sendable, Hashable {
    public let role: ReceiverRole
    public let device: String
    /// Heading of the *receiver*, degrees clockwise from true north, [0, 360) (the nose: + mount offset).
    public let headingDegrees: Double
    public let receivedAt: MonotonicTime

    /// Fails on a non-finite heading.
    public init?(role: ReceiverRole, device: String, headingDegrees: Double, receivedAt: MonotonicTime) {
        guard headingDegrees.isFinite else { return nil }
        self.role = role
        self.device = device
        self.headingDegrees = normalizedDegrees360(headingDegrees)
        self.receivedAt = receivedAt
    }
}

extension Optional where Wrapped == Double {
    /// `nil` unless the value is finite.
    @inlinable var finite: Double? {
        switch self {
        case .some(let v) where v.isFinite: return v
        default: return nil
        }
    }
}
