import Links
import FollowCore
import MAVLink

/// Maps the validated config file onto the parameters of each part (the one place this happens).
public struct FlightConfiguration: Sendable {
    public let follow: FollowParameters
    public let failsafe: FailsafeParameters
    /// The family's model of the vehicle (`[drone] protocol`, `[mavlink] autopilot`).
    public let vehicle: VehicleModelBuilder
    /// The drone's position and heading come from the autopilot's estimate, current on arrival (0 s),
    /// or from a receiver through gpsd (nil: `follow.assumedGPSLatencySeconds`).
    public let onboardLatencySeconds: Double?
    /// The drone link `[drone] protocol` names, with its settings.
    public let link: LinkSettings
    /// The gpsd receivers to read: the target always; the onboard receiver unless the autopilot gives
    /// the drone's position (`FollowMeConfiguration.readsOnboardReceiver`).
    public let subscriptions: [ReceiverSubscription]

    /// Which drone link flies, and how it is set up.
    public enum LinkSettings: Sendable {
        /// A Parrot AR.Drone 2.0 (`DroneLink`).
        case ardrone(DroneLinkConfiguration)
        /// A PX4 or ArduPilot multicopter over MAVLink (`MAVLinkLink`).
        case mavlink(MAVLinkLinkConfiguration)
    }

    public enum MappingError: Error, CustomStringConvertible {
        case core(String)
        case link(String)
        public var description: String {
            switch self {
            case .core(let s): return "follow parameters rejected: \(s)"
            case .link(let s): return "drone link parameters rejected: \(s)"
            }
        }
    }

    public init(_ config: FollowMeConfiguration) throws(MappingError) {
        // The one config → core mapping (FollowMeConfig), which `config check` uses for the standoff rule;
        // with the autopilot's own heading it carries no receiver mount offset (0).
        follow = config.followParameters
        failsafe = config.failsafeParameters
        vehicle = config.vehicleModel
        onboardLatencySeconds = config.readsOnboardReceiver ? nil : 0
        do {
            // Every range and the core's own cross-field rules (the standoff rule), as `run` builds it.
            _ = try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: vehicle,
                                       onboardLatencySeconds: onboardLatencySeconds)
        } catch {
            throw .core("\(error)")
        }
        do {
            switch config.drone.linkProtocol {
            case .ardrone: link = .ardrone(try Self.droneLink(config))
            case .mavlink: link = .mavlink(try Self.mavlinkLink(config, follow: follow))
            }
        } catch {
            throw .link("\(error)")
        }
        let target = ReceiverSubscription(
            role: .target, endpoint: GPSDAddress(host: config.target.host, port: config.target.port),
            device: config.target.device, rate: RateRequest(config.target.rate))
        let onboard = ReceiverSubscription(
            role: .onboard, endpoint: GPSDAddress(host: config.onboard.host, port: config.onboard.port),
            device: config.onboard.device, rate: RateRequest(config.onboard.rate))
        subscriptions = config.readsOnboardReceiver ? [target, onboard] : [target]
    }

    private static func droneLink(_ config: FollowMeConfiguration) throws -> DroneLinkConfiguration {
        let limits = try FlightLimits(
            outdoor: config.drone.outdoor,
            eulerAngleMaxRadians: config.follow.maxTiltDegrees * .pi / 180,
            controlVzMaxMillimetersPerSecond: config.follow.maxClimbMetersPerSecond * 1000,
            controlYawRadiansPerSecond: config.follow.maxYawRateDegreesPerSecond * .pi / 180,
            altitudeMaxMillimeters: config.drone.altitudeMaxMillimeters
        )
        return try DroneLinkConfiguration(
            address: config.drone.address, atPort: config.drone.atPort,
            navdataPort: config.drone.navdataPort, limits: limits
        )
    }

    /// `[mavlink]` as the link takes it; set-points within these follow limits, take-off to `follow.altitude_m`.
    private static func mavlinkLink(_ config: FollowMeConfiguration, follow: FollowParameters) throws
        -> MAVLinkLinkConfiguration {
        let m = config.mavlink
        let autopilot: MAVLinkLinkConfiguration.Autopilot = switch m.autopilot {
        case .ardupilot: .ardupilot
        case .px4: .px4
        }
        let positionSource: MAVLinkLinkConfiguration.PositionSource = switch m.positionSource {
        case .autopilot: .autopilot
        case .receiver: .receiver
        }
        var link = try MAVLinkLinkConfiguration(
            address: m.address, port: m.port, localPort: m.localPort,
            systemID: m.systemID, componentID: m.componentID, targetSystem: m.targetSystem,
            autopilot: autopilot, positionSource: positionSource,
            setpoints: VelocitySetpointLimits(follow: follow), takeoffAltitudeMeters: follow.altitudeMeters
        )
        link.pointCamera = m.pointCamera
        return link
    }
}
