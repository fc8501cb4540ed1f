/// The follower's keep-out geometry: the aim pushed out of the protected radius, clipped into the
/// geofence, and the approach-speed cap towards the person (`StoppingModel`, docs/stopping-model.md §3–4).
extension FollowController {
    /// Moves `aim` radially away from `person` to at least minSeparation + margin.
    func pushedOut(_ aim: PlaneVector, from person: PlaneVector, fallback: PlaneVector) -> PlaneVector {
        let keepOut = minSeparationMeters + tuning.separationMarginMeters
        let offset = aim - person
        let distance = offset.length
        guard distance < keepOut else { return aim }
        let away = distance > 1e-6 ? offset / distance : fallback
        return person + away * keepOut
    }

    /// `point` clipped into the circle of `radius` round `home`.
    static func insideFence(_ point: PlaneVector, home: PlaneVector, radius: Double) -> PlaneVector {
        let offset = point - home
        let length = offset.length
        return length > radius ? home + offset * (radius / length) : point
    }

    /// The person's last fix as measured (the estimate's position without one): the point the stop-point
    /// limit keeps the drone's stopping distance from (docs/stopping-model.md §3).
    func stopPoint(lastFix: PlaneVector?, target: PlaneState) -> PlaneVector {
        lastFix ?? target.position
    }

    /// The stop point's velocity for its approach limit: the receiver's own velocity with that fix, shortened
    /// by the speed error a receiver's report carries (`reportedSpeedMarginMetersPerSecond`), whose component
    /// away from the drone is credited a bounded stop (`StoppingModel.personStoppingDistanceMeters`); zero
    /// (no credit: they may have stopped dead) without a fix, without a reported velocity, or below that error.
    func stopPointVelocity(lastFix: PlaneVector?, reported: PlaneVector?) -> PlaneVector {
        guard lastFix != nil, let reported, reported.isFinite else { return .zero }
        let speed = reported.length, margin = Self.reportedSpeedMarginMetersPerSecond
        return speed > margin ? reported * ((speed - margin) / speed) : .zero
    }

    /// The speed a receiver's reported velocity may overstate, m/s: the estimator's 1σ for it
    /// (`EstimatorTuning.reportedVelocitySigmaMetersPerSecond`'s default; docs/stopping-model.md §3).
    static let reportedSpeedMarginMetersPerSecond = EstimatorTuning.Spec.reportedVelocitySigmaMetersPerSecond.defaultValue

    /// The cap on the velocity component towards a person point as a half-plane v·n ≤ limit (nil when
    /// the drone is on top of it): `StoppingModel`'s allowed approach with room = distance − protected
    /// radius − margin, braking reduced by any wind towards the point; `awayOnly` counts a point coming
    /// closer as standing (its approach is the estimate's limit's to cover).
    func approachLimit(drone: PlaneVector, person: PlaneVector, personVelocity: PlaneVector,
                       margin: Double, awayOnly: Bool = false) -> HalfPlane? {
        let rel = person - drone
        let distance = rel.length
        guard distance > 1e-6 else { return nil }
        let towards = rel / distance
        let room = distance - minSeparationMeters - margin
        let braking = stopping.braking(windTowardsMetersPerSecond: windEstimate.dot(towards))
        let allowed = stopping.allowedApproachSpeed(
            roomMeters: room, pointAwaySpeedMetersPerSecond: awayOnly ? max(personVelocity.dot(towards), 0) : personVelocity.dot(towards),
            braking: braking,
            backOffGainPerSecond: tuning.separationGainPerSecond)
        return HalfPlane(normal: towards, limit: allowed)
    }
}

