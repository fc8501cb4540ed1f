/// When to stop following, hold (hover) and land. All ages are measured on the monotonic clock
/// from the moment the shell received the value. Unit, range and default of every field:
/// `FailsafeParameters.Spec` (declared once, read by the config file's `[failsafe]` too).
public struct FailsafeParameters: Sendable, Hashable {
    /// A target fix older than this makes the drone hold (`Spec.targetTimeoutSeconds`).
    public var targetTimeoutSeconds: Double = Spec.targetTimeoutSeconds.defaultValue
    /// Holding for this long without the cause clearing makes the drone land. The clock starts when
    /// holding begins and is not reset when the reason changes (`Spec.landAfterSeconds`).
    public var landAfterSeconds: Double = Spec.landAfterSeconds.defaultValue
    /// An onboard (drone) fix older than this makes the drone hold (`Spec.onboardTimeoutSeconds`).
    public var onboardTimeoutSeconds: Double = Spec.onboardTimeoutSeconds.defaultValue
    /// An onboard heading report older than this makes the drone hold (`Spec.headingTimeoutSeconds`).
    public var headingTimeoutSeconds: Double = Spec.headingTimeoutSeconds.defaultValue
    /// Navdata older than this makes the drone hold (`Spec.navdataTimeoutSeconds`; navdata arrives at
    /// 15 Hz in demo mode, docs/dynamics-and-follow.md §1.3).
    public var navdataTimeoutSeconds: Double = Spec.navdataTimeoutSeconds.defaultValue
    /// Battery below this (navdata `vbat_flying_percentage`) makes the drone land (`Spec.minBatteryPercent`).
    public var minBatteryPercent: Double = Spec.minBatteryPercent.defaultValue
    /// Battery needed to take off (the higher of this and `minBatteryPercent` applies): the reading sags
    /// under load, so taking off just above the landing threshold would land at once
    /// (`Spec.minTakeoffBatteryPercent`).
    public var minTakeoffBatteryPercent: Double = Spec.minTakeoffBatteryPercent.defaultValue
    /// Horizontal distance from the take-off point beyond which the drone holds (then lands). The
    /// follower never aims further than 90 % of it; reaching that is a named `holding(.geofence)`
    /// (`Spec.geofenceMeters`).
    public var geofenceMeters: Double = Spec.geofenceMeters.defaultValue
    /// Drone–person distance beyond which the drone stops following and holds (then lands):
    /// ArduPilot's `FOLL_DIST_MAX` idea (`Spec.maxTargetDistanceMeters`).
    public var maxTargetDistanceMeters: Double = Spec.maxTargetDistanceMeters.defaultValue
    /// The drone never aims closer to the person than this and never moves towards them when inside
    /// it. Enforced on the *measured* positions plus `gpsRelativeErrorMeters` (see
    /// `protectedRadiusMeters`; `Spec.minSeparationMeters`).
    public var minSeparationMeters: Double = Spec.minSeparationMeters.defaultValue
    /// How far the measured drone–person offset may be off the truth: the relative error of the two
    /// receivers, which no filter removes (slow bias, docs/dynamics-and-follow.md §3.4). Added to
    /// `minSeparationMeters` on the measured positions (`Spec.gpsRelativeErrorMeters`).
    public var gpsRelativeErrorMeters: Double = Spec.gpsRelativeErrorMeters.defaultValue
    /// Navdata must report "landed" for this long before a drone that had been flying is taken to
    /// have landed on its own. Guards against one bad packet turning into "stop sending take-off"
    /// (`Spec.landedConfirmSeconds`).
    public var landedConfirmSeconds: Double = Spec.landedConfirmSeconds.defaultValue
    /// Navdata must confirm lift-off within this long after REF take-off was first sent, or the
    /// attempt is abandoned (→ `landed`, never retried by itself). "Lift-off confirmed" = navdata
    /// reports TRANS_TAKEOFF, flying or hovering: the firmware took the command
    /// (docs/flight-safety-faults.md §2; `Spec.takeOffTimeoutSeconds`).
    public var takeOffTimeoutSeconds: Double = Spec.takeOffTimeoutSeconds.defaultValue
    /// Climbing (from lift-off, or from re-entering `climbing`) lasts at most this long before the
    /// drone holds where it is (`holding(.altitudeNotReached)`, which expires to a landing like any
    /// hold; `Spec.climbTimeoutSeconds`).
    public var climbTimeoutSeconds: Double = Spec.climbTimeoutSeconds.defaultValue
    /// Battery must read below `minBatteryPercent` for this long, without a reading at or above it,
    /// before the drone lands for it (`Spec.lowBatteryConfirmSeconds`).
    public var lowBatteryConfirmSeconds: Double = Spec.lowBatteryConfirmSeconds.defaultValue
    /// Battery below this (or below `minBatteryPercent`, whichever is lower) lands at once, without
    /// `lowBatteryConfirmSeconds` (`Spec.criticalBatteryPercent`).
    public var criticalBatteryPercent: Double = Spec.criticalBatteryPercent.defaultValue
    /// A fix whose receiver reports a horizontal error estimate (gpsd `eph`) above this is refused
    /// (counted, not fused, does not refresh freshness); below it, fixes are weighted against the
    /// receiver's own recent best `eph` (`FixScreen`; `Spec.maxEphMeters`).
    public var maxEphMeters: Double = Spec.maxEphMeters.defaultValue
    /// A fix whose receiver time lags the stream's clock (arrival − fix time against its recent
    /// minimum) by more than this is stale however recently it arrived: a backlog dumped by a stalled
    /// gpsd or TCP stream. Counted, not fused, does not refresh freshness (`Spec.maxFixLagSeconds`).
    public var maxFixLagSeconds: Double = Spec.maxFixLagSeconds.defaultValue
    /// A mean wind (the follower's wind estimate averaged over `WindMonitor.meanTimeConstantSeconds`)
    /// above this lands the drone; 0 = no fixed limit, only the tilt-authority check
    /// (`windSaturationSeconds`), which always applies (`Spec.maxWindMetersPerSecond`; PX4's
    /// `COM_WIND_MAX` idea, docs/stopping-model.md §6).
    public var maxWindMetersPerSecond: Double = Spec.maxWindMetersPerSecond.defaultValue
    /// The wind estimate may sit at the edge of what full tilt can fight (`WindMonitor.saturationFraction`
    /// of c2·sin(maxTilt)) with the drone losing ground downwind for this long, on a leaky clock
    /// (`WindMonitor`), before the drone lands: past that it is being blown, not flown
    /// (`Spec.windSaturationSeconds`).
    public var windSaturationSeconds: Double = Spec.windSaturationSeconds.defaultValue
    /// Take off only on the operator's START (`OperatorCommand.start`; `[follow] takeoff = "start"`),
    /// not as soon as every preflight prerequisite holds.
    public var takeOffOnStart = false


