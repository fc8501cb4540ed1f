/// The motion for each airborne state: climbing over the take-off point, holding at the hold point,
/// and following through `FollowController`.
extension FlightStateMachine {
    /// Climb holding the take-off point.
    mutating func climbCommand(now: MonotonicTime) -> ControlOutput? {
        guard let telemetry, let droneState = drone.estimate(at: now),
              let nose = navigator.noseHeadingDegrees(now: now) else { return nil }
        let command = controller.station(target: target.estimate(at: now), targetLastFix: target.lastFixPosition, targetLastFixVelocity: target.lastFixVelocity,
                                         holdPoint: home, drone: droneState,
                                         noseHeadingDegrees: nose, altitudeMeters: telemetry.altitudeMeters,
                                         holdAltitudeMeters: followAltitudeMeters(), climbing: true, now: now)
        return command.isValid ? command : nil
    }

    /// While holding: hold a point (inside the fence, off the person) when the drone knows where it is and
    /// which way it points; otherwise nil, the firmware's own hover (docs/flight-safety-faults.md §5).
    mutating func holdCommand(reason: HoldReason, now: MonotonicTime) -> ControlOutput? {
        switch reason {
        case .telemetryLost, .onboardFixStale, .headingStale, .headingRejected, .notInControl:
            return nil
        case .targetStale, .geofence, .targetTooFar, .altitudeNotReached, .personAboveDrone, .batteryUnknown, .vehicleCritical,
             .operatorHold, .targetAltitudeStale:
            break
        }
        guard let telemetry, telemetryFresh(now), onboardFresh(now), let droneState = drone.estimate(at: now),
              let nose = navigator.noseHeadingDegrees(now: now) else { return nil }
        // Hold where the drone comes to rest braking gently, not where it was.
        let speed = droneState.velocity.length
        var point = holdPoint ?? droneState.position
            + droneState.velocity * (speed / (2 * controller.tuning.brakingAccelerationMetersPerSecondSquared))
        if let home {
            point = FollowController.insideFence(
                point, home: home, radius: FollowController.geofenceAimFraction * failsafeParameters.geofenceMeters)
        }
        holdPoint = point
        let altitude = reason == .altitudeNotReached ? telemetry.altitudeMeters : followAltitudeMeters()
        let command = controller.station(target: target.estimate(at: now), targetLastFix: target.lastFixPosition, targetLastFixVelocity: target.lastFixVelocity,
                                         holdPoint: point, drone: droneState, noseHeadingDegrees: nose,
                                         altitudeMeters: telemetry.altitudeMeters, holdAltitudeMeters: altitude, now: now)
        return command.isValid ? command : nil
    }

    /// The person's estimated position at `now` on the Earth, if known (`LinkCommand.lookAt`).
    public func personCoordinate(now: MonotonicTime) -> GeoCoordinate? {
        guard let person = target.estimate(at: now) else { return nil }
        return navigator.plane?.unproject(person.position)
    }

    mutating func followCommand(now: MonotonicTime) -> FollowOutput? {
        guard let telemetry, let droneState = drone.estimate(at: now), let person = target.estimate(at: now),
              let nose = navigator.noseHeadingDegrees(now: now) else { return nil }
        let uncertainty = ((target.filter?.positionVariance ?? 0) + (drone.filter?.positionVariance ?? 0)).squareRoot()
        let output = controller.follow(target: person, targetLastFix: target.lastFixPosition, targetLastFixVelocity: target.lastFixVelocity,
                                       separationUncertaintyMeters: uncertainty,
                                       motion: target.motion, drone: droneState,
                                       noseHeadingDegrees: nose, altitudeMeters: telemetry.altitudeMeters,
                                       targetAltitudeMeters: followAltitudeMeters(), home: home, now: now)
        aimLimitedByGeofence = output.aimLimitedByGeofence
        return output.motion.isValid ? output : nil
    }
}
