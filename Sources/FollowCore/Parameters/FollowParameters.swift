/// What the drone should do while following: geometry, limits that mirror the drone's own
/// configuration, and the receiver set-up.
///
/// The config module maps the user's file onto this; `validate()` is the single place that
/// checks ranges. Unit, range and default of every field: `FollowParameters.Spec` (declared once,
/// read by the config file too).
public struct FollowParameters: Sendable, Hashable {
    /// Horizontal distance to keep from the person (`Spec.standoffMeters`). Must be at least
    /// `StoppingModel.shortestDefensibleStandoffMeters` (protected radius + margin + the room a
    /// walker heading at the drone takes before it has backed away to their pace).
    public var standoffMeters: Double = Spec.standoffMeters.defaultValue
    /// Height to hold, above ground as navdata reports it (`Spec.altitudeMeters`). The drone's own
    /// `control:altitude_max` (3000 mm unless set, docs/ardrone-protocol.md §4) must be set above this,
    /// or the drone caps the climb.
    public var altitudeMeters: Double = Spec.altitudeMeters.defaultValue
    /// How close to `altitudeMeters` the climb must get before horizontal following starts
    /// (`Spec.altitudeToleranceMeters`). PX4 likewise waits for altitude before moving sideways.
    public var altitudeToleranceMeters: Double = Spec.altitudeToleranceMeters.defaultValue
    /// Tilt that a roll/pitch command of ±1 means: the drone's `control:euler_angle_max`
    /// (`Spec.maxTiltDegrees`). docs/dynamics-and-follow.md §1.1.
    public var maxTiltDegrees: Double = Spec.maxTiltDegrees.defaultValue
    /// Yaw rate that a yaw command of ±1 means: the drone's `control:control_yaw`
    /// (`Spec.maxYawRateDegreesPerSecond`). docs/dynamics-and-follow.md §1.1.
    public var maxYawRateDegreesPerSecond: Double = Spec.maxYawRateDegreesPerSecond.defaultValue
    /// Vertical speed that a gaz command of ±1 means: the drone's `control:control_vz_max`
    /// (`Spec.maxClimbMetersPerSecond`). docs/dynamics-and-follow.md §1.1.
    public var maxClimbMetersPerSecond: Double = Spec.maxClimbMetersPerSecond.defaultValue
    /// Angle from the onboard heading receiver's forward axis to the drone's nose, clockwise:
    /// nose heading = receiver heading + this (`Spec.mountOffsetDegrees`).
    public var mountOffsetDegrees: Double = Spec.mountOffsetDegrees.defaultValue
    /// Age of a GPS fix when the shell receives it (receiver + serial + gpsd). Both receivers'
    /// fixes are taken to describe `receivedAt − this` (`Spec.assumedGPSLatencySeconds`).
    public var assumedGPSLatencySeconds: Double = Spec.assumedGPSLatencySeconds.defaultValue
    /// Fastest horizontal speed the follower may ask for (`Spec.maxHorizontalSpeedMetersPerSecond`).
    /// The drone tops out near 17.5·sin(maxTilt) (6 m/s at 20°, docs/dynamics-and-follow.md §1.2).
    public var maxHorizontalSpeedMetersPerSecond: Double = Spec.maxHorizontalSpeedMetersPerSecond.defaultValue
    /// Fix rate of the person's receiver the shortest accepted standoff is sized for
    /// (`StoppingModel.shortestDefensibleStandoffMeters`: one fix period is how late the drone
    /// learns that someone started walking at it; `Spec.targetFixRateHz`).
    public var targetFixRateHz: Double = Spec.targetFixRateHz.defaultValue
    /// Where round the person the standoff is kept (`FollowMode`, issue 26). Default `.leash`: behind
    /// a walker, as before modes existed.
    public var mode: FollowMode = .leash
    /// `FollowMode.angle`'s angle from the person's direction of travel, degrees clockwise seen from
    /// above: 0 in front, 90 on their right, 180 behind, −90 on their left (`Spec.angleDegrees`).
    public var angleDegrees: Double = Spec.angleDegrees.defaultValue
    /// The fastest the standoff point moves round the person, m/s along the circle: `FollowMode.angle`'s
    /// bound while it turns to the angle, `FollowMode.orbit`'s speed (`Spec.orbitSpeedMetersPerSecond`).
    public var orbitSpeedMetersPerSecond: Double = Spec.orbitSpeedMetersPerSecond.defaultValue
    /// Which way `FollowMode.orbit` circles. Default clockwise seen from above.
    public var orbitDirection: OrbitDirection = .clockwise
    /// Where the nose points while following (`YawMode`). Default `.facePerson`, as before.
    public var yawMode: YawMode = .facePerson
    /// What `altitudeMeters` is measured from (`AltitudeMode`). Default `.takeoff`, as before.
    public var altitudeMode: AltitudeMode = .takeoff
    /// The highest the drone may fly above take-off, metres: the config's `drone.altitude_max_m`,
    /// which caps `AltitudeMode.person`'s climb (`Spec.altitudeCeilingMeters`).
    public var altitudeCeilingMeters: Double = Spec.altitudeCeilingMeters.defaultValue
    /// The lowest `AltitudeMode.person` flies above take-off, metres: the config's `follow.altitude_min_m`
    /// (`Spec.altitudeFloorMeters`). A bad vertical fix, or a walk downhill, never takes the drone lower.
    public var altitudeFloorMeters: Double = Spec.altitudeFloorMeters.defaultValue
}

