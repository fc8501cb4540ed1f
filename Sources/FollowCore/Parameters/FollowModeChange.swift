/// The operator's change of `[follow] mode` in flight: the mode, and optionally the angle and orbit
/// direction, checked against `FollowParameters.Spec` (the initializer throws on an out-of-range or NaN
/// angle). It changes only where the standoff direction turns to (docs/dynamics-and-follow.md §2.8).
public struct FollowModeChange: Sendable, Hashable {
    /// The mode from now on.
    public let mode: FollowMode
    /// `FollowParameters.angleDegrees` from now on (nil: unchanged), −180…180.
    public let angleDegrees: Double?
    /// `FollowParameters.orbitDirection` from now on (nil: unchanged).
    public let orbitDirection: OrbitDirection?

    /// Why a change is refused before the flight sees it; `description` is the `bad-request: …` text.
    public enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        case unknownMode(String)
        case angleOutOfRange(Double)
        case unknownDirection(String)

        public var description: String {
            switch self {
            case .unknownMode(let name):
                "unknown mode \"\(name.prefix(32))\"; one of " + FollowMode.allCases.map(\.rawValue).joined(separator: ", ")
            case .angleOutOfRange(let value) where value.isNaN:
                "angle_deg must be a number in \(FollowModeChange.angleRangeText) degrees"
            case .angleOutOfRange(let value):
                "angle_deg \(value) is outside \(FollowModeChange.angleRangeText) (degrees from the person's direction of travel)"
            case .unknownDirection(let name):
                "unknown direction \"\(name.prefix(32))\"; one of " + OrbitDirection.allCases.map(\.rawValue).joined(separator: ", ")
            }
        }
    }

    /// `angle_deg`'s range as the config file states it: `FollowParameters.Spec.angleDegrees`.
    static var angleRangeText: String {
        let range = FollowParameters.Spec.angleDegrees.range
        return "\(Int(range.lowerBound))…\(Int(range.upperBound))"
    }

    /// A change to `mode`; throws for an angle outside `FollowParameters.Spec.angleDegrees` (NaN included).
    public init(mode: FollowMode, angleDegrees: Double? = nil, orbitDirection: OrbitDirection? = nil) throws(Invalid) {
        if let angleDegrees, !FollowParameters.Spec.angleDegrees.range.contains(angleDegrees) {
            throw .angleOutOfRange(angleDegrees)
        }
        (self.mode, self.angleDegrees, self.orbitDirection) = (mode, angleDegrees, orbitDirection)
    }

    /// A change from a channel's words (`leash`, `clockwise`).
    public init(modeName: String, angleDegrees: Double?, directionName: String?) throws(Invalid) {
        guard let mode = FollowMode(rawValue: modeName.lowercased()) else { throw .unknownMode(modeName) }
        var direction: OrbitDirection?
        if let directionName {
            guard let named = OrbitDirection(rawValue: directionName.lowercased()) else { throw .unknownDirection(directionName) }
            direction = named
        }
        try self.init(mode: mode, angleDegrees: angleDegrees, orbitDirection: direction)
    }

    /// `parameters` with this change made: mode, and the angle and direction where given.
    public func applied(to parameters: FollowParameters) -> FollowParameters {
        var changed = parameters
        changed.mode = mode
        if let angleDegrees { changed.angleDegrees = angleDegrees }
        if let orbitDirection { changed.orbitDirection = orbitDirection }
        return changed
    }
}

/// What an operator may ask of the running flight: a command, or a change of follow mode.
public enum OperatorRequest: Sendable, Hashable {
    case command(OperatorCommand)
    case followMode(FollowModeChange)

    /// Every word a channel takes for a request: the commands', then `mode`.
    public static var names: [String] { OperatorCommand.allCases.map(\.rawValue) + ["mode"] }

    /// The request's word on every channel and in the log: `land`, `hold`, …, `mode`.
    public var name: String {
        switch self {
        case .command(let command): command.rawValue
        case .followMode: "mode"
        }
    }
}
