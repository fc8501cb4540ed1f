import FollowCore

/// A velocity set-point in the local NED frame: north, east, down over the ground and a yaw rate
/// (clockwise seen from above, NED's positive yaw), what SET_POSITION_TARGET_LOCAL_NED carries in
/// MAV_FRAME_LOCAL_NED (docs/mavlink.md §7.4). The core's `MotionCommand` as is: the local plane's
/// east/north are true east/north, like the autopilot's local frame, so nothing is rotated through
/// FollowMe's heading estimate. Always finite: `VelocitySetpointLimits` builds it and turns
/// anything non-finite into `hold`.
public struct LocalVelocitySetpoint: Sendable, Hashable {
    public var northMetersPerSecond: Double
    public var eastMetersPerSecond: Double
    public var downMetersPerSecond: Double
    public var yawRateRadiansPerSecond: Double

    /// Zero velocity, zero yaw rate: the autopilot brakes and holds where it stops.
    public static let hold = LocalVelocitySetpoint(
        northMetersPerSecond: 0, eastMetersPerSecond: 0, downMetersPerSecond: 0, yawRateRadiansPerSecond: 0)

    /// The same with no descent (down ≤ 0): climbs and level flight as they are.
    var withoutDescent: Self {
        var copy = self
        copy.downMetersPerSecond = min(downMetersPerSecond, 0)
        return copy
    }
}

/// The link's last line of defence on a set-point: the configured maxima (`[follow]
/// max_speed_mps`, `max_climb_mps`, `max_yaw_rate_dps`), never more, and hold for anything not
/// finite. The core already keeps inside them; this is not a conversion (docs/mavlink.md §7.4).
public struct VelocitySetpointLimits: Sendable, Hashable {
    public var maxHorizontalSpeedMetersPerSecond: Double
    public var maxClimbMetersPerSecond: Double
    public var maxYawRateDegreesPerSecond: Double

    /// The flight's own limits (the only ones: a link never flies past what the core was given).
    public init(follow: FollowParameters) {
        maxHorizontalSpeedMetersPerSecond = follow.maxHorizontalSpeedMetersPerSecond
        maxClimbMetersPerSecond = follow.maxClimbMetersPerSecond
        maxYawRateDegreesPerSecond = follow.maxYawRateDegreesPerSecond
    }

    /// The set-point for one motion command: north = velocity.north, east = velocity.east, down =
    /// −climb, yaw rate in rad/s, each within its limit. nil (hover), or anything non-finite, holds.
    public func setpoint(for motion: MotionCommand?) -> LocalVelocitySetpoint {
        guard let motion, motion.isValid else { return .hold }
        let velocity = motion.velocity.clamped(toLength: maxHorizontalSpeedMetersPerSecond)
        let climb = min(max(motion.climbMetersPerSecond, -maxClimbMetersPerSecond), maxClimbMetersPerSecond)
        let yawRate = min(max(motion.yawRateDegreesPerSecond, -maxYawRateDegreesPerSecond), maxYawRateDegreesPerSecond)
        let setpoint = LocalVelocitySetpoint(
            northMetersPerSecond: velocity.north, eastMetersPerSecond: velocity.east, downMetersPerSecond: -climb,
            yawRateRadiansPerSecond: yawRate * .pi / 180)
        // Limits that are themselves not finite (never built by the config) must still not fly NaN.
        // (No array: this runs on every 30 Hz tick.)
        let finite = setpoint.northMetersPerSecond.isFinite && setpoint.eastMetersPerSecond.isFinite
            && setpoint.downMetersPerSecond.isFinite && setpoint.yawRateRadiansPerSecond.isFinite
        return finite ? setpoint : .hold
    }
}

extension SetPositionTargetLocalNED {
    /// The velocity set-point as the autopilot reads it: MAV_FRAME_LOCAL_NED (1), velocity + yaw rate
    /// only (type mask 0x05C7: position, acceleration and yaw ignored; docs/mavlink.md §5.1, §7.4).
    /// ArduCopter GUIDED and PX4 OFFBOARD both read LOCAL_NED velocities as north/east/down.
    public init(_ setpoint: LocalVelocitySetpoint, target: MAVLinkTarget, timeBootMilliseconds: UInt32) {
        self.init()
        self.timeBootMilliseconds = timeBootMilliseconds
        velocityNEDMetersPerSecond = [Float(setpoint.northMetersPerSecond), Float(setpoint.eastMetersPerSecond),
                                      Float(setpoint.downMetersPerSecond)]
        yawRateRadiansPerSecond = Float(setpoint.yawRateRadiansPerSecond)
        typeMask = .velocityAndYawRate
        self.target = target
        coordinateFrame = .init(.localNED)
    }
}
