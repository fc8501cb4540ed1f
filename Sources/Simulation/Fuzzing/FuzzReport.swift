/// What a fuzz run observed: how many inputs decoded, and how many were rejected, by error kind.
///
/// A crash (trap) cannot be counted; it ends the process, which is the failure a fuzz run looks
/// for. `roundTripMismatchCount` counts decoded inputs that did not re-encode to the same bytes
/// (every codec here is byte-exact, so it must be 0).
public struct FuzzReport<Kind: Hashable & Sendable>: Sendable, Equatable {
    /// Inputs tried.
    public var iterations = 0
    /// Inputs that decoded without error.
    public var decodedCount = 0
    /// Rejected inputs per error kind.
    public var rejectedCountsByKind: [Kind: Int] = [:]
    /// Decoded inputs whose re-encoding differed from the input.
    public var roundTripMismatchCount = 0
    /// The first such input, for reproduction.
    public var firstRoundTripMismatch: [UInt8]?

    /// Total rejected inputs.
    public var rejectedCount: Int { rejectedCountsByKind.values.reduce(0, +) }

    mutating func recordRejection(_ kind: Kind) {
        rejectedCountsByKind[kind, default: 0] += 1
    }

    mutating func recordDecoded(input: [UInt8], reencoded: [UInt8]?) {
        decodedCount += 1
        if reencoded != input {
            roundTripMismatchCount += 1
            if firstRoundTripMismatch == nil { firstRoundTripMismatch = input }
        }
    }
}

extension FuzzReport: CustomStringConvertible where Kind: RawRepresentable & CaseIterable, Kind.RawValue == String {
    /// Multi-line summary: totals, then one line per error kind (zeros included).
    public var description: String {
        var lines = [
            "iterations: \(iterations)",
            "decoded: \(decodedCount)",
            "rejected: \(rejectedCount)",
            "round-trip mismatches: \(roundTripMismatchCount)",
        ]
        for kind in Kind.allCases {
            lines.append("  \(kind.rawValue): \(rejectedCountsByKind[kind, default: 0])")
        }
        return lines.joined(separator: "\n")
    }
}
