import DroneLink
import FollowCore
import FollowMeConfig
import GPSClient

/// Maps the validated config file onto the parameters of each part (the one place this happens).
public struct FlightConfiguration: Sendable {
    public let follow: FollowParameters
    public let failsafe: FailsafeParameters
    public let link: DroneLinkConfiguration
    public let subscriptions: [ReceiverSubscription]

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
        // The one config → core mapping (FollowMeConfig), which `config check` uses for the standoff rule.
        follow = config.followParameters
        failsafe = config.failsafeParameters
        do {
            // Every range and the core's own cross-field rules (the standoff rule), as `run` builds it.
            _ = try FlightStateMachine(follow: follow, failsafe: failsafe)
        } catch {
            throw .core("\(error)")
        }
        do {
            let limits = try FlightLimits(
                outdoor: config.drone.outdoor,
                eulerAngleMaxRadians: config.follow.maxTiltDegrees * .pi / 180,
                controlVzMaxMillimetersPerSecond: config.follow.maxClimbMetersPerSecond * 1000,
                controlYawRadiansPerSecond: config.follow.maxYawRateDegreesPerSecond * .pi / 180,
                altitudeMaxMillimeters: config.drone.altitudeMaxMillimeters
            )
            link = try DroneLinkConfiguration(
                address: config.drone.address, atPort: config.drone.atPort,
                navdataPort: config.drone.navdataPort, limits: limits
            )
        } catch {
            throw .link("\(error)")
        }
        subscriptions = [
            ReceiverSubscription(role: .target, endpoint: GPSDAddress(host: config.target.host, port: config.target.port),
                                 device: config.target.device, rate: RateRequest(config.target.rate)),
            ReceiverSubscription(role: .onboard,
                                 endpoint: GPSDAddress(host: config.onboard.host, port: config.onboard.port),
                                 device: config.onboard.device, rate: RateRequest(config.onboard.rate)),
        ]
    }
}
