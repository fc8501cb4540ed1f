import FollowCore

/// The AR.Drone's velocity loop (`TiltVehicleModel`): a `MotionCommand` and its `MotionContext` → one
/// progressive PCMD, as a value with its own state (the last PCMD, which the slew limits step from).
///
/// It inverts the tum_ardrone tilt model v̇ = c1·(c2·sin(tilt) − v + wind) (docs/dynamics-and-follow.md
/// §1.2, `TiltModelTuning` c1 = `dragRatePerSecond`, c2 = `tiltSpeedMetersPerSecond`):
/// sin(tilt) = (v_cmd + (Kv·(v_cmd − v) + a_ff)/c1 − wind)/c2 with v the context's latency-predicted
/// velocity and a_ff the context's `brakingFeedforward`; the tilt is clamped to the cruise tilt (`maxTiltDegrees`), or to the braking tilt
/// (`effectiveBrakingTiltDegrees`) when it opposes the drone's motion, rotated into the body frame
/// (negative pitch = forward, positive roll = right, fractions of the braking tilt, the drone's
/// `control:euler_angle_max`); yaw and gaz are the motion's rates as
/// fractions of their maxima. Every output is clamped to [−1, 1] and slew-rate limited (roll and
/// pitch not while `escaping`); last, inside the keep-off radius of a keep-off point any tilt
/// towards it is removed, bypassing the slew limit.
public struct TiltLoop: Sendable, Hashable {
    public let tuning: TiltModelTuning
    /// The tilt a PCMD fraction of 1 asks for, radians (`FollowParameters.effectiveBrakingTiltDegrees`).
    public let maxTiltRadians: Double
    /// sin of the braking tilt: the most a tilt against the drone's motion may ask for.
    let sinMaxTilt: Double
    /// sin of the cruise tilt (`FollowParameters.maxTiltDegrees`): the most any other tilt may ask for.
    let sinCruiseTilt: Double
    let maxYawRateDegreesPerSecond: Double
    let maxClimbMetersPerSecond: Double
    /// The last PCMD made (the slew limiter's memory).
    public private(set) var lastCommand: PilotCommand = .zero

    public init(parameters: FollowParameters, tuning: TiltModelTuning) {
        self.tuning = tuning
        maxTiltRadians = radians(fromDegrees: parameters.effectiveBrakingTiltDegrees)
        sinMaxTilt = _sin(maxTiltRadians)
        sinCruiseTilt = _sin(radians(fromDegrees: parameters.maxTiltDegrees))
        maxYawRateDegreesPerSecond = parameters.maxYawRateDegreesPerSecond
        maxClimbMetersPerSecond = parameters.maxClimbMetersPerSecond
    }

    /// The PCMD for `motion`, and the new slew memory.
    public mutating func translate(_ motion: MotionCommand, context: MotionContext) -> PilotCommand {
        let nose = context.noseHeadingDegrees, dt = context.intervalSeconds
        var command = PilotCommand.zero
        let acceleration = (motion.velocity - context.predictedDrone.velocity) * tuning.velocityGainPerSecond
            + context.brakingFeedforward
        // v̇ = c1·(c2·sin(tilt) − v + wind): the tilt that holds the velocity cancels the wind estimate.
        let sinTilt = (motion.velocity + acceleration / tuning.dragRatePerSecond - context.windEstimate)
            / tuning.tiltSpeedMetersPerSecond
        let braking = isBraking(sinTilt, velocity: context.predictedDrone.velocity)
        setTilt(&command, worldSinTilt: sinTilt.clamped(toLength: braking ? sinMaxTilt : sinCruiseTilt), noseHeadingDegrees: nose)
        command.yaw = Self.clampUnit(motion.yawRateDegreesPerSecond / maxYawRateDegreesPerSecond)
        command.gaz = Self.clampUnit(motion.climbMetersPerSecond / maxClimbMetersPerSecond)
        command = slewLimited(command, dt: dt, tilt: !context.escaping)
        command = withoutTiltTowards(context.keepOffPersonPlane, context.keepOffStopPointPlane,
                                     radius: context.keepOffRadiusMeters,
                                     from: context.dronePositionPlane, command, noseHeadingDegrees: nose)
        lastCommand = command
        return command
    }

    /// Whether `sinTilt` brakes: it opposes `velocity`, faster than `brakingSpeedMetersPerSecond`
    /// (docs/stopping-model.md §1). Braking may use the braking tilt; any other tilt stays within the cruise tilt.
    func isBraking(_ sinTilt: PlaneVector, velocity: PlaneVector) -> Bool {
        velocity.length > Self.brakingSpeedMetersPerSecond && sinTilt.dot(velocity) < 0
    }

