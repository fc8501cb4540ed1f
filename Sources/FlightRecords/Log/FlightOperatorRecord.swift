import FollowCore

/// `"kind":"operator"`: a command from the person in the field (HOLD, RESUME, LAND; `OperatorCommand`),
/// where it came from (`cli`, `watch`, `web`, …) and what the flight made of it (`accepted`, `already`,
/// `refused:<state>`). A change of follow mode (`FollowModeChange`) is command `mode` with the mode,
/// and the angle and orbit direction when given.
public struct FlightOperatorRecord: Codable, Sendable, Hashable, Configurable {
    public static let kind = "operator"
    public static var defaults: Self { Self() }
    public var t: Double?
    public var kind: String = Self.kind
    public var command: String?
    public var source: String?
    public var outcome: String?
    /// Command `mode` only: `leash`, `angle`, `orbit`.
    public var mode: String?
    /// Command `mode` only, when given: the angle from the person's direction of travel, degrees.
    public var angleDegrees: Double?
    /// Command `mode` only, when given: `clockwise`, `counterclockwise`.
    public var orbitDirection: String?

    enum CodingKeys: String, CodingKey {
        case t, kind, command, source, outcome, mode, angleDegrees = "angle_deg", orbitDirection = "orbit_direction"
    }
}
