import FollowCore

// Filters over GPSClient's events (Observations.GPSEvent), for the tests that record them.

extension EventRecorder where Event == GPSEvent {
    package var fixes: [GPSFix] { events.fixes }
    package func fixes(_ role: ReceiverRole) -> [GPSFix] { fixes.filter { $0.role == role } }
}

extension Array where Element == GPSEvent {
    package var fixes: [GPSFix] {
        compactMap { if case .fix(let f) = $0 { return f } else { return nil } }
    }

    package var headings: [HeadingReport] {
        compactMap { if case .heading(let h) = $0 { return h } else { return nil } }
    }

    package var skies: [SkyReport] {
        compactMap { if case .sky(let s) = $0 { return s } else { return nil } }
    }

    package var losses: [GPSLoss] {
        compactMap { if case .lost(let l) = $0 { return l } else { return nil } }
    }

    package var gpsdErrors: [String] {
        compactMap { if case .gpsdError(_, let message, _) = $0 { return message } else { return nil } }
    }

    /// `(isReconnect, at)` of every `.connected` event.
    package var connections: [(isReconnect: Bool, at: MonotonicTime)] {
        compactMap { if case .connected(_, _, let again, let at) = $0 { return (again, at) } else { return nil } }
    }

    package func of(_ role: ReceiverRole) -> [GPSEvent] { filter { $0.role == role } }
}

extension GPSLoss.Reason {
    package var isNoFix: Bool { if case .noFix = self { return true } else { return false } }
    package var isConnectionLost: Bool { if case .connectionLost = self { return true } else { return false } }
}
