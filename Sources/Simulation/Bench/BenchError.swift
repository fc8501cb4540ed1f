import FollowCore

/// Why a bench run could not start. Carries what failed, so the message says what to change.
public enum BenchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `BenchConfiguration` field outside what the bench can run.
    case invalidConfiguration(field: String, value: Double, requirement: String)
    /// FollowCore refused the follow/failsafe parameters derived from the configuration.
    case parameters(ParameterError)
    /// A recorded track has fewer than two points with distinct, increasing times.
    case trackTooShort(name: String, usablePoints: Int)
    /// A recorded track could not become a `TrackScenario`.
    case track(name: String, TrackScenarioError)

    public var description: String {
        switch self {
        case let .invalidConfiguration(field, value, requirement):
            return "bench \(field) = \(value): \(requirement)"
        case let .parameters(error):
            return "follow parameters rejected: \(error)"
        case let .trackTooShort(name, count):
            return "track \(name): \(count) usable point\(count == 1 ? "" : "s") (need at least 2 with increasing times)"
        case let .track(name, error):
            return "track \(name): \(error)"
        }
    }
}
