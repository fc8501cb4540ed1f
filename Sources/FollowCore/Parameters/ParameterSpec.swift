/// One tunable's unit, accepted range and default, declared once.
///
/// Every reader takes them from here: the parameter type's init defaults and `validate()`, the
/// config parser's range checks and its `FILE:LINE: KEY` messages, `followme config check`'s
/// rendered file, `FollowMeConfiguration.defaults`, and a test that the shipped `etc/followme.toml`
/// comments state the same default and range. The *why* of each value is documented on its entry
/// (`FollowParameters.Spec`, `FailsafeParameters.Spec`).
public struct ParameterSpec: Sendable, Hashable {
    /// The field's name in the core type, as `ParameterError` messages name it.
    public let name: String
    /// The unit as a person reads it, as `followme config check` prints it ("m", "s", "degrees/s", "%").
    public let unit: String
    /// The accepted values, inclusive. A non-finite value is never accepted.
    public let range: ClosedRange<Double>
    /// The value when none is given.
    public let defaultValue: Double

    public init(_ name: String, unit: String, range: ClosedRange<Double>, default defaultValue: Double) {
        precondition(range.contains(defaultValue), "\(name): default \(defaultValue) outside \(range)")
        self.name = name
        self.unit = unit
        self.range = range
        self.defaultValue = defaultValue
    }

    /// Throws `.outOfRange` unless `value` is finite and inside `range`.
    public func check(_ value: Double) throws(ParameterError) {
        try ParameterError.check(name, value, in: range)
    }

    /// `range` for a field kept as a whole number (battery percentages in the config file).
    public var integerRange: ClosedRange<Int> { Int(range.lowerBound.rounded(.up))...Int(range.upperBound.rounded(.down)) }

    /// `defaultValue` for a field kept as a whole number.
    public var integerDefault: Int { Int(defaultValue) }
}
