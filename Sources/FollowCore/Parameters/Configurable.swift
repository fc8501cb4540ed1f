/// A value whose every field has a default, so it is built as its defaults plus the fields a caller
/// sets: `FollowParameters { $0.standoffMeters = 8 }` (docs/architecture.md §4, "Construction").
///
/// Inside its own module (and in tests, through `@testable import`) such a type is built with
/// Swift's implicit memberwise initializer, `FollowParameters(standoffMeters: 8)`; that one is
/// internal, so across a module line this is the way in, and no type writes its memberwise
/// initializer out by hand.
public protocol Configurable {
    /// Every field at its default: one line per type, `public static var defaults: Self { Self() }`.
    static var defaults: Self { get }
}

extension Configurable {
    /// The defaults, then `configure` sets what differs.
    @inlinable
    public init(_ configure: (inout Self) throws -> Void) rethrows {
        self = Self.defaults
        try configure(&self)
    }
}
