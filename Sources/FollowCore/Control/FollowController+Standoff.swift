/// The standoff direction: where round the person the aim point sits (`FollowMode`). Every mode turns
/// it round the circle at a bounded rate, slowed near the keep-out; the separation rules hold in every
/// mode (docs/dynamics-and-follow.md §2.8).
extension FollowController {
    /// The standoff direction after this tick (unit, person → aim) and its rate round the person (rad/s,
    /// counter-clockwise positive). `reference`'s velocity is the leash's direction of travel,
    /// `travelVelocity` (the estimator's) the angle mode's; `range`, `keepOut`, `standoff` in metres.
    mutating func turnedStandoffDirection(
        _ direction: PlaneVector, reference: PlaneState, travelVelocity: PlaneVector, frozen: Bool,
        range: Double, keepOut: Double, standoff: Double, dt: Double
    ) -> (direction: PlaneVector, orbitRate: Double) {
        let referenceSpeed = reference.velocity.length
        // No turning within the keep-out; full rate from the standoff (leash) or `modeComfort`.
        let comfort = parameters.mode == .leash
            ? min(max((range - keepOut) / max(standoff - keepOut, 0.1), 0), 1)
            : modeComfort(range: range, keepOut: keepOut, standoff: standoff)
        switch parameters.mode {
        case .leash:
            guard !frozen, referenceSpeed > 1e-3 else { return (direction, 0) }
            let behind = reference.velocity * (-1 / referenceSpeed)
            let maxStep = radians(fromDegrees: tuning.standoffRotationDegreesPerSecond) * dt * comfort
            guard swingingIntoLeash else {
                return Self.turned(direction, towards: behind, maxStep: maxStep,
                                   timeConstantSeconds: tuning.standoffRotationTimeConstantSeconds, dt: dt)
            }
            // Changed to the leash: swing behind at most at the orbit speed until that bound stops binding.
            let cap = parameters.orbitSpeedMetersPerSecond / standoff * dt * comfort
            let turned = Self.turned(direction, towards: behind, maxStep: min(maxStep, cap),
                                     timeConstantSeconds: tuning.standoffRotationTimeConstantSeconds, dt: dt)
            if comfort > 0, abs(turned.orbitRate) * dt < 0.9 * cap { swingingIntoLeash = false }
            return turned
        case .angle:
            // Below a walking speed the direction of travel is noise: hold; up to twice it, turn slower.
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

    /// The fraction of `orbit_speed_mps` the angle and orbit modes may turn at `range`, 0…1: none within
    /// the keep-out, all from halfway to the standoff (docs/dynamics-and-follow.md §2.8, docs/bench.md §5).
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

    /// The aim point's centripetal acceleration times the velocity loop's lag, fed forward (angle and
    /// orbit modes only; docs/dynamics-and-follow.md §2.8).
    func centripetalLead(direction: PlaneVector, orbitRate: Double, standoff: Double) -> PlaneVector {
        let lagSeconds = vehicle.velocityLagSeconds
        return direction * (-orbitRate * orbitRate * standoff * lagSeconds)
    }
}
