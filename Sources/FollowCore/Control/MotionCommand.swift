/// What the core asks of the vehicle for one tick, whatever the vehicle: a horizontal velocity in
/// the local plane, a climb rate and a yaw rate (docs/architecture.md §3.1).
///
/// Each drone family translates it at its link: the AR.Drone's tilt loop (`TiltLoop` in module
/// ARDrone, with the core's `MotionContext`) into a progressive PCMD; a MAVLink autopilot receives it as is, a
/// SET_POSITION_TARGET_LOCAL_NED velocity set-point in MAV_FRAME_LOCAL_NED (docs/mavlink.md §7.4),
/// and closes its own velocity loop. Never converted from one vehicle's terms into another's.
public struct MotionCommand: Sendable, Hashable {
    /// Horizontal velocity over the ground, plane m/s (east, north): true north, not the nose.
    public var velocity: PlaneVector
    /// Vertical speed, m/s; positive = up.
    public var climbMetersPerSecond: Double
    /// Yaw rate, degrees per second; positive = clockwise seen from above.
    public var yawRateDegreesPerSecond: Double
    /// What a drone family that closes the velocity loop itself needs besides (`MotionContext`: the
    /// latency-predicted drone, the keep-off points, the wind estimate…); nil for an autopilot.
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

    /// Whether every value is finite, the context's included (a tilt loop fed a NaN would send one).
    @inlinable public var isValid: Bool {
        velocity.isFinite && climbMetersPerSecond.isFinite && yawRateDegreesPerSecond.isFinite && (context?.isValid ?? true)
    }
}

/// How the vehicle turns a `MotionCommand` into motion: what the core's latency prediction and its
/// stopping model (`StoppingModel`) count on, and who makes the attitude.
public enum VehicleDynamics: Sendable, Hashable {
    /// The AR.Drone 2.0: FollowMe closes the velocity loop itself, through the tum_ardrone tilt
    /// model (`ControllerTuning` c1, c2), into PCMD tilt fractions; braking comes from the tilt.
    case tiltLoop
    /// An autopilot (ArduPilot GUIDED, PX4 OFFBOARD) closes its own velocity loop: FollowMe sends the
    /// velocity and counts on the autopilot's own acceleration limit for braking.
    case velocityLoop(AutopilotResponse)

    /// The autopilot's response, nil for the tilt loop.
    @inlinable public var autopilot: AutopilotResponse? {
        if case .velocityLoop(let response) = self { return response }
        return nil
    }
}

/// What an autopilot does with a velocity set-point, as the core's stopping model and latency
/// prediction count on it (docs/stopping-model.md §7, docs/mavlink.md §8).
public struct AutopilotResponse: Sendable, Hashable {
    /// The horizontal acceleration the autopilot shapes its velocity target with, m/s²
    /// (ArduCopter GUIDED: `WPNAV_ACCEL`, default 2.5; PX4 OFFBOARD: `MPC_ACC_HOR`, default 3).
    public var maxAccelerationMetersPerSecondSquared: Double
    /// The jerk limit of that shaping, m/s³ (ArduCopter `PSC_JERK_XY`, default 5; PX4 `MPC_JERK_AUTO`, default 4).
    public var maxJerkMetersPerSecondCubed: Double
    /// How far the vehicle's velocity lags the shaped target, seconds: the attitude response
    /// (ArduCopter `ATC_INPUT_TC` 0.15 s) and the velocity loop's correction of the rest. ArduCopter:
    /// 0.45 s, set on the bench so a jogger who stops dead stays outside the protected radius on the
    /// ArduCopter-like Copter (0.25 s let it 0.3 m in with the stop credit, docs/stopping-model.md §7);
    /// PX4: 0.25 s, a reading of its docs, not measured (no PX4 model here).
    public var trackingTimeConstantSeconds: Double

    /// ArduCopter's defaults (WPNAV_ACCEL 250 cm/s², PSC_JERK_XY 5 m/s³; docs/stopping-model.md §7);
    /// replaced by what the vehicle reports (`FollowInput.vehicleBraking`).
    public static let arduCopterDefaults = AutopilotResponse(
        maxAccelerationMetersPerSecondSquared: 2.5, maxJerkMetersPerSecondCubed: 5, trackingTimeConstantSeconds: 0.45)
    /// PX4's defaults (MPC_ACC_HOR 3 m/s², MPC_JERK_AUTO 4 m/s³; docs/stopping-model.md §7).
    public static let px4Defaults = AutopilotResponse(
        maxAccelerationMetersPerSecondSquared: 3, maxJerkMetersPerSecondCubed: 4, trackingTimeConstantSeconds: 0.25)

    /// Time from a velocity step to the vehicle reaching it, seconds, for the latency prediction's
    /// first-order stand-in: half the jerk ramp plus the tracking lag.
    @inlinable public var responseTimeConstantSeconds: Double {
        0.5 * maxAccelerationMetersPerSecondSquared / maxJerkMetersPerSecondCubed + trackingTimeConstantSeconds
    }
}
