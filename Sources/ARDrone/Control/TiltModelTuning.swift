import FollowCore

/// The AR.Drone's tilt model and its velocity loop's gains, limits and wind observers (`TiltVehicleModel`,
/// `TiltLoop`). Expert settings; the model and each default: docs/dynamics-and-follow.md §1.2,
/// docs/stopping-model.md §5–6, docs/configuration.md §3.3.
public struct TiltModelTuning: Sendable, Hashable {
    /// Drag rate c1 of the tilt→velocity model v̇ = c1·(c2·sin(tilt) − v), 1/s. Default 0.58, range 0.1…5.
    public var dragRatePerSecond: Double = Spec.dragRatePerSecond.defaultValue
    /// Terminal speed per unit sin(tilt), c2, m/s. Default 17.5, range 5…40.
    public var tiltSpeedMetersPerSecond: Double = Spec.tiltSpeedMetersPerSecond.defaultValue
    /// Velocity error → acceleration in the tilt loop, 1/s. Default 2.5, range 0.5…6.
    public var velocityGainPerSecond: Double = Spec.velocityGainPerSecond.defaultValue
    /// Time constant of the drone's tilt response, seconds (part of the reaction time). Default 0.14, range 0…1.
    public var tiltTimeConstantSeconds: Double = Spec.tiltTimeConstantSeconds.defaultValue
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
    /// Largest change of PCMD roll or pitch per second , fraction of full scale. Default 2.5, range 0.2…20.
    public var tiltSlewPerSecond: Double = Spec.tiltSlewPerSecond.defaultValue
    /// Largest change of PCMD yaw per second, fraction of full scale. Default 4, range 0.2…20.
    public var yawSlewPerSecond: Double = Spec.yawSlewPerSecond.defaultValue
    /// Largest change of PCMD gaz per second, fraction of full scale. Default 2, range 0.2…20.
    public var gazSlewPerSecond: Double = Spec.gazSlewPerSecond.defaultValue

    /// The documented defaults.
    public init() {}
}

extension TiltModelTuning: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each numeric field, declared once (`ParameterSpec`).
    public enum Spec {
        public static let dragRatePerSecond = ParameterSpec("dragRatePerSecond", unit: "1/s", range: 0.1...5, default: 0.58)
        public static let tiltSpeedMetersPerSecond = ParameterSpec("tiltSpeedMetersPerSecond", unit: "m/s", range: 5...40, default: 17.5)
        public static let velocityGainPerSecond = ParameterSpec("velocityGainPerSecond", unit: "1/s", range: 0.5...6, default: 2.5)
        public static let tiltTimeConstantSeconds = ParameterSpec("tiltTimeConstantSeconds", unit: "s", range: 0...1, default: 0.14)
        public static let windObserverRadiansPerSecond = ParameterSpec("windObserverRadiansPerSecond", unit: "rad/s", range: 0...3, default: 0.5)
        public static let climbWindObserverRadiansPerSecond = ParameterSpec("climbWindObserverRadiansPerSecond", unit: "rad/s", range: 0.5...5, default: 1.5)
        public static let failsafeWindObserverRadiansPerSecond = ParameterSpec("failsafeWindObserverRadiansPerSecond", unit: "rad/s", range: 0.5...5, default: 1.5)
        public static let failsafeWindSeedRatePerSecond = ParameterSpec("failsafeWindSeedRatePerSecond", unit: "1/s", range: 0.5...20, default: 3)
        public static let failsafeWindLimitFactor = ParameterSpec("failsafeWindLimitFactor", unit: "factor", range: 1.5...10, default: 3)
        public static let tiltSlewPerSecond = ParameterSpec("tiltSlewPerSecond", unit: "1/s", range: 0.2...20, default: 2.5)
        public static let yawSlewPerSecond = ParameterSpec("yawSlewPerSecond", unit: "1/s", range: 0.2...20, default: 4)
        public static let gazSlewPerSecond = ParameterSpec("gazSlewPerSecond", unit: "1/s", range: 0.2...20, default: 2)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = TiltModelTuning.parameterFields.map(\.spec)
    }

    /// Every numeric field with its spec, in the order `validate()` checks them.
    public static let parameterFields: [ParameterField<TiltModelTuning>] = [
        .init(\.dragRatePerSecond, Spec.dragRatePerSecond),
        .init(\.tiltSpeedMetersPerSecond, Spec.tiltSpeedMetersPerSecond),
        .init(\.velocityGainPerSecond, Spec.velocityGainPerSecond),
        .init(\.tiltTimeConstantSeconds, Spec.tiltTimeConstantSeconds),
        .init(\.windObserverRadiansPerSecond, Spec.windObserverRadiansPerSecond),
        .init(\.climbWindObserverRadiansPerSecond, Spec.climbWindObserverRadiansPerSecond),
        .init(\.failsafeWindObserverRadiansPerSecond, Spec.failsafeWindObserverRadiansPerSecond),
        .init(\.failsafeWindSeedRatePerSecond, Spec.failsafeWindSeedRatePerSecond),
        .init(\.failsafeWindLimitFactor, Spec.failsafeWindLimitFactor),
        .init(\.tiltSlewPerSecond, Spec.tiltSlewPerSecond),
        .init(\.yawSlewPerSecond, Spec.yawSlewPerSecond),
        .init(\.gazSlewPerSecond, Spec.gazSlewPerSecond),
    ]
}
