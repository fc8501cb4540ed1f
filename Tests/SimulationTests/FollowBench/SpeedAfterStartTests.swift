@testable import Simulation
import Foundation
@testable import FollowCore
import Testing

/// Issue 25's metric on synthetic speed traces whose answer is known: the drone's speed overshoot,
/// swings, ringing period and settle time after the person starts.
@Suite("Speed after the person starts: overshoot, swings, ringing period, settle time (issue 25)")
struct SpeedAfterStartTests {
    static let tick = 0.1

    /// Feeds `seconds` of ticks from `from`: the person's speed and the drone's speed as functions of
    /// the time since `from`, both heading north (positions do not matter to this metric).
    static func feed(_ acc: inout MetricsAccumulator, from: Double, seconds: Double, airborne: Bool = true,
                     person: (Double) -> Double, drone: (Double) -> Double) {
        for i in 0..<Int((seconds / tick).rounded()) {
            let tau = Double(i) * tick
            acc.add(timeSeconds: from + tau, person: PlaneVector(east: 0, north: 20), drone: .zero, noseHeadingDegrees: 0,
                    airborne: airborne, following: true, personVelocity: PlaneVector(east: 0, north: person(tau)),
                    droneVelocity: PlaneVector(east: 0, north: drone(tau)))
        }
    }

    static func accumulator() -> MetricsAccumulator {
        MetricsAccumulator(standoffMeters: 11, settledFromSeconds: 0, tickSeconds: tick, expectedSamples: 1000)
    }

    @Test("a catch-up that peaks 0.6 m/s above a 1.4 m/s walker and settles: one swing, 43 %, settled at 3.6 s")
    func dampedCatchUp() throws {
        // Given a person standing 5 s, then walking 1.4 m/s; the drone ramps to 2.0 m/s in 2 s, holds it
        // 1 s, comes down to 1.4 m/s by 4 s and stays there
        var acc = Self.accumulator()
        Self.feed(&acc, from: 0, seconds: 5, person: { _ in 0 }, drone: { _ in 0 })
        Self.feed(&acc, from: 5, seconds: 20, person: { _ in 1.4 }, drone: { tau in
            tau < 2 ? tau : tau < 3 ? 2.0 : tau < 4 ? 2.0 - 0.6 * (tau - 3) : 1.4
        })
        // When the metrics are taken
        let s = try #require(acc.metrics(tracksFollowing: true).speedAfterStart)
        // Then one start at 5 s, overshoot 0.6 m/s = 43 % of 1.4 m/s, one swing, no ringing period
        #expect(s.personStarts == 1)
        #expect(abs(s.startSeconds - 5) < 1e-9)
        #expect(abs(s.overshootMetersPerSecond - 0.6) < 1e-9)
        #expect(abs(s.overshootPercent - 100 * 0.6 / 1.4) < 1e-6)
        #expect(s.swings == 1)
        #expect(s.ringingPeriodSeconds == nil)
        // and settled when the excess last left ±0.2 m/s: 3.6 s (excess 0.24 m/s; 0.18 at 3.7 s)
        let settle = try #require(s.settleSeconds)
        #expect(abs(settle - 3.6) < 1e-9)
    }

    @Test("jitter above the walker's speed that never drops 0.1 m/s below it is no new swing (the hysteresis)")
    func jitterIsNoSwing() throws {
        // Given a catch-up to 2.0 m/s, then the drone alternating 1.55 / 1.40 m/s each tick behind a 1.4 m/s walker
        var acc = Self.accumulator()
        Self.feed(&acc, from: 0, seconds: 2, person: { _ in 0 }, drone: { _ in 0 })
        Self.feed(&acc, from: 2, seconds: 20, person: { _ in 1.4 }, drone: { tau in
            tau < 2 ? tau : tau < 4 ? 2.0 : Int((tau * 10).rounded()) % 2 == 0 ? 1.55 : 1.40
        })
        let s = try #require(acc.metrics(tracksFollowing: true).speedAfterStart)
        // Then the excess rose above +0.1 m/s once from below −0.1 m/s: one swing
        #expect(s.swings == 1)
        #expect(abs(s.overshootMetersPerSecond - 0.6) < 1e-9)
    }

