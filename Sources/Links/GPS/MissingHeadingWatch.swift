import FollowCore

/// Says once what it means when the onboard receiver gives fixes but never a heading: preflight
/// would wait "heading" forever with nothing in the log to say why. A value fed one role's events
/// in order; time is each event's own `receivedAt` (no clock).
public struct MissingHeadingWatch: Sendable {
    /// Seconds of fixes without any heading before the hint. Our choice: 20 s — a compass reports a
    /// heading with the first fixes, and a dual-antenna receiver once it has resolved its baseline,
    /// which after a cold start can take a while; preflight waits for it anyway.
    public static let defaultAfterSeconds = 20.0

    private var reminder: WaitingReminder
    /// The first fix of the current run of fixes (reset when the role is lost).
    private var fixesSince: MonotonicTime?
    private var sawHeading = false
    private var sawTrack = false

    public init(afterSeconds: Double = Self.defaultAfterSeconds) {
        reminder = WaitingReminder(firstAfterSeconds: afterSeconds, repeatSeconds: nil)
    }

    /// Takes the role's next event; returns the hint (`GPSDHint.noHeading`) the one time it is due.
    public mutating func observe(_ event: GPSEvent) -> String? {
        switch event {
        case .heading:
            sawHeading = true
            return nil
        case .lost:
            fixesSince = nil
            return nil
        case .fix(let fix):
            if fix.trackDegrees != nil { sawTrack = true }
            let since = fixesSince ?? fix.receivedAt
            fixesSince = since
            guard let waited = reminder.due(now: fix.receivedAt, since: since, arrived: sawHeading) else { return nil }
            return GPSDHint.noHeading(device: fix.device, seconds: waited, sentTrack: sawTrack)
        case .connected, .gpsdError, .sky:
            return nil
        }
    }
}