extension FollowParameters: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each field, declared once (`ParameterSpec`). The config keys
    /// `[follow]` and `onboard.mount_offset_deg` read them too.
    public enum Spec {
        /// Metres, 2…50, default 11 = failsafe.min_separation_m 3 + gps_relative_error_m 4 + margin 0.5
        /// + the 2.84 m a 1.4 m/s walker takes at 1 Hz target fixes and 20° tilt, rounded up
        /// (docs/stopping-model.md §4): the default that passes the standoff rule with the other defaults.
        public static let standoffMeters = ParameterSpec("standoffMeters", unit: "m", range: 2...50, default: 11)
        /// Metres, 1…100 (the config further bounds it by `drone.altitude_max_m`, whose 100 m is the SDK's
        /// `no_altitude_limit`, docs/ardrone-protocol.md §4), default 3: above head height.
        public static let altitudeMeters = ParameterSpec("altitudeMeters", unit: "m", range: 1...100, default: 3)
        /// Metres, 0.1…2, default 0.3 (our choice: inside the ultrasound's noise, well under head height).
        public static let altitudeToleranceMeters = ParameterSpec(
            "altitudeToleranceMeters", unit: "m", range: 0.1...2, default: 0.3)
        /// Degrees, 3…30 (SDK: `euler_angle_max` at most 0.52 rad = 30°; our lower bound: under 3° the
        /// drone tops out below 17.5·sin 3° ≈ 0.9 m/s, slower than a walker), default 20: the outdoor profile.
        public static let maxTiltDegrees = ParameterSpec("maxTiltDegrees", unit: "degrees", range: 3...30, default: 20)
        /// Degrees per second, 40…350 (the SDK's recommended `control_yaw` range), default 120: turns to
        /// face the person quickly without a violent spin.
        public static let maxYawRateDegreesPerSecond = ParameterSpec(
            "maxYawRateDegreesPerSecond", unit: "degrees/s", range: 40...350, default: 120)
        /// Metres per second, 0.2…2 (the SDK's recommended `control_vz_max` range, 200…2000 mm/s),
        /// default 0.7: the drone's own indoor default, gentle near people.
        public static let maxClimbMetersPerSecond = ParameterSpec(
            "maxClimbMetersPerSecond", unit: "m/s", range: 0.2...2, default: 0.7)
        /// Degrees clockwise, −360…360, default 90 (receiver mounted sideways). The config accepts any
        /// finite angle and normalises it into [0, 360) first.
        public static let mountOffsetDegrees = ParameterSpec(
            "mountOffsetDegrees", unit: "degrees", range: -360...360, default: 90)
        /// Seconds, 0…2, default 0.3 (gpsd "Where's the Latency?": ≈0.31 s at 19200 bps;
        /// docs/dynamics-and-follow.md §3.3).
        public static let assumedGPSLatencySeconds = ParameterSpec(
            "assumedGPSLatencySeconds", unit: "s", range: 0...2, default: 0.3)
        /// Metres per second, 0.5…10, default 5 (our choice: a jogger's pace with room to catch up).
        public static let maxHorizontalSpeedMetersPerSecond = ParameterSpec(
            "maxHorizontalSpeedMetersPerSecond", unit: "m/s", range: 0.5...10, default: 5)
        /// Hz, 0.2…20, default 1 (what any puck delivers; the config's numeric `target.rate_hz` sets it).
        public static let targetFixRateHz = ParameterSpec("targetFixRateHz", unit: "Hz", range: 0.2...20, default: 1)
        /// Metres above take-off, 1…100 (100 m is the AR.Drone SDK's `no_altitude_limit`), default 10:
        /// `drone.altitude_max_m`'s range and default.
        public static let altitudeCeilingMeters = ParameterSpec("altitudeCeilingMeters", unit: "m", range: 1...100, default: 10)
        /// Metres above take-off, 1…100 (`altitudeMeters`'s range; the config bounds it by `drone.altitude_max_m`),
        /// default 3: the shipped `altitudeMeters`, above head height over the take-off ground, so by default
        /// `AltitudeMode.person` climbs with the person but never comes down below the take-off height (a
        /// higher drone is the safe side; PX4's 2-D follow likewise never goes below `FLW_TGT_HT` above home).
        public static let altitudeFloorMeters = ParameterSpec("altitudeFloorMeters", unit: "m", range: 1...100, default: 3)
        /// Degrees, −180…180 (PX4 `FLW_TGT_FA`'s range and sense), default 180: behind the person.
        public static let angleDegrees = ParameterSpec("angleDegrees", unit: "degrees", range: -180...180, default: 180)
        /// Metres per second along the circle, 0.2…5 (above 5 the follower's own speed cap binds),
        /// default 2: a quarter turn round an 11 m standoff in ≈ 9 s, a brisk walk's pace near people.
        public static let orbitSpeedMetersPerSecond = ParameterSpec(
            "orbitSpeedMetersPerSecond", unit: "m/s", range: 0.2...5, default: 2)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = FollowParameters.parameterFields.map(\.spec)
    }

    /// The least `altitudeMeters` the config accepts with `AltitudeMode.person` on an autopilot, metres (8: PX4's
    /// `FLW_TGT_HT` minimum for its 3-D mode). A puck's altitude wanders by metres over minutes — a slow bias
    /// no rate gate sees, which the floor above take-off does not stop on rising ground: on the bench's uphill
    /// walk with vertical GPS error (σ 4 m bias, τ 300 s) one seed in five took the drone 2 m into the slope
    /// at 3 m; at 8 m the lowest over five seeds was 2.5 m above it (docs/bench.md §5).
    public static let personAltitudeMinimumMeters = 8.0

    /// Every numeric field with its spec, in field order: `validate()` checks them in this order, with
    /// the bound that depends on another field where one does.
    public static let parameterFields: [ParameterField<FollowParameters>] = [
        .init(\.standoffMeters, Spec.standoffMeters),
        .init(\.altitudeMeters, Spec.altitudeMeters),
        .init(\.altitudeToleranceMeters, Spec.altitudeToleranceMeters),
        .init(\.maxTiltDegrees, Spec.maxTiltDegrees),
        .init(\.maxYawRateDegreesPerSecond, Spec.maxYawRateDegreesPerSecond),
        .init(\.maxClimbMetersPerSecond, Spec.maxClimbMetersPerSecond),
        .init(\.mountOffsetDegrees, Spec.mountOffsetDegrees),
        .init(\.assumedGPSLatencySeconds, Spec.assumedGPSLatencySeconds),
        .init(\.maxHorizontalSpeedMetersPerSecond, Spec.maxHorizontalSpeedMetersPerSecond),
        .init(\.targetFixRateHz, Spec.targetFixRateHz),
        .init(\.angleDegrees, Spec.angleDegrees),
        .init(\.orbitSpeedMetersPerSecond, Spec.orbitSpeedMetersPerSecond),
        .init(\.altitudeCeilingMeters, Spec.altitudeCeilingMeters),
        .init(\.altitudeFloorMeters, Spec.altitudeFloorMeters),
    ]
}
