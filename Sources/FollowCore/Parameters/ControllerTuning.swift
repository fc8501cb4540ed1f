/// Gains, smoothing and the drone model used by `FollowController`. Expert settings; the
/// defaults were tuned in closed loop against the tum_ardrone model (FollowCoreTests).
public struct ControllerTuning: Sendable, Hashable {
    /// Drag rate c1 of the tilt→velocity model v̇ = c1·(c2·sin(tilt) − v), 1/s. Default 0.58
    /// (tum_ardrone `cfg/StateestimationParams.cfg`, docs/dynamics-and-follow.md §1.2).
    public var dragRatePerSecond: Double = Spec.dragRatePerSecond.defaultValue
    /// Terminal speed per unit sin(tilt), c2, m/s. Default 17.5 (same source), so the steady
    /// tilt for speed v is asin(v / 17.5).
    public var tiltSpeedMetersPerSecond: Double = Spec.tiltSpeedMetersPerSecond.defaultValue
    /// Position error → velocity, 1/s. Default 0.9, range 0.1…3.
    public var positionGainPerSecond: Double = Spec.positionGainPerSecond.defaultValue
    /// Far from the aim point the position term follows √(2·a·error) instead, so the drone can
    /// brake in time, m/s². Default 1.5, range 0.3…5.
    public var brakingAccelerationMetersPerSecondSquared: Double = Spec.brakingAccelerationMetersPerSecondSquared.defaultValue
    /// Velocity error → acceleration, 1/s (closed velocity loop τ = 1/(c1 + this) ≈ 0.3 s).
    /// Default 2.5, range 0.5…6.
    public var velocityGainPerSecond: Double = Spec.velocityGainPerSecond.defaultValue
    /// Inside `minSeparationMeters`, back-off speed per metre of intrusion, 1/s. Default 1.0,
    /// range 0.2…5.
    public var separationGainPerSecond: Double = Spec.separationGainPerSecond.defaultValue
    /// Share of the full-tilt acceleration c1·c2·sin(maxTilt) the separation rules count on for
    /// braking (`StoppingModel`), the rest being left for attitude and estimate errors. Default 0.7
    /// (2.4 m/s² at 20°), range 0.2…1.
    public var brakingAuthorityFraction: Double = Spec.brakingAuthorityFraction.defaultValue
    /// Time constant of the drone's tilt response, seconds: part of the reaction time before
    /// braking. Default 0.14 (tum_ardrone c3 = 7 s⁻¹, docs/stopping-model.md §1), range 0…1.
    public var tiltTimeConstantSeconds: Double = Spec.tiltTimeConstantSeconds.defaultValue
    /// Hardest stop the person is assumed able to make, m/s²: a person moving away at u is
    /// credited u²/(2·this) of further travel. Default 4 (walkers stop within a step, runners
    /// within two or three; a high bound gives *less* credit; docs/stopping-model.md §2),
    /// range 1…20.
    public var personDecelerationMetersPerSecondSquared: Double = Spec.personDecelerationMetersPerSecondSquared.defaultValue
    /// Bandwidth of the wind (disturbance) observer, rad/s: it compares the measured velocity
    /// with what the tilt model predicts from the tilt commanded, and the difference it cannot
    /// explain becomes a wind estimate that the tilt feed-forward cancels (critically damped,
    /// docs/stopping-model.md §5). Default 0.5 (settles in ≈ 8 s: slow enough that GPS jitter in
    /// the velocity estimate is not taken for wind), range 0…3 (0 = no wind compensation).
    public var windObserverRadiansPerSecond: Double = Spec.windObserverRadiansPerSecond.defaultValue
    /// The wind observer's bandwidth during the climb, rad/s: it starts from no estimate (reset on
    /// the ground) and the climb lasts seconds, next to the person, where drift matters more than
    /// GPS jitter. Default 1.5 (converges in ≈ 3 s, a climb to 3 m), range 0.5…5.
    public var climbWindObserverRadiansPerSecond: Double = Spec.climbWindObserverRadiansPerSecond.defaultValue
    /// Bandwidth of the wind failsafe's own observer (`WindMonitor`), rad/s: the same model, beside
    /// the velocity loop's. Default 1.5 (≈ 3 s to converge: a drone blown at 1–2 m/s is seen within
    /// a few metres of drift; docs/stopping-model.md §6), range 0.5…5.
    public var failsafeWindObserverRadiansPerSecond: Double = Spec.failsafeWindObserverRadiansPerSecond.defaultValue
    /// Rate at which the firmware's take-off attitude seeds the failsafe's observer, 1/s: the hover
    /// gives the wind directly (v − c2·sin(tilt)), so only navdata noise is filtered. Default 3
    /// (≈ 0.3 s), range 0.5…20.
    public var failsafeWindSeedRatePerSecond: Double = Spec.failsafeWindSeedRatePerSecond.defaultValue
    /// The failsafe's observer is clamped at this multiple of the tilt authority c2·sin(maxTilt), only
    /// so it stays bounded on nonsense input: any value past 1 reads as "beyond the tilt". Default 3,
    /// range 1.5…10.
    public var failsafeWindLimitFactor: Double = Spec.failsafeWindLimitFactor.defaultValue
    /// Extra margin kept between the aim point and `minSeparationMeters`, metres. Default 0.5.
    public var separationMarginMeters: Double = Spec.separationMarginMeters.defaultValue
    /// Heading error → yaw rate, 1/s. Default 1.5, range 0.2…5.
    public var yawGainPerSecond: Double = Spec.yawGainPerSecond.defaultValue
    /// Within this distance of the person the bearing is meaningless: no yaw command, metres. Default 1.
    public var yawDeadZoneMeters: Double = Spec.yawDeadZoneMeters.defaultValue
    /// Altitude error → climb rate, 1/s. Default 1.0, range 0.1…5.
    public var altitudeGainPerSecond: Double = Spec.altitudeGainPerSecond.defaultValue
    /// Natural frequency of the critically damped second-order filter that turns the person's
    /// estimate (which steps at every fix) into a smooth reference, rad/s. Default 1 (PX4's
    /// follow-target filter uses 1 rad/s, docs/dynamics-and-follow.md §2.1), range 0.5…10.
    /// It is fed the estimated velocity too, so a steady walk is tracked without lag.
    public var targetSmoothingRadiansPerSecond: Double = Spec.targetSmoothingRadiansPerSecond.defaultValue
    /// How fast the standoff direction swings round to "behind the person" while they walk,
    /// degrees per second. Default 15 (≈1.6 m/s along the circle at 6 m), range 0…90.
    public var standoffRotationDegreesPerSecond: Double = Spec.standoffRotationDegreesPerSecond.defaultValue
    /// Time constant of that swing, seconds: the direction closes this fraction of its angle
    /// to "behind" per second (capped by the rate above), so a few degrees of jitter in the
    /// estimated walking direction move the drone only a little. Default 3, range 0.5…30.
    public var standoffRotationTimeConstantSeconds: Double = Spec.standoffRotationTimeConstantSeconds.defaultValue
    /// `FollowMode.angle`'s time constant towards the angle, seconds (its rate is capped by
    /// `FollowParameters.orbitSpeedMetersPerSecond` / standoff). Shorter than the leash's: the angle is
    /// asked for, and the travel direction it hangs on is the smoothed reference's already. Default 1.5,
    /// range 0.5…30.
    public var angleRotationTimeConstantSeconds: Double = Spec.angleRotationTimeConstantSeconds.defaultValue
    /// Below this person speed (the smoothed reference's) their direction of travel is unknown, so
    /// `FollowMode.angle` holds its bearing instead of swinging with GPS noise, m/s. Default 0.5 (the
    /// estimator's `stationarySpeedMetersPerSecond`; PX4 freezes its follow angle below 1 m/s),
    /// range 0.1…3.
    public var travelDirectionMinSpeedMetersPerSecond: Double = Spec.travelDirectionMinSpeedMetersPerSecond.defaultValue
    /// Person-velocity feed-forward fades in between these speeds, m/s (PX4 ramps its
    /// feed-forward for the same reason: no twitching on GPS jitter). Defaults 0.2 and 0.6.
    public var feedForwardStartMetersPerSecond: Double = Spec.feedForwardStartMetersPerSecond.defaultValue
    public var feedForwardFullMetersPerSecond: Double = Spec.feedForwardFullMetersPerSecond.defaultValue
    /// Largest change of roll or pitch per second, fraction of full scale. Default 2.5, range 0.2…20.
    public var tiltSlewPerSecond: Double = Spec.tiltSlewPerSecond.defaultValue
    /// Largest change of the yaw command per second, fraction of full scale. Default 4, range 0.2…20.
    public var yawSlewPerSecond: Double = Spec.yawSlewPerSecond.defaultValue
    /// Largest change of gaz per second, fraction of full scale. Default 2, range 0.2…20.
    public var gazSlewPerSecond: Double = Spec.gazSlewPerSecond.defaultValue
    /// Command-to-motion latency the controller predicts the drone across, seconds. Default 0.1
    /// (tum_ardrone `delayControl`, docs/dynamics-and-follow.md §1.2), range 0…0.5.
    public var commandLatencySeconds: Double = Spec.commandLatencySeconds.defaultValue

    /// The documented defaults.
    public init() {}
}

extension ControllerTuning: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each numeric field, declared once (`ParameterSpec`): the init's
    /// defaults and `validate()` read them; the field docs above say why each value.
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

    /// Every numeric field with its spec, in field order: `validate()` checks them in this order, with
    /// the bound that depends on another field where one does.
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
