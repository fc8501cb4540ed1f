/// Gains, smoothing and the drone model used by `FollowController`. Expert settings; the
/// defaults were tuned in closed loop against the tum_ardrone model (FollowCoreTests).
public struct ControllerTuning: Sendable, Hashable {
    /// Drag rate c1 of the tilt→velocity model v̇ = c1·(c2·sin(tilt) − v), 1/s. Default 0.58
    /// (tum_ardrone `cfg/StateestimationParams.cfg`, docs/dynamics-and-follow.md §1.2).
    public var dragRatePerSecond: Double
    /// Terminal speed per unit sin(tilt), c2, m/s. Default 17.5 (same source), so the steady
    /// tilt for speed v is asin(v / 17.5).
    public var tiltSpeedMetersPerSecond: Double
    /// Position error → velocity, 1/s. Default 0.9, range 0.1…3.
    public var positionGainPerSecond: Double
    /// Far from the aim point the position term follows √(2·a·error) instead, so the drone can
    /// brake in time, m/s². Default 1.5, range 0.3…5.
    public var brakingAccelerationMetersPerSecondSquared: Double
    /// Velocity error → acceleration, 1/s (closed velocity loop τ = 1/(c1 + this) ≈ 0.3 s).
    /// Default 2.5, range 0.5…6.
    public var velocityGainPerSecond: Double
    /// Inside `minSeparationMeters`, back-off speed per metre of intrusion, 1/s. Default 1.0,
    /// range 0.2…5.
    public var separationGainPerSecond: Double
    /// Share of the full-tilt acceleration c1·c2·sin(maxTilt) the separation rules count on for
    /// braking (`StoppingModel`), the rest being left for attitude and estimate errors. Default 0.7
    /// (2.4 m/s² at 20°), range 0.2…1.
    public var brakingAuthorityFraction: Double
    /// Time constant of the drone's tilt response, seconds: part of the reaction time before
    /// braking. Default 0.14 (tum_ardrone c3 = 7 s⁻¹, docs/stopping-model.md §1), range 0…1.
    public var tiltTimeConstantSeconds: Double
    /// Hardest stop the person is assumed able to make, m/s²: a person moving away at u is
    /// credited u²/(2·this) of further travel. Default 4 (walkers stop within a step, runners
    /// within two or three; a high bound gives *less* credit; docs/stopping-model.md §2),
    /// range 1…20.
    public var personDecelerationMetersPerSecondSquared: Double
    /// Bandwidth of the wind (disturbance) observer, rad/s: it compares the measured velocity
    /// with what the tilt model predicts from the tilt commanded, and the difference it cannot
    /// explain becomes a wind estimate that the tilt feed-forward cancels (critically damped,
    /// docs/stopping-model.md §5). Default 0.5 (settles in ≈ 8 s: slow enough that GPS jitter in
    /// the velocity estimate is not taken for wind), range 0…3 (0 = no wind compensation).
    public var windObserverRadiansPerSecond: Double
    /// Extra margin kept between the aim point and `minSeparationMeters`, metres. Default 0.5.
    public var separationMarginMeters: Double
    /// Heading error → yaw rate, 1/s. Default 1.5, range 0.2…5.
    public var yawGainPerSecond: Double
    /// Within this distance of the person the bearing is meaningless: no yaw command, metres. Default 1.
    public var yawDeadZoneMeters: Double
    /// Altitude error → climb rate, 1/s. Default 1.0, range 0.1…5.
    public var altitudeGainPerSecond: Double
    /// Natural frequency of the critically damped second-order filter that turns the person's
    /// estimate (which steps at every fix) into a smooth reference, rad/s. Default 1 (PX4's
    /// follow-target filter uses 1 rad/s, docs/dynamics-and-follow.md §2.1), range 0.5…10.
    /// It is fed the estimated velocity too, so a steady walk is tracked without lag.
    public var targetSmoothingRadiansPerSecond: Double
    /// How fast the standoff direction swings round to "behind the person" while they walk,
    /// degrees per second. Default 15 (≈1.6 m/s along the circle at 6 m), range 0…90.
    public var standoffRotationDegreesPerSecond: Double
    /// Time constant of that swing, seconds: the direction closes this fraction of its angle
    /// to "behind" per second (capped by the rate above), so a few degrees of jitter in the
    /// estimated walking direction move the drone only a little. Default 3, range 0.5…30.
    public var standoffRotationTimeConstantSeconds: Double
    /// Person-velocity feed-forward fades in between these speeds, m/s (PX4 ramps its
    /// feed-forward for the same reason: no twitching on GPS jitter). Defaults 0.2 and 0.6.
    public var feedForwardStartMetersPerSecond: Double
    public var feedForwardFullMetersPerSecond: Double
    /// Largest change of roll or pitch per second, fraction of full scale. Default 2.5, range 0.2…20.
    public var tiltSlewPerSecond: Double
    /// Largest change of the yaw command per second, fraction of full scale. Default 4, range 0.2…20.
    public var yawSlewPerSecond: Double
    /// Largest change of gaz per second, fraction of full scale. Default 2, range 0.2…20.
    public var gazSlewPerSecond: Double
    /// Command-to-motion latency the controller predicts the drone across, seconds. Default 0.1
    /// (tum_ardrone `delayControl`, docs/dynamics-and-follow.md §1.2), range 0…0.5.
    public var commandLatencySeconds: Double

