@testable import Cockpit
import FollowCore
import Testing

/// The unit-wide limit on checks of the pairing secret, on an injected clock.
@Suite struct PairingLimiterTests {
    func at(_ seconds: Double) -> MonotonicTime { MonotonicTime(seconds: seconds) }

    @Test("five wrong in a row pass; the sixth locks for 30 s, and each further one doubles it up to 15 min")
    func schedule() {
        var limiter = PairingLimiter()
        var t = 0.0
        for _ in 0..<PairingLimiter.freeFailures {
            #expect(limiter.verdict(now: at(t)) == .check)
            #expect(limiter.recordFailure(now: at(t)) == nil)
            t += 0.01
        }
        var lockouts: [Double] = []
        for _ in 0..<8 {
            #expect(limiter.verdict(now: at(t)) == .check)
            let lockout = limiter.recordFailure(now: at(t))!
            lockouts.append(lockout)
            // Locked: nothing is checked until it ends, however often anyone asks.
            #expect(limiter.verdict(now: at(t + lockout - 0.001)) != .check)
            t += lockout
        }
        #expect(lockouts == [30, 60, 120, 240, 480, 900, 900, 900])
    }

    @Test("while locked out the verdict says how long is left; a right secret ends the run of failures")
    func lockedOutThenSuccess() {
        var limiter = PairingLimiter()
        for i in 0...PairingLimiter.freeFailures { limiter.recordFailure(now: at(Double(i))) }
        #expect(limiter.verdict(now: at(15)) == .lockedOut(retryAfterSeconds: 20))
        #expect(limiter.verdict(now: at(35)) == .check)
        limiter.recordSuccess()
        #expect(limiter.failures == 0 && limiter.lockedUntil == nil)
        #expect(limiter.recordFailure(now: at(36)) == nil)
    }

    @Test("a run of failures is forgotten a day after the last one, not before")
    func forgetting() {
        var limiter = PairingLimiter()
        for i in 0..<PairingLimiter.freeFailures { limiter.recordFailure(now: at(Double(i))) }
        _ = limiter.verdict(now: at(4 + PairingLimiter.forgetFailuresSeconds - 1))
        #expect(limiter.failures == PairingLimiter.freeFailures)
        _ = limiter.verdict(now: at(4 + PairingLimiter.forgetFailuresSeconds))
        #expect(limiter.failures == 0)
    }

    @Test("expected time to guess: a 4-digit code takes weeks, the generated 50-bit secret ~10^10 years")
    func expectedTime() {
        let fourDigits = PairingLimiter.expectedSecondsToGuess(secrets: 1e4)
        #expect(fourDigits > 40 * 86_400 && fourDigits < 60 * 86_400, "\(fourDigits / 86_400) days")
        let years = PairingLimiter.expectedSecondsToGuess(secrets: 1_125_899_906_842_624) / (365.25 * 86_400)
        #expect(years > 1e10, "\(years) years")
    }
}
