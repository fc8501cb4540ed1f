/// The follower's command path: tick timing, the smoothed reference, the latency prediction, yaw and
/// climb, and the vehicle model's context (docs/dynamics-and-follow.md §2.8).
extension FollowController {
    mutating func tickSeconds(now: MonotonicTime) -> Double {
        defer { lastTickAt = now }
        guard let last = lastTickAt else { return Self.nominalTickSeconds }
        return min(max(now.seconds(since: last), 0), Self.maxTickSeconds)
    }

    /// Second-order reference ẍ = ω²(p − x) + 2ω(v − ẋ), carried to `now` along its velocity first.
    mutating func smooth(_ target: PlaneState, velocity: PlaneVector, dt: Double) -> PlaneState {
        guard var position = smoothedPosition else {
            smoothedPosition = target.position
            smoothedVelocity = velocity
            return PlaneState(position: target.position, velocity: velocity)
        }
        position += smoothedVelocity * dt
        let w = tuning.targetSmoothingRadiansPerSecond
        let acceleration = (target.position - position) * (w * w) + (velocity - smoothedVelocity) * (2 * w)
        smoothedVelocity += acceleration * dt
        smoothedPosition = position
        return PlaneState(position: position, velocity: smoothedVelocity)
    }

    func initialDirection(from person: PlaneVector, to drone: PlaneVector, noseHeadingDegrees: Double) -> PlaneVector {
        let rel = drone - person
        let length = rel.length
        return length > 0.5 ? rel / length : -PlaneVector.unit(bearingDegrees: noseHeadingDegrees)
    }

    /// Counter-clockwise rotation (east = x, north = y).
    static func rotated(_ v: PlaneVector, byRadians angle: Double) -> PlaneVector {
        let c = _cos(angle), s = _sin(angle)
        return PlaneVector(east: v.east * c - v.north * s, north: v.east * s + v.north * c)
    }

    /// The drone `commandLatencySeconds` ahead under the command in force (`VehicleModel.acceleration`).
    func predictAcrossLatency(_ drone: PlaneState, noseHeadingDegrees: Double) -> PlaneState {
        let latency = tuning.commandLatencySeconds
        guard latency > 0 else { return drone }
        let acceleration = vehicle.acceleration(of: drone, noseHeadingDegrees: noseHeadingDegrees, lastMotion: lastMotion)
        return PlaneState(
            position: drone.position + drone.velocity * latency + acceleration * (0.5 * latency * latency),
            velocity: drone.velocity + acceleration * latency)
    }

    /// Yaw rate pointing the nose at the person, deg/s clockwise: proportional to the bearing error plus
    /// the bearing's own rate, within ±`maxYawRateDegreesPerSecond`; 0 within `yawDeadZoneMeters`.
    func yawRate(toPerson: PlaneVector, relativeVelocity: PlaneVector, noseHeadingDegrees: Double) -> Double {
        let distanceSquared = toPerson.dot(toPerson)
        guard distanceSquared > tuning.yawDeadZoneMeters * tuning.yawDeadZoneMeters else { return 0 }
        let error = wrappedDegrees180(toPerson.bearingDegrees - noseHeadingDegrees)
        let bearingRate = degrees(fromRadians:
            (toPerson.north * relativeVelocity.east - toPerson.east * relativeVelocity.north) / distanceSquared)
        let maxRate = parameters.maxYawRateDegreesPerSecond
        let rate = tuning.yawGainPerSecond * error + min(max(bearingRate, -maxRate), maxRate)
        return min(max(rate, -maxRate), maxRate)
    }

    /// `YawMode.travel`: whether the nose turns along the flight this tick: on from
    /// `travelDirectionMinSpeedMetersPerSecond`, off below `travelYawOffFraction` of it.
    mutating func facesTravel(speedMetersPerSecond speed: Double) -> Bool {
        guard parameters.yawMode == .travel else { return false }
        let on = tuning.travelDirectionMinSpeedMetersPerSecond
        facingTravel = speed >= on || (facingTravel && speed >= on * Self.travelYawOffFraction)
        return facingTravel
    }

    /// `YawMode.travel` turns back to the person below this fraction of its on-speed
    /// (docs/dynamics-and-follow.md §2.8).
    public static let travelYawOffFraction = 0.7

    /// `YawMode.travel`: the yaw rate turning the nose to `velocity`'s bearing, deg/s (gain and limit as for the person).
    func yawRate(along velocity: PlaneVector, noseHeadingDegrees: Double) -> Double {
        let maxRate = parameters.maxYawRateDegreesPerSecond
        let rate = tuning.yawGainPerSecond * wrappedDegrees180(velocity.bearingDegrees - noseHeadingDegrees)
        return min(max(rate, -maxRate), maxRate)
    }

    /// Climb rate towards `targetMeters`, m/s, within ±`maxClimbMetersPerSecond` (0 without a finite altitude).
    func climbRate(altitudeMeters: Double, targetMeters: Double) -> Double {
        guard altitudeMeters.isFinite, targetMeters.isFinite else { return 0 }
        let climb = tuning.altitudeGainPerSecond * (targetMeters - altitudeMeters)
        let maxClimb = parameters.maxClimbMetersPerSecond
        return min(max(climb, -maxClimb), maxClimb)
    }

    /// Records `motion` as the last commanded and, for a vehicle model that needs one, attaches its `MotionContext`.
    mutating func attachContext(
        to motion: inout MotionCommand, predicted: PlaneState, drone: PlaneVector, dt: Double, escaping: Bool,
        keepOff: (person: PlaneVector, stopPoint: PlaneVector)?, noseHeadingDegrees: Double,
        brakingFeedforward: PlaneVector = .zero
    ) {
        lastMotion = motion
        guard vehicle.closesVelocityLoop else { return }
        motion.context = MotionContext(
            predictedDrone: predicted, dronePositionPlane: drone, noseHeadingDegrees: noseHeadingDegrees,
            intervalSeconds: dt, escaping: escaping, keepOffPersonPlane: keepOff?.person,
            keepOffStopPointPlane: keepOff?.stopPoint,
            keepOffRadiusMeters: minSeparationMeters, windEstimate: windEstimate,
            brakingFeedforward: brakingFeedforward.isFinite ? brakingFeedforward : .zero)
    }
}
