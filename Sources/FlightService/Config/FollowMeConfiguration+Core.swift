import FollowCore

extension FollowMeConfiguration {
    /// The flight core's follow parameters for this file: `[follow]`, `onboard.mount_offset_deg` (0 when
    /// the autopilot gives the heading, ``readsOnboardReceiver``) and the
    /// target fix rate the standoff rule may count on (`Target.assumedFixRateHz`); the fields the file
    /// has no key for at the core's declared defaults. The one mapping: `config check`'s standoff rule
    /// and `followme run` (FlightService `FlightConfiguration`) both use it.
    public var followParameters: FollowParameters {
        FollowParameters {
            $0.standoffMeters = follow.standoffMeters
            $0.altitudeMeters = follow.altitudeMeters
            $0.maxTiltDegrees = follow.maxTiltDegrees
            $0.maxYawRateDegreesPerSecond = follow.maxYawRateDegreesPerSecond
            $0.maxClimbMetersPerSecond = follow.maxClimbMetersPerSecond
            // The autopilot reports the nose heading itself: no receiver mount to correct for.
            $0.mountOffsetDegrees = readsOnboardReceiver ? onboard.mountOffsetDegrees : 0
            $0.targetFixRateHz = target.assumedFixRateHz
            ($0.mode, $0.angleDegrees) = (follow.mode, follow.angleDegrees)
            ($0.orbitSpeedMetersPerSecond, $0.orbitDirection) = (follow.orbitSpeedMetersPerSecond, follow.orbitDirection)
            ($0.altitudeMode, $0.altitudeCeilingMeters) = (follow.altitudeMode, drone.altitudeMaxMeters)
            $0.altitudeFloorMeters = follow.altitudeMinMeters
            $0.yawMode = follow.yaw
        }
    }

    /// The flight core's failsafe parameters for this file's `[failsafe]`; the fields the file has no
    /// key for (`minTakeoffBatteryPercent`, `landedConfirmSeconds`) at the core's declared defaults.
    public var failsafeParameters: FailsafeParameters {
        FailsafeParameters {
            let f = failsafe
            // Staleness.
            ($0.targetTimeoutSeconds, $0.landAfterSeconds) = (f.targetTimeoutSeconds, f.landAfterSeconds)
            ($0.onboardTimeoutSeconds, $0.headingTimeoutSeconds) = (f.onboardTimeoutSeconds, f.headingTimeoutSeconds)
            ($0.navdataTimeoutSeconds, $0.maxFixLagSeconds, $0.maxEphMeters) = (f.navdataTimeoutSeconds, f.maxFixLagSeconds, f.maxEphMeters)
            // Battery (whole percent in the file).
            ($0.minBatteryPercent, $0.criticalBatteryPercent) = (Double(f.minBatteryPercent), Double(f.criticalBatteryPercent))
            $0.lowBatteryConfirmSeconds = f.lowBatteryConfirmSeconds
            // Distances.
            ($0.geofenceMeters, $0.maxTargetDistanceMeters) = (f.geofenceMeters, f.maxTargetDistanceMeters)
            ($0.minSeparationMeters, $0.gpsRelativeErrorMeters) = (f.minSeparationMeters, f.gpsRelativeErrorMeters)
            $0.takeOffOnStart = follow.takeoff == .start
            // Take-off, climb and wind.
            ($0.takeOffTimeoutSeconds, $0.climbTimeoutSeconds) = (f.takeOffTimeoutSeconds, f.climbTimeoutSeconds)
            ($0.maxWindMetersPerSecond, $0.windSaturationSeconds) = (f.maxWindMetersPerSecond, f.windSaturationSeconds)
        }
    }
}