    public init(
        dragRatePerSecond: Double = 0.58,
        tiltSpeedMetersPerSecond: Double = 17.5,
        positionGainPerSecond: Double = 0.9,
        brakingAccelerationMetersPerSecondSquared: Double = 1.5,
        velocityGainPerSecond: Double = 2.5,
        separationGainPerSecond: Double = 1.0,
        brakingAuthorityFraction: Double = 0.7,
        tiltTimeConstantSeconds: Double = 0.14,
        personDecelerationMetersPerSecondSquared: Double = 4,
        windObserverRadiansPerSecond: Double = 0.5,
        separationMarginMeters: Double = 0.5,
        yawGainPerSecond: Double = 1.5,
        yawDeadZoneMeters: Double = 1,
        altitudeGainPerSecond: Double = 1.0,
        targetSmoothingRadiansPerSecond: Double = 1,
        standoffRotationDegreesPerSecond: Double = 15,
        standoffRotationTimeConstantSeconds: Double = 3,
        feedForwardStartMetersPerSecond: Double = 0.2,
        feedForwardFullMetersPerSecond: Double = 0.6,
        tiltSlewPerSecond: Double = 2.5,
        yawSlewPerSecond: Double = 4,
        gazSlewPerSecond: Double = 2,
        commandLatencySeconds: Double = 0.1
    ) {
        self.dragRatePerSecond = dragRatePerSecond
        self.tiltSpeedMetersPerSecond = tiltSpeedMetersPerSecond
        self.positionGainPerSecond = positionGainPerSecond
        self.brakingAccelerationMetersPerSecondSquared = brakingAccelerationMetersPerSecondSquared
        self.velocityGainPerSecond = velocityGainPerSecond
        self.separationGainPerSecond = separationGainPerSecond
        self.brakingAuthorityFraction = brakingAuthorityFraction
        self.tiltTimeConstantSeconds = tiltTimeConstantSeconds
        self.personDecelerationMetersPerSecondSquared = personDecelerationMetersPerSecondSquared
        self.windObserverRadiansPerSecond = windObserverRadiansPerSecond
        self.separationMarginMeters = separationMarginMeters
        self.yawGainPerSecond = yawGainPerSecond
        self.yawDeadZoneMeters = yawDeadZoneMeters
        self.altitudeGainPerSecond = altitudeGainPerSecond
        self.targetSmoothingRadiansPerSecond = targetSmoothingRadiansPerSecond
        self.standoffRotationDegreesPerSecond = standoffRotationDegreesPerSecond
        self.standoffRotationTimeConstantSeconds = standoffRotationTimeConstantSeconds
        self.feedForwardStartMetersPerSecond = feedForwardStartMetersPerSecond
        self.feedForwardFullMetersPerSecond = feedForwardFullMetersPerSecond
        self.tiltSlewPerSecond = tiltSlewPerSecond
        self.yawSlewPerSecond = yawSlewPerSecond
        self.gazSlewPerSecond = gazSlewPerSecond
        self.commandLatencySeconds = commandLatencySeconds
    }

    /// Checks every field against its documented range.
    public func validate() throws(ParameterError) {
        try ParameterError.check("dragRatePerSecond", dragRatePerSecond, in: 0.1...5)
        try ParameterError.check("tiltSpeedMetersPerSecond", tiltSpeedMetersPerSecond, in: 5...40)
        try ParameterError.check("positionGainPerSecond", positionGainPerSecond, in: 0.1...3)
        try ParameterError.check("brakingAccelerationMetersPerSecondSquared", brakingAccelerationMetersPerSecondSquared, in: 0.3...5)
        try ParameterError.check("velocityGainPerSecond", velocityGainPerSecond, in: 0.5...6)
        try ParameterError.check("separationGainPerSecond", separationGainPerSecond, in: 0.2...5)
        try ParameterError.check("brakingAuthorityFraction", brakingAuthorityFraction, in: 0.2...1)
        try ParameterError.check("tiltTimeConstantSeconds", tiltTimeConstantSeconds, in: 0...1)
        try ParameterError.check("personDecelerationMetersPerSecondSquared", personDecelerationMetersPerSecondSquared, in: 1...20)
        try ParameterError.check("windObserverRadiansPerSecond", windObserverRadiansPerSecond, in: 0...3)
        try ParameterError.check("separationMarginMeters", separationMarginMeters, in: 0...10)
        try ParameterError.check("yawGainPerSecond", yawGainPerSecond, in: 0.2...5)
        try ParameterError.check("yawDeadZoneMeters", yawDeadZoneMeters, in: 0.1...10)
        try ParameterError.check("altitudeGainPerSecond", altitudeGainPerSecond, in: 0.1...5)
        try ParameterError.check("targetSmoothingRadiansPerSecond", targetSmoothingRadiansPerSecond, in: 0.5...10)
        try ParameterError.check("standoffRotationDegreesPerSecond", standoffRotationDegreesPerSecond, in: 0...90)
        try ParameterError.check("standoffRotationTimeConstantSeconds", standoffRotationTimeConstantSeconds, in: 0.5...30)
        try ParameterError.check("feedForwardStartMetersPerSecond", feedForwardStartMetersPerSecond, in: 0...2)
        try ParameterError.check("feedForwardFullMetersPerSecond", feedForwardFullMetersPerSecond,
                                 in: (feedForwardStartMetersPerSecond + 0.05)...5)
        try ParameterError.check("tiltSlewPerSecond", tiltSlewPerSecond, in: 0.2...20)
        try ParameterError.check("yawSlewPerSecond", yawSlewPerSecond, in: 0.2...20)
        try ParameterError.check("gazSlewPerSecond", gazSlewPerSecond, in: 0.2...20)
        try ParameterError.check("commandLatencySeconds", commandLatencySeconds, in: 0...0.5)
    }
}
