/// Gains, smoothing and the drone model used by `FollowController`, `StoppingModel` and the AR.Drone's
/// `TiltLoop`. Expert settings; why each default: docs/configuration.md §3.3.
public struct ControllerTuning: Sendable, Hashable {
    /// Drag rate c1 of the tilt→velocity model v̇ = c1·(c2·sin(tilt) − v), 1/s. Default 0.58, range 0.1…5.
    public var dragRatePerSecond: Double = Spec.dragRatePerSecond.defaultValue
    /// Terminal speed per unit sin(tilt), c2, m/s. Default 17.5, range 5…40.
    public var tiltSpeedMetersPerSecond: Double = Spec.tiltSpeedMetersPerSecond.defaultValue
    /// Position error → velocity, 1/s. Default 0.9, range 0.1…3.
    public var positionGainPerSecond: Double = Spec.positionGainPerSecond.defaultValue
    /// Far from the aim point the position term follows √(2·a·error), m/s². Default 1.5, range 0.3…5.
    public var brakingAccelerationMetersPerSecondSquared: Double = Spec.brakingAccelerationMetersPerSecondSquared.defaultValue
    /// Velocity error → acceleration in the tilt loop, 1/s. Default 2.5, range 0.5…6.
    public var velocityGainPerSecond: Double = Spec.velocityGainPerSecond.defaultValue
    /// Inside `minSeparationMeters`, back-off speed per metre of intrusion, 1/s. Default 1.0, range 0.2…5.
    public var separationGainPerSecond: Double = Spec.separationGainPerSecond.defaultValue
    /// Share of full-tilt (or autopilot) acceleration the separation rules count on for braking. Default 0.7, range 0.2…1.
    public var brakingAuthorityFraction: Double = Spec.brakingAuthorityFraction.defaultValue
    /// Time constant of the drone's tilt response, seconds (part of the reaction time). Default 0.14, range 0…1.
    public var tiltTimeConstantSeconds: Double = Spec.tiltTimeConstantSeconds.defaultValue
    /// Hardest stop the person is assumed able to make, m/s²: someone moving away at u is credited
    /// u²/(2·this). Default 4, range 1…20.
    public var personDecelerationMetersPerSecondSquared: Double = Spec.personDecelerationMetersPerSecondSquared.defaultValue
    /// Bandwidth of the velocity loop's wind observer, rad/s (docs/stopping-model.md §5). Default 0.5,
    /// range 0…3 (0 = no wind compensation).
    public var windObserverRadiansPerSecond: Double = Spec.windObserverRadiansPerSecond.defaultValue
    /// That observer's bandwidth while climbing, rad/s. Default 1.5, range 0.5…5.
    public var climbWindObserverRadiansPerSecond: Double = Spec.climbWindObserverRadiansPerSecond.defaultValue
    /// Bandwidth of the wind failsafe's observer (`WindMonitor`), rad/s. Default 1.5, range 0.5…5.
    public var failsafeWindObserverRadiansPerSecond: Double = Spec.failsafeWindObserverRadiansPerSecond.defaultValue
    /// Rate at which the firmware's take-off attitude seeds the failsafe's observer, 1/s. Default 3, range 0.5…20.
    public var failsafeWindSeedRatePerSecond: Double = Spec.failsafeWindSeedRatePerSecond.defaultValue
    /// The failsafe's observer is clamped at this multiple of the tilt authority c2·sin(maxTilt). Default 3, range 1.5…10.
    public var failsafeWindLimitFactor: Double = Spec.failsafeWindLimitFactor.defaultValue
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
    /// Largest change of PCMD roll or pitch per second (`TiltLoop`), fraction of full scale. Default 2.5, range 0.2…20.
    public var tiltSlewPerSecond: Double = Spec.tiltSlewPerSecond.defaultValue
    /// Largest change of PCMD yaw per second, fraction of full scale. Default 4, range 0.2…20.
    public var yawSlewPerSecond: Double = Spec.yawSlewPerSecond.defaultValue
    /// Largest change of PCMD gaz per second, fraction of full scale. Default 2, range 0.2…20.
    public var gazSlewPerSecond: Double = Spec.gazSlewPerSecond.defaultValue
    /// Command-to-motion latency the drone is predicted across, seconds. Default 0.1, range 0…0.5.
    public var commandLatencySeconds: Double = Spec.commandLatencySeconds.defaultValue

    /// The documented defaults.
    public init() {}
}

