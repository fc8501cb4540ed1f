import FollowCore
import Synchronization

/// What a recording link makes of a command (e.g. the PCMD an AR.Drone link sends; a link that only
/// records makes nothing).
package protocol LinkAnswer: Sendable {
    associatedtype Made: Sendable & Equatable
    mutating func answer(_ command: LinkCommand, reflecting fixReceivedAt: MonotonicTime?) -> Made?
}

/// Answers nothing: the link only records.
package struct NoAnswer: LinkAnswer {
    package init() {}
    package func answer(_ command: LinkCommand, reflecting fixReceivedAt: MonotonicTime?) -> Never? {
        nil
    }
}

/// A drone link that sends nothing anywhere: it keeps every `LinkCommand` a flight loop hands it, in
/// order, with what its `Answer` made of it.
package final class RecordingDroneLink<Answer: LinkAnswer>: DroneControlLink {
    package struct Sent: Sendable, Equatable {
        package var command: LinkCommand
        package var immediately: Bool
        package var made: Answer.Made?

        package init(command: LinkCommand, immediately: Bool, made: Answer.Made? = nil) {
            self.command = command
            self.immediately = immediately
            self.made = made
        }
    }

    private let state: Mutex<(answer: Answer, sent: [Sent])>
    package let peerDescription: String

    package init(_ answer: Answer, peerDescription: String) {
        state = Mutex((answer, []))
        self.peerDescription = peerDescription
    }

    /// Every command so far, in order.
    package var sent: [Sent] { state.withLock { $0.sent } }
    package var latest: LinkCommand? { sent.last?.command }

    package func start() async throws {}
    package func stop() async {}
    package func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) {
        state.withLock { state in
            let made = state.answer.answer(command, reflecting: fixReceivedAt)
            state.sent.append(Sent(command: command, immediately: immediately, made: made))
        }
    }
    package func linkStatistics() async -> LinkStatistics? { nil }
    package func fixLatency() async -> LatencyHistogram? { nil }
}

extension RecordingDroneLink where Answer == NoAnswer {
    /// Records only; answers nothing.
    package convenience init() { self.init(NoAnswer(), peerDescription: "recording") }
}
