/// What the drone should do while following: geometry, limits mirroring the drone's own configuration,
/// and the receiver set-up. `validate()` is the one place that checks ranges. Unit, range and default:
/// `Spec`; why each: docs/configuration.md §3.1.
public struct FollowParameters: Sendable, Hashable {
    /// Horizontal distance to keep from the person; at least `StoppingModel.shortestDefensibleStandoffMeters`.
    public var standoffMeters: Double = Spec.standoffMeters.defaultValue
    /// Height to hold, above ground as navdata reports it; the drone's `control:altitude_max` must be above it.
    public var altitudeMeters: Double = Spec.altitudeMeters.defaultValue
    /// How close to `altitudeMeters` the climb must get before horizontal following starts.
    public var altitudeToleranceMeters: Double = Spec.altitudeToleranceMeters.defaultValue
    /// Tilt a roll/pitch of ±1 means: the drone's `control:euler_angle_max` (docs/dynamics-and-follow.md §1.1).
    public var maxTiltDegrees: Double = Spec.maxTiltDegrees.defaultValue
    /// Yaw rate a yaw of ±1 means: the drone's `control:control_yaw`.
    public var maxYawRateDegreesPerSecond: Double = Spec.maxYawRateDegreesPerSecond.defaultValue
    /// Vertical speed a gaz of ±1 means: the drone's `control:control_vz_max`.
    public var maxClimbMetersPerSecond: Double = Spec.maxClimbMetersPerSecond.defaultValue
    /// Angle from the onboard heading receiver's forward axis to the nose, clockwise: nose = receiver + this.
    public var mountOffsetDegrees: Double = Spec.mountOffsetDegrees.defaultValue
    /// Age of a GPS fix when the shell receives it: both receivers' fixes describe `receivedAt − this`.
    public var assumedGPSLatencySeconds: Double = Spec.assumedGPSLatencySeconds.defaultValue
    /// Fastest horizontal speed the follower may ask for.
    public var maxHorizontalSpeedMetersPerSecond: Double = Spec.maxHorizontalSpeedMetersPerSecond.defaultValue
    /// Fix rate of the person's receiver the shortest accepted standoff is sized for.
    public var targetFixRateHz: Double = Spec.targetFixRateHz.defaultValue
    /// Where round the person the standoff is kept (`FollowMode`). Default `.leash`.
    public var mode: FollowMode = .leash
    /// `FollowMode.angle`'s angle from the person's direction of travel, degrees clockwise from above:
    /// 0 in front, 90 on their right, 180 behind, −90 on their left.
    public var angleDegrees: Double = Spec.angleDegrees.defaultValue
    /// The fastest the standoff point moves round the person, m/s along the circle: the angle mode's
    /// bound, the orbit's speed.
    public var orbitSpeedMetersPerSecond: Double = Spec.orbitSpeedMetersPerSecond.defaultValue
    /// Which way `FollowMode.orbit` circles. Default clockwise seen from above.
    public var orbitDirection: OrbitDirection = .clockwise
    /// Where the nose points while following (`YawMode`). Default `.facePerson`.
    public var yawMode: YawMode = .facePerson
    /// What `altitudeMeters` is measured from (`AltitudeMode`). Default `.takeoff`.
    public var altitudeMode: AltitudeMode = .takeoff
    /// The highest the drone may fly above take-off, metres (`drone.altitude_max_m`): caps `AltitudeMode.person`.
    public var altitudeCeilingMeters: Double = Spec.altitudeCeilingMeters.defaultValue
    /// The lowest `AltitudeMode.person` flies above take-off, metres (`follow.altitude_min_m`).
    public var altitudeFloorMeters: Double = Spec.altitudeFloorMeters.defaultValue
}

extension FollowParameters: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each field, declared once; `[follow]` and `onboard.mount_offset_deg` read them.
    public enum Spec {
        /// Metres, 2…50, default 11.
        public static let standoffMeters = ParameterSpec("standoffMeters", unit: "m", range: 2...50, default: 11)
        /// Metres, 1…100 (the config bounds it by `drone.altitude_max_m`), default 3.
        public static let altitudeMeters = ParameterSpec("altitudeMeters", unit: "m", range: 1...100, default: 3)
        /// Metres, 0.1…2, default 0.3.
        public static let altitudeToleranceMeters = ParameterSpec(
            "altitudeToleranceMeters", unit: "m", range: 0.1...2, default: 0.3)
        /// Degrees, 3…30, default 20.
        public static let maxTiltDegrees = ParameterSpec("maxTiltDegrees", unit: "degrees", range: 3...30, default: 20)
        /// Degrees per second, 40…350, default 120.
        public static let maxYawRateDegreesPerSecond = ParameterSpec(
            "maxYawRateDegreesPerSecond", unit: "degrees/s", range: 40...350, default: 120)
        /// Metres per second, 0.2…2, default 0.7.
        public static let maxClimbMetersPerSecond = ParameterSpec(
            "maxClimbMetersPerSecond", unit: "m/s", range: 0.2...2, default: 0.7)
        /// Degrees clockwise, −360…360, default 90 (the config normalises any finite angle into [0, 360)).
        public static let mountOffsetDegrees = ParameterSpec(
            "mountOffsetDegrees", unit: "degrees", range: -360...360, default: 90)
        /// Seconds, 0…2, default 0.3.
        public static let assumedGPSLatencySeconds = ParameterSpec(
            "assumedGPSLatencySeconds", unit: "s", range: 0...2, default: 0.3)
        /// Metres per second, 0.5…10, default 5.
        public static let maxHorizontalSpeedMetersPerSecond = ParameterSpec(
            "maxHorizontalSpeedMetersPerSecond", unit: "m/s", range: 0.5...10, default: 5)
        /// Hz, 0.2…20, default 1 (the config's numeric `target.rate_hz` sets it).
        public static let targetFixRateHz = ParameterSpec("targetFixRateHz", unit: "Hz", range: 0.2...20, default: 1)
        /// Metres above take-off, 1…100, default 10.
        public static let altitudeCeilingMeters = ParameterSpec("altitudeCeilingMeters", unit: "m", range: 1...100, default: 10)
        /// Metres above take-off, 1…100 (the config bounds it by `drone.altitude_max_m`), default 3.
        public static let altitudeFloorMeters = ParameterSpec("altitudeFloorMeters", unit: "m", range: 1...100, default: 3)
        /// Degrees, −180…180 (PX4 `FLW_TGT_FA`'s sense), default 180: behind the person.
        public static let angleDegrees = ParameterSpec("angleDegrees", unit: "degrees", range: -180...180, default: 180)
        /// Metres per second along the circle, 0.2…5, default 2.
        public static let orbitSpeedMetersPerSecond = ParameterSpec(
            "orbitSpeedMetersPerSecond", unit: "m/s", range: 0.2...5, default: 2)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = FollowParameters.parameterFields.map(\.spec)
    }

    /// The least `altitudeMeters` the config accepts with `AltitudeMode.person` on an autopilot, metres
    /// (docs/configuration.md §3.1).
    public static let personAltitudeMinimumMeters = 8.0

    /// Every numeric field with its spec, in the order `validate()` checks them.
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
