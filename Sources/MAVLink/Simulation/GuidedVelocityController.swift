import FollowCore

/// The horizontal half of ArduCopter's GUIDED velocity path, as `MAVLinkCopter` flies it
/// (docs/mavlink.md §8.4): the velocity set-point is shaped into a jerk- and acceleration-limited
/// kinematic path (velocity, acceleration and an integrated position target), a position P
/// (square-root) controller and a velocity PID turn the path and the measured state into an
/// acceleration demand, the lean angle limit caps it, and the attitude input shaping
/// (`ATC_INPUT_TC`) turns the lean it asks for into a smooth attitude target.
///
/// Pure: the step `dtSeconds` is an argument. Vectors are world-frame east/north (ArduPilot works in
/// north/east; every operation here is a rotation-invariant vector operation, so the frame does not
/// matter). The structure follows ArduPilot Copter 4.1–4.6: `ModeGuided::velaccel_control_run`
/// (`ArduCopter/mode_guided.cpp`), `AC_PosControl::input_vel_accel_xy` / `update_xy_controller`
/// (`libraries/AC_AttitudeControl/AC_PosControl.cpp`), `shape_vel_accel_xy`, `sqrt_controller`,
/// `update_pos_vel_accel_xy`, `limit_accel_corner_xy` (`libraries/AP_Math/control.cpp`),
/// `AC_PID_2D::update_all` (`libraries/AC_PID/AC_PID_2D.cpp`) and `input_shaping_angle`
/// (`libraries/AC_AttitudeControl/AC_AttitudeControl.cpp`). Written from reading them, not copied.
public struct GuidedVelocityController: Sendable, Hashable {
    /// Standard gravity, m/s² (ArduPilot `GRAVITY_MSS`, `AP_Math/definitions.h`).
    public static let gravityMetersPerSecondSquared = 9.80665

    public let parameters: MAVLinkCopterParameters

    // MARK: Kinematic path (AC_PosControl `_pos_target`, `_vel_desired`, `_accel_desired`)

    /// The path's position, metres east/north: integrated from the path's velocity, and pulled
    /// toward the airframe when it is farther than the position controller's error limit.
    public private(set) var positionTargetPlane: PlaneVector
    /// The path's velocity, m/s: reaches the set-point with the acceleration and jerk limits.
    public private(set) var velocityDesiredENU: PlaneVector
    /// The path's acceleration, m/s²: never longer than `maxHorizontalAccelerationMetersPerSecondSquared`,
    /// changing by at most `horizontalJerkMetersPerSecondCubed` per second.
    public private(set) var accelerationDesiredENU: PlaneVector = .zero

    // MARK: Controllers

    /// The velocity the velocity PID aims at (path velocity + position correction), m/s.
    public private(set) var velocityTargetENU: PlaneVector
    /// The acceleration asked of the airframe after the lean limit, m/s².
    public private(set) var accelerationTargetENU: PlaneVector = .zero
    /// The velocity PID's filtered error, m/s; its filtered error derivative, m/s²; its integrator, m/s².
    public private(set) var velocityError: PlaneVector = .zero
    public private(set) var velocityErrorDerivative: PlaneVector = .zero
    public private(set) var integratorENU: PlaneVector
    /// Set when the lean limit cut the acceleration demand: the direction in which the integrator and
    /// the path must not grow (AC_PosControl `_limit_vector`); zero otherwise.
    public private(set) var limitVector: PlaneVector = .zero
    /// The PID filters start from the first error they see (AC_PID_2D `_reset_filter`).
    private var resetFilter = true

    // MARK: Attitude target (AC_AttitudeControl input shaping)

    /// The shaped lean, radians east/north (the world tilt vector of `AirframeTruth`), and its rate.
    public private(set) var tiltTargetWorldRadians: PlaneVector
    public private(set) var tiltTargetRateRadiansPerSecond: PlaneVector = .zero
    /// Attitude targets waiting out `actuationDelaySeconds` (oldest first).
    private var delayLine: [PlaneVector] = []

