/// What the drone should do while following: geometry, limits that mirror the drone's own
/// configuration, and the receiver set-up.
///
/// The config module maps the user's file onto this; `validate()` is the single place that
/// checks ranges. Defaults are the values in the comments.
public struct FollowParameters: Sendable, Hashable {
    /// Horizontal distance to keep from the person, metres. Default 8, range 2…50. Must be at least
    /// `StoppingModel.shortestDefensibleStandoffMeters` (protected radius + margin + the room a
    /// walker heading at the drone takes before it has backed away to their pace).
    public var standoffMeters: Double
    /// Height to hold, metres above ground as navdata reports it (ultrasound). Default 3,
    /// range 1…10. The drone's own `control:altitude_max` (default 3000 mm, docs/ardrone-protocol.md §4)
    /// must be set above this, or the drone caps the climb.
    public var altitudeMeters: Double
    /// How close to `altitudeMeters` the climb must get before horizontal following starts,
    /// metres. Default 0.3, range 0.1…2. (PX4 likewise waits for altitude before moving sideways.)
    public var altitudeToleranceMeters: Double
    /// Tilt that a roll/pitch command of ±1 means: the drone's `control:euler_angle_max`, degrees.
    /// Default 20 (the outdoor profile), range 1…30 (SDK: at most 0.52 rad). docs/dynamics-and-follow.md §1.1.
    public var maxTiltDegrees: Double
    /// Yaw rate that a yaw command of ±1 means: the drone's `control:control_yaw`, degrees per
    /// second. Default 120, range 40…350 (SDK recommended range). docs/dynamics-and-follow.md §1.1.
    public var maxYawRateDegreesPerSecond: Double
    /// Vertical speed that a gaz command of ±1 means: the drone's `control:control_vz_max`, metres
    /// per second. Default 0.7, range 0.2…2 (SDK recommended range). docs/dynamics-and-follow.md §1.1.
    public var maxClimbMetersPerSecond: Double
    /// Angle from the onboard heading receiver's forward axis to the drone's nose, degrees
    /// clockwise: nose heading = receiver heading + this. Default 90, range −360…360.
    public var mountOffsetDegrees: Double
    /// Age of a GPS fix when the shell receives it, seconds (receiver + serial + gpsd). Both
    /// receivers' fixes are taken to describe `receivedAt − this`. Default 0.3, range 0…2
    /// (gpsd "Where's the Latency?": ≈0.31 s at 19200 bps; docs/dynamics-and-follow.md §3.3).
    public var assumedGPSLatencySeconds: Double
    /// Fastest horizontal speed the follower may ask for, metres per second. Default 5, range 0.5…10.
    /// The drone tops out near 17.5·sin(maxTilt) (6 m/s at 20°, docs/dynamics-and-follow.md §1.2).
    public var maxHorizontalSpeedMetersPerSecond: Double
    /// Fix rate of the person's receiver the shortest accepted standoff is sized for, Hz
    /// (`StoppingModel.shortestDefensibleStandoffMeters`: one fix period is how late the drone
    /// learns that someone started walking at it). Default 1 (what any puck delivers), range 0.2…20.
    public var targetFixRateHz: Double

    public init(
        standoffMeters: Double = 8,
        altitudeMeters: Double = 3,
        altitudeToleranceMeters: Double = 0.3,
        maxTiltDegrees: Double = 20,
        maxYawRateDegreesPerSecond: Double = 120,
        maxClimbMetersPerSecond: Double = 0.7,
        mountOffsetDegrees: Double = 90,
        assumedGPSLatencySeconds: Double = 0.3,
        maxHorizontalSpeedMetersPerSecond: Double = 5,
        targetFixRateHz: Double = 1
    ) {
        self.standoffMeters = standoffMeters
        self.altitudeMeters = altitudeMeters
        self.altitudeToleranceMeters = altitudeToleranceMeters
        self.maxTiltDegrees = maxTiltDegrees
        self.maxYawRateDegreesPerSecond = maxYawRateDegreesPerSecond
        self.maxClimbMetersPerSecond = maxClimbMetersPerSecond
        self.mountOffsetDegrees = mountOffsetDegrees
        self.assumedGPSLatencySeconds = assumedGPSLatencySeconds
        self.maxHorizontalSpeedMetersPerSecond = maxHorizontalSpeedMetersPerSecond
        self.targetFixRateHz = targetFixRateHz
    }

    /// Checks every field against its documented range.
    public func validate() throws(ParameterError) {
        try ParameterError.check("standoffMeters", standoffMeters, in: 2...50)
        try ParameterError.check("altitudeMeters", altitudeMeters, in: 1...10)
        try ParameterError.check("altitudeToleranceMeters", altitudeToleranceMeters, in: 0.1...2)
        try ParameterError.check("maxTiltDegrees", maxTiltDegrees, in: 1...30)
        try ParameterError.check("maxYawRateDegreesPerSecond", maxYawRateDegreesPerSecond, in: 40...350)
        try ParameterError.check("maxClimbMetersPerSecond", maxClimbMetersPerSecond, in: 0.2...2)
        try ParameterError.check("mountOffsetDegrees", mountOffsetDegrees, in: -360...360)
        try ParameterError.check("assumedGPSLatencySeconds", assumedGPSLatencySeconds, in: 0...2)
        try ParameterError.check("maxHorizontalSpeedMetersPerSecond", maxHorizontalSpeedMetersPerSecond, in: 0.5...10)
        try ParameterError.check("targetFixRateHz", targetFixRateHz, in: 0.2...20)
    }
}
