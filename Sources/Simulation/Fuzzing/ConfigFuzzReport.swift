import FlightService

/// What a config fuzz run observed.
///
/// A crash cannot be counted: it ends the process. `invariantViolationCount` counts rejections whose
/// problems broke the contract of `parse` (no key, wrong path, a line outside the document, …) and
/// `roundTripMismatchCount` accepted documents whose rendering did not parse back equal; both must be 0.
public struct ConfigFuzzReport: Sendable, Equatable, CustomStringConvertible {
    /// A broken contract: why, and the input that showed it.
    public struct Violation: Sendable, Equatable {
        public var reason: String
        public var input: String
    }

    /// Inputs tried.
    public var iterations = 0
    /// Inputs that parsed into a configuration.
    public var acceptedCount = 0
    /// Inputs rejected with `ConfigProblems`.
    public var rejectedCount = 0
    /// Problems reported, by kind (a rejected input can report several).
    public var problemCountsByKind: [ConfigProblemKind: Int] = [:]
    /// Rejections whose problems broke the contract of `parse`.
    public var invariantViolationCount = 0
    /// The first such rejection, for reproduction.
    public var firstInvariantViolation: Violation?
    /// Accepted inputs whose rendering did not parse back to an equal configuration.
    public var roundTripMismatchCount = 0
    /// The first such input.
    public var firstRoundTripMismatch: String?

    /// Multi-line summary: totals, then one line per problem kind (zeros included).
    public var description: String {
        var lines = [
            "iterations: \(iterations)",
            "accepted: \(acceptedCount)",
            "rejected: \(rejectedCount)",
            "invariant violations: \(invariantViolationCount)",
            "round-trip mismatches: \(roundTripMismatchCount)",
            "problems by kind:",
        ]
        for kind in ConfigProblemKind.allCases {
            lines.append("  \(kind.rawValue): \(problemCountsByKind[kind, default: 0])")
        }
        if let violation = firstInvariantViolation {
            lines.append("first invariant violation: \(violation.reason)")
            lines.append("  input: \(renderTOMLString(violation.input))")
        }
        if let input = firstRoundTripMismatch {
            lines.append("first round-trip mismatch input: \(renderTOMLString(input))")
        }
        return lines.joined(separator: "\n")
    }
}

/// The case of a ``ConfigError``, for counting.
public enum ConfigProblemKind: String, Sendable, Hashable, CaseIterable {
    case fileNotFound = "file-not-found"
    case unreadable
    case syntax
    case unknownTable = "unknown-table"
    case unknownKey = "unknown-key"
    case wrongType = "wrong-type"
    case outOfRange = "out-of-range"
    case invalid

    public init(_ problem: ConfigError) {
        switch problem {
        case .fileNotFound: self = .fileNotFound
        case .unreadable: self = .unreadable
        case .syntax: self = .syntax
        case .unknownTable: self = .unknownTable
        case .unknownKey: self = .unknownKey
        case .wrongType: self = .wrongType
        case .outOfRange: self = .outOfRange
        case .invalid: self = .invalid
        }
    }
}
