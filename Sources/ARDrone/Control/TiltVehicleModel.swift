import FollowCore

/// The AR.Drone 2.0 as the core's `VehicleModel`: FollowMe closes the velocity loop through the
/// tum_ardrone tilt model v̇ = c1·(c2·sin(tilt) − v + wind) (docs/dynamics-and-follow.md §1.2). It owns
/// the tilt loop that makes each PCMD (`TiltLoop`, carried to the link as a `VehicleSetpoint`), the
/// velocity loop's and the wind failsafe's wind observers (`WindObserver`, docs/stopping-model.md §5–6),
/// and the braking the tilt allows (§1). The wind failsafe's decision stays in the core (`WindMonitor`),
/// fed `failsafeWindEstimate` and `windAuthorityMetersPerSecond`.
public struct TiltVehicleModel: VehicleModel {
    public let tuning: TiltModelTuning
    /// The tilt loop: the last PCMD made, which the next one ramps from and the model predicts with.
    public private(set) var loop: TiltLoop
    /// The attitude of the latest telemetry that may seed the loop at a hover (airborne, above
    /// `seedMinimumAltitudeMeters`, both angles known), degrees; nil otherwise.
    public private(set) var hoverAttitude: HoverAttitude?
    /// sin of the cruise tilt (`maxTiltDegrees`): the wind it can hold against.
    let sinMaxTilt: Double
    /// sin of the braking tilt (`effectiveBrakingTiltDegrees`).
    let sinBrakingTilt: Double
    /// The velocity loop's (slow, clamped at the tilt authority) and the wind failsafe's (fast, clamped
    /// at `failsafeWindLimitFactor` × that) observers.
    var windObserver = WindObserver()
    var fastWindObserver = WindObserver()

    /// Navdata pitch (positive = nose up) and roll (positive = right down), degrees.
    public struct HoverAttitude: Sendable, Hashable {
        public var pitchDegrees: Double
        public var rollDegrees: Double
    }

    /// Height above which a hover's attitude seeds the loop, metres.
    public static let seedMinimumAltitudeMeters = 0.2

    /// The model for a flight's `follow` limits (cruise and braking tilt, yaw rate, climb rate) and `tuning`.
    public init(follow: FollowParameters, tuning: TiltModelTuning = TiltModelTuning()) {
        self.tuning = tuning
        loop = TiltLoop(parameters: follow, tuning: tuning)
        sinMaxTilt = _sin(radians(fromDegrees: follow.maxTiltDegrees))
        sinBrakingTilt = _sin(radians(fromDegrees: follow.effectiveBrakingTiltDegrees))
    }

    public var isAutopilot: Bool { false }
    public var closesVelocityLoop: Bool { true }

    /// The braking tilt's deceleration c1·c2·sin(brakingTilt), times `authorityFraction`.
    public func brakingAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double {
        authorityFraction * tuning.dragRatePerSecond * tuning.tiltSpeedMetersPerSecond * sinBrakingTilt
    }

    /// The cruise tilt's acceleration c1·c2·sin(maxTilt), times `authorityFraction`: from rest no tilt brakes.
    public func escapeAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double {
        authorityFraction * tuning.dragRatePerSecond * tuning.tiltSpeedMetersPerSecond * sinMaxTilt
    }

    /// The latency, the tilt's time constant and half a full-scale slew (level to the braking tilt).
    public func reactionSeconds(commandLatencySeconds: Double) -> Double {
        commandLatencySeconds + tuning.tiltTimeConstantSeconds + 0.5 / tuning.tiltSlewPerSecond
    }

    /// The latency, the tilt's time constant and half the slew from full cruise tilt one way to full
    /// braking tilt the other (PCMD fractions: cruise/braking + 1).
    public func brakingReactionSeconds(commandLatencySeconds: Double) -> Double {
        commandLatencySeconds + tuning.tiltTimeConstantSeconds
            + 0.5 * (1 + sinMaxTilt / sinBrakingTilt) / tuning.tiltSlewPerSecond
    }

    /// c1: wind w acts as c1·w on the drone.
    public var windDragRatePerSecond: Double { tuning.dragRatePerSecond }
    /// The velocity loop's lag 1/(c1 + Kv).
    public var velocityLagSeconds: Double { 1 / (tuning.dragRatePerSecond + tuning.velocityGainPerSecond) }
    /// c2·sin(maxTilt): the ground speed full tilt holds against still air.
    public var windAuthorityMetersPerSecond: Double { tuning.tiltSpeedMetersPerSecond * sinMaxTilt }
    public var windEstimate: PlaneVector { windObserver.wind }
    public var failsafeWindEstimate: PlaneVector { fastWindObserver.wind }

