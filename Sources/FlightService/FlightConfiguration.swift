import Links
import FollowCore

/// Maps the validated config file onto the parameters of each part (the one place this happens).
public struct FlightConfiguration: Sendable {
    public let follow: FollowParameters
    public let failsafe: FailsafeParameters
    /// The family's model of the vehicle (`[drone] protocol`, `[mavlink] autopilot`).
    public let vehicle: VehicleModelBuilder
    /// The drone's position and heading come from the autopilot's estimate, current on arrival (0 s),
    /// or from a receiver through gpsd (nil: `follow.assumedGPSLatencySeconds`).
    public let onboardLatencySeconds: Double?
    /// The settings of the link `[drone] protocol` names (its family's `FlightFamily.linkSettings`).
    public let link: any DroneLinkSettings
    /// The gpsd receivers to read: the target always; the onboard receiver unless the autopilot gives
    /// the drone's position (`FollowMeConfiguration.readsOnboardReceiver`).
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
            link = try config.flightFamily.linkSettings(config, follow: follow)
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
}
