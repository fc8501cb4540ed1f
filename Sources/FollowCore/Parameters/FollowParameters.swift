/// What the drone should do while following: geometry, limits mirroring the drone's own configuration,
/// and the receiver set-up. `validate()` is the one place that checks ranges. Why each default:
/// docs/configuration.md §3.1.
public struct FollowParameters: Sendable, Hashable {
    /// Distance to keep from the person (≥ `StoppingModel.shortestDefensibleStandoffMeters`). Metres, 2…50, default 11.
    public var standoffMeters: Double = Spec.standoffMeters.defaultValue
    /// Height to hold, above ground as telemetry reports it (below `control:altitude_max`). Metres, 1…100, default 3.
    public var altitudeMeters: Double = Spec.altitudeMeters.defaultValue
    /// How close to `altitudeMeters` the climb must get before horizontal following starts. Metres, 0.1…2, default 0.3.
    public var altitudeToleranceMeters: Double = Spec.altitudeToleranceMeters.defaultValue
    /// Tilt a roll/pitch of ±1 means: the drone's `control:euler_angle_max`. Degrees, 3…30, default 20.
    public var maxTiltDegrees: Double = Spec.maxTiltDegrees.defaultValue
    /// Tilt the AR.Drone may use to brake, its `control:euler_angle_max` (cruise stays within
    /// `maxTiltDegrees`; `effectiveBrakingTiltDegrees` is never below it). Autopilots brake within their own
    /// limits and ignore it. Degrees, 3…30, default 25 (docs/stopping-model.md §1).
    public var brakingTiltDegrees: Double = Spec.brakingTiltDegrees.defaultValue
    /// Yaw rate a yaw of ±1 means: the drone's `control:control_yaw`. Degrees per second, 40…350, default 120.
    public var maxYawRateDegreesPerSecond: Double = Spec.maxYawRateDegreesPerSecond.defaultValue
    /// Vertical speed a gaz of ±1 means: the drone's `control:control_vz_max`. Metres per second, 0.2…2, default 0.7.
    public var maxClimbMetersPerSecond: Double = Spec.maxClimbMetersPerSecond.defaultValue
    /// Nose heading = onboard receiver heading + this, degrees clockwise, −360…360, default 90.
    public var mountOffsetDegrees: Double = Spec.mountOffsetDegrees.defaultValue
    /// Age on arrival of a person's fix that carries none (`GPSFix.age`), and the information latency
    /// the standoff rule sizes for: a fix describes `receivedAt − this` (`[target] latency_s`).
    /// Seconds, 0…1, default 0.3.
    public var assumedGPSLatencySeconds: Double = Spec.assumedGPSLatencySeconds.defaultValue
    /// Age on arrival of an onboard receiver's fix that carries none, and of its heading reports
    /// (`[onboard] latency_s`). Seconds, 0…1, default 0.3.
    public var assumedOnboardGPSLatencySeconds: Double = Spec.assumedOnboardGPSLatencySeconds.defaultValue
    /// Fastest horizontal speed the follower may ask for. Metres per second, 0.5…10, default 5.
    public var maxHorizontalSpeedMetersPerSecond: Double = Spec.maxHorizontalSpeedMetersPerSecond.defaultValue
    /// Fix rate of the person's receiver the shortest accepted standoff is sized for. Hz, 0.2…20, default 1.
    public var targetFixRateHz: Double = Spec.targetFixRateHz.defaultValue
    /// Where round the person the standoff is kept (`FollowMode`). Default `.leash`.
    public var mode: FollowMode = .leash
    /// `FollowMode.angle`'s angle from the person's direction of travel, degrees clockwise from above
    /// (0 in front, 90 on their right, 180 behind), −180…180, default 180.
    public var angleDegrees: Double = Spec.angleDegrees.defaultValue
    /// The standoff point's fastest motion round the person (the angle mode's bound, the orbit's speed),
    /// m/s along the circle, 0.2…5, default 2.
    public var orbitSpeedMetersPerSecond: Double = Spec.orbitSpeedMetersPerSecond.defaultValue
    /// Which way `FollowMode.orbit` circles. Default clockwise seen from above.
    public var orbitDirection: OrbitDirection = .clockwise
    /// Where the nose points while following (`YawMode`). Default `.facePerson`.
    public var yawMode: YawMode = .facePerson
    /// What `altitudeMeters` is measured from (`AltitudeMode`). Default `.takeoff`.
    public var altitudeMode: AltitudeMode = .takeoff
    /// The highest above take-off the drone may fly (`drone.altitude_max_m`). Metres, 1…100, default 10.
    public var altitudeCeilingMeters: Double = Spec.altitudeCeilingMeters.defaultValue
    /// The lowest above take-off `AltitudeMode.person` flies (`follow.altitude_min_m`). Metres, 1…100, default 3.
    public var altitudeFloorMeters: Double = Spec.altitudeFloorMeters.defaultValue

