#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FollowCore
import Links

/// CLOCK_MONOTONIC as a `MonotonicTime` (`SystemClock`, the clock GPSClient and DroneLink stamp
/// their events with), so test timestamps and event timestamps can be subtracted.
package enum TestClock {
    package static func now() -> MonotonicTime { SystemClock.now() }

    /// Sleeps without blocking a cooperative thread.
    package static func sleep(seconds: Double) async {
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
    }
}

/// CLOCK_MONOTONIC in seconds: the clock of the flight log's `t` and the simulator's replies.
package func monotonicSeconds() -> Double {
    SystemClock.now().seconds
}

/// Runs blocking work (socket reads, waitpid loops) on a thread of its own.
///
/// Tests run in parallel on Swift's cooperative pool, which has one thread per core (two
/// here): a test that blocks a pool thread for a second stalls every other test's awaits,
/// and a replay whose client then connects late loses the start of the log.
package enum Blocking {
    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }
}

/// Polls `condition` every 100 ms until it holds or `seconds` pass.
package func eventually(seconds: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return try condition()
}

/// Polls `condition` every 10 ms until it holds or `timeoutSeconds` pass; returns whether it held.
/// A bounded wait, never an assertion about timing.
package func eventually(timeoutSeconds: Double = 5, _ condition: () async -> Bool) async -> Bool {
    let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
    while SystemClock.now() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}

/// Polls `probe` every 100 ms until it returns a value or `seconds` pass.
package func poll<T>(seconds: Double, _ probe: () throws -> T?) async rethrows -> T? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let value = try probe() { return value }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return try probe()
}
