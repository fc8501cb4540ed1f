/// Gains and smoothing of `FollowController` and `StoppingModel`, whatever the vehicle (a family's own
/// model has its own tuning). Expert settings; why each default: docs/configuration.md §3.3.
public struct ControllerTuning: Sendable, Hashable {
    /// Position error → velocity, 1/s. Default 0.9, range 0.1…3.
    public var positionGainPerSecond: Double = Spec.positionGainPerSecond.defaultValue
    /// Far from the aim point the position term follows √(2·a·error), m/s². Default 1.5, range 0.3…5.
    public var brakingAccelerationMetersPerSecondSquared: Double = Spec.brakingAccelerationMetersPerSecondSquared.defaultValue
    /// Inside `minSeparationMeters`, back-off speed per metre of intrusion, 1/s. Default 1.0, range 0.2…5.
    public var separationGainPerSecond: Double = Spec.separationGainPerSecond.defaultValue
    /// Share of the vehicle's full braking authority the separation rules count on. Default 0.7, range 0.2…1.
    public var brakingAuthorityFraction: Double = Spec.brakingAuthorityFraction.defaultValue
    /// Hardest stop the person is assumed able to make, m/s²: someone moving away at u is credited
    /// u²/(2·this). Default 4, range 1…20.
    public var personDecelerationMetersPerSecondSquared: Double = Spec.personDecelerationMetersPerSecondSquared.defaultValue
    /// Extra margin between the aim point and `minSeparationMeters`, metres. Default 0.5, range 0…10.
    public var separationMarginMeters: Double = Spec.separationMarginMeters.defaultValue
    /// Heading error → yaw rate, 1/s. Default 1.5, range 0.2…5.
    public var yawGainPerSecond: Double = Spec.yawGainPerSecond.defaultValue
    /// Within this distance of the person no yaw is commanded, metres. Default 1, range 0.1…10.
    public var yawDeadZoneMeters: Double = Spec.yawDeadZoneMeters.defaultValue
    /// Altitude error → climb rate, 1/s. Default 1.0, range 0.1…5.
    public var altitudeGainPerSecond: Double = Spec.altitudeGainPerSecond.defaultValue
    /// Natural frequency of the critically damped reference that smooths the person's estimate, rad/s.
    /// Default 1, range 0.5…10.
    public var targetSmoothingRadiansPerSecond: Double = Spec.targetSmoothingRadiansPerSecond.defaultValue
    /// Fastest swing of the leash's standoff direction round to "behind", degrees/s. Default 15, range 0…90.
    public var standoffRotationDegreesPerSecond: Double = Spec.standoffRotationDegreesPerSecond.defaultValue
    /// Time constant of that swing, seconds (first order, capped by the rate above). Default 3, range 0.5…30.
    public var standoffRotationTimeConstantSeconds: Double = Spec.standoffRotationTimeConstantSeconds.defaultValue
    /// `FollowMode.angle`'s time constant towards the angle, seconds (rate capped by `orbitSpeedMetersPerSecond`
    /// ÷ standoff). Default 1.5, range 0.5…30.
    public var angleRotationTimeConstantSeconds: Double = Spec.angleRotationTimeConstantSeconds.defaultValue
    /// Below this speed of the person (the target estimator's) `FollowMode.angle` holds its bearing; also
    /// the commanded speed from which `YawMode.travel` faces along the flight, m/s. Default 0.5, range 0.1…3.
    public var travelDirectionMinSpeedMetersPerSecond: Double = Spec.travelDirectionMinSpeedMetersPerSecond.defaultValue
    /// The person's velocity is fed forward from the start speed, fully from the full speed, m/s.
    /// Start: default 0.2, range 0…2; full: above the start, at most 5.
    public var feedForwardStartMetersPerSecond: Double = Spec.feedForwardStartMetersPerSecond.defaultValue
    public var feedForwardFullMetersPerSecond: Double = Spec.feedForwardFullMetersPerSecond.defaultValue
    /// Command-to-motion latency the drone is predicted across, seconds. Default 0.1, range 0…0.5.
    public var commandLatencySeconds: Double = Spec.commandLatencySeconds.defaultValue

    /// The documented defaults.
    public init() {}
}

