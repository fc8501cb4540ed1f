/// One tunable's unit, accepted range and default, declared once: the type's init defaults,
/// `validate()` and the config keys (`ConfigKeys`, docs/config-keys.md, the shipped file's comments)
/// read it. Why each value: docs/configuration.md §3.
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

/// One numeric field of a parameter type with its spec: a row of the type's `parameterFields`.
public struct ParameterField<Root>: Sendable {
    /// The field's unit, range and default.
    public let spec: ParameterSpec
    /// The field (`KeyPath<Root, Double>` or `KeyPath<Root, Int>`).
    public let keyPath: PartialKeyPath<Root> & Sendable
    /// Reads the field (a whole-number field as a `Double`).
    let value: @Sendable (Root) -> Double
    /// The accepted values given the whole set: `spec.range` unless the bound depends on another field.
    let allowed: @Sendable (Root) -> ClosedRange<Double>

    /// A `Double` field; `allowed` replaces `spec.range` where a bound depends on another field.
    public init(_ keyPath: KeyPath<Root, Double> & Sendable, _ spec: ParameterSpec,
                allowed: (@Sendable (Root) -> ClosedRange<Double>)? = nil) {
        self.spec = spec
        self.keyPath = keyPath
        self.value = { $0[keyPath: keyPath] }
        self.allowed = allowed ?? { _ in spec.range }
    }

    /// A whole-number field, checked as a `Double` against `spec.range`.
    init(_ keyPath: KeyPath<Root, Int> & Sendable, _ spec: ParameterSpec) {
        self.spec = spec
        self.keyPath = keyPath
        self.value = { Double($0[keyPath: keyPath]) }
        self.allowed = { _ in spec.range }
    }

    /// Throws `.outOfRange` (named `spec.name`) unless the field is finite and inside `allowed`.
    func check(_ root: Root) throws(ParameterError) {
        try ParameterError.check(spec.name, value(root), in: allowed(root))
    }
}

/// A parameter type whose numeric fields are listed once, with their specs, in `parameterFields`.
/// Every field has a default (`Configurable`).
public protocol ParameterSet: Configurable {
    /// Every numeric field with its spec, in field order.
    static var parameterFields: [ParameterField<Self>] { get }
}

extension ParameterSet {
    /// Checks every field against its allowed range in table order; the first out of range is the error.
    public func validate() throws(ParameterError) {
        for field in Self.parameterFields {
            try field.check(self)
        }
    }
}