    @Test("speed ringing: 1.4 − 0.8·cos(2πt/3.2) m/s counts one swing per period within the 30 s window and never settles")
    func ringing() throws {
        // Given a walker at 1.4 m/s and a drone whose speed rings ±0.8 m/s around it with a 3.2 s period,
        // for 50 s (20 s longer than the window)
        var acc = Self.accumulator()
        Self.feed(&acc, from: 0, seconds: 2, person: { _ in 0 }, drone: { _ in 0 })
        Self.feed(&acc, from: 2, seconds: 50, person: { _ in 1.4 }, drone: { tau in 1.4 - 0.8 * cos(2 * .pi * tau / 3.2) })
        let s = try #require(acc.metrics(tracksFollowing: true).speedAfterStart)
        // Then: overshoot 0.8 m/s (57 %); 10 swings in the 30 s window (the excess passes +0.1 m/s at
        // 0.86 s + k·3.2 s: k = 0…9; the 11th, at 32.9 s, is past the window); the period 3.2 s; not settled
        #expect(abs(s.overshootMetersPerSecond - 0.8) < 1e-3)
        #expect(abs(s.overshootPercent - 57.14) < 0.1)
        #expect(s.swings == 10)
        let period = try #require(s.ringingPeriodSeconds)
        #expect(abs(period - 3.2) < 0.05)
        #expect(s.settleSeconds == nil)
        #expect(abs(s.windowSeconds - 30) < 1e-9)
    }

    @Test("each start opens a window closed by the next stop; the worst start is reported; starts on the ground do not count")
    func worstStart() throws {
        var acc = Self.accumulator()
        // Given a start while the drone is still on the ground (not counted)…
        Self.feed(&acc, from: 0, seconds: 2, airborne: false, person: { _ in 0 }, drone: { _ in 0 })
        Self.feed(&acc, from: 2, seconds: 2, airborne: false, person: { _ in 1.4 }, drone: { _ in 0 })
        // …a stand, then a walk with a 0.3 m/s overshoot, a stop (the drone still fast: the window is closed)…
        Self.feed(&acc, from: 4, seconds: 3, person: { _ in 0 }, drone: { _ in 0 })
        Self.feed(&acc, from: 7, seconds: 10, person: { _ in 1.4 }, drone: { tau in tau < 1.7 ? tau : tau < 3 ? 1.7 : 1.4 })
        Self.feed(&acc, from: 17, seconds: 5, person: { _ in 0 }, drone: { _ in 2.5 })
        // …then a jog with a 1.0 m/s overshoot
        Self.feed(&acc, from: 22, seconds: 10, person: { _ in 3 }, drone: { tau in tau < 4 ? tau : tau < 5 ? 4 : 3 })
        let s = try #require(acc.metrics(tracksFollowing: true).speedAfterStart)
        // Then two starts counted; the jog's is reported (still open at the end of the run)
        #expect(s.personStarts == 2)
        #expect(abs(s.startSeconds - 22) < 1e-9)
        #expect(abs(s.overshootMetersPerSecond - 1.0) < 1e-9)
        #expect(abs(s.overshootPercent - 100.0 / 3) < 1e-6)
        #expect(s.settleSeconds != nil)
    }

    @Test("no start, no figures: a person who never moves, or moves from the first tick")
    func noStart() {
        var standing = Self.accumulator()
        Self.feed(&standing, from: 0, seconds: 10, person: { _ in 0 }, drone: { _ in 0.3 })
        #expect(standing.metrics(tracksFollowing: true).speedAfterStart == nil)
        var moving = Self.accumulator()
        Self.feed(&moving, from: 0, seconds: 10, person: { _ in 1.4 }, drone: { _ in 1.4 })
        #expect(moving.metrics(tracksFollowing: true).speedAfterStart == nil)
    }
}
