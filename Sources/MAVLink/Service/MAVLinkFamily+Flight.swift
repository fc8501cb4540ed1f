import FollowCore
import Links
import MAVLink

extension MAVLinkFamily: FlightFamily {
    /// `[mavlink]` as the link takes it: set-points within `follow`'s limits, take-off to `follow.altitude_m`.
    public static func linkSettings(_ config: FollowMeConfiguration, follow: FollowParameters) throws -> any DroneLinkSettings {
        try MAVLinkLinkConfiguration(config, follow: follow)
    }
}

extension MAVLinkLinkConfiguration {
    /// The `[mavlink]` table of a validated file, with set-points within `follow`'s limits.
    public init(_ config: FollowMeConfiguration, follow: FollowParameters) throws {
        let m = config.mavlink
        let autopilot: Autopilot = switch m.autopilot {
        case .ardupilot: .ardupilot
        case .px4: .px4
        }
        let positionSource: PositionSource = switch m.positionSource {
        case .autopilot: .autopilot
        case .receiver: .receiver
        }
        try self.init(
            address: m.address, port: m.port, localPort: m.localPort,
            systemID: m.systemID, componentID: m.componentID, targetSystem: m.targetSystem,
            autopilot: autopilot, positionSource: positionSource,
            setpoints: VelocitySetpointLimits(follow: follow), takeoffAltitudeMeters: follow.altitudeMeters
        )
        pointCamera = m.pointCamera
    }
}
