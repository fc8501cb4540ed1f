/// When to stop following, hold (hover) and land. Ages are on the monotonic clock from the moment the
/// shell received the value. Unit, range and default (declared in `Spec`): docs/configuration.md §3.2.
public struct FailsafeParameters: Sendable, Hashable {
    /// A target fix older than this makes the drone hold. Seconds, 0.2…10, default 1.5.
    public var targetTimeoutSeconds: Double = Spec.targetTimeoutSeconds.defaultValue
    /// Holding this long (from when holding began, whatever the reason) lands. Seconds, 1…120, default 10.
    public var landAfterSeconds: Double = Spec.landAfterSeconds.defaultValue
    /// An onboard (drone) fix older than this makes the drone hold. Seconds, 0.2…10, default 1.5.
    public var onboardTimeoutSeconds: Double = Spec.onboardTimeoutSeconds.defaultValue
    /// An onboard heading report older than this makes the drone hold. Seconds, 0.2…10, default 1.5.
    public var headingTimeoutSeconds: Double = Spec.headingTimeoutSeconds.defaultValue
    /// Telemetry older than this makes the drone hold. Seconds, 0.1…5, default 0.5.
    public var telemetryTimeoutSeconds: Double = Spec.telemetryTimeoutSeconds.defaultValue
    /// Battery below this makes the drone land. Percent (whole in the config), 5…90, default 25.
    public var minBatteryPercent: Double = Spec.minBatteryPercent.defaultValue
    /// Battery needed to take off (or `minBatteryPercent` if higher). Percent, 5…100, default 35.
    public var minTakeoffBatteryPercent: Double = Spec.minTakeoffBatteryPercent.defaultValue
    /// Distance from take-off beyond which the drone holds (aims stay within 90 % of it, else
    /// `holding(.geofence)`). Metres, 10…2000, default 1000.
    public var geofenceMeters: Double = Spec.geofenceMeters.defaultValue
    /// Drone–person distance beyond which the drone holds (then lands). Metres, 10…500, default 50.
    public var maxTargetDistanceMeters: Double = Spec.maxTargetDistanceMeters.defaultValue
    /// The drone never aims closer to the person than this nor moves towards them inside it, on the
    /// measured positions plus `gpsRelativeErrorMeters` (`protectedRadiusMeters`).
    /// Metres, 1…49.5 (the standoff rule bounds it further), default 3.
    public var minSeparationMeters: Double = Spec.minSeparationMeters.defaultValue
    /// How far the measured drone–person offset may be off the truth. Metres, 0…20, default 4 (0: RTK only).
    public var gpsRelativeErrorMeters: Double = Spec.gpsRelativeErrorMeters.defaultValue
    /// "Landed" reported this long makes a flying drone count as landed. Seconds, 0…10, default 1.
    public var landedConfirmSeconds: Double = Spec.landedConfirmSeconds.defaultValue
    /// Telemetry must confirm lift-off (TRANS_TAKEOFF, flying or hovering) within this long after the first
    /// REF take-off, or it is abandoned (docs/flight-safety-faults.md §2, §5). Seconds, 1…30, default 5.
    public var takeOffTimeoutSeconds: Double = Spec.takeOffTimeoutSeconds.defaultValue
    /// A climb lasting this long holds (`altitudeNotReached`). Seconds, 5…120, default 20.
    public var climbTimeoutSeconds: Double = Spec.climbTimeoutSeconds.defaultValue
    /// Battery must read below `minBatteryPercent` this long, uninterrupted, to land. Seconds, 0…30, default 2.
    public var lowBatteryConfirmSeconds: Double = Spec.lowBatteryConfirmSeconds.defaultValue
    /// Battery below this (or `minBatteryPercent` if lower) lands at once. Percent (whole), 0…90, default 15.
    public var criticalBatteryPercent: Double = Spec.criticalBatteryPercent.defaultValue
    /// A fix whose gpsd `eph` is above this is refused (counted, not fused, not fresh); below it, fixes
    /// are weighted against the receiver's recent best `eph` (`FixScreen`). Metres, 5…1000, default 100.
    public var maxEphMeters: Double = Spec.maxEphMeters.defaultValue
    /// A fix lagging the stream's clock by more than this is stale however recently it arrived (a dumped
    /// backlog): counted, not fused, not fresh (`FixScreen`). Seconds, 0.2…10, default 1.5.
    public var maxFixLagSeconds: Double = Spec.maxFixLagSeconds.defaultValue
    /// The mean wind estimate above this lands the drone (`WindMonitor`; the authority check always
    /// applies). Metres per second, 0…30, default 0 = off.
    public var maxWindMetersPerSecond: Double = Spec.maxWindMetersPerSecond.defaultValue
    /// How long the wind estimate may sit at the edge of the vehicle's authority with the drone losing ground
    /// downwind, on a leaky clock (`WindMonitor`), before the drone lands. Seconds, 0.5…10, default 2.
    public var windSaturationSeconds: Double = Spec.windSaturationSeconds.defaultValue
    /// Take off only on the operator's START (`[follow] takeoff = "start"`), not when all else holds.
    public var takeOffOnStart = false