    /// The controller as `AC_PosControl::init_xy_controller` starts it from the airframe's state:
    /// the path at the airframe's position and velocity with no acceleration, the integrator
    /// holding the current lean (so a copter leaning into the wind keeps leaning), the attitude target
    /// at the current tilt.
    public init(parameters: MAVLinkCopterParameters, positionPlane: PlaneVector, velocityENU: PlaneVector,
                tiltWorldRadians: PlaneVector) {
        self.parameters = parameters
        positionTargetPlane = positionPlane
        velocityDesiredENU = velocityENU
        velocityTargetENU = velocityENU
        integratorENU = Self.acceleration(ofLean: tiltWorldRadians).clamped(toLength: parameters.velocityIMaxMetersPerSecondSquared)
        tiltTargetWorldRadians = tiltWorldRadians
    }

    /// The acceleration a lean gives with thrust holding height: g·tan(angle) toward the lean
    /// (AC_PosControl `lean_angles_to_accel_xy`, in thrust-vector form).
    public static func acceleration(ofLean tilt: PlaneVector) -> PlaneVector {
        let angle = tilt.length
        guard angle > 0 else { return .zero }
        return tilt * (gravityMetersPerSecondSquared * _tan(min(angle, 1.5)) / angle)
    }

    /// The lean that gives `acceleration`: angle atan(|a|/g) toward it (AC_PosControl
    /// `accel_to_lean_angles`, in thrust-vector form).
    public static func lean(forAcceleration acceleration: PlaneVector) -> PlaneVector {
        let magnitude = acceleration.length
        guard magnitude > 0 else { return .zero }
        return acceleration * (_atan2(magnitude, gravityMetersPerSecondSquared) / magnitude)
    }

    /// The largest acceleration the lean limit allows, m/s²: g·tan(`maxLeanAngleRadians`).
    public var maxLeanAccelerationMetersPerSecondSquared: Double {
        Self.gravityMetersPerSecondSquared * _tan(parameters.maxLeanAngleRadians)
    }

    /// One controller step of `dtSeconds` toward the set-point `velocitySetpointENU`, from the
    /// measured position and velocity; returns the lean the attitude controller holds the airframe
    /// to, radians east/north (after the actuation delay).
    public mutating func update(velocitySetpointENU: PlaneVector, positionPlane: PlaneVector,
                                velocityENU: PlaneVector, dtSeconds dt: Double) -> PlaneVector {
        let p = parameters
        let accelMax = p.maxHorizontalAccelerationMetersPerSecondSquared
        let jerkMax = p.horizontalJerkMetersPerSecondCubed

        // input_vel_accel_xy: move the path forward by dt (not further along the limit while the
        // demand is cut), then shape its acceleration toward the set-point.
        advancePath(dt: dt, positionErrorPlane: positionTargetPlane - positionPlane)
        accelerationDesiredENU = Self.shapedAcceleration(
            velocityInput: velocitySetpointENU, velocity: velocityDesiredENU, acceleration: accelerationDesiredENU,
            accelerationMax: accelMax, jerkMax: jerkMax, dt: dt)

        // update_xy_controller, position: a square-root P on the path's position error, the error
        // capped so the correction stays within the correction speed (the target is dragged along).
        var velocityTarget = velocityDesiredENU
        if p.stabilizesPosition {
            var positionError = positionTargetPlane - positionPlane
            let errorMax = Self.inverseSqrtController(output: p.maxHorizontalSpeedMetersPerSecond, gain: p.positionGainPerSecond,
                                                      secondOrderLimit: accelMax)
            if errorMax > 0, positionError.length > errorMax {
                positionError = positionError.clamped(toLength: errorMax)
                positionTargetPlane = positionPlane + positionError
            }
            velocityTarget += Self.sqrtController(positionError, gain: p.positionGainPerSecond, secondOrderLimit: accelMax, dt: 0)
        } else {
            // GUID_OPTIONS bit 4 ("do not stabilize position"): the position target follows the airframe.
            positionTargetPlane = positionPlane
        }
        velocityTargetENU = velocityTarget

        // Velocity PID (AC_PID_2D): error filtered at FLTE, derivative of the filtered error at FLTD,
        // integrator not growing along the limit, capped at IMAX; plus the path's acceleration.
        let rawError = velocityTarget - velocityENU
        if resetFilter {
            resetFilter = false
            velocityError = rawError
            velocityErrorDerivative = .zero
        } else {
            let previous = velocityError
            velocityError += (rawError - velocityError) * Self.lowPassAlpha(dt: dt, hertz: p.velocityErrorFilterHertz)
            if dt > 0 {
                velocityErrorDerivative += ((velocityError - previous) * (1 / dt) - velocityErrorDerivative)
                    * Self.lowPassAlpha(dt: dt, hertz: p.velocityDerivativeFilterHertz)
            }
        }
        let integratorDelta = velocityError * (p.velocityIPerSecond * dt)
        let integratorBefore = integratorENU.length
        integratorENU += integratorDelta
        if integratorDelta.dot(limitVector) > 0 { integratorENU = integratorENU.clamped(toLength: integratorBefore) }
        integratorENU = integratorENU.clamped(toLength: p.velocityIMaxMetersPerSecondSquared)
        var accelerationTarget = velocityError * p.velocityPPerSecond + integratorENU
            + velocityErrorDerivative * p.velocityD + accelerationDesiredENU

        // The lean angle limit: a demand beyond g·tan(angle max) is cut, and remembered as the limit.
        limitVector = .zero
        let leanAccelerationMax = maxLeanAccelerationMetersPerSecondSquared
        if accelerationTarget.length > leanAccelerationMax {
            accelerationTarget = accelerationTarget.clamped(toLength: leanAccelerationMax)
            limitVector = accelerationTarget
        }
        accelerationTargetENU = accelerationTarget

        // Attitude input shaping: the target lean moves toward the lean asked for at a square-root
        // rate (P = 1/ATC_INPUT_TC, limited by the angular acceleration), its rate slewing at most by
        // that angular acceleration.
        shapeAttitude(toward: Self.lean(forAcceleration: accelerationTarget), dt: dt)

        // Actuation delay (off-model only; 0 in ArduCopter's defaults).
        let delaySteps = dt > 0 ? Int((p.actuationDelaySeconds / dt).rounded()) : 0
        guard delaySteps > 0 else { return tiltTargetWorldRadians }
        delayLine.append(tiltTargetWorldRadians)
        if delayLine.count > delaySteps + 1 { delayLine.removeFirst(delayLine.count - delaySteps - 1) }
        return delayLine[0]
    }

