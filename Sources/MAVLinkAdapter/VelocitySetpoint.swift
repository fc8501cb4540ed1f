import FollowCore
import Geometry
import MAVLink
import MemberwiseInit

/// A velocity set-point in the vehicle's body axes: forward along the nose, right, down, and a yaw
/// rate (clockwise seen from above), what SET_POSITION_TARGET_LOCAL_NED carries in MAV_FRAME_BODY_NED
/// (docs/mavlink.md §7.4). Always finite: `VelocitySetpointScale` builds it and turns anything
/// non-finite into `hold`.
@MemberwiseInit(.public)
public struct BodyVelocitySetpoint: Sendable, Hashable {
    public var forwardMetersPerSecond: Double
    public var rightMetersPerSecond: Double
    public var downMetersPerSecond: Double
    public var yawRateRadiansPerSecond: Double

    /// Zero velocity, zero yaw rate: the autopilot brakes and holds where it stops.
    public static let hold = BodyVelocitySetpoint(
        forwardMetersPerSecond: 0, rightMetersPerSecond: 0, downMetersPerSecond: 0, yawRateRadiansPerSecond: 0)
}

/// What a pilot fraction of ±1 means to an autopilot's velocity loop (docs/mavlink.md §7.4).
///
/// The follow controller outputs AR.Drone tilt fractions and models the drone as
/// v̇ = c1·(c2·sin(tilt) − v): a held tilt settles at the speed c2·sin(tilt). The link asks the
/// autopilot for exactly that steady-state speed, so the controller, the estimator and the wind
/// observer run unchanged and the autopilot's velocity loop is the plant (first order, like the
/// model, with its own time constant).
@MemberwiseInit(.public)
public struct VelocitySetpointScale: Sendable, Hashable {
    /// c2, m/s per unit sin(tilt) (`ControllerTuning.tiltSpeedMetersPerSecond`).
    public var tiltSpeedMetersPerSecond: Double
    /// The tilt a roll/pitch fraction of 1 means (`[follow] max_tilt_deg`).
    public var maxTiltDegrees: Double
    /// The climb rate a gaz fraction of 1 means (`[follow] max_climb_mps`).
    public var maxClimbMetersPerSecond: Double
    /// The yaw rate a yaw fraction of 1 means (`[follow] max_yaw_rate_dps`).
    public var maxYawRateDegreesPerSecond: Double

    /// The scale the flight core itself assumes for these parameters.
    public init(follow: FollowParameters, tuning: ControllerTuning = ControllerTuning()) {
        self.init(tiltSpeedMetersPerSecond: tuning.tiltSpeedMetersPerSecond, maxTiltDegrees: follow.maxTiltDegrees,
                  maxClimbMetersPerSecond: follow.maxClimbMetersPerSecond,
                  maxYawRateDegreesPerSecond: follow.maxYawRateDegreesPerSecond)
    }

    /// The set-point for one pilot command: forward = c2·sin(−pitch·maxTilt) (negative pitch = nose
    /// down = forward), right = c2·sin(roll·maxTilt), down = −gaz·maxClimb, yaw rate = yaw·maxYawRate.
    /// nil (hover), or any non-finite value, holds; finite fractions are clamped to [−1, 1], as
    /// the AR.Drone's PCMD is (`ProgressiveCommand`).
    public func setpoint(for pilot: PilotCommand?) -> BodyVelocitySetpoint {
        guard let pilot, pilot.roll.isFinite, pilot.pitch.isFinite, pilot.gaz.isFinite, pilot.yaw.isFinite else {
            return .hold
        }
        func clamped(_ fraction: Double) -> Double { min(max(fraction, -1), 1) }
        let maxTiltRadians = maxTiltDegrees * .pi / 180
        let setpoint = BodyVelocitySetpoint(
            forwardMetersPerSecond: tiltSpeedMetersPerSecond * _sin(-clamped(pilot.pitch) * maxTiltRadians),
            rightMetersPerSecond: tiltSpeedMetersPerSecond * _sin(clamped(pilot.roll) * maxTiltRadians),
            downMetersPerSecond: -clamped(pilot.gaz) * maxClimbMetersPerSecond,
            yawRateRadiansPerSecond: clamped(pilot.yaw) * maxYawRateDegreesPerSecond * .pi / 180)
        let values = [setpoint.forwardMetersPerSecond, setpoint.rightMetersPerSecond, setpoint.downMetersPerSecond,
                      setpoint.yawRateRadiansPerSecond]
        // A scale that is itself not finite (never built by the config) must still not fly NaN.
        return values.allSatisfy(\.isFinite) ? setpoint : .hold
    }
}

extension SetPositionTargetLocalNED {
    /// The velocity set-point as the autopilot reads it: MAV_FRAME_BODY_NED (8), velocity + yaw
    /// rate only (type mask 0x05C7: position, acceleration and yaw ignored; docs/mavlink.md §5.1, §7.4).
    public init(_ setpoint: BodyVelocitySetpoint, target: MAVLinkTarget, timeBootMilliseconds: UInt32) {
        self.init()
        self.timeBootMilliseconds = timeBootMilliseconds
        velocityNEDMetersPerSecond = [Float(setpoint.forwardMetersPerSecond), Float(setpoint.rightMetersPerSecond),
                                      Float(setpoint.downMetersPerSecond)]
        yawRateRadiansPerSecond = Float(setpoint.yawRateRadiansPerSecond)
        typeMask = .velocityAndYawRate
        self.target = target
        coordinateFrame = .init(.bodyNED)
    }
}