    /// Steps both observers with the tilt last commanded: the velocity loop's at its bandwidth (faster
    /// while `climbing`; 0 = off), the failsafe's at `failsafeWindObserverRadiansPerSecond`.
    public mutating func observe(drone: PlaneState, noseHeadingDegrees: Double, dt: Double, climbing: Bool) {
        let omega = climbing ? max(tuning.climbWindObserverRadiansPerSecond, tuning.windObserverRadiansPerSecond)
            : tuning.windObserverRadiansPerSecond
        let thrust = loop.lastWorldSinTilt(noseHeadingDegrees: noseHeadingDegrees) * tuning.tiltSpeedMetersPerSecond
        let authority = tuning.tiltSpeedMetersPerSecond * sinMaxTilt
        if tuning.windObserverRadiansPerSecond > 0 {
            windObserver.update(measured: drone.velocity, thrust: thrust, dragRatePerSecond: tuning.dragRatePerSecond,
                                omega: omega, dt: dt, limit: authority)
        }
        fastWindObserver.update(measured: drone.velocity, thrust: thrust, dragRatePerSecond: tuning.dragRatePerSecond,
                                omega: tuning.failsafeWindObserverRadiansPerSecond, dt: dt,
                                limit: tuning.failsafeWindLimitFactor * authority)
    }

    /// c1·(c2·sin(tilt) − v + wind) with the tilt last commanded.
    public func acceleration(of drone: PlaneState, noseHeadingDegrees: Double, lastMotion: MotionCommand) -> PlaneVector {
        let tilt = loop.lastWorldSinTilt(noseHeadingDegrees: noseHeadingDegrees)
        return (tilt * tuning.tiltSpeedMetersPerSecond - drone.velocity + windEstimate) * tuning.dragRatePerSecond
    }

    /// The wind the firmware's hover attitude implies, v − c2·sin(tilt), seeds both observers.
    public mutating func observeTakeOff(_ telemetry: DroneTelemetry, drone: PlaneState, noseHeadingDegrees: Double, dt: Double) {
        guard let pitchDegrees = telemetry.pitchDegrees, let rollDegrees = telemetry.rollDegrees else { return }
        let forward = _sin(radians(fromDegrees: -pitchDegrees)), right = _sin(radians(fromDegrees: rollDegrees))
        let tilt = PlaneVector.unit(bearingDegrees: noseHeadingDegrees) * forward
            + PlaneVector.unit(bearingDegrees: noseHeadingDegrees + 90) * right
        let wind = drone.velocity - tilt * tuning.tiltSpeedMetersPerSecond
        let gain = min(dt * tuning.climbWindObserverRadiansPerSecond, 1)
        let authority = tuning.tiltSpeedMetersPerSecond * sinMaxTilt
        fastWindObserver.seed(towards: wind, gain: min(dt * tuning.failsafeWindSeedRatePerSecond, 1),
                              limit: tuning.failsafeWindLimitFactor * authority)
        guard tuning.windObserverRadiansPerSecond > 0 else { return }
        windObserver.seed(towards: wind, gain: gain, limit: authority)
    }

    /// Keeps the attitude a hover may seed the tilt loop from.
    public mutating func observe(_ telemetry: DroneTelemetry) {
        if telemetry.flightState.isAirborne, telemetry.altitudeMeters > Self.seedMinimumAltitudeMeters,
           let pitch = telemetry.pitchDegrees, let roll = telemetry.rollDegrees {
            hoverAttitude = HoverAttitude(pitchDegrees: pitch, rollDegrees: roll)
        } else {
            hoverAttitude = nil
        }
    }

    /// The PCMD for `command`'s motion and context through the tilt loop; nil (hover, PCMD flag 0) without
    /// a motion, or when the PCMD would not be valid (then the loop starts from level). A hover resets
    /// the loop to level, or, airborne with the flight wanting it airborne, seeds it from the hover's
    /// attitude, so the next PCMD ramps from the attitude the firmware flew.
    public mutating func setpoint(for command: LinkCommand) -> VehicleSetpoint? {
        if let motion = command.motion, let context = motion.context {
            let made = loop.translate(motion, context: context)
            if made.isValid { return VehicleSetpoint(pilot: made) }
            loop.reset()
        } else if command.flying, let attitude = hoverAttitude {
            loop.seed(pitchDegrees: attitude.pitchDegrees, rollDegrees: attitude.rollDegrees)
        } else {
            loop.reset()
        }
        return nil
    }

    /// The AR.Drone reports no shaping limits.
    public mutating func useReportedLimits(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?) {}

    public mutating func resetWind() {
        windObserver = WindObserver()
        fastWindObserver = WindObserver()
    }

    /// The observers' velocity restarts (the firmware flew with tilts the model does not know); the
    /// tilt loop is reset or seeded by the next command's set-point.
    public mutating func restart() {
        windObserver.restart()
        fastWindObserver.restart()
    }
}

extension VehicleModelBuilder {
    /// The AR.Drone: `TiltVehicleModel` with the default tuning.
    public static let tiltLoop = VehicleModelBuilder { TiltVehicleModel(follow: $0) }
}

/// The Parrot AR.Drone 2.0 family (`[drone] protocol = "ardrone"`).
public enum ARDroneFamily: DroneFamily {
    public static let name = "ardrone"

    /// One kind of vehicle: the tilt model.
    public static func vehicleModel(variant: String?) -> VehicleModelBuilder? {
        variant == nil ? .tiltLoop : nil
    }
}
