import FollowCore

/// `"kind":"operator"`: a command from the person in the field (HOLD, RESUME, LAND; `OperatorCommand`),
/// where it came from (`cli`, `watch`, `web`, …) and what the flight made of it (`accepted`, `already`,
/// `refused:<state>`).
public struct FlightOperatorRecord: Codable, Sendable, Hashable, Configurable {
    public static let kind = "operator"
    public static var defaults: Self { Self() }
    public var t: Double?
    public var kind: String = Self.kind
    public var command: String?
    public var source: String?
    public var outcome: String?
}
