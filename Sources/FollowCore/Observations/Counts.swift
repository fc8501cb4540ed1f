/// Event counters, one `Int` per case of `Kind`, each starting at 0: a value snapshot
/// (`statistics.counts[.datagramsSent] += 1`). A counter at 0 is not stored, so two values are equal
/// exactly when every counter is.
public struct Counts<Kind: CaseIterable & Hashable & Sendable>: Sendable, Hashable {
    private var values: [Kind: Int] = [:]

    public init() {}

    /// The given counters at their values, the others at 0.
    public init(_ values: [Kind: Int]) {
        for (kind, value) in values { self[kind] = value }
    }

    public subscript(kind: Kind) -> Int {
        get { values[kind, default: 0] }
        set { values[kind] = newValue == 0 ? nil : newValue }
    }

    public var total: Int { values.values.reduce(0, +) }
}

extension Counts: CustomStringConvertible {
    /// `name: value` for every counter in `Kind.allCases` order, e.g. `fixes: 3, headings: 0`.
    public var description: String {
        Kind.allCases.map { "\($0): \(self[$0])" }.joined(separator: ", ")
    }
}
