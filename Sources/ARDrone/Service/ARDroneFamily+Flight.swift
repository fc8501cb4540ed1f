import ARDrone
import FollowCore
import Links

extension ARDroneFamily: FlightFamily {
    /// `[drone]`'s address and ports; the flight limits written with `AT*CONFIG` from `[follow]`'s braking tilt,
    /// climb and yaw rate and `[drone] altitude_max_m` (docs/ardrone-protocol.md §2.3). With
    /// `[video] record`, the video stream's writes too, and a recorder beside the link (docs/video.md §3).
    public static func linkSettings(_ config: FollowMeConfiguration, follow: FollowParameters) throws -> any DroneLinkSettings {
        let limits = try FlightLimits(
            outdoor: config.drone.outdoor,
            eulerAngleMaxRadians: radians(fromDegrees: follow.effectiveBrakingTiltDegrees),
            controlVzMaxMillimetersPerSecond: follow.maxClimbMetersPerSecond * 1000,
            controlYawRadiansPerSecond: follow.maxYawRateDegreesPerSecond * .pi / 180,
            altitudeMaxMillimeters: config.drone.altitudeMaxMillimeters
        )
        guard config.video.record else {
            return try DroneLinkConfiguration(
                address: config.drone.address, atPort: config.drone.atPort, navdataPort: config.drone.navdataPort, limits: limits)
        }
        let video = videoRecorderSettings(config)
        let link = try DroneLinkConfiguration(
            address: config.drone.address, atPort: config.drone.atPort, navdataPort: config.drone.navdataPort, limits: limits,
            videoWrites: video.stream.configurationWrites)
        return ARDroneRecordingSettings(link: link, video: video)
    }

    /// The recorder's settings from `[video]` and `[drone] address`.
    public static func videoRecorderSettings(_ config: FollowMeConfiguration) -> VideoRecorderSettings {
        var video = VideoRecorderSettings()
        video.host = config.drone.address
        video.stream = config.video.stream == .sd360 ? .sd360 : .hd720
        video.port = config.video.port == 0 ? video.stream.defaultPort : config.video.port
        video.directory = config.video.effectiveDirectory(log: config.log)
        video.maxTotalBytes = Int64(config.video.maxTotalMegabytes) * 1_000_000
        video.minFreeBytes = Int64(config.video.minFreeMegabytes) * 1_000_000
        return video
    }
}