    /// `update_pos_vel_accel_xy`: the path moves by v·dt + a·dt²/2 and its velocity by a·dt, except
    /// along a set limit when that would grow the position (velocity) error.
    private mutating func advancePath(dt: Double, positionErrorPlane: PlaneVector) {
        let limit = limitVector
        var deltaPosition = velocityDesiredENU * dt + accelerationDesiredENU * (0.5 * dt * dt)
        if limit != .zero, deltaPosition.dot(limit) > 0, positionErrorPlane.dot(limit) > 0 { deltaPosition = .zero }
        positionTargetPlane += deltaPosition
        let deltaVelocity = accelerationDesiredENU * dt
        if limit != .zero, deltaVelocity != .zero, deltaVelocity.dot(limit) > 0, velocityError.dot(limit) > 0,
           velocityDesiredENU.dot(limit) >= 0 {
            return
        }
        velocityDesiredENU += deltaVelocity
    }

    /// `input_shaping_angle` + `input_shaping_ang_vel` on the world tilt vector.
    private mutating func shapeAttitude(toward leanCommand: PlaneVector, dt: Double) {
        let p = parameters
        let angularAccelerationMax = p.maxLeanAngularAccelerationRadiansPerSecondSquared
        let limitedCommand = leanCommand.clamped(toLength: p.maxLeanAngleRadians)
        guard p.attitudeInputTimeConstantSeconds > 0 else {
            tiltTargetRateRadiansPerSecond = dt > 0 ? (limitedCommand - tiltTargetWorldRadians) * (1 / dt) : .zero
            tiltTargetWorldRadians = limitedCommand
            return
        }
        let desiredRate = Self.sqrtController(limitedCommand - tiltTargetWorldRadians,
                                              gain: 1 / p.attitudeInputTimeConstantSeconds,
                                              secondOrderLimit: angularAccelerationMax, dt: dt)
        let rateChange = (desiredRate - tiltTargetRateRadiansPerSecond).clamped(toLength: angularAccelerationMax * dt)
        tiltTargetRateRadiansPerSecond += rateChange
        // A safety clamp (our choice): the shaped target never leans past the angle limit.
        tiltTargetWorldRadians = (tiltTargetWorldRadians + tiltTargetRateRadiansPerSecond * dt)
            .clamped(toLength: p.maxLeanAngleRadians)
    }

    // MARK: AP_Math/control.cpp, in our words

