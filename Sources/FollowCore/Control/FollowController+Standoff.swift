/// The standoff direction: where round the person the aim point sits (`FollowMode`, issue 26). Every
/// mode turns the direction round the circle at a bounded rate, slowed near the keep-out (the comfort
/// factor), so the aim point goes round the person, never across them; the separation rules that
/// follow (`FollowController+Separation.swift`, `StoppingModel`) hold in every mode.
extension FollowController {
    /// The standoff direction after this tick and its rate round the person (rad/s, counter-clockwise
    /// positive: the aim point's feed-forward).
    /// - Parameters:
    ///   - direction: the direction so far (unit, person → aim).
    ///   - reference: the person's smoothed reference (its velocity is the leash's direction of travel).
    ///   - travelVelocity: the target estimator's velocity of the person, m/s: the angle mode's direction
    ///     of travel (the reference lags a turn by about 2/ω = 2 s; the estimator, fed Doppler, much less).
    ///   - frozen: the target estimator says the person stands.
    ///   - range: estimated drone–person distance, metres; `keepOut`, `standoff`: the aim's radii.
    mutating func turnedStandoffDirection(
        _ direction: PlaneVector, reference: PlaneState, travelVelocity: PlaneVector, frozen: Bool,
        range: Double, keepOut: Double, standoff: Double, dt: Double
    ) -> (direction: PlaneVector, orbitRate: Double) {
        let referenceSpeed = reference.velocity.length
        // Close to the person backing off comes first: no turning within the keep-out, full rate from
        // the standoff out (the leash, as before the modes) or from halfway there (`modeComfort`).
        let comfort = parameters.mode == .leash
            ? min(max((range - keepOut) / max(standoff - keepOut, 0.1), 0), 1)
            : modeComfort(range: range, keepOut: keepOut, standoff: standoff)
        switch parameters.mode {
        case .leash:
            guard !frozen, referenceSpeed > 1e-3 else { return (direction, 0) }
            // First order towards "behind" (small direction noise → small motion), rate-capped.
            let behind = reference.velocity * (-1 / referenceSpeed)
            let maxStep = radians(fromDegrees: tuning.standoffRotationDegreesPerSecond) * dt * comfort
            guard swingingIntoLeash else {
                return Self.turned(direction, towards: behind, maxStep: maxStep,
                                   timeConstantSeconds: tuning.standoffRotationTimeConstantSeconds, dt: dt)
            }
            // The operator changed to the leash (`changeFollowMode`): swing behind at most at the orbit speed,
            // as every other mode moves; once that bound no longer binds, the leash is itself again.
            let cap = parameters.orbitSpeedMetersPerSecond / standoff * dt * comfort
            let turned = Self.turned(direction, towards: behind, maxStep: min(maxStep, cap),
                                     timeConstantSeconds: tuning.standoffRotationTimeConstantSeconds, dt: dt)
            if comfort > 0, abs(turned.orbitRate) * dt < 0.9 * cap { swingingIntoLeash = false }
            return turned
        case .angle:
            // Below a walking speed the direction of travel is GPS noise: hold the bearing; between it and
            // twice it, turn slower in proportion (a standing person's noisy speed rarely gets that far).
            let minSpeed = tuning.travelDirectionMinSpeedMetersPerSecond, travelSpeed = travelVelocity.length
            guard !frozen, travelSpeed >= minSpeed else { return (direction, 0) }
            let confidence = min((travelSpeed - minSpeed) / minSpeed, 1)
            // Clockwise from the direction of travel (compass sense): rotate by −angle counter-clockwise.
            let travel = travelVelocity / travelSpeed
            let desired = Self.rotated(travel, byRadians: -radians(fromDegrees: parameters.angleDegrees))
            let maxStep = parameters.orbitSpeedMetersPerSecond / standoff * dt * comfort * confidence
            return Self.turned(direction, towards: desired, maxStep: maxStep,
                               timeConstantSeconds: tuning.angleRotationTimeConstantSeconds, dt: dt)
        case .orbit:
            let sense = parameters.orbitDirection == .clockwise ? -1.0 : 1.0
            let step = sense * parameters.orbitSpeedMetersPerSecond / standoff * dt * comfort
            return (Self.rotated(direction, byRadians: step), dt > 0 ? step / dt : 0)
        }
    }

    /// How much of `orbit_speed_mps` the angle and orbit modes may turn at `range`: none within the keep-out,
    /// all from halfway between it and the standoff. The swing after a person's turn carries the drone
    /// a metre or two inside the standoff while its velocity comes round (9.5 m of 11 at 4 m/s): slowed
    /// to the standoff, as the leash is, the swing lost a fifth of its rate exactly where it is asked for
    /// (angle 180, 90° turns: 19.3° → 18.0° RMS at 2 m/s, docs/bench.md §5). Turning only moves the aim round
    /// the circle at the standoff, never nearer; the approach limits hold as in every mode.
    func modeComfort(range: Double, keepOut: Double, standoff: Double) -> Double {
        min(max((range - keepOut) / max(0.5 * (standoff - keepOut), 0.1), 0), 1)
    }

    /// `direction` turned towards `desired` by the shorter way round: first order with
    /// `timeConstantSeconds`, at most `maxStep` radians this tick.
    static func turned(_ direction: PlaneVector, towards desired: PlaneVector, maxStep: Double,
                       timeConstantSeconds: Double, dt: Double) -> (direction: PlaneVector, orbitRate: Double) {
        let angle = _atan2(direction.east * desired.north - direction.north * desired.east, direction.dot(desired))
        let step = min(max(angle * min(dt / timeConstantSeconds, 1), -maxStep), maxStep)
        return (rotated(direction, byRadians: step), dt > 0 ? step / dt : 0)
    }

    /// What the velocity loop's lag costs a drone going round the circle, fed forward: the aim point's
    /// centripetal acceleration −ω²·r (towards the person) times the loop's time constant (the AR.Drone's
    /// tilt loop 1/(c1 + Kv) ≈ 0.3 s, an autopilot's response). Without it the commanded velocity turns
    /// and the drone's turns that much later, so it drifts outwards until the position term pays for
    /// the turn (closed loop, 2 m/s round 6.5 m: radius RMS 0.46 m). Not in the leash (bit for bit as
    /// before the modes).
    func centripetalLead(direction: PlaneVector, orbitRate: Double, standoff: Double) -> PlaneVector {
        let lagSeconds: Double
        switch vehicle {
        case .tiltLoop: lagSeconds = 1 / (tuning.dragRatePerSecond + tuning.velocityGainPerSecond)
        case .velocityLoop(let autopilot): lagSeconds = autopilot.responseTimeConstantSeconds
        }
        return direction * (-orbitRate * orbitRate * standoff * lagSeconds)
    }
}
