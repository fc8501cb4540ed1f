/// When to stop following, hold (hover) and land. All ages are measured on the monotonic clock
/// from the moment the shell received the value.
public struct FailsafeParameters: Sendable, Hashable {
    /// A target fix older than this makes the drone hold, seconds. Default 1.5, range 0.2…10.
    public var targetTimeoutSeconds: Double
    /// Holding for this long without the cause clearing makes the drone land, seconds. The clock
    /// starts when holding begins and is not reset when the reason changes. Default 10, range 0…120.
    public var landAfterSeconds: Double
    /// An onboard (drone) fix older than this makes the drone hold, seconds. Default 1.5, range 0.2…10.
    public var onboardTimeoutSeconds: Double
    /// An onboard heading report older than this makes the drone hold, seconds. Default 1.5, range 0.2…10.
    public var headingTimeoutSeconds: Double
    /// Navdata older than this makes the drone hold, seconds. Default 0.5, range 0.1…5
    /// (navdata arrives at 15 Hz in demo mode, dynamics-and-follow.md §1.3).
    public var navdataTimeoutSeconds: Double
    /// Battery below this (percent, navdata `vbat_flying_percentage`) makes the drone land.
    /// Default 25, range 5…90.
    public var minBatteryPercent: Double
    /// Battery needed to take off, percent (the higher of this and `minBatteryPercent` applies).
    /// Default 35, range 5…100: the reading sags under load, so taking off just above the landing
    /// threshold would land at once.
    public var minTakeoffBatteryPercent: Double
    /// Horizontal distance from the take-off point beyond which the drone holds (then lands),
    /// metres. The follower also never aims further than 90 % of it. Default 100, range 10…1000.
    public var geofenceMeters: Double
    /// The drone never aims closer to the person than this and never moves towards them when
    /// inside it, metres. Default 3, range 1…20. Enforced on the *measured* positions plus
    /// `gpsRelativeErrorMeters` (see `protectedRadiusMeters`).
    public var minSeparationMeters: Double
    /// How far the measured drone–person offset may be off the truth, metres: the relative error
    /// of the two receivers, which no filter removes (slow bias, reference/dynamics-and-follow.md
    /// §3.4). Added to `minSeparationMeters` on the measured positions. Default 0, range 0…20.
    public var gpsRelativeErrorMeters: Double
    /// Navdata must report "landed" for this long before a drone that had been flying is taken
    /// to have landed on its own, seconds. Default 1, range 0…10. Guards against one bad packet
    /// turning into "stop sending take-off".
    public var landedConfirmSeconds: Double

    public init(
        targetTimeoutSeconds: Double = 1.5,
        landAfterSeconds: Double = 10,
        onboardTimeoutSeconds: Double = 1.5,
        headingTimeoutSeconds: Double = 1.5,
        navdataTimeoutSeconds: Double = 0.5,
        minBatteryPercent: Double = 25,
        minTakeoffBatteryPercent: Double = 35,
        geofenceMeters: Double = 100,
        minSeparationMeters: Double = 3,
        gpsRelativeErrorMeters: Double = 0,
        landedConfirmSeconds: Double = 1
    ) {
        self.targetTimeoutSeconds = targetTimeoutSeconds
        self.landAfterSeconds = landAfterSeconds
        self.onboardTimeoutSeconds = onboardTimeoutSeconds
        self.headingTimeoutSeconds = headingTimeoutSeconds
        self.navdataTimeoutSeconds = navdataTimeoutSeconds
        self.minBatteryPercent = minBatteryPercent
        self.minTakeoffBatteryPercent = minTakeoffBatteryPercent
        self.geofenceMeters = geofenceMeters
        self.minSeparationMeters = minSeparationMeters
        self.gpsRelativeErrorMeters = gpsRelativeErrorMeters
        self.landedConfirmSeconds = landedConfirmSeconds
    }

    /// Checks every field against its documented range.
    public func validate() throws(ParameterError) {
        try ParameterError.check("targetTimeoutSeconds", targetTimeoutSeconds, in: 0.2...10)
        try ParameterError.check("landAfterSeconds", landAfterSeconds, in: 0...120)
        try ParameterError.check("onboardTimeoutSeconds", onboardTimeoutSeconds, in: 0.2...10)
        try ParameterError.check("headingTimeoutSeconds", headingTimeoutSeconds, in: 0.2...10)
        try ParameterError.check("navdataTimeoutSeconds", navdataTimeoutSeconds, in: 0.1...5)
        try ParameterError.check("minBatteryPercent", minBatteryPercent, in: 5...90)
        try ParameterError.check("minTakeoffBatteryPercent", minTakeoffBatteryPercent, in: 5...100)
        try ParameterError.check("geofenceMeters", geofenceMeters, in: 10...1000)
        try ParameterError.check("minSeparationMeters", minSeparationMeters, in: 1...20)
        try ParameterError.check("gpsRelativeErrorMeters", gpsRelativeErrorMeters, in: 0...20)
        try ParameterError.check("landedConfirmSeconds", landedConfirmSeconds, in: 0...10)
    }

    /// The radius around the *measured* person the drone keeps out of: `minSeparationMeters` +
    /// `gpsRelativeErrorMeters`, so the true distance stays above `minSeparationMeters` as long as
    /// the receivers' relative error stays within `gpsRelativeErrorMeters`.
    public var protectedRadiusMeters: Double { minSeparationMeters + gpsRelativeErrorMeters }
}