    /// The radius round the *measured* person the drone keeps out of: the true distance stays above
    /// `minSeparationMeters` while the receivers' relative error stays within `gpsRelativeErrorMeters`.
    public var protectedRadiusMeters: Double { minSeparationMeters + gpsRelativeErrorMeters }
}

extension FailsafeParameters: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each field, declared once; the config's `[failsafe]` keys read them too.
    public enum Spec {
        public static let targetTimeoutSeconds = ParameterSpec("targetTimeoutSeconds", unit: "s", range: 0.2...10, default: 1.5)
        public static let landAfterSeconds = ParameterSpec("landAfterSeconds", unit: "s", range: 1...120, default: 10)
        public static let onboardTimeoutSeconds = ParameterSpec("onboardTimeoutSeconds", unit: "s", range: 0.2...10, default: 1.5)
        public static let headingTimeoutSeconds = ParameterSpec("headingTimeoutSeconds", unit: "s", range: 0.2...10, default: 1.5)
        public static let telemetryTimeoutSeconds = ParameterSpec("telemetryTimeoutSeconds", unit: "s", range: 0.1...5, default: 0.5)
        public static let minBatteryPercent = ParameterSpec("minBatteryPercent", unit: "%", range: 5...90, default: 25)
        public static let minTakeoffBatteryPercent = ParameterSpec(
            "minTakeoffBatteryPercent", unit: "%", range: 5...100, default: 35)
        public static let geofenceMeters = ParameterSpec("geofenceMeters", unit: "m", range: 10...2000, default: 1000)
        public static let maxTargetDistanceMeters = ParameterSpec(
            "maxTargetDistanceMeters", unit: "m", range: 10...500, default: 50)
        public static let minSeparationMeters = ParameterSpec("minSeparationMeters", unit: "m", range: 1...49.5, default: 3)
        public static let gpsRelativeErrorMeters = ParameterSpec(
            "gpsRelativeErrorMeters", unit: "m", range: 0...20, default: 4)
        public static let landedConfirmSeconds = ParameterSpec("landedConfirmSeconds", unit: "s", range: 0...10, default: 1)
        public static let takeOffTimeoutSeconds = ParameterSpec("takeOffTimeoutSeconds", unit: "s", range: 1...30, default: 5)
        public static let climbTimeoutSeconds = ParameterSpec("climbTimeoutSeconds", unit: "s", range: 5...120, default: 20)
        public static let lowBatteryConfirmSeconds = ParameterSpec(
            "lowBatteryConfirmSeconds", unit: "s", range: 0...30, default: 2)
        public static let criticalBatteryPercent = ParameterSpec(
            "criticalBatteryPercent", unit: "%", range: 0...90, default: 15)
        public static let maxEphMeters = ParameterSpec("maxEphMeters", unit: "m", range: 5...1000, default: 100)
        public static let maxFixLagSeconds = ParameterSpec("maxFixLagSeconds", unit: "s", range: 0.2...10, default: 1.5)
        public static let maxWindMetersPerSecond = ParameterSpec("maxWindMetersPerSecond", unit: "m/s", range: 0...30, default: 0)
        public static let windSaturationSeconds = ParameterSpec("windSaturationSeconds", unit: "s", range: 0.5...10, default: 2)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = FailsafeParameters.parameterFields.map(\.spec)
    }

    /// Every numeric field with its spec, in the order `validate()` checks them.
    public static let parameterFields: [ParameterField<FailsafeParameters>] = [
        .init(\.targetTimeoutSeconds, Spec.targetTimeoutSeconds),
        .init(\.landAfterSeconds, Spec.landAfterSeconds),
        .init(\.onboardTimeoutSeconds, Spec.onboardTimeoutSeconds),
        .init(\.headingTimeoutSeconds, Spec.headingTimeoutSeconds),
        .init(\.telemetryTimeoutSeconds, Spec.telemetryTimeoutSeconds),
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
