#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGPS
import FollowCore

/// The host's wall clock, for the one thing it is used for: how old a receiver's fix is
/// (docs/gps-latency.md §3). Flight timing never reads it (`SystemClock` is monotonic).
public enum HostClock {
    /// CLOCK_REALTIME now, as seconds and nanoseconds since the Unix epoch.
    public static func now() -> FixTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return FixTime(seconds: Int64(ts.tv_sec), nanoseconds: Int32(ts.tv_nsec))
    }

    /// Whether the kernel says the clock is disciplined: `ntp_adjtime` returns neither an error nor
    /// TIME_ERROR, and STA_UNSYNC is clear (chrony and ntpd clear it once they steer the clock).
    public static func isSynchronised() -> Bool {
        fm_host_clock_synchronised() != 0
    }

    /// `later − earlier`, seconds; computed in floating point, so it never traps whatever a receiver's
    /// time says (for times within years of each other it is exact to well under a microsecond).
    public static func seconds(from earlier: FixTime, to later: FixTime) -> Double {
        (Double(later.seconds) - Double(earlier.seconds)) + Double(Int64(later.nanoseconds) - Int64(earlier.nanoseconds)) / 1e9
    }
}
