/// A value whose every field has a default, built as its defaults plus what a caller sets:
/// `FollowParameters { $0.standoffMeters = 8 }` (docs/architecture.md §5). The way in across a module line.
public protocol Configurable {
    /// Every field at its default.
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