    /// The braking tilt in use: `brakingTiltDegrees`, or `maxTiltDegrees` when that is larger, degrees.
    public var effectiveBrakingTiltDegrees: Double { max(brakingTiltDegrees, maxTiltDegrees) }
}

extension FollowParameters: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each field, declared once; `[follow]` and `onboard.mount_offset_deg` read them.
    public enum Spec {
        public static let standoffMeters = ParameterSpec("standoffMeters", unit: "m", range: 2...50, default: 11)
        public static let altitudeMeters = ParameterSpec("altitudeMeters", unit: "m", range: 1...100, default: 3)
        public static let altitudeToleranceMeters = ParameterSpec(
            "altitudeToleranceMeters", unit: "m", range: 0.1...2, default: 0.3)
        public static let maxTiltDegrees = ParameterSpec("maxTiltDegrees", unit: "degrees", range: 3...30, default: 20)
        public static let brakingTiltDegrees = ParameterSpec("brakingTiltDegrees", unit: "degrees", range: 3...30, default: 25)
        public static let maxYawRateDegreesPerSecond = ParameterSpec(
            "maxYawRateDegreesPerSecond", unit: "degrees/s", range: 40...350, default: 120)
        public static let maxClimbMetersPerSecond = ParameterSpec(
            "maxClimbMetersPerSecond", unit: "m/s", range: 0.2...2, default: 0.7)
        public static let mountOffsetDegrees = ParameterSpec(
            "mountOffsetDegrees", unit: "degrees", range: -360...360, default: 90)
        public static let assumedGPSLatencySeconds = ParameterSpec(
            "assumedGPSLatencySeconds", unit: "s", range: 0...1, default: 0.3)
        public static let assumedOnboardGPSLatencySeconds = ParameterSpec(
            "assumedOnboardGPSLatencySeconds", unit: "s", range: 0...1, default: 0.3)
        public static let maxHorizontalSpeedMetersPerSecond = ParameterSpec(
            "maxHorizontalSpeedMetersPerSecond", unit: "m/s", range: 0.5...10, default: 5)
        public static let targetFixRateHz = ParameterSpec("targetFixRateHz", unit: "Hz", range: 0.2...20, default: 1)
        public static let altitudeCeilingMeters = ParameterSpec("altitudeCeilingMeters", unit: "m", range: 1...100, default: 10)
        public static let altitudeFloorMeters = ParameterSpec("altitudeFloorMeters", unit: "m", range: 1...100, default: 3)
        public static let angleDegrees = ParameterSpec("angleDegrees", unit: "degrees", range: -180...180, default: 180)
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
        .init(\.brakingTiltDegrees, Spec.brakingTiltDegrees),
        .init(\.maxYawRateDegreesPerSecond, Spec.maxYawRateDegreesPerSecond),
        .init(\.maxClimbMetersPerSecond, Spec.maxClimbMetersPerSecond),
        .init(\.mountOffsetDegrees, Spec.mountOffsetDegrees),
        .init(\.assumedGPSLatencySeconds, Spec.assumedGPSLatencySeconds),
        .init(\.assumedOnboardGPSLatencySeconds, Spec.assumedOnboardGPSLatencySeconds),
        .init(\.maxHorizontalSpeedMetersPerSecond, Spec.maxHorizontalSpeedMetersPerSecond),
        .init(\.targetFixRateHz, Spec.targetFixRateHz),
        .init(\.angleDegrees, Spec.angleDegrees),
        .init(\.orbitSpeedMetersPerSecond, Spec.orbitSpeedMetersPerSecond),
        .init(\.altitudeCeilingMeters, Spec.altitudeCeilingMeters),
        .init(\.altitudeFloorMeters, Spec.altitudeFloorMeters),
    ]
}
