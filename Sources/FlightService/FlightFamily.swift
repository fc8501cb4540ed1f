import FollowCore
import Links

/// A drone family as `followme run` flies it: the core's model (`DroneFamily`) and its link's
/// settings from the validated file. Each family conforms in its folder's `Service/` part; the
/// registry is `DroneFamilyRegistry.shipped` (docs/architecture.md §4).
public protocol FlightFamily: DroneFamily {
    /// The link's settings from the validated file; `follow` bounds what the link may command.
    /// Throws when the file's values are out of the link's own ranges.
    static func linkSettings(_ config: FollowMeConfiguration, follow: FollowParameters) throws -> any DroneLinkSettings
}

extension FollowMeConfiguration {
    /// The family `[drone] protocol` names (every value the file accepts is registered).
    var flightFamily: any FlightFamily.Type {
        guard let family = DroneFamilyRegistry.shipped.family(named: drone.linkProtocol.rawValue) as? any FlightFamily.Type else {
            preconditionFailure("[drone] protocol \(drone.linkProtocol.rawValue) names no registered flight family")
        }
        return family
    }
}
