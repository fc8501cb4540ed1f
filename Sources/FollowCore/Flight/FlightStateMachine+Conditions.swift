/// What the state machine decides on: freshness of each source, the preflight prerequisites, and the
/// reasons to hold in precedence order.
extension FlightStateMachine {
    func age(_ time: MonotonicTime?, now: MonotonicTime) -> Double {
        guard let time else { return .infinity }
        return now.seconds(since: time)
    }

    func targetFresh(_ now: MonotonicTime) -> Bool {
        target.isConverged && age(target.lastUsedFixAt, now: now) <= failsafeParameters.targetTimeoutSeconds
    }

    func onboardFresh(_ now: MonotonicTime) -> Bool {
        drone.isConverged && age(drone.lastUsedFixAt, now: now) <= failsafeParameters.onboardTimeoutSeconds
    }

    func telemetryFresh(_ now: MonotonicTime) -> Bool {
        age(telemetry?.receivedAt, now: now) <= failsafeParameters.telemetryTimeoutSeconds
    }

    /// Whether heading reports have been rejected for `headingTimeoutSeconds` in a row.
    func headingRejected(_ now: MonotonicTime) -> Bool {
        guard let since = navigator.headingRejectedSince else { return false }
        return now.seconds(since: since) >= failsafeParameters.headingTimeoutSeconds
    }

    /// What is missing for a take-off. `strictHeading`: any current run of rejected heading reports counts;
    /// otherwise only one that lasted `headingTimeoutSeconds` (during take-off).
    func missingPrerequisites(now: MonotonicTime, strictHeading: Bool = true) -> Prerequisites {
        var missing: Prerequisites = []
        if !targetFresh(now) { missing.insert(.targetFix) }
        if !onboardFresh(now) { missing.insert(.onboardFix) }
        if age(navigator.lastHeadingReportAt, now: now) > failsafeParameters.headingTimeoutSeconds
            || (strictHeading ? navigator.headingRejectedSince != nil : headingRejected(now)) {
            missing.insert(.heading)
        }
        if !telemetryFresh(now) { missing.insert(.telemetry) }
        if let person = target.estimate(at: now), let drone = drone.estimate(at: now),
           (person.position - drone.position).length >= failsafeParameters.protectedRadiusMeters {
            // clear
        } else {
            missing.insert(.targetClear)
        }
        if let telemetry {
            let takeoffBattery = max(failsafeParameters.minTakeoffBatteryPercent, failsafeParameters.minBatteryPercent)
            if telemetry.batteryPercent < takeoffBattery || telemetry.batteryUnknown { missing.insert(.battery) }
            if telemetry.emergency || telemetry.flightState != .landed || telemetry.critical || telemetry.readyToArm == false {
                missing.insert(.droneReady)
            }
        } else {
            missing.insert(.battery)
            missing.insert(.droneReady)
        }
        if droneConfiguration != .done { missing.insert(.droneConfigured) }
        if wind.firmwareWarning { missing.insert(.calmWind) }
        if operatorHold { missing.insert(.operatorResume) }
        if failsafeParameters.takeOffOnStart || startRequired, !operatorStarted { missing.insert(.operatorStart) }
        if let shortest = shortestDefensibleStandoffMeters, followParameters.standoffMeters < shortest {
            missing.insert(.braking)
        }
        if followParameters.targetFixRateHz > 1,
           (targetFixIntervalSeconds ?? .infinity) > Self.targetRateTolerance / followParameters.targetFixRateHz {
            missing.insert(.targetRate)
        }
        if personAltitudeUnknown(now: now) { missing.insert(.targetAltitude) }
        return missing
    }

    func distanceFromHome(now: MonotonicTime) -> Double? {
        guard let home, let estimate = drone.estimate(at: now) else { return nil }
        return (estimate.position - home).length
    }

