import GPSClient
import Synchronization
import Observations

/// Drains a `GPSClient.events` stream in the background and lets a test wait, with a bound,
/// for a condition on everything received so far.
///
/// The stream has one consumer (this recorder); tests read snapshots. Waits poll every 10 ms:
/// simple, bounded, and fine for integration tests (pure tests never sleep).
final class EventRecorder: Sendable {
    private let received = Mutex<[GPSEvent]>([])
    private let finished = Atomic<Bool>(false)

    init(_ events: AsyncStream<GPSEvent>) {
        Task.detached { [self] in
            for await event in events {
                self.received.withLock { $0.append(event) }
            }
            self.finished.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Everything received so far, in order.
    var events: [GPSEvent] { received.withLock { $0 } }

    var fixes: [GPSFix] { events.fixes }
    func fixes(_ role: ReceiverRole) -> [GPSFix] { fixes.filter { $0.role == role } }

    /// Waits until `condition(events)` holds, `timeoutSeconds` pass or the test is cancelled
    /// (e.g. its time limit). Returns whether it held.
    @discardableResult
    func waitUntil(timeoutSeconds: Double, _ condition: ([GPSEvent]) -> Bool) async -> Bool {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while true {
            if condition(events) { return true }
            if TestClock.now() >= deadline || finished.load(ordering: .sequentiallyConsistent) || Task.isCancelled {
                return condition(events)
            }
            await TestClock.sleep(seconds: 0.01)
        }
    }

    /// Waits until the stream finished (after `GPSClient.stop()`), at most `timeoutSeconds`.
    @discardableResult
    func waitForFinish(timeoutSeconds: Double) async -> Bool {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while !finished.load(ordering: .sequentiallyConsistent) {
            if TestClock.now() >= deadline || Task.isCancelled { return false }
            await TestClock.sleep(seconds: 0.01)
        }
        return true
    }
}

extension Array where Element == GPSEvent {
    var fixes: [GPSFix] {
        compactMap { if case .fix(let f) = $0 { return f } else { return nil } }
    }

    var headings: [HeadingReport] {
        compactMap { if case .heading(let h) = $0 { return h } else { return nil } }
    }

    var losses: [GPSLoss] {
        compactMap { if case .lost(let l) = $0 { return l } else { return nil } }
    }

    var gpsdErrors: [String] {
        compactMap { if case .gpsdError(_, let message, _) = $0 { return message } else { return nil } }
    }

    /// `(isReconnect, at)` of every `.connected` event.
    var connections: [(isReconnect: Bool, at: MonotonicTime)] {
        compactMap { if case .connected(_, _, let again, let at) = $0 { return (again, at) } else { return nil } }
    }

    func of(_ role: ReceiverRole) -> [GPSEvent] { filter { $0.role == role } }
}

extension GPSLoss.Reason {
    var isNoFix: Bool { if case .noFix = self { return true } else { return false } }
    var isConnectionLost: Bool { if case .connectionLost = self { return true } else { return false } }
}
