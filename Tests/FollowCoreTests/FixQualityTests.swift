@testable import FollowCore
import ARDrone
import Testing

/// Fix time stamps, backlogs and receiver accuracy (`eph`): issue 11 items 9 and 12.
@Suite("FixScreen and estimators: future stamps, dumped backlogs, eph")
struct FixQualityTests {
    static let walk = PlaneVector(east: 1.4, north: 0)
    static let latency = 0.3
    static let staleAfterSeconds = FailsafeParameters().targetTimeoutSeconds

    /// Seconds (sampled at 30 Hz over `from…to`) during which the estimator would count as stale
    /// for the failsafes: not converged, or its last used fix older than `targetTimeoutSeconds`.
    static func staleSeconds(_ usedAt: [Double], converged: [Double], from: Double, to: Double) -> Double {
        var stale = 0.0
        var t = from
        while t < to {
            let last = usedAt.last { $0 <= t }
            let isConverged = converged.contains { $0 <= t }
            if !isConverged || last.map({ t - $0 > staleAfterSeconds }) ?? true { stale += 1.0 / 30 }
            t += 1.0 / 30
        }
        return stale
    }

    /// Feeds a walker at 1 Hz for 60 s; fix 20 is stamped `lead` seconds ahead (nil: dropped).
    static func runWithGlitch(lead: Double?) -> (TargetEstimator, FixVerdict?, stale: Double) {
        var estimator = TargetEstimator(latencySeconds: Self.latency)
        var usedAt: [Double] = [], convergedAt: [Double] = []
        var glitchVerdict: FixVerdict?
        for k in 0...60 {
            let t = Double(k)
            var stamp = t
            if k == 20 {
                guard let lead else { continue }
                stamp += lead
            }
            let verdict = estimator.ingest(position: Self.walk * t, fixTime: FixFeeder.fixTime(stamp),
                                           receivedAt: MonotonicTime(seconds: t + Self.latency))
            if k == 20 { glitchVerdict = verdict }
            if verdict.isUsed { usedAt.append(t + Self.latency) }
            if estimator.isConverged { convergedAt.append(t + Self.latency) }
        }
        return (estimator, glitchVerdict, Self.staleSeconds(usedAt, converged: convergedAt, from: 10, to: 60))
    }

    @Test func oneFixStampedInTheFutureDoesNotStallTheEstimator() {
        // Given a walker tracked at 1 Hz
        // When, at t = 20 s, one fix is stamped 10 s in the future (a bad receiver time)
        let (estimator, glitchVerdict, stale) = Self.runWithGlitch(lead: 10)
        let (_, _, staleWhenDropped) = Self.runWithGlitch(lead: nil)
        print("one fix stamped 10 s ahead at 1 Hz: target stale for \(stale) s (a dropped fix: \(staleWhenDropped) s)")
        // Then that fix is rejected for its time, counted, and no later fix is lost for it: it
        // costs exactly what one lost fix costs (the old screen accepted it, ignored the next four
        // as out of order, then restarted and re-converged: ≈ 5 s stale at 1 Hz)
        guard case .rejectedFutureTime(let lead)? = glitchVerdict else {
            Issue.record("expected rejected-future-time, got \(String(describing: glitchVerdict))")
            return
        }
        #expect(abs(lead - 10) < 0.1)
        #expect(estimator.statistics[.rejectedFutureTimes] == 1)
        #expect(estimator.statistics[.ignoredOutOfOrder] == 0)
        #expect(estimator.statistics[.initialisations] == 1)
        #expect(abs(stale - staleWhenDropped) < 1e-9)
        #expect(stale < 1)
    }

