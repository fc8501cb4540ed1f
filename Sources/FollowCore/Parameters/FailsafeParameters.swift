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
    /// (navdata arrives at 15 Hz in demo mode, docs/dynamics-and-follow.md §1.3).
    public var navdataTimeoutSeconds: Double
    /// Battery below this (percent, navdata `vbat_flying_percentage`) makes the drone land.
    /// Default 25, range 5…90.
    public var minBatteryPercent: Double
    /// Battery needed to take off, percent (the higher of this and `minBatteryPercent` applies).
    /// Default 35, range 5…100: the reading sags under load, so taking off just above the landing
    /// threshold would land at once.
    public var minTakeoffBatteryPercent: Double
    /// Horizontal distance from the take-off point beyond which the drone holds (then lands),
    /// metres. The follower never aims further than 90 % of it; reaching that is a named
    /// `holding(.geofence)`. Default 1000 (the ground unit travels with the person, so a fence
    /// round the take-off point only bounds the area: a 5-minute jog must fit, and the drone–person
    /// distance is limited by `maxTargetDistanceMeters`), range 10…2000.
    public var geofenceMeters: Double
    /// Drone–person distance beyond which the drone stops following and holds (then lands),
    /// metres: ArduPilot's `FOLL_DIST_MAX` idea. Default 50 (our choice: within sight and within
    /// the Wi-Fi range of the ground unit the person carries), range 10…500.
    public var maxTargetDistanceMeters: Double
    /// The drone never aims closer to the person than this and never moves towards them when
    /// inside it, metres. Default 3, range 1…20. Enforced on the *measured* positions plus
    /// `gpsRelativeErrorMeters` (see `protectedRadiusMeters`).
    public var minSeparationMeters: Double
    /// How far the measured drone–person offset may be off the truth, metres: the relative error
    /// of the two receivers, which no filter removes (slow bias, docs/dynamics-and-follow.md
    /// §3.4). Added to `minSeparationMeters` on the measured positions. Default 0, range 0…20.
    public var gpsRelativeErrorMeters: Double
    /// Navdata must report "landed" for this long before a drone that had been flying is taken
    /// to have landed on its own, seconds. Default 1, range 0…10. Guards against one bad packet
    /// turning into "stop sending take-off".
    public var landedConfirmSeconds: Double
    /// Navdata must confirm lift-off within this long after REF take-off was first sent, seconds,
    /// or the attempt is abandoned (→ `landed`, never retried by itself). Default 5, range 1…30.
    /// "Lift-off confirmed" = navdata reports TRANS_TAKEOFF, flying or hovering: the firmware took
    /// the command (docs/flight-safety-faults.md §2). The AR.Drone reports TRANS_TAKEOFF within a navdata period or two of REF (our
    /// simulator: at once, through a 1 s spin-up and a 0.4 m/s climb to 1 m), so 5 s is generous
    /// for a lost packet or two yet short enough that a person is not left next to an armed drone.
    public var takeOffTimeoutSeconds: Double
    /// Climbing (from lift-off, or from re-entering `climbing`) lasts at most this long before the
    /// drone holds where it is (`holding(.altitudeNotReached)`, which expires to a landing like
    /// any hold), seconds. Default 20, range 5…120: the default 3 m at the default 0.7 m/s takes
    /// ≈ 4 s after a ≈ 3.5 s take-off; 20 s leaves room for a 10 m altitude at 0.5 m/s but stops a
    /// climb that can never end (altitude_max below the altitude, a failed config write).
    public var climbTimeoutSeconds: Double
    /// Battery must read below `minBatteryPercent` for this long, without a reading at or above
    /// it, before the drone lands for it, seconds. Default 2, range 0…30: the reading sags for a
    /// second or so under a burst of thrust and recovers.
    public var lowBatteryConfirmSeconds: Double
    /// Battery below this (or below `minBatteryPercent`, whichever is lower) lands at once,
    /// without `lowBatteryConfirmSeconds`, percent. Default 15, range 0…90 (our choice: ten points
    /// under the default landing threshold, so a sag does not reach it, while a pack that really
    /// is empty still leaves the ≈ 1 min a landing from altitude needs).
    public var criticalBatteryPercent: Double
    /// A fix whose receiver reports a horizontal error estimate (gpsd `eph`) above this is
    /// refused (counted, not fused, does not refresh freshness), metres. Default 100, range 5…1000.
    /// gpsd derives `eph` from HDOP for NMEA receivers, a guess "to be used only as relative
    /// goodness" (docs/flight-safety-faults.md §3): open sky at HDOP 0.9 already reads ≈ 17 m and a
    /// normal recorded log 46 m, so the bound only refuses the clearly bad (≈ HDOP 5 and worse);
    /// below it, fixes are weighted against the receiver's own recent best `eph` (`FixScreen`).
    public var maxEphMeters: Double
    /// A fix whose receiver time lags the stream's clock (arrival − fix time against its recent
    /// minimum) by more than this is stale however recently it arrived, seconds: a backlog dumped
    /// by a stalled gpsd or TCP stream. Counted, not fused, does not refresh freshness. Default 1.5,
    /// range 0.2…10 (our choice: the default `targetTimeoutSeconds` — a fix that much older than
    /// the stream's normal delivery is as stale as no fix — while leaving a whole 1 Hz cycle for
    /// gpsd's end-of-cycle reporting, which can move a fix's delivery by up to one cycle).
    public var maxFixLagSeconds: Double

    public init(
        targetTimeoutSeconds: Double = 1.5,
        landAfterSeconds: Double = 10,
        onboardTimeoutSeconds: Double = 1.5,
        headingTimeoutSeconds: Double = 1.5,
        navdataTimeoutSeconds: Double = 0.5,
        minBatteryPercent: Double = 25,
        minTakeoffBatteryPercent: Double = 35,
        geofenceMeters: Double = 1000,
        maxTargetDistanceMeters: Double = 50,
        minSeparationMeters: Double = 3,
        gpsRelativeErrorMeters: Double = 0,
        landedConfirmSeconds: Double = 1,
        takeOffTimeoutSeconds: Double = 5,
        climbTimeoutSeconds: Double = 20,
        lowBatteryConfirmSeconds: Double = 2,
        criticalBatteryPercent: Double = 15,
        maxEphMeters: Double = 100,
        maxFixLagSeconds: Double = 1.5
    ) {
        self.targetTimeoutSeconds = targetTimeoutSeconds
        self.landAfterSeconds = landAfterSeconds
        self.onboardTimeoutSeconds = onboardTimeoutSeconds
        self.headingTimeoutSeconds = headingTimeoutSeconds
        self.navdataTimeoutSeconds = navdataTimeoutSeconds
        self.minBatteryPercent = minBatteryPercent
        self.minTakeoffBatteryPercent = minTakeoffBatteryPercent
        self.geofenceMeters = geofenceMeters
        self.maxTargetDistanceMeters = maxTargetDistanceMeters
        self.minSeparationMeters = minSeparationMeters
        self.gpsRelativeErrorMeters = gpsRelativeErrorMeters
        self.landedConfirmSeconds = landedConfirmSeconds
        self.takeOffTimeoutSeconds = takeOffTimeoutSeconds
        self.climbTimeoutSeconds = climbTimeoutSeconds
        self.lowBatteryConfirmSeconds = lowBatteryConfirmSeconds
        self.criticalBatteryPercent = criticalBatteryPercent
        self.maxEphMeters = maxEphMeters
        self.maxFixLagSeconds = maxFixLagSeconds
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
        try ParameterError.check("geofenceMeters", geofenceMeters, in: 10...2000)
        try ParameterError.check("maxTargetDistanceMeters", maxTargetDistanceMeters, in: 10...500)
        try ParameterError.check("minSeparationMeters", minSeparationMeters, in: 1...20)
        try ParameterError.check("gpsRelativeErrorMeters", gpsRelativeErrorMeters, in: 0...20)
        try ParameterError.check("landedConfirmSeconds", landedConfirmSeconds, in: 0...10)
        try ParameterError.check("takeOffTimeoutSeconds", takeOffTimeoutSeconds, in: 1...30)
        try ParameterError.check("climbTimeoutSeconds", climbTimeoutSeconds, in: 5...120)
        try ParameterError.check("lowBatteryConfirmSeconds", lowBatteryConfirmSeconds, in: 0...30)
        try ParameterError.check("criticalBatteryPercent", criticalBatteryPercent, in: 0...90)
        try ParameterError.check("maxEphMeters", maxEphMeters, in: 5...1000)
        try ParameterError.check("maxFixLagSeconds", maxFixLagSeconds, in: 0.2...10)
    }

    /// The radius around the *measured* person the drone keeps out of: `minSeparationMeters` +
    /// `gpsRelativeErrorMeters`, so the true distance stays above `minSeparationMeters` as long as
    /// the receivers' relative error stays within `gpsRelativeErrorMeters`.
    public var protectedRadiusMeters: Double { minSeparationMeters + gpsRelativeErrorMeters }
}
