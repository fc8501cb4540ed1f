import FollowCore

extension FollowMeConfiguration {
    /// The flight core's follow parameters for this file: ``follow`` (every key its rows write), with
    /// the fields other tables give: `mountOffsetDegrees` 0 when the autopilot gives the heading
    /// (``readsOnboardReceiver``), `targetFixRateHz` the rate the standoff rule may count on
    /// (`Target.assumedFixRateHz`), `altitudeCeilingMeters` from `drone.altitude_max_m`. The one
    /// mapping: `config check`'s standoff rule and `followme run` (FlightService `FlightConfiguration`)
    /// both use it.
    public var followParameters: FollowParameters {
        var parameters = follow
        // The autopilot reports the nose heading itself: no receiver mount to correct for.
        if !readsOnboardReceiver { parameters.mountOffsetDegrees = 0 }
        parameters.targetFixRateHz = target.assumedFixRateHz
        parameters.altitudeCeilingMeters = drone.altitudeMaxMeters
        return parameters
    }

    /// The flight core's failsafe parameters for this file: ``failsafe`` as its rows (`[failsafe]`,
    /// `follow.takeoff`) wrote it; the fields the file has no key for (`minTakeoffBatteryPercent`,
    /// `landedConfirmSeconds`) at the core's declared defaults.
    public var failsafeParameters: FailsafeParameters { failsafe }
}

/// The AR.Drone's units for the follow limits `followme drone` and the link write to it (`AT*CONFIG`).
extension FollowParameters {
    /// `effectiveBrakingTiltDegrees` in radians, as the AR.Drone's `control:euler_angle_max` takes it.
    package var eulerAngleMaxRadians: Double { radians(fromDegrees: effectiveBrakingTiltDegrees) }
    /// `maxYawRateDegreesPerSecond` in rad/s, as the AR.Drone's `control:control_yaw` takes it.
    package var maxYawRateRadiansPerSecond: Double { radians(fromDegrees: maxYawRateDegreesPerSecond) }
    /// `maxClimbMetersPerSecond` in mm/s, as the AR.Drone's `control:control_vz_max` takes it.
    package var maxClimbMillimetersPerSecond: Double { maxClimbMetersPerSecond * 1000 }
}