    /// `shape_vel_accel_xy` (feed-forward acceleration 0, total not limited): the acceleration that
    /// closes the velocity error along a square-root curve (gain jerk/accel, second-order limit the
    /// jerk), cut to `accelerationMax` giving braking priority, then approached at most `jerkMax`·dt.
    package static func shapedAcceleration(velocityInput: PlaneVector, velocity: PlaneVector, acceleration: PlaneVector,
                                   accelerationMax: Double, jerkMax: Double, dt: Double) -> PlaneVector {
        guard accelerationMax > 0, jerkMax > 0 else { return acceleration }
        var target = sqrtController(velocityInput - velocity, gain: jerkMax / accelerationMax, secondOrderLimit: jerkMax, dt: dt)
        target = limitAccelerationCorner(velocity: velocity, acceleration: target, accelerationMax: accelerationMax)
        return acceleration + (target - acceleration).clamped(toLength: jerkMax * dt)
    }

    /// `limit_accel_corner_xy`: cut `acceleration` to `accelerationMax`, braking (along −velocity)
    /// first when braking, cross-track first otherwise.
    package static func limitAccelerationCorner(velocity: PlaneVector, acceleration: PlaneVector, accelerationMax: Double) -> PlaneVector {
        guard accelerationMax > 0 else { return acceleration }
        let speed = velocity.length
        guard speed > 0 else { return acceleration.clamped(toLength: accelerationMax) }
        let limited = acceleration.clamped(toLength: 2 * accelerationMax)
        let unit = velocity * (1 / speed)
        var along = limited.dot(unit)
        var cross = limited - unit * along
        if along > 0 {
            cross = cross.clamped(toLength: accelerationMax)
            let alongMax = (max(accelerationMax * accelerationMax - cross.dot(cross), 0)).squareRoot()
            along = min(along, alongMax)
        } else {
            along = max(along, -accelerationMax)
            cross = cross.clamped(toLength: (max(accelerationMax * accelerationMax - along * along, 0)).squareRoot())
        }
        return cross + unit * along
    }

    /// `sqrt_controller` on a vector error: linear (gain·error) near zero, √(2·limit·(|e| − limit/(2·gain²)))
    /// beyond limit/gain², along the error; with dt > 0 never more than |e|/dt.
    package static func sqrtController(_ error: PlaneVector, gain: Double, secondOrderLimit: Double, dt: Double) -> PlaneVector {
        let length = error.length
        guard length > 0 else { return .zero }
        return error * (sqrtController(length, gain: gain, secondOrderLimit: secondOrderLimit, dt: dt) / length)
    }

    package static func sqrtController(_ error: Double, gain: Double, secondOrderLimit: Double, dt: Double) -> Double {
        var rate: Double
        if secondOrderLimit <= 0 {
            rate = error * gain
        } else if gain == 0 {
            rate = (error >= 0 ? 1 : -1) * (2 * secondOrderLimit * abs(error)).squareRoot()
        } else {
            let linearDistance = secondOrderLimit / (gain * gain)
            if error > linearDistance {
                rate = (2 * secondOrderLimit * (error - linearDistance / 2)).squareRoot()
            } else if error < -linearDistance {
                rate = -(2 * secondOrderLimit * (-error - linearDistance / 2)).squareRoot()
            } else {
                rate = error * gain
            }
        }
        if dt > 0 { rate = min(max(rate, -abs(error) / dt), abs(error) / dt) }
        return rate
    }

    /// `inv_sqrt_controller`: the error for which `sqrtController` gives `output`.
    package static func inverseSqrtController(output: Double, gain: Double, secondOrderLimit: Double) -> Double {
        if secondOrderLimit > 0, gain == 0 { return output * output / (2 * secondOrderLimit) }
        if secondOrderLimit <= 0 { return gain == 0 ? 0 : output / gain }
        let linearVelocity = secondOrderLimit / gain
        if abs(output) < linearVelocity { return output / gain }
        let stopping = secondOrderLimit / (gain * gain) / 2 + output * output / (2 * secondOrderLimit)
        return output > 0 ? stopping : -stopping
    }

    /// `calc_lowpass_alpha_dt`: dt / (dt + 1/(2π·f)); 1 (no filter) for f ≤ 0.
    package static func lowPassAlpha(dt: Double, hertz: Double) -> Double {
        guard hertz > 0, dt > 0 else { return 1 }
        return dt / (dt + 1 / (2 * Double.pi * hertz))
    }
}
