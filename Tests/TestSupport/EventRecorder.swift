import FollowCore
import Links
import Synchronization

/// Events of one kind with their arrival time (CLOCK_MONOTONIC), appended from any thread or
/// drained from an `AsyncStream` in the background; a test reads snapshots or waits, with a
/// bound, for a condition on everything received so far.
///
/// Waits poll every 10 ms: simple, bounded, and fine for integration tests (pure tests never sleep).
package final class EventRecorder<Event: Sendable>: Sendable {
    private let received = Mutex<[(event: Event, at: MonotonicTime)]>([])
    private let finished = Atomic<Bool>(false)

    /// An empty recorder; events come through `append`.
    package init() {}

    /// A recorder that is the one consumer of `events` until the stream finishes.
    package init(_ events: AsyncStream<Event>) {
        Task.detached { [self] in
            for await event in events { self.append(event) }
            self.finished.store(true, ordering: .sequentiallyConsistent)
        }
    }

    package func append(_ event: Event) {
        received.withLock { $0.append((event, SystemClock.now())) }
    }

    /// Everything received so far, in order.
    package var events: [Event] { received.withLock { $0.map(\.event) } }

    /// Everything received so far with its arrival time.
    package var timedEvents: [(event: Event, at: MonotonicTime)] { received.withLock { $0 } }

    /// Waits until `condition(events)` holds, `timeoutSeconds` pass, the stream finished or the
    /// test is cancelled (e.g. its time limit). Returns whether it held.
    @discardableResult
    package func waitUntil(timeoutSeconds: Double, _ condition: ([Event]) -> Bool) async -> Bool {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while true {
            if condition(events) { return true }
            if TestClock.now() >= deadline || finished.load(ordering: .sequentiallyConsistent) || Task.isCancelled {
                return condition(events)
            }
            await TestClock.sleep(seconds: 0.01)
        }
    }

    /// Waits until the stream finished, at most `timeoutSeconds`.
    @discardableResult
    package func waitForFinish(timeoutSeconds: Double) async -> Bool {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while !finished.load(ordering: .sequentiallyConsistent) {
            if TestClock.now() >= deadline || Task.isCancelled { return false }
            await TestClock.sleep(seconds: 0.01)
        }
        return true
    }
}