extension ControllerTuning: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each numeric field, declared once (`ParameterSpec`).
    public enum Spec {
        public static let positionGainPerSecond = ParameterSpec("positionGainPerSecond", unit: "1/s", range: 0.1...3, default: 0.9)
        public static let brakingAccelerationMetersPerSecondSquared = ParameterSpec("brakingAccelerationMetersPerSecondSquared", unit: "m/s²", range: 0.3...5, default: 1.5)
        public static let separationGainPerSecond = ParameterSpec("separationGainPerSecond", unit: "1/s", range: 0.2...5, default: 1.0)
        public static let brakingAuthorityFraction = ParameterSpec("brakingAuthorityFraction", unit: "fraction", range: 0.2...1, default: 0.7)
        public static let personDecelerationMetersPerSecondSquared = ParameterSpec("personDecelerationMetersPerSecondSquared", unit: "m/s²", range: 1...20, default: 4)
        public static let separationMarginMeters = ParameterSpec("separationMarginMeters", unit: "m", range: 0...10, default: 0.5)
        public static let yawGainPerSecond = ParameterSpec("yawGainPerSecond", unit: "1/s", range: 0.2...5, default: 1.5)
        public static let yawDeadZoneMeters = ParameterSpec("yawDeadZoneMeters", unit: "m", range: 0.1...10, default: 1)
        public static let altitudeGainPerSecond = ParameterSpec("altitudeGainPerSecond", unit: "1/s", range: 0.1...5, default: 1.0)
        public static let targetSmoothingRadiansPerSecond = ParameterSpec("targetSmoothingRadiansPerSecond", unit: "rad/s", range: 0.5...10, default: 1)
        public static let standoffRotationDegreesPerSecond = ParameterSpec("standoffRotationDegreesPerSecond", unit: "degrees/s", range: 0...90, default: 15)
        public static let standoffRotationTimeConstantSeconds = ParameterSpec("standoffRotationTimeConstantSeconds", unit: "s", range: 0.5...30, default: 3)
        public static let angleRotationTimeConstantSeconds = ParameterSpec("angleRotationTimeConstantSeconds", unit: "s", range: 0.5...30, default: 1.5)
        public static let travelDirectionMinSpeedMetersPerSecond = ParameterSpec("travelDirectionMinSpeedMetersPerSecond", unit: "m/s", range: 0.1...3, default: 0.5)
        public static let feedForwardStartMetersPerSecond = ParameterSpec("feedForwardStartMetersPerSecond", unit: "m/s", range: 0...2, default: 0.2)
        public static let feedForwardFullMetersPerSecond = ParameterSpec("feedForwardFullMetersPerSecond", unit: "m/s", range: 0.05...5, default: 0.6)
        public static let commandLatencySeconds = ParameterSpec("commandLatencySeconds", unit: "s", range: 0...0.5, default: 0.1)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = ControllerTuning.parameterFields.map(\.spec)
    }

    /// Every numeric field with its spec, in the order `validate()` checks them.
    public static let parameterFields: [ParameterField<ControllerTuning>] = [
        .init(\.positionGainPerSecond, Spec.positionGainPerSecond),
        .init(\.brakingAccelerationMetersPerSecondSquared, Spec.brakingAccelerationMetersPerSecondSquared),
        .init(\.separationGainPerSecond, Spec.separationGainPerSecond),
        .init(\.brakingAuthorityFraction, Spec.brakingAuthorityFraction),
        .init(\.personDecelerationMetersPerSecondSquared, Spec.personDecelerationMetersPerSecondSquared),
        .init(\.separationMarginMeters, Spec.separationMarginMeters),
        .init(\.yawGainPerSecond, Spec.yawGainPerSecond),
        .init(\.yawDeadZoneMeters, Spec.yawDeadZoneMeters),
        .init(\.altitudeGainPerSecond, Spec.altitudeGainPerSecond),
        .init(\.targetSmoothingRadiansPerSecond, Spec.targetSmoothingRadiansPerSecond),
        .init(\.standoffRotationDegreesPerSecond, Spec.standoffRotationDegreesPerSecond),
        .init(\.standoffRotationTimeConstantSeconds, Spec.standoffRotationTimeConstantSeconds),
        .init(\.angleRotationTimeConstantSeconds, Spec.angleRotationTimeConstantSeconds),
        .init(\.travelDirectionMinSpeedMetersPerSecond, Spec.travelDirectionMinSpeedMetersPerSecond),
        .init(\.feedForwardStartMetersPerSecond, Spec.feedForwardStartMetersPerSecond),
        // Its lower bound depends on the start speed: the spec's upper bound, the start + 0.05 below.
        .init(\.feedForwardFullMetersPerSecond, Spec.feedForwardFullMetersPerSecond, allowed: {
            ($0.feedForwardStartMetersPerSecond + 0.05)...Spec.feedForwardFullMetersPerSecond.range.upperBound
        }),
        .init(\.commandLatencySeconds, Spec.commandLatencySeconds),
    ]
}
