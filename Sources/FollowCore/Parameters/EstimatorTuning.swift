/// Noise models and plausibility limits for the two position estimators. Expert settings:
/// the defaults suit consumer receivers (docs/dynamics-and-follow.md §3) and people on foot.
public struct EstimatorTuning: Sendable, Hashable {
    /// Fix-to-fix position noise of the person's receiver, metres (1σ per axis). Default 0.7,
    /// range 0.1…10. Consumer receivers show ≈0.3 m white noise on top of a slow bias
    /// (docs/dynamics-and-follow.md §3.2); the slow bias cannot be filtered and is not modelled.
    public var targetPositionSigmaMeters: Double
    /// How hard the person may manoeuvre: white-acceleration spectral density, m²/s³.
    /// Default 0.25, range 0.01…10. Higher follows turns sooner and passes more GPS jitter on
    /// to the velocity (1 Hz fixes, defaults: σ 0.5 m jitter → ≈0.3 m/s velocity error, 90 %
    /// of a velocity step in ≈4 s; FollowCoreTests).
    public var targetAccelerationSpectralDensity: Double
    /// Noise of a receiver-reported velocity (gpsd `speed`/`track`), m/s (1σ per axis).
    /// Default 0.3, range 0.01…5. Doppler velocity from u-blox-class receivers is better than
    /// 0.1 m/s (docs/dynamics-and-follow.md §3.1); the default leaves room for receivers that differentiate positions.
    public var reportedVelocitySigmaMetersPerSecond: Double
    /// Whether to fuse receiver-reported velocity at all. Default true.
    public var fusesReportedVelocity: Bool
    /// Fix-to-fix position noise of the onboard receiver, metres (1σ per axis). Default 0.7, range 0.1…10.
    public var dronePositionSigmaMeters: Double
    /// Drone manoeuvre spectral density, m²/s³. Default 2, range 0.01…50 (it accelerates at up
    /// to ≈3.5 m/s² at 20° tilt, docs/dynamics-and-follow.md §1.2).
    public var droneAccelerationSpectralDensity: Double
    /// Noise of navdata body velocity after rotation to the plane, m/s (1σ per axis).
    /// Default 0.2, range 0.01…5 (optical flow + IMU; worse over featureless ground).
    public var navdataVelocitySigmaMetersPerSecond: Double
    /// A jump between fixes faster than this plus `outlierAllowanceMeters` is not a person
    /// (or an AR.Drone), metres per second. Default 12, range 3…50.
    public var maxPlausibleSpeedMetersPerSecond: Double
    /// Distance always allowed between consecutive fixes on top of the speed limit, metres
    /// (GPS jitter between two fixes). Default 4, range 0…50.
    public var outlierAllowanceMeters: Double
    /// This many consecutive rejected fixes that agree with one another mean the receiver
    /// really is somewhere else: re-initialise there. Default 3, range 2…20.
    public var reinitialiseAfterFixes: Int
    /// This many consecutive fixes with a fix time before the last one mean the receiver's
    /// clock was reset (or a replay restarted): accept and re-initialise. Default 5, range 2…50.
    public var clockResetAfterFixes: Int
    /// Fixes an estimator must fuse after (re)initialising before its source counts as fresh,
    /// count. Default 3, range 1…20.
    public var fixesToConverge: Int
    /// Estimates are extrapolated to "now" by at most this, seconds. Default 2, range 0.5…10.
    /// (Beyond it the source is stale and the failsafes take over anyway.)
    public var maxPredictionSeconds: Double
    /// The person counts as walking once the estimated speed exceeds this, m/s. Default 1.0
    /// (PX4 freezes its follow orientation below 1 m/s, docs/dynamics-and-follow.md §2.1), range 0.2…5.
    public var movingSpeedMetersPerSecond: Double
    /// …for this many consecutive fixes (one fast fix of a standing person is jitter), count.
    /// Default 2, range 1…10.
    public var movingConfirmationFixes: Int
    /// …and as standing once it falls below this, m/s. Default 0.5, range 0.1…`movingSpeed`.
    public var stationarySpeedMetersPerSecond: Double
    /// A fix stamped further than this ahead of the stream's clock (arrival − fix time, recent
    /// minimum; `FixScreen`) is rejected, seconds. Default 1.5, range 0.2…10 (our choice: gpsd's
    /// end-of-cycle reporting can move a 1 Hz fix's delivery by up to a cycle; a wrong stamp —
    /// a receiver's bad week, a leap second, a corrupted field — is off by seconds or more).
    public var maxFixLeadSeconds: Double
    public init(
        targetPositionSigmaMeters: Double = 0.7,
        targetAccelerationSpectralDensity: Double = 0.25,
        reportedVelocitySigmaMetersPerSecond: Double = 0.3,
        fusesReportedVelocity: Bool = true,
        dronePositionSigmaMeters: Double = 0.7,
        droneAccelerationSpectralDensity: Double = 2,
        navdataVelocitySigmaMetersPerSecond: Double = 0.2,
        maxPlausibleSpeedMetersPerSecond: Double = 12,
        outlierAllowanceMeters: Double = 4,
        reinitialiseAfterFixes: Int = 3,
        clockResetAfterFixes: Int = 5,
        fixesToConverge: Int = 3,
        maxPredictionSeconds: Double = 2,
        movingSpeedMetersPerSecond: Double = 1.0,
        movingConfirmationFixes: Int = 2,
        stationarySpeedMetersPerSecond: Double = 0.5,
        maxFixLeadSeconds: Double = 1.5
    ) {
        self.targetPositionSigmaMeters = targetPositionSigmaMeters
        self.targetAccelerationSpectralDensity = targetAccelerationSpectralDensity
        self.reportedVelocitySigmaMetersPerSecond = reportedVelocitySigmaMetersPerSecond
        self.fusesReportedVelocity = fusesReportedVelocity
        self.dronePositionSigmaMeters = dronePositionSigmaMeters
        self.droneAccelerationSpectralDensity = droneAccelerationSpectralDensity
        self.navdataVelocitySigmaMetersPerSecond = navdataVelocitySigmaMetersPerSecond
        self.maxPlausibleSpeedMetersPerSecond = maxPlausibleSpeedMetersPerSecond
        self.outlierAllowanceMeters = outlierAllowanceMeters
        self.reinitialiseAfterFixes = reinitialiseAfterFixes
        self.clockResetAfterFixes = clockResetAfterFixes
        self.fixesToConverge = fixesToConverge
        self.maxPredictionSeconds = maxPredictionSeconds
        self.movingSpeedMetersPerSecond = movingSpeedMetersPerSecond
        self.movingConfirmationFixes = movingConfirmationFixes
        self.stationarySpeedMetersPerSecond = stationarySpeedMetersPerSecond
        self.maxFixLeadSeconds = maxFixLeadSeconds
    }