    @Test func aBacklogDumpedByAStalledStreamIsStaleNotFresh() {
        // Given a walker tracked at 1 Hz, with the backlog bound set (FailsafeParameters default 1.5 s)
        var estimator = TargetEstimator(latencySeconds: Self.latency, maxFixLagSeconds: FailsafeParameters().maxFixLagSeconds)
        for k in 0...20 {
            let t = Double(k)
            #expect(estimator.ingest(position: Self.walk * t, fixTime: FixFeeder.fixTime(t),
                                     receivedAt: MonotonicTime(seconds: t + Self.latency)).isUsed)
        }
        let lastFresh = estimator.lastUsedFixAt
        // When gpsd stalls for 8 s and then dumps the 8 fixes it held, all arriving at t = 29
        var verdicts: [FixVerdict] = []
        for k in 21...28 {
            let t = Double(k)
            verdicts.append(estimator.ingest(position: Self.walk * t, fixTime: FixFeeder.fixTime(t),
                                             receivedAt: MonotonicTime(seconds: 29 + Double(k - 21) * 0.001)))
        }
        // Then every fix more than 1.5 s behind the stream's clock is stale: not fused, counted,
        // and the target's freshness is not refreshed by them
        let lags = verdicts.map { verdict -> Double in
            if case .ignoredStale(let lag) = verdict { return lag }
            return -1
        }
        #expect(lags.prefix(7).allSatisfy { $0 > 1.5 }, "\(verdicts)")
        #expect(estimator.statistics[.ignoredStale] == 7)
        #expect(estimator.lastUsedFixAt != nil)
        #expect(estimator.lastUsedFixAt.map { $0 < MonotonicTime(seconds: 29) } == true || verdicts[7].isUsed)
        if !verdicts[7].isUsed { #expect(estimator.lastUsedFixAt == lastFresh) }
        // And the stream's next live fixes are used again
        let next = estimator.ingest(position: Self.walk * 29, fixTime: FixFeeder.fixTime(29),
                                    receivedAt: MonotonicTime(seconds: 29 + Self.latency))
        #expect(next == .accepted)
    }

    @Test func aSteadyChangeOfLatencyReanchorsTheStreamClock() {
        // Given a walker tracked at 1 Hz with the backlog bound set
        var estimator = TargetEstimator(latencySeconds: Self.latency, maxFixLagSeconds: FailsafeParameters().maxFixLagSeconds)
        for k in 0...20 {
            let t = Double(k)
            _ = estimator.ingest(position: Self.walk * t, fixTime: FixFeeder.fixTime(t),
                                 receivedAt: MonotonicTime(seconds: t + Self.latency))
        }
        // When every later fix arrives 2 s later than before, at the normal pace (a slower path)
        var verdicts: [FixVerdict] = []
        for k in 21...30 {
            let t = Double(k)
            verdicts.append(estimator.ingest(position: Self.walk * t, fixTime: FixFeeder.fixTime(t),
                                             receivedAt: MonotonicTime(seconds: t + Self.latency + 2)))
        }
        // Then after clockResetAfterFixes agreeing fixes the clock moves and fixes are used again
        let reset = EstimatorTuning().clockResetAfterFixes
        #expect(verdicts.prefix(reset - 1).allSatisfy { if case .ignoredStale = $0 { true } else { false } })
        let afterReset = verdicts.suffix(from: reset - 1)
        #expect(afterReset.allSatisfy { $0.isUsed }, "\(verdicts)")
        #expect(estimator.statistics[.clockReanchors] == 1)
    }

    @Test func aFixAboveTheEphBoundIsRefusedAndCounted() {
        // Given a tracked walker, eph bound 15 m (FailsafeParameters default: 100 m)
        var estimator = TargetEstimator(latencySeconds: Self.latency, maxEphMeters: 15)
        for k in 0...10 {
            let t = Double(k)
            _ = estimator.ingest(position: Self.walk * t, ephMeters: 3, fixTime: FixFeeder.fixTime(t),
                                 receivedAt: MonotonicTime(seconds: t + Self.latency))
        }
        let before = estimator.estimate(at: MonotonicTime(seconds: 11.3))
        let lastUsed = estimator.lastUsedFixAt
        // When a fix reports eph 40 m (and sits 8 m off the path)
        let verdict = estimator.ingest(position: Self.walk * 11 + PlaneVector(east: 0, north: 8), ephMeters: 40,
                                       fixTime: FixFeeder.fixTime(11), receivedAt: MonotonicTime(seconds: 11.3))
        // Then it is refused, counted, not fused, and does not refresh freshness
        #expect(verdict == .refusedInaccurate(ephMeters: 40))
        #expect(verdict.name == "refused-inaccurate")
        #expect(estimator.statistics[.refusedInaccurate] == 1)
        #expect(estimator.estimate(at: MonotonicTime(seconds: 11.3)) == before)
        #expect(estimator.lastUsedFixAt == lastUsed)
    }

    @Test("fixes are weighted by eph, relative to the receiver's own recent best", arguments: [false, true])
    func fixesAreWeightedByEph(drone: Bool) {
        // Given a receiver standing at the origin for 20 fixes, reporting eph `steadyEph`
        func settledOffset(steadyEph: Double?, lastEph: Double?) -> Double {
            var target = TargetEstimator(latencySeconds: Self.latency, maxEphMeters: 100)
            var droneEstimator = DroneEstimator(latencySeconds: Self.latency, maxEphMeters: 100)
            for k in 0...20 {
                let t = Double(k)
                if drone {
                    _ = droneEstimator.ingest(position: .zero, ephMeters: steadyEph, fixTime: FixFeeder.fixTime(t),
                                              receivedAt: MonotonicTime(seconds: t + Self.latency))
                } else {
                    _ = target.ingest(position: .zero, ephMeters: steadyEph, fixTime: FixFeeder.fixTime(t),
                                      receivedAt: MonotonicTime(seconds: t + Self.latency))
                }
            }
            // When one fix 3 m east arrives with eph `lastEph`
            let off = PlaneVector(east: 3, north: 0)
            let now = MonotonicTime(seconds: 21 + Self.latency)
            if drone {
                _ = droneEstimator.ingest(position: off, ephMeters: lastEph, fixTime: FixFeeder.fixTime(21), receivedAt: now)
                return droneEstimator.filter!.position.east
            }
            _ = target.ingest(position: off, ephMeters: lastEph, fixTime: FixFeeder.fixTime(21), receivedAt: now)
            return target.filter!.position.east
        }
        let untagged = settledOffset(steadyEph: nil, lastEph: nil)
        let steadyNMEA = settledOffset(steadyEph: 17.1, lastEph: 17.1)
        let better = settledOffset(steadyEph: 17.1, lastEph: 9)
        let poor = settledOffset(steadyEph: 17.1, lastEph: 4 * 17.1)
        // Then a fix as good as the receiver's usual (gpsd's HDOP-based 17.1 m under open sky) or
        // better counts as the tuning says (the tuned sigma is the floor), and one reporting 4× the
        // receiver's usual error moves the estimate less than half as far
        #expect(abs(steadyNMEA - untagged) < 1e-9)
        #expect(abs(better - untagged) < 1e-9)
        #expect(poor < steadyNMEA * 0.5, "eph 68 m moved it \(poor) m, eph 17 m \(steadyNMEA) m")
        #expect(poor > 0)
    }
}

