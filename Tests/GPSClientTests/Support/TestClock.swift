#if canImport(Glibc)
import Glibc
#endif
import Observations

/// CLOCK_MONOTONIC as a `MonotonicTime`: the same clock GPSClient stamps its events with
/// (SystemTime.SystemClock), so test timestamps and event timestamps can be subtracted.
enum TestClock {
    static func now() -> MonotonicTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicTime(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// Sleeps without blocking a cooperative thread.
    static func sleep(seconds: Double) async {
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
    }
}

import Foundation

/// Runs blocking work (socket reads, waitpid loops) on a thread of its own.
///
/// Tests run in parallel on Swift's cooperative pool, which has one thread per core (two
/// here): a test that blocks a pool thread for a second stalls every other test's awaits,
/// and a replay whose client then connects late loses the start of the log.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }
}
