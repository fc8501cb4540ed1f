/// What the core asks of the vehicle for one tick, whatever the vehicle: a horizontal velocity in the
/// local plane, a climb rate and a yaw rate. The AR.Drone's link turns it into PCMD (`TiltLoop`, with
/// the `MotionContext`); an autopilot flies it as a velocity set-point (docs/architecture.md §3.1,
/// docs/mavlink.md §7.4).
public struct MotionCommand: Sendable, Hashable {
    /// Horizontal velocity over the ground, plane m/s (east, north): true north, not the nose.
    public var velocity: PlaneVector
    /// Vertical speed, m/s; positive = up.
    public var climbMetersPerSecond: Double
    /// Yaw rate, degrees per second; positive = clockwise seen from above.
    public var yawRateDegreesPerSecond: Double
    /// What a vehicle closing the velocity loop itself needs besides (`MotionContext`); nil for an autopilot.
    public var context: MotionContext?

    @inlinable public init(velocity: PlaneVector, climbMetersPerSecond: Double, yawRateDegreesPerSecond: Double,
                           context: MotionContext? = nil) {
        self.velocity = velocity
        self.climbMetersPerSecond = climbMetersPerSecond
        self.yawRateDegreesPerSecond = yawRateDegreesPerSecond
        self.context = context
    }

    /// Stand still: zero velocity, climb and yaw rate (an autopilot brakes and holds where it stops).
    public static let stop = MotionCommand(velocity: .zero, climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)

    /// Whether every value is finite, the context's included.
    @inlinable public var isValid: Bool {
        velocity.isFinite && climbMetersPerSecond.isFinite && yawRateDegreesPerSecond.isFinite && (context?.isValid ?? true)
    }
}

/// How the vehicle turns a `MotionCommand` into motion: what the latency prediction and `StoppingModel`
/// count on.
public enum VehicleDynamics: Sendable, Hashable {
    /// The AR.Drone 2.0: FollowMe closes the velocity loop through the tilt model; braking from the tilt.
    case tiltLoop
    /// An autopilot (ArduPilot GUIDED, PX4 OFFBOARD) closes its own; braking from its acceleration limit.
    case velocityLoop(AutopilotResponse)

    /// The autopilot's response, nil for the tilt loop.
    @inlinable public var autopilot: AutopilotResponse? {
        if case .velocityLoop(let response) = self { return response }
        return nil
    }
}

/// What an autopilot does with a velocity set-point, as the stopping model and latency prediction
/// count on it (docs/stopping-model.md §7).
public struct AutopilotResponse: Sendable, Hashable {
    /// Horizontal acceleration limit of its velocity shaping, m/s² (ArduCopter `WPNAV_ACCEL`, PX4 `MPC_ACC_HOR`).
    public var maxAccelerationMetersPerSecondSquared: Double
    /// Jerk limit of that shaping, m/s³ (ArduCopter `PSC_JERK_XY`, PX4 `MPC_JERK_AUTO`).
    public var maxJerkMetersPerSecondCubed: Double
    /// How far the vehicle's velocity lags the shaped target, seconds (docs/stopping-model.md §7).
    public var trackingTimeConstantSeconds: Double

    /// ArduCopter's defaults (docs/stopping-model.md §7), until the vehicle reports its own.
    public static let arduCopterDefaults = AutopilotResponse(
        maxAccelerationMetersPerSecondSquared: 2.5, maxJerkMetersPerSecondCubed: 5, trackingTimeConstantSeconds: 0.45)
    /// PX4's defaults (docs/stopping-model.md §7).
    public static let px4Defaults = AutopilotResponse(
        maxAccelerationMetersPerSecondSquared: 3, maxJerkMetersPerSecondCubed: 4, trackingTimeConstantSeconds: 0.25)

    /// Velocity step to reached, seconds (the latency prediction's first-order stand-in): half the jerk
    /// ramp plus the tracking lag.
    @inlinable public var responseTimeConstantSeconds: Double {
        0.5 * maxAccelerationMetersPerSecondSquared / maxJerkMetersPerSecondCubed + trackingTimeConstantSeconds
    }
}