    /// The radius around the *measured* person the drone keeps out of: `minSeparationMeters` +
    /// `gpsRelativeErrorMeters`, so the true distance stays above `minSeparationMeters` as long as
    /// the receivers' relative error stays within `gpsRelativeErrorMeters`.
    public var protectedRadiusMeters: Double { minSeparationMeters + gpsRelativeErrorMeters }
}

extension FailsafeParameters: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each field, declared once (`ParameterSpec`); the config's
    /// `[failsafe]` keys read them too.
    public enum Spec {
        /// Seconds, 0.2…10, default 1.5: a 1 Hz puck may miss one fix without triggering it.
        public static let targetTimeoutSeconds = ParameterSpec("targetTimeoutSeconds", unit: "s", range: 0.2...10, default: 1.5)
        /// Seconds, 1…120, default 10: time to walk back into reception before the flight ends. (The
        /// config also requires it longer than `targetTimeoutSeconds`: hover first, then land.)
        public static let landAfterSeconds = ParameterSpec("landAfterSeconds", unit: "s", range: 1...120, default: 10)
        /// Seconds, 0.2…10, default 1.5 (as `targetTimeoutSeconds`).
        public static let onboardTimeoutSeconds = ParameterSpec("onboardTimeoutSeconds", unit: "s", range: 0.2...10, default: 1.5)
        /// Seconds, 0.2…10, default 1.5: without a heading, "forward" is unknown.
        public static let headingTimeoutSeconds = ParameterSpec("headingTimeoutSeconds", unit: "s", range: 0.2...10, default: 1.5)
        /// Seconds, 0.1…5, default 0.5: ≈ 7 missed packets at 15 Hz; the drone's own com watchdog acts
        /// after 2 s (docs/ardrone-protocol.md §2.2).
        public static let navdataTimeoutSeconds = ParameterSpec("navdataTimeoutSeconds", unit: "s", range: 0.1...5, default: 0.5)
        /// Percent (whole numbers in the config), 5…90, default 25: reserve for a controlled descent,
        /// also in wind and cold.
        public static let minBatteryPercent = ParameterSpec("minBatteryPercent", unit: "%", range: 5...90, default: 25)
        /// Percent, 5…100, default 35: the reading sags under load, so taking off just above the landing
        /// threshold would land at once.
        public static let minTakeoffBatteryPercent = ParameterSpec(
            "minTakeoffBatteryPercent", unit: "%", range: 5...100, default: 35)
        /// Metres, 10…2000, default 1000: the ground unit travels with the person, so a fence round
        /// the take-off point only bounds the area (a 5-minute jog must fit); the drone–person distance
        /// is limited by `maxTargetDistanceMeters`.
        public static let geofenceMeters = ParameterSpec("geofenceMeters", unit: "m", range: 10...2000, default: 1000)
        /// Metres, 10…500, default 50 (our choice: within sight and within the Wi-Fi range of the
        /// ground unit the person carries).
        public static let maxTargetDistanceMeters = ParameterSpec(
            "maxTargetDistanceMeters", unit: "m", range: 10...500, default: 50)
        /// Metres, 1…49.5 (the largest that fits inside the largest standoff, 50 m, with the 0.5 m aim
        /// margin; the standoff rule bounds it further), default 3.
        public static let minSeparationMeters = ParameterSpec("minSeparationMeters", unit: "m", range: 1...49.5, default: 3)
        /// Metres, 0…20, default 4: two consumer pucks with ≈ 2 m bias each disagree by up to that along
        /// the line of sight for most of a flight (docs/dynamics-and-follow.md §3.4; `followme bench`
        /// with that GPS model kept every scenario outside min_separation_m with 4). 0 only for
        /// receivers that share corrections (RTK).
        public static let gpsRelativeErrorMeters = ParameterSpec(
            "gpsRelativeErrorMeters", unit: "m", range: 0...20, default: 4)
        /// Seconds, 0…10, default 1 (our choice: some 15 navdata packets at 15 Hz agree).
        public static let landedConfirmSeconds = ParameterSpec("landedConfirmSeconds", unit: "s", range: 0...10, default: 1)
        /// Seconds, 1…30, default 5: the AR.Drone reports TRANS_TAKEOFF within a navdata period or two
        /// of REF (our simulator: at once, through a 1 s spin-up and a 0.4 m/s climb to 1 m), so 5 s is
        /// generous for a lost packet or two yet short enough that a person is not left next to an
        /// armed drone.
        public static let takeOffTimeoutSeconds = ParameterSpec("takeOffTimeoutSeconds", unit: "s", range: 1...30, default: 5)
        /// Seconds, 5…120, default 20: the default 3 m at the default 0.7 m/s takes ≈ 4 s after a
        /// ≈ 3.5 s take-off; 20 s leaves room for a 10 m altitude at 0.5 m/s but stops a climb that can
        /// never end (altitude_max below the altitude, a failed config write).
        public static let climbTimeoutSeconds = ParameterSpec("climbTimeoutSeconds", unit: "s", range: 5...120, default: 20)
        /// Seconds, 0…30, default 2: the reading sags for a second or so under a burst of thrust and
        /// recovers.
        public static let lowBatteryConfirmSeconds = ParameterSpec(
            "lowBatteryConfirmSeconds", unit: "s", range: 0...30, default: 2)
        /// Percent (whole numbers in the config), 0…90, default 15 (our choice: ten points under the
        /// default landing threshold, so a sag does not reach it, while a pack that really is empty
        /// still leaves the ≈ 1 min a landing from altitude needs).
        public static let criticalBatteryPercent = ParameterSpec(
            "criticalBatteryPercent", unit: "%", range: 0...90, default: 15)
        /// Metres, 5…1000, default 100: gpsd derives `eph` from HDOP for NMEA receivers, a guess "to be
        /// used only as relative goodness" (docs/flight-safety-faults.md §3): open sky at HDOP 0.9
        /// already reads ≈ 17 m and a normal recorded log 46 m, so the bound only refuses the clearly
        /// bad (≈ HDOP 5 and worse).
        public static let maxEphMeters = ParameterSpec("maxEphMeters", unit: "m", range: 5...1000, default: 100)
        /// Seconds, 0.2…10, default 1.5 (our choice: the default `targetTimeoutSeconds` — a fix that much
        /// older than the stream's normal delivery is as stale as no fix — while leaving a whole 1 Hz
        /// cycle for gpsd's end-of-cycle reporting, which can move a fix's delivery by up to one cycle).
        public static let maxFixLagSeconds = ParameterSpec("maxFixLagSeconds", unit: "s", range: 0.2...10, default: 1.5)
        /// Metres per second, 0…30, default 0 = off: the tilt-authority check (`windSaturationSeconds`)
        /// already lands a drone that cannot fight the wind; a site or a pilot may want a lower bound
        /// (PX4 `COM_WIND_MAX`, default off too; docs/stopping-model.md §6).
        public static let maxWindMetersPerSecond = ParameterSpec("maxWindMetersPerSecond", unit: "m/s", range: 0...30, default: 0)
        /// Seconds, 0.5…10, default 2 (our choice: a Dryden gust at 3 m has a correlation time of ≈ 5 s
        /// in a 5 m/s wind; the drone drifts at most (w − c2·sin(maxTilt))·2 s before the landing starts,
        /// and the bench's saturated runs then stay outside min_separation_m; docs/stopping-model.md §6).
        public static let windSaturationSeconds = ParameterSpec("windSaturationSeconds", unit: "s", range: 0.5...10, default: 2)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = FailsafeParameters.parameterFields.map(\.spec)
    }

    /// Every numeric field with its spec, in field order: `validate()` checks them in this order, with
    /// the bound that depends on another field where one does.
    public static let parameterFields: [ParameterField<FailsafeParameters>] = [
        .init(\.targetTimeoutSeconds, Spec.targetTimeoutSeconds),
        .init(\.landAfterSeconds, Spec.landAfterSeconds),
        .init(\.onboardTimeoutSeconds, Spec.onboardTimeoutSeconds),
        .init(\.headingTimeoutSeconds, Spec.headingTimeoutSeconds),
        .init(\.navdataTimeoutSeconds, Spec.navdataTimeoutSeconds),
        .init(\.minBatteryPercent, Spec.minBatteryPercent),
        .init(\.minTakeoffBatteryPercent, Spec.minTakeoffBatteryPercent),
        .init(\.geofenceMeters, Spec.geofenceMeters),
        .init(\.maxTargetDistanceMeters, Spec.maxTargetDistanceMeters),
        .init(\.minSeparationMeters, Spec.minSeparationMeters),
        .init(\.gpsRelativeErrorMeters, Spec.gpsRelativeErrorMeters),
        .init(\.landedConfirmSeconds, Spec.landedConfirmSeconds),
        .init(\.takeOffTimeoutSeconds, Spec.takeOffTimeoutSeconds),
        .init(\.climbTimeoutSeconds, Spec.climbTimeoutSeconds),
        .init(\.lowBatteryConfirmSeconds, Spec.lowBatteryConfirmSeconds),
        .init(\.criticalBatteryPercent, Spec.criticalBatteryPercent),
        .init(\.maxEphMeters, Spec.maxEphMeters),
        .init(\.maxFixLagSeconds, Spec.maxFixLagSeconds),
        .init(\.maxWindMetersPerSecond, Spec.maxWindMetersPerSecond),
        .init(\.windSaturationSeconds, Spec.windSaturationSeconds),
    ]
}
