import Links
import FollowCore

/// Maps the validated config file onto the parameters of each part (the one place this happens).
public struct FlightConfiguration: Sendable {
    public let follow: FollowParameters
    public let failsafe: FailsafeParameters
    /// The family's model of the vehicle (`[drone] protocol`, `[mavlink] autopilot`).
    public let vehicle: VehicleModelBuilder
    /// The drone's position and heading come from the autopilot's estimate, current on arrival (0 s),
    /// or from a receiver through gpsd (nil: its fixes' own `GPSFix.age`, else `follow.assumedOnboardGPSLatencySeconds`).
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
        let (target, onboard) = config.receiverSubscriptions
        subscriptions = config.readsOnboardReceiver ? [target, onboard] : [target]
    }
}

extension FollowMeConfiguration {
    /// The two receivers as the gpsd client reads them: `[target]` and `[onboard]` (each defaulting to
    /// `[gpsd]`), with their rate request and how their fixes are aged (`latency_s`, `latency_source`).
    public var receiverSubscriptions: (target: ReceiverSubscription, onboard: ReceiverSubscription) {
        (ReceiverSubscription(role: .target, endpoint: GPSDAddress(host: target.host, port: target.port),
                              device: target.device, rate: RateRequest(target.rate),
                              latencySource: target.latencySource, latencySeconds: follow.assumedGPSLatencySeconds),
         ReceiverSubscription(role: .onboard, endpoint: GPSDAddress(host: onboard.host, port: onboard.port),
                              device: onboard.device, rate: RateRequest(onboard.rate), expectsHeading: readsOnboardReceiver,
                              latencySource: onboard.latencySource, latencySeconds: follow.assumedOnboardGPSLatencySeconds))
    }
}