extension ControllerTuning: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each numeric field, declared once (`ParameterSpec`).
    public enum Spec {
        public static let dragRatePerSecond = ParameterSpec("dragRatePerSecond", unit: "1/s", range: 0.1...5, default: 0.58)
        public static let tiltSpeedMetersPerSecond = ParameterSpec("tiltSpeedMetersPerSecond", unit: "m/s", range: 5...40, default: 17.5)
        public static let positionGainPerSecond = ParameterSpec("positionGainPerSecond", unit: "1/s", range: 0.1...3, default: 0.9)
        public static let brakingAccelerationMetersPerSecondSquared = ParameterSpec("brakingAccelerationMetersPerSecondSquared", unit: "m/s²", range: 0.3...5, default: 1.5)
        public static let velocityGainPerSecond = ParameterSpec("velocityGainPerSecond", unit: "1/s", range: 0.5...6, default: 2.5)
        public static let separationGainPerSecond = ParameterSpec("separationGainPerSecond", unit: "1/s", range: 0.2...5, default: 1.0)
        public static let brakingAuthorityFraction = ParameterSpec("brakingAuthorityFraction", unit: "fraction", range: 0.2...1, default: 0.7)
        public static let tiltTimeConstantSeconds = ParameterSpec("tiltTimeConstantSeconds", unit: "s", range: 0...1, default: 0.14)
        public static let personDecelerationMetersPerSecondSquared = ParameterSpec("personDecelerationMetersPerSecondSquared", unit: "m/s²", range: 1...20, default: 4)
        public static let windObserverRadiansPerSecond = ParameterSpec("windObserverRadiansPerSecond", unit: "rad/s", range: 0...3, default: 0.5)
        public static let climbWindObserverRadiansPerSecond = ParameterSpec("climbWindObserverRadiansPerSecond", unit: "rad/s", range: 0.5...5, default: 1.5)
        public static let failsafeWindObserverRadiansPerSecond = ParameterSpec("failsafeWindObserverRadiansPerSecond", unit: "rad/s", range: 0.5...5, default: 1.5)
        public static let failsafeWindSeedRatePerSecond = ParameterSpec("failsafeWindSeedRatePerSecond", unit: "1/s", range: 0.5...20, default: 3)
        public static let failsafeWindLimitFactor = ParameterSpec("failsafeWindLimitFactor", unit: "factor", range: 1.5...10, default: 3)
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
        public static let tiltSlewPerSecond = ParameterSpec("tiltSlewPerSecond", unit: "1/s", range: 0.2...20, default: 2.5)
        public static let yawSlewPerSecond = ParameterSpec("yawSlewPerSecond", unit: "1/s", range: 0.2...20, default: 4)
        public static let gazSlewPerSecond = ParameterSpec("gazSlewPerSecond", unit: "1/s", range: 0.2...20, default: 2)
        public static let commandLatencySeconds = ParameterSpec("commandLatencySeconds", unit: "s", range: 0...0.5, default: 0.1)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = ControllerTuning.parameterFields.map(\.spec)
    }

    /// Every numeric field with its spec, in the order `validate()` checks them.
    public static let parameterFields: [ParameterField<ControllerTuning>] = [
        .init(\.dragRatePerSecond, Spec.dragRatePerSecond),
        .init(\.tiltSpeedMetersPerSecond, Spec.tiltSpeedMetersPerSecond),
        .init(\.positionGainPerSecond, Spec.positionGainPerSecond),
        .init(\.brakingAccelerationMetersPerSecondSquared, Spec.brakingAccelerationMetersPerSecondSquared),
        .init(\.velocityGainPerSecond, Spec.velocityGainPerSecond),
        .init(\.separationGainPerSecond, Spec.separationGainPerSecond),
        .init(\.brakingAuthorityFraction, Spec.brakingAuthorityFraction),
        .init(\.tiltTimeConstantSeconds, Spec.tiltTimeConstantSeconds),
        .init(\.personDecelerationMetersPerSecondSquared, Spec.personDecelerationMetersPerSecondSquared),
        .init(\.windObserverRadiansPerSecond, Spec.windObserverRadiansPerSecond),
        .init(\.climbWindObserverRadiansPerSecond, Spec.climbWindObserverRadiansPerSecond),
        .init(\.failsafeWindObserverRadiansPerSecond, Spec.failsafeWindObserverRadiansPerSecond),
        .init(\.failsafeWindSeedRatePerSecond, Spec.failsafeWindSeedRatePerSecond),
        .init(\.failsafeWindLimitFactor, Spec.failsafeWindLimitFactor),
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
        .init(\.tiltSlewPerSecond, Spec.tiltSlewPerSecond),
        .init(\.yawSlewPerSecond, Spec.yawSlewPerSecond),
        .init(\.gazSlewPerSecond, Spec.gazSlewPerSecond),
        .init(\.commandLatencySeconds, Spec.commandLatencySeconds),
    ]
}
