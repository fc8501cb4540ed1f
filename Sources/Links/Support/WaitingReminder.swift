import FollowCore

/// When to say "still nothing" while waiting for something that should have come (the first navdata,
/// a HEARTBEAT, a heading): first after `firstAfterSeconds` of waiting, then every `repeatSeconds`
/// (nil: only once), never again once it came. A value with time as an argument (docs/style.md
/// habit 4): the caller asks on its own cadence (a link tick, a GPS fix) and logs the hint.
package struct WaitingReminder: Sendable, Equatable {
    /// Seconds of waiting before the first reminder.
    package let firstAfterSeconds: Double
    /// Seconds between two reminders; nil: say it once.
    package let repeatSeconds: Double?
    private var nextAt: MonotonicTime?
    private var isOver = false

    package init(firstAfterSeconds: Double, repeatSeconds: Double?) {
        self.firstAfterSeconds = firstAfterSeconds
        self.repeatSeconds = repeatSeconds
    }

    /// The seconds waited when a reminder is due at `now`, else nil. `since`: when the wait began;
    /// `arrived`: what was waited for has come (from then on, never due again).
    package mutating func due(now: MonotonicTime, since: MonotonicTime, arrived: Bool) -> Double? {
        if arrived { isOver = true }
        guard !isOver else { return nil }
        let dueAt = nextAt ?? since.adding(seconds: firstAfterSeconds)
        guard now >= dueAt else { return nil }
        if let repeatSeconds {
            nextAt = now.adding(seconds: repeatSeconds)
        } else {
            isOver = true
        }
        return now.seconds(since: since)
    }
}

extension WaitingReminder {
    /// Silence periods without the drone's first packet before the first reminder (our choice: 5, so
    /// 5 s at the default 1 s: the link re-sent its navdata trigger or HEARTBEAT five times; a drone
    /// within reach answers the first one in well under a second).
    package static let firstPacketSilencePeriods = 5.0
    /// Seconds between two reminders after the first (our choice: often enough to be seen in a
    /// scrolling log, rare enough not to drown it; the link itself re-sends every tick).
    package static let firstPacketRepeatSeconds = 30.0

    /// A link waiting for the drone's first packet, `silenceSeconds` being its silence bound
    /// (`navdataSilenceSeconds`, `telemetrySilenceSeconds`).
    package static func firstPacket(silenceSeconds: Double) -> WaitingReminder {
        WaitingReminder(firstAfterSeconds: firstPacketSilencePeriods * silenceSeconds, repeatSeconds: firstPacketRepeatSeconds)
    }
}
