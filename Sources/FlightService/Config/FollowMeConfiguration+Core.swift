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
        }
    }

    /// The flight core's failsafe parameters for this file's `[failsafe]`; the fields the file has no
    /// key for (`minTakeoffBatteryPercent`, `landedConfirmSeconds`) at the core's declared defaults.
    public var failsafeParameters: FailsafeParameters {
        FailsafeParameters {
            $0.targetTimeoutSeconds = failsafe.targetTimeoutSeconds
            $0.landAfterSeconds = failsafe.landAfterSeconds
            $0.onboardTimeoutSeconds = failsafe.onboardTimeoutSeconds
            $0.headingTimeoutSeconds = failsafe.headingTimeoutSeconds
            $0.navdataTimeoutSeconds = failsafe.navdataTimeoutSeconds
            $0.minBatteryPercent = Double(failsafe.minBatteryPercent)
            $0.geofenceMeters = failsafe.geofenceMeters
            $0.maxTargetDistanceMeters = failsafe.maxTargetDistanceMeters
            $0.minSeparationMeters = failsafe.minSeparationMeters
            $0.gpsRelativeErrorMeters = failsafe.gpsRelativeErrorMeters
            $0.takeOffTimeoutSeconds = failsafe.takeOffTimeoutSeconds
            $0.climbTimeoutSeconds = failsafe.climbTimeoutSeconds
            $0.lowBatteryConfirmSeconds = failsafe.lowBatteryConfirmSeconds
            $0.criticalBatteryPercent = Double(failsafe.criticalBatteryPercent)
            $0.maxEphMeters = failsafe.maxEphMeters
            $0.maxFixLagSeconds = failsafe.maxFixLagSeconds
            $0.maxWindMetersPerSecond = failsafe.maxWindMetersPerSecond
            $0.windSaturationSeconds = failsafe.windSaturationSeconds
        }
    }
}
