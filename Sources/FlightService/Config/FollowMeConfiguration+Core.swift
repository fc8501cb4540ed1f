import FollowCore

extension FollowMeConfiguration {
    /// The flight core's follow parameters for this file: `[follow]`, `onboard.mount_offset_deg` (0 when
    /// the autopilot gives the heading, ``readsOnboardReceiver``) and the
    /// target fix rate the standoff rule may count on (`Target.assumedFixRateHz`); the fields the file
    /// has no key for at the core's declared defaults. The one mapping: `config check`'s standoff rule
    /// and `followme run` (FlightService `FlightConfiguration`) both use it.
    public var followParameters: FollowParameters {
        FollowParameters(
            standoffMeters: follow.standoffMeters,
            altitudeMeters: follow.altitudeMeters,
            maxTiltDegrees: follow.maxTiltDegrees,
            maxYawRateDegreesPerSecond: follow.maxYawRateDegreesPerSecond,
            maxClimbMetersPerSecond: follow.maxClimbMetersPerSecond,
            // The autopilot reports the nose heading itself: no receiver mount to correct for.
            mountOffsetDegrees: readsOnboardReceiver ? onboard.mountOffsetDegrees : 0,
            targetFixRateHz: target.assumedFixRateHz
        )
    }

    /// The flight core's failsafe parameters for this file's `[failsafe]`; the fields the file has no
    /// key for (`minTakeoffBatteryPercent`, `landedConfirmSeconds`) at the core's declared defaults.
    public var failsafeParameters: FailsafeParameters {
        FailsafeParameters(
            targetTimeoutSeconds: failsafe.targetTimeoutSeconds,
            landAfterSeconds: failsafe.landAfterSeconds,
            onboardTimeoutSeconds: failsafe.onboardTimeoutSeconds,
            headingTimeoutSeconds: failsafe.headingTimeoutSeconds,
            navdataTimeoutSeconds: failsafe.navdataTimeoutSeconds,
            minBatteryPercent: Double(failsafe.minBatteryPercent),
            geofenceMeters: failsafe.geofenceMeters,
            maxTargetDistanceMeters: failsafe.maxTargetDistanceMeters,
            minSeparationMeters: failsafe.minSeparationMeters,
            gpsRelativeErrorMeters: failsafe.gpsRelativeErrorMeters,
            takeOffTimeoutSeconds: failsafe.takeOffTimeoutSeconds,
            climbTimeoutSeconds: failsafe.climbTimeoutSeconds,
            lowBatteryConfirmSeconds: failsafe.lowBatteryConfirmSeconds,
            criticalBatteryPercent: Double(failsafe.criticalBatteryPercent),
            maxEphMeters: failsafe.maxEphMeters,
            maxFixLagSeconds: failsafe.maxFixLagSeconds,
            maxWindMetersPerSecond: failsafe.maxWindMetersPerSecond,
            windSaturationSeconds: failsafe.windSaturationSeconds
        )
    }
}
