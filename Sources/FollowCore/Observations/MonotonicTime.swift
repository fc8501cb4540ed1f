/// A point on a monotonic clock, nanoseconds since an arbitrary origin: the shell stamps values with
/// it (CLOCK_MONOTONIC) and passes "now" into every decision.
public struct MonotonicTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A time `seconds` after the origin (for simulations and tests).
    @inlinable public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    public static let zero = MonotonicTime(nanoseconds: 0)

    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }

    @inlinable public static func < (a: MonotonicTime, b: MonotonicTime) -> Bool { a.nanoseconds < b.nanoseconds }

    /// Seconds elapsed from `earlier` to `self` (negative if `earlier` is later).
    @inlinable public func seconds(since earlier: MonotonicTime) -> Double {
        Double(nanoseconds &- earlier.nanoseconds) / 1e9
    }

    /// This time moved forward by `seconds`.
    @inlinable public func adding(seconds: Double) -> MonotonicTime {
        MonotonicTime(nanoseconds: nanoseconds &+ Int64((seconds * 1e9).rounded()))
    }

    public var description: String { "t=\(seconds)s" }
}