/// The failsafe bounds reach the estimators through `FlightStateMachine`.
@Suite("FlightStateMachine: fix quality bounds from FailsafeParameters")
struct FixQualityWiringTests {
    static let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!)

    static func fix(_ role: ReceiverRole, at t: Double, stamped stamp: Double, eph: Double?) -> FollowInput {
        let c = plane.unproject(PlaneVector(east: 0, north: 10))!
        return .fix(GPSFix(role: role, device: "/dev/test", mode: .threeD,
                           latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                           fixTime: FixFeeder.fixTime(stamp), receivedAt: MonotonicTime(seconds: t),
                           ephMeters: eph)!)
    }

    @Test("eph above max_eph_m and a dumped backlog are refused for both receivers", arguments: [ReceiverRole.target, .onboard])
    func boundsAreWired(role: ReceiverRole) throws {
        // Given a machine with max_eph_m 10 and a stream of good fixes
        var machine = try FlightStateMachine(
            follow: .testDefault,
            failsafe: FailsafeParameters(gpsRelativeErrorMeters: 0, maxEphMeters: 10, maxFixLagSeconds: 1.5), vehicle: .tiltLoop)
        for k in 0...5 {
            let t = Double(k)
            machine.handle(Self.fix(role, at: t + 0.3, stamped: t, eph: 3), now: MonotonicTime(seconds: t + 0.3))
        }
        // When a fix reports eph 12 m, and another arrives 3 s behind the stream's clock
        let inaccurate = machine.handle(Self.fix(role, at: 6.3, stamped: 6, eph: 12), now: MonotonicTime(seconds: 6.3))
        let late = machine.handle(Self.fix(role, at: 10.3, stamped: 7, eph: 3), now: MonotonicTime(seconds: 10.3))
        // Then both are refused with their reasons and counted by that receiver's estimator
        #expect(inaccurate == .fix(role, .refusedInaccurate(ephMeters: 12)))
        guard case .fix(role, .ignoredStale(let lag)) = late else {
            Issue.record("expected ignored-stale, got \(late)")
            return
        }
        #expect(abs(lag - 3) < 0.1)   // less the clock creep (FixScreen.clockCreepSecondsPerSecond × 5 s)
        let statistics = role == .target ? machine.target.statistics : machine.drone.statistics
        #expect(statistics[.refusedInaccurate] == 1 && statistics[.ignoredStale] == 1)
    }
}
