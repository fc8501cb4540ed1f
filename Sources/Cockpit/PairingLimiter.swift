import FollowCore

/// How often anyone, from any address, may have the pairing secret checked: one limiter for the
/// whole unit, so spreading guesses over many addresses gains nothing. Pure: time is an argument.
///
/// The schedule (docs/commands.md §4.8): `freeFailures` wrong secrets in a row are let through (a
/// person mistyping); each one after that starts a lockout of `firstLockoutSeconds`, doubling with
/// every further failure up to `maxLockoutSeconds`. While locked out nothing is checked: every
/// verification is refused whatever the secret, so no answer depends on it. A right secret ends the
/// run of failures; `forgetFailuresSeconds` without a failure forgets it too.
///
/// The caller checks and records under one lock (`CockpitAuthority`): concurrent guesses cannot slip
/// more than `freeFailures` through.
public struct PairingLimiter: Sendable, Equatable {
    /// Wrong secrets in a row before the first lockout: our choice; a person typing 10 characters on a
    /// phone may get it wrong a few times.
    public static let freeFailures = 5
    /// The first lockout, seconds: our choice, long enough to make a script pointless, short enough
    /// that a person who mistyped five times waits half a minute.
    public static let firstLockoutSeconds = 30.0
    /// The longest lockout, seconds: our choice; at the ceiling an attacker gets 4 guesses an hour,
    /// ~35,000 a year, while a person locked out waits at most 15 min (a paired phone is never locked out).
    public static let maxLockoutSeconds = 900.0
    /// A run of failures is forgotten after this long without one, seconds: our choice, a day, so that
    /// waiting for the run to be forgotten (~11 guesses a day) is slower than guessing at the ceiling (96).
    public static let forgetFailuresSeconds = 86_400.0

    /// Wrong secrets since the last right one (or since the run was forgotten).
    public private(set) var failures = 0
    /// Until when nothing is checked (nil: not locked out).
    public private(set) var lockedUntil: MonotonicTime?
    private var lastFailure: MonotonicTime?

    public init() {}

    /// What to do with a verification asked at `now`.
    public enum Verdict: Sendable, Equatable {
        /// Check the secret, then `recordFailure` or `recordSuccess`.
        case check
        /// Refuse without checking; the lockout ends in this many seconds (> 0).
        case lockedOut(retryAfterSeconds: Double)
    }

    /// Whether a verification at `now` may check the secret.
    public mutating func verdict(now: MonotonicTime) -> Verdict {
        if let lastFailure, now.seconds(since: lastFailure) >= Self.forgetFailuresSeconds {
            failures = 0
            self.lastFailure = nil
        }
        guard let lockedUntil, now < lockedUntil else { return .check }
        return .lockedOut(retryAfterSeconds: lockedUntil.seconds(since: now))
    }

    /// A wrong secret at `now`; returns the lockout it starts, seconds, if it starts one.
    @discardableResult
    public mutating func recordFailure(now: MonotonicTime) -> Double? {
        failures += 1
        lastFailure = now
        guard failures > Self.freeFailures else { return nil }
        let doublings = min(failures - Self.freeFailures - 1, 16)
        let seconds = min(Self.firstLockoutSeconds * Double(1 << doublings), Self.maxLockoutSeconds)
        lockedUntil = now.adding(seconds: seconds)
        return seconds
    }

    /// The right secret: the run of failures is over.
    public mutating func recordSuccess() {
        failures = 0
        lastFailure = nil
        lockedUntil = nil
    }

    /// The expected time, seconds, for an attacker who guesses as fast as this limiter allows to find
    /// one of `secrets` equally likely secrets (half the space), starting with no failures.
    public static func expectedSecondsToGuess(secrets: Double) -> Double {
        var (guesses, seconds, failures) = (0.0, 0.0, 0)
        let half = secrets / 2
        while guesses < half {
            failures += 1
            guesses += 1
            guard failures > freeFailures else { continue }
            let lockout = min(firstLockoutSeconds * Double(1 << min(failures - freeFailures - 1, 16)), maxLockoutSeconds)
            if lockout >= maxLockoutSeconds { return seconds + (half - guesses + 1) * maxLockoutSeconds }
            seconds += lockout
        }
        return seconds
    }
}