    /// Checks every field against its documented range.
    public func validate() throws(ParameterError) {
        try ParameterError.check("targetPositionSigmaMeters", targetPositionSigmaMeters, in: 0.1...10)
        try ParameterError.check("targetAccelerationSpectralDensity", targetAccelerationSpectralDensity, in: 0.01...10)
        try ParameterError.check("reportedVelocitySigmaMetersPerSecond", reportedVelocitySigmaMetersPerSecond, in: 0.01...5)
        try ParameterError.check("dronePositionSigmaMeters", dronePositionSigmaMeters, in: 0.1...10)
        try ParameterError.check("droneAccelerationSpectralDensity", droneAccelerationSpectralDensity, in: 0.01...50)
        try ParameterError.check("navdataVelocitySigmaMetersPerSecond", navdataVelocitySigmaMetersPerSecond, in: 0.01...5)
        try ParameterError.check("maxPlausibleSpeedMetersPerSecond", maxPlausibleSpeedMetersPerSecond, in: 3...50)
        try ParameterError.check("outlierAllowanceMeters", outlierAllowanceMeters, in: 0...50)
        try ParameterError.check("reinitialiseAfterFixes", Double(reinitialiseAfterFixes), in: 2...20)
        try ParameterError.check("clockResetAfterFixes", Double(clockResetAfterFixes), in: 2...50)
        try ParameterError.check("fixesToConverge", Double(fixesToConverge), in: 1...20)
        try ParameterError.check("maxPredictionSeconds", maxPredictionSeconds, in: 0.5...10)
        try ParameterError.check("movingSpeedMetersPerSecond", movingSpeedMetersPerSecond, in: 0.2...5)
        try ParameterError.check("movingConfirmationFixes", Double(movingConfirmationFixes), in: 1...10)
        try ParameterError.check("stationarySpeedMetersPerSecond", stationarySpeedMetersPerSecond, in: 0.1...movingSpeedMetersPerSecond)
        try ParameterError.check("maxFixLeadSeconds", maxFixLeadSeconds, in: 0.2...10)
    }
}
