import ARDrone
import FollowCore
import Links

extension ARDroneFamily: FlightFamily {
    /// `[drone]`'s address and ports; the flight limits written with `AT*CONFIG` from `[follow]`'s braking tilt,
    /// climb and yaw rate and `[drone] altitude_max_m` (docs/ardrone-protocol.md §2.3).
    public static func linkSettings(_ config: FollowMeConfiguration, follow: FollowParameters) throws -> any DroneLinkSettings {
        let limits = try FlightLimits(
            outdoor: config.drone.outdoor,
            eulerAngleMaxRadians: radians(fromDegrees: follow.effectiveBrakingTiltDegrees),
            controlVzMaxMillimetersPerSecond: follow.maxClimbMetersPerSecond * 1000,
            controlYawRadiansPerSecond: follow.maxYawRateDegreesPerSecond * .pi / 180,
            altitudeMaxMillimeters: config.drone.altitudeMaxMillimeters
        )
        return try DroneLinkConfiguration(
            address: config.drone.address, atPort: config.drone.atPort, navdataPort: config.drone.navdataPort, limits: limits)
    }
}