extension FollowController {
    /// The rate the approach cap towards `person` falls at while the drone closes on it at `droneVelocity`,
    /// as an acceleration along the line to it, plane m/s² (zero unless the cap binds `velocity` and
    /// the drone closes): d(allowed)/dt = −closing / √(T² + 2·(room + credit)/a), bounded by the braking.
    func brakingFeedforward(drone: PlaneVector, droneVelocity: PlaneVector, velocity: PlaneVector, person: PlaneVector,
                            personVelocity: PlaneVector, margin: Double, awayOnly: Bool = false) -> PlaneVector {
        let rel = person - drone
        let distance = rel.length
        guard distance > 1e-6 else { return .zero }
        let towards = rel / distance
        let room = distance - minSeparationMeters - margin
        guard room >= 0 else { return .zero }
        let raw = personVelocity.dot(towards)
        let u = awayOnly ? max(raw, 0) : raw
        let a = stopping.braking(windTowardsMetersPerSecond: windEstimate.dot(towards))
        let allowed = stopping.allowedApproachSpeed(roomMeters: room, pointAwaySpeedMetersPerSecond: u, braking: a,
                                                    backOffGainPerSecond: tuning.separationGainPerSecond)
        // Only while this cap is what holds the command back.
        guard velocity.dot(towards) >= allowed - 1e-6 else { return .zero }
        let closing = droneVelocity.dot(towards) - u
        guard closing > 0 else { return .zero }
        let credit = u > 0 ? stopping.personStoppingDistanceMeters(awaySpeedMetersPerSecond: u) : 0
        // A point coming closer is backed off from with what escaping counts on (`StoppingModel.allowedApproachSpeed`).
        let scale = u >= 0 ? a : min(a, stopping.droneEscapeMetersPerSecondSquared * a / stopping.droneBrakingMetersPerSecondSquared)
        let t = u >= 0 ? stopping.droneBrakingReactionSeconds : stopping.droneReactionSeconds
        let rate = closing / (t * t + 2 * (room + credit) / scale).squareRoot()
        return towards * -min(rate, scale)
    }
}

/// The constraint v·normal ≤ limit on a plane vector (normal of unit length).
package struct HalfPlane: Sendable, Hashable {
    package var normal: PlaneVector
    package var limit: Double

    /// No velocity component along `unit`: at the keep-out's edge, round the person or away only.
    package static func noMotion(along unit: PlaneVector) -> HalfPlane { HalfPlane(normal: unit, limit: 0) }

    package func contains(_ v: PlaneVector) -> Bool { v.dot(normal) <= limit + 1e-12 }

    /// The point nearest `v` with v·normal ≤ limit. Fails closed on NaN: zero, or a negative `limit`'s back-off.
    package func project(_ v: PlaneVector) -> PlaneVector {
        let excess = v.dot(normal) - limit
        if v.isFinite, excess > 0 { return v - normal * excess }
        if v.isFinite, excess <= 0 { return v }
        return limit.isFinite && limit < 0 && normal.isFinite ? normal * limit : .zero
    }

    /// The point nearest `v` satisfying both (Euclidean projection onto the intersection); always finite.
    /// Normals the same way: the tighter one. Opposite and incompatible: halfway between the boundaries.
    /// A non-finite limit fails closed: the other constraint's back-off, else zero.
    package static func project(_ v: PlaneVector, _ a: HalfPlane?, _ b: HalfPlane?) -> PlaneVector {
        guard v.isFinite else { return a?.project(v) ?? b?.project(v) ?? .zero }
        guard let a else { return b?.project(v) ?? v }
        guard let b else { return a.project(v) }
        guard a.limit.isFinite, b.limit.isFinite else { return (a.limit.isFinite ? a : b).project(.zero) }
        if a.contains(v), b.contains(v) { return v }
        let onA = a.project(v)
        if b.contains(onA) { return onA }
        let onB = b.project(v)
        if a.contains(onB) { return onB }
        // Both active: the vertex where the two boundaries meet.
        let det = a.normal.east * b.normal.north - a.normal.north * b.normal.east
        if abs(det) > Self.parallelDeterminant {
            let vertex = PlaneVector(east: (a.limit * b.normal.north - b.limit * a.normal.north) / det,
                                     north: (a.normal.east * b.limit - b.normal.east * a.limit) / det)
            if vertex.isFinite { return vertex }
        }
        guard a.normal.dot(b.normal) > 0 else {
            // Opposite demands: halfway between the boundaries, so a back-off against a far-side cap stays one.
            return a.normal * ((a.limit - b.limit) / 2)
        }
        return (a.limit <= b.limit ? a : b).project(v)
    }

    /// Below this |sin| of the angle between two normals they count as parallel.
    static let parallelDeterminant = 1e-6
}
