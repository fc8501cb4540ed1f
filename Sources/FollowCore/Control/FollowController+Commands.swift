/// The follower's command path: tick timing, the smoothed reference, the wind observer, the
/// latency prediction, yaw and climb, and the context the AR.Drone link's `TiltLoop` needs
/// (the model: docs/dynamics-and-follow.md §1.2, docs/stopping-model.md §5).
extension FollowController {
    mutating func tickSeconds(now: MonotonicTime) -> Double {
        defer { lastTickAt = now }
        guard let last = lastTickAt else { return Self.nominalTickSeconds }
        return min(max(now.seconds(since: last), 0), Self.maxTickSeconds)
    }

    /// Second-order reference ẍ = ω²(p − x) + 2ω(v − ẋ): first carried to `now` along its
    /// velocity, then pulled towards the estimate for `now` (so a steady walk has no offset).
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
        // Too close to tell: the person is presumably ahead of the nose, so "behind the nose".
        return length > 0.5 ? rel / length : -PlaneVector.unit(bearingDegrees: noseHeadingDegrees)
    }

    /// Counter-clockwise rotation (east = x, north = y).
    static func rotated(_ v: PlaneVector, byRadians angle: Double) -> PlaneVector {
        let c = _cos(angle), s = _sin(angle)
        return PlaneVector(east: v.east * c - v.north * s, north: v.east * s + v.north * c)
    }

    /// The drone `commandLatencySeconds` ahead under the last command: through the tilt model from
    /// the tilt the link last commanded (AR.Drone, `CommandedTilt`), or a first-order response to the
    /// last velocity (an autopilot).
    func predictAcrossLatency(_ drone: PlaneState, noseHeadingDegrees: Double) -> PlaneState {
        let latency = tuning.commandLatencySeconds
        guard latency > 0 else { return drone }
        let acceleration: PlaneVector
        switch vehicle {
        case .tiltLoop:
            let tilt = commandedTilt.worldSinTilt(noseHeadingDegrees: noseHeadingDegrees)
            acceleration = (tilt * tuning.tiltSpeedMetersPerSecond - drone.velocity + windEstimate) * tuning.dragRatePerSecond
        case .velocityLoop(let autopilot):
            acceleration = ((lastMotion.velocity - drone.velocity) / autopilot.responseTimeConstantSeconds)
                .clamped(toLength: autopilot.maxAccelerationMetersPerSecondSquared)
        }
        return PlaneState(
            position: drone.position + drone.velocity * latency + acceleration * (0.5 * latency * latency),
            velocity: drone.velocity + acceleration * latency)
    }

    /// The wind observers (`WindObserver`), once per tick before the command, with the tilt last
    /// commanded. The velocity loop's runs at ω = `omega` (`windObserverRadiansPerSecond`, faster
    /// while climbing; 0 turns it off), so it holds the commanded velocity without a standing error,
    /// bounded by what full tilt can cancel. The failsafe's runs at `failsafeWindObserverRadiansPerSecond`,
    /// bounded only by `failsafeWindLimitFactor` × that, so a wind beyond the tilt shows as such.
    mutating func observeWind(_ drone: PlaneState, noseHeadingDegrees: Double, dt: Double, omega: Double) {
        // An autopilot holds its own velocity against the wind; the tilt model says nothing about it.
        guard vehicle == .tiltLoop else { return }
        let thrust = commandedTilt.worldSinTilt(noseHeadingDegrees: noseHeadingDegrees) * tuning.tiltSpeedMetersPerSecond
        let authority = tuning.tiltSpeedMetersPerSecond * sinMaxTilt
        if tuning.windObserverRadiansPerSecond > 0 {
            windObserver.update(measured: drone.velocity, thrust: thrust, dragRatePerSecond: tuning.dragRatePerSecond,
                                omega: omega, dt: dt, limit: authority)
        }
        fastWindObserver.update(measured: drone.velocity, thrust: thrust, dragRatePerSecond: tuning.dragRatePerSecond,
                                omega: tuning.failsafeWindObserverRadiansPerSecond, dt: dt,
                                limit: tuning.failsafeWindLimitFactor * authority)
    }

    /// Yaw rate pointing the nose at the person, degrees per second clockwise: proportional to the
    /// bearing error plus the bearing's own rate, within ±`maxYawRateDegreesPerSecond`.
    func yawRate(toPerson: PlaneVector, relativeVelocity: PlaneVector, noseHeadingDegrees: Double) -> Double {
        let distanceSquared = toPerson.dot(toPerson)
        guard distanceSquared > tuning.yawDeadZoneMeters * tuning.yawDeadZoneMeters else { return 0 }
        let error = wrappedDegrees180(toPerson.bearingDegrees - noseHeadingDegrees)
        // d/dt atan2(east, north) = (north·ė − east·ṅ)/r², clockwise positive like the bearing.
        let bearingRate = degrees(fromRadians:
            (toPerson.north * relativeVelocity.east - toPerson.east * relativeVelocity.north) / distanceSquared)
        let maxRate = parameters.maxYawRateDegreesPerSecond
        let rate = tuning.yawGainPerSecond * error + min(max(bearingRate, -maxRate), maxRate)
        return min(max(rate, -maxRate), maxRate)
    }

    /// `YawMode.travel`: whether the nose turns along the flight this tick. On at
    /// `ControllerTuning.travelDirectionMinSpeedMetersPerSecond` or faster, off again only below
    /// `travelYawOffFraction` of it (0.5 and 0.35 m/s by default): a drone or walker at about that speed
    /// must not flip the nose between the flight and the person every tick.
    mutating func facesTravel(speedMetersPerSecond speed: Double) -> Bool {
        guard parameters.yawMode == .travel else { return false }
        let on = tuning.travelDirectionMinSpeedMetersPerSecond
        facingTravel = speed >= on || (facingTravel && speed >= on * Self.travelYawOffFraction)
        return facingTravel
    }

    /// `YawMode.travel` turns back to the person below this fraction of the speed that turned it along the
    /// flight (our choice: 0.35 m/s at the default 0.5; the 0.15 m/s between them is 3× a u-blox receiver's 0.05 m/s
    /// velocity noise, docs/dynamics-and-follow.md §3.2).
    public static let travelYawOffFraction = 0.7

    /// `YawMode.travel`: the yaw rate turning the nose to `velocity`'s bearing, deg/s (same gain and
    /// limit as facing the person).
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

    /// The vehicle's terms for `motion`: for the AR.Drone (`VehicleDynamics.tiltLoop`) the context its
    /// link's tilt loop needs (`MotionContext`) attached to `motion`; nothing for an autopilot, which
    /// flies `motion` itself.
    mutating func attachContext(
        to motion: inout MotionCommand, predicted: PlaneState, drone: PlaneVector, dt: Double, escaping: Bool,
        keepOff: (person: PlaneVector, stopPoint: PlaneVector)?, noseHeadingDegrees: Double
    ) {
        lastMotion = motion
        guard vehicle == .tiltLoop else { return }
        motion.context = MotionContext(
            predictedDrone: predicted, dronePositionPlane: drone, noseHeadingDegrees: noseHeadingDegrees,
            intervalSeconds: dt, escaping: escaping, keepOffPersonPlane: keepOff?.person,
            keepOffStopPointPlane: keepOff?.stopPoint,
            keepOffRadiusMeters: minSeparationMeters, windEstimate: windEstimate)
    }
}
