/// Why a parameter set was refused. Carries the parameter's name, the offending value and what
/// would have been accepted, so the message can say what to change.
public enum ParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value outside its documented range (or not finite).
    case outOfRange(parameter: String, value: Double, allowed: ClosedRange<Double>)
    /// Two values that are each in range but contradict each other.
    case inconsistent(parameter: String, value: Double, requirement: String)

    public var description: String {
        switch self {
        case let .outOfRange(parameter, value, allowed):
            return "\(parameter) = \(value) is outside \(allowed.lowerBound)…\(allowed.upperBound)"
        case let .inconsistent(parameter, value, requirement):
            return "\(parameter) = \(value): \(requirement)"
        }
    }

    /// Throws `.outOfRange` unless `value` is finite and inside `allowed`.
    static func check(_ parameter: String, _ value: Double, in allowed: ClosedRange<Double>) throws(ParameterError) {
        guard value.isFinite, allowed.contains(value) else {
            throw .outOfRange(parameter: parameter, value: value, allowed: allowed)
        }
    }
}
