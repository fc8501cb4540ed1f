#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FollowCore

/// The shell's only clock: CLOCK_MONOTONIC as a `MonotonicTime`.
///
/// Pure modules never call this; the shell stamps events with it and passes `now` in.
public enum SystemClock {
    /// Current monotonic time (CLOCK_MONOTONIC: not affected by wall-clock steps or NTP).
    public static func now() -> MonotonicTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicTime(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }
}