    /// The highest-precedence reason to hold right now, if any.
    func holdReason(now: MonotonicTime) -> HoldReason? {
        if !telemetryFresh(now) { return .telemetryLost }
        // The vehicle's own health before the follow's inputs: either lands after `landAfterSeconds`.
        if let telemetry, telemetry.critical { return .vehicleCritical }
        if let telemetry, telemetry.batteryUnknown { return .batteryUnknown }
        if !linkInControl, state != .takingOff { return .notInControl }
        if !onboardFresh(now) { return .onboardFixStale }
        if age(navigator.lastHeadingReportAt, now: now) > failsafeParameters.headingTimeoutSeconds { return .headingStale }
        if headingRejected(now) { return .headingRejected }
        if !targetFresh(now) { return .targetStale }
        if let person = target.estimate(at: now), let drone = drone.estimate(at: now) {
            let alreadyHeld = state == .holding(.targetTooFar)
            let limit = failsafeParameters.maxTargetDistanceMeters - (alreadyHeld ? Self.targetDistanceResumeMarginMeters : 0)
            if (person.position - drone.position).length > limit { return .targetTooFar }
        }
        if geofenceHolds(now: now) { return .geofence }
        if personAboveDrone(now: now) { return .personAboveDrone }
        if targetAltitudeStale(now: now) { return .targetAltitudeStale }
        if operatorHold { return .operatorHold }
        return nil
    }

    /// For an autopilot: the ground under the person has risen since take-off to within `terrainMarginMeters`
    /// of the drone's height above home, for `terrainConfirmSeconds` (docs/flight-safety-faults.md §5).
    func personAboveDrone(now: MonotonicTime) -> Bool {
        // Only while moving sideways (or already held for it): take-off and climb go straight up over home.
        guard state == .following || state == .holding(.personAboveDrone) else { return false }
        guard controller.vehicle.isAutopilot, let telemetry, let altitude = personAltitudeMeters,
              let atHome = personAltitudeAtHomeMeters else { return false }
        let clearance = telemetry.altitudeMeters - (altitude - atHome)
        let held = state == .holding(.personAboveDrone)
        let limit = Self.terrainMarginMeters + (held ? Self.terrainResumeMarginMeters : 0)
        guard clearance < limit else { return false }
        if held { return true }
        guard let since = personAboveDroneSince else { return false }
        return now.seconds(since: since) >= Self.terrainConfirmSeconds
    }

    /// Whether the home fence stops following: the drone is outside it, or the aim was pulled in. A fence
    /// hold clears once the drone is back inside and the standoff circle fits within
    /// `geofenceAimFraction` of it with `geofenceResumeMarginMeters` to spare.
    func geofenceHolds(now: MonotonicTime) -> Bool {
        guard let home else { return false }
        let fence = failsafeParameters.geofenceMeters
        let margin = Self.geofenceResumeMarginMeters
        if state == .holding(.geofence) {
            if let distance = distanceFromHome(now: now), distance > fence - margin { return true }
            guard let person = target.estimate(at: now) else { return true }
            return (person.position - home).length + followParameters.standoffMeters
                > FollowController.geofenceAimFraction * fence - margin
        }
        if let distance = distanceFromHome(now: now), distance > fence { return true }
        return state == .following && aimLimitedByGeofence
    }

    /// `.altitudeNotReached` once a climb has lasted `climbTimeoutSeconds`, and while the altitude is still off.
    func climbHoldReason(now: MonotonicTime) -> HoldReason? {
        switch state {
        case .holding(.altitudeNotReached):
            return altitudeReached() ? nil : .altitudeNotReached
        case .climbing:
            return age(climbStartedAt, now: now) >= failsafeParameters.climbTimeoutSeconds ? .altitudeNotReached : nil
        case .takingOff:
            return liftOffConfirmed && age(climbStartedAt, now: now) >= failsafeParameters.climbTimeoutSeconds
                ? .altitudeNotReached : nil
        default:
            return nil
        }
    }

    func altitudeReached() -> Bool {
        guard let telemetry else { return false }
        return abs(telemetry.altitudeMeters - followAltitudeMeters()) <= followParameters.altitudeToleranceMeters
    }
}