    /// Below this ground speed no tilt counts as braking, m/s.
    static let brakingSpeedMetersPerSecond = 0.3

    /// The firmware flew the drone (PCMD flag 0) at this attitude (navdata: pitch positive = nose up,
    /// roll positive = right down, degrees): the next PCMD ramps from it, not from level.
    public mutating func seed(pitchDegrees: Double, rollDegrees: Double) {
        lastCommand = PilotCommand(roll: Self.clampUnit(radians(fromDegrees: rollDegrees) / maxTiltRadians),
                                   pitch: Self.clampUnit(radians(fromDegrees: pitchDegrees) / maxTiltRadians),
                                   gaz: 0, yaw: 0)
    }

    /// The drone hovered (PCMD flag 0): the next PCMD ramps up from level flight.
    public mutating func reset() { lastCommand = .zero }

    /// World-frame sin(tilt) vector the last PCMD asks for.
    public func lastWorldSinTilt(noseHeadingDegrees: Double) -> PlaneVector {
        worldSinTilt(of: lastCommand, noseHeadingDegrees: noseHeadingDegrees)
    }

    /// World-frame sin(tilt) vector a PCMD asks for.
    func worldSinTilt(of command: PilotCommand, noseHeadingDegrees: Double) -> PlaneVector {
        let forward = _sin(-command.pitch * maxTiltRadians)
        let right = _sin(command.roll * maxTiltRadians)
        return PlaneVector.unit(bearingDegrees: noseHeadingDegrees) * forward
            + PlaneVector.unit(bearingDegrees: noseHeadingDegrees + 90) * right
    }

    /// Roll and pitch (fractions of the maximum tilt) that tilt the drone by the world-frame
    /// sin(tilt) vector `worldSinTilt` (PCMD: negative pitch = forward, positive roll = right).
    func setTilt(_ command: inout PilotCommand, worldSinTilt: PlaneVector, noseHeadingDegrees: Double) {
        let body = worldSinTilt.bodyFrame(headingDegrees: noseHeadingDegrees)
        command.pitch = Self.clampUnit(-_asin(Self.clampUnit(body.forward)) / maxTiltRadians)
        command.roll = Self.clampUnit(_asin(Self.clampUnit(body.right)) / maxTiltRadians)
    }

    /// Each output moved at most its slew rate from the last command, in fractions of the PCMD's full
    /// scale (the braking tilt) per second (`tilt: false` leaves roll and pitch unlimited, for escapes).
    func slewLimited(_ command: PilotCommand, dt: Double, tilt: Bool = true) -> PilotCommand {
        let tiltLimit = tilt ? tuning.tiltSlewPerSecond * dt : 2
        return PilotCommand(
            roll: Self.step(lastCommand.roll, towards: command.roll, limit: tiltLimit),
            pitch: Self.step(lastCommand.pitch, towards: command.pitch, limit: tiltLimit),
            gaz: Self.step(lastCommand.gaz, towards: command.gaz, limit: tuning.gazSlewPerSecond * dt),
            yaw: Self.step(lastCommand.yaw, towards: command.yaw, limit: tuning.yawSlewPerSecond * dt))
    }

    /// Inside `radius` of the first two `points` (the person's estimate, their last fix): removes any
    /// tilt towards them (bypassing the slew limit).
    func withoutTiltTowards(_ first: PlaneVector?, _ second: PlaneVector?, radius: Double, from drone: PlaneVector,
                            _ command: PilotCommand, noseHeadingDegrees: Double) -> PilotCommand {
        let a = first.flatMap { Self.noTiltTowards($0, from: drone, radius: radius) }
        let b = second.flatMap { Self.noTiltTowards($0, from: drone, radius: radius) }
        guard a != nil || b != nil else { return command }
        let tilt = worldSinTilt(of: command, noseHeadingDegrees: noseHeadingDegrees)
        let safeTilt = HalfPlane.project(tilt, a, b)
        guard safeTilt != tilt else { return command }
        var safe = command
        setTilt(&safe, worldSinTilt: safeTilt, noseHeadingDegrees: noseHeadingDegrees)
        return safe
    }

    static func noTiltTowards(_ point: PlaneVector, from drone: PlaneVector, radius: Double) -> HalfPlane? {
        let rel = point - drone
        let distance = rel.length
        guard distance < radius, distance > 1e-6 else { return nil }
        return .noMotion(along: rel / distance)
    }

    @inline(__always)
    static func step(_ from: Double, towards to: Double, limit: Double) -> Double {
        from + min(max(to - from, -limit), limit)
    }

    @inline(__always)
    static func clampUnit(_ x: Double) -> Double { min(max(x, -1), 1) }
}
