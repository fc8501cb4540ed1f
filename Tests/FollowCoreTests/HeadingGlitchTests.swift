@testable import FollowCore
import Testing

/// Heading reports that disagree with navdata yaw (issue 11 item 1): pure Navigator behaviour.
@Suite("Navigator: heading reports checked against navdata yaw")
struct HeadingGateTests {
    static func report(_ receiverHeading: Double, at seconds: Double) -> HeadingReport {
        HeadingReport(role: .onboard, device: "/dev/test", headingDegrees: receiverHeading,
                      receivedAt: MonotonicTime(seconds: seconds))!
    }

    /// A navigator fed navdata psi 20° (steady) at 15 Hz and receiver reports of 0° (nose 90°) at
    /// 5 Hz up to `until`; `fault` rewrites the receiver heading at a time.
    static func steady(until end: Double, fault: (Double, Double) -> Double = { $1 },
                       _ each: (inout Navigator, Double, Navigator.HeadingVerdict?) -> Void = { _, _, _ in }) -> Navigator {
        var navigator = Navigator(mountOffsetDegrees: 90)
        var tick = 0
        while Double(tick) / 30 <= end + 1e-9 {
            let t = Double(tick) / 30
            if tick % 2 == 0 { navigator.ingest(vehicleYawDegrees: 20, at: MonotonicTime(seconds: t)) }
            var verdict: Navigator.HeadingVerdict?
            if tick % 6 == 0 { verdict = navigator.ingestHeading(report(normalizedDegrees360(fault(t, 0)), at: t)) }
            each(&navigator, t, verdict)
            tick += 1
        }
        return navigator
    }

    @Test("one wild report is not used, counted, and the heading stands", arguments: [180.0, 0.0 - 90, 45.0])
    func oneWildReport(wild: Double) {
        // Given a steady heading (nose 90°) confirmed by reports and navdata
        var verdictAtGlitch: Navigator.HeadingVerdict?
        var worstErrorDegrees = 0.0
        // When one report at t = 10 s is off by `wild` degrees (a 180° flip, a 0.0-when-invalid…)
        let navigator = Self.steady(until: 15, fault: { t, h in abs(t - 10) < 1e-6 ? h + wild : h }) { nav, t, verdict in
            if abs(t - 10) < 1e-6 { verdictAtGlitch = verdict }
            if t > 2, let nose = nav.noseHeadingDegrees(now: MonotonicTime(seconds: t)) {
                worstErrorDegrees = max(worstErrorDegrees, abs(wrappedDegrees180(nose - 90)))
            }
        }
        // Then it is rejected and counted, and the nose heading never leaves 90°
        #expect(verdictAtGlitch == .rejected)
        #expect(navigator.rejectedHeadingReports == 1)
        #expect(worstErrorDegrees < 1e-6)
        // And the next agreeing report ends the rejection run
        #expect(navigator.headingRejectedSince == nil)
    }

    @Test func aReMountedReceiverIsRejectedForAsLongAsItLasts() {
        // Given a steady heading; when every report from t = 10 s is rotated 180° (re-mounted)
        var firstRejected: MonotonicTime?
        let navigator = Self.steady(until: 15, fault: { t, h in t >= 10 ? h + 180 : h }) { nav, _, _ in
            if firstRejected == nil { firstRejected = nav.headingRejectedSince }
        }
        // Then every one of them is rejected (25 reports), the heading stays 90°, and the run of
        // rejections is exposed from its first report on — for the failsafe's hold
        #expect(navigator.rejectedHeadingReports == 26)
        #expect(navigator.reanchoredHeadings == 0)
        #expect(navigator.headingRejectedSince == MonotonicTime(seconds: 10))
        #expect(navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 15)).map { abs(wrappedDegrees180($0 - 90)) < 1e-6 } == true)
    }

    @Test func aWildFirstReportIsReplacedByAgreeingOnes() {
        // Given navdata psi 20° and a first report that is wrong by 180° (the anchor itself is bad)
        var navigator = Navigator(mountOffsetDegrees: 90)
        navigator.ingest(vehicleYawDegrees: 20, at: MonotonicTime(seconds: 0.95))
        navigator.ingest(vehicleYawDegrees: 20, at: MonotonicTime(seconds: 1.0))
        #expect(navigator.ingestHeading(Self.report(180, at: 1.0)) == .accepted)
        // When correct reports follow (nose 90°), mutually agreeing, over ≥ 0.5 s
        var verdicts: [Navigator.HeadingVerdict] = []
        for k in 1...4 {
            let t = 1.0 + 0.2 * Double(k)
            navigator.ingest(vehicleYawDegrees: 20, at: MonotonicTime(seconds: t))
            verdicts.append(navigator.ingestHeading(Self.report(0, at: t)))
        }
        // Then they are held back until confirmed, then replace the one-report anchor
        #expect(verdicts == [.rejected, .rejected, .rejected, .reanchored])
        #expect(navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 1.8)).map { abs(wrappedDegrees180($0 - 90)) < 1e-6 } == true)
        #expect(navigator.headingRejectedSince == nil)
    }

    @Test func aRealTurnSeenByNavdataIsNotADisagreement() {
        // Given a steady heading; when the drone really yaws 180° at 90 °/s and the reports follow
        var rejected = 0
        let navigator = Self.steady(until: 0)
        var nav = navigator
        for tick in 1...300 {
            let t = Double(tick) / 30
            let yawed = min(max(t - 2, 0) * 90, 180)
            if tick % 2 == 0 { nav.ingest(vehicleYawDegrees: 20 + yawed, at: MonotonicTime(seconds: t)) }
            if tick % 6 == 0, nav.ingestHeading(Self.report(normalizedDegrees360(yawed), at: t)) == .rejected { rejected += 1 }
        }
        // Then nothing is rejected and the nose heading ends at 270°
        #expect(rejected == 0)
        #expect(nav.noseHeadingDegrees(now: MonotonicTime(seconds: 10)).map { abs(wrappedDegrees180($0 - 270)) < 1 } == true)
    }

    @Test func withoutNavdataYawReportsAreUsedAsBefore() {
        var navigator = Navigator(mountOffsetDegrees: 90)
        #expect(navigator.ingestHeading(Self.report(10, at: 1.0)) == .accepted)
        #expect(navigator.ingestHeading(Self.report(190, at: 1.2)) == .accepted)
        #expect(navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 1.3)) == 280)
        #expect(navigator.rejectedHeadingReports == 0)
    }
}

/// The same faults flown closed loop: relative displacement and the named hold.
@Suite("Closed loop: heading glitches")
struct HeadingGlitchClosedLoopTests {
    /// Largest distance between the drone's position relative to the person in two runs, metres.
    static func relativeDisplacement(_ a: ClosedLoopResult, _ b: ClosedLoopResult, from: Double, to: Double) -> Double {
        var worst = 0.0
        for (x, y) in zip(a.samples, b.samples) where x.time >= from && x.time <= to {
            worst = max(worst, ((x.drone - x.person) - (y.drone - y.person)).length)
        }
        return worst
    }

    /// Runs the same followed walk twice: as `config` says, then with `fault` rewriting the heading reports.
    static func cleanAndFaulted(
        _ config: ClosedLoopConfig, headingFault fault: @escaping @Sendable (_ time: Double, _ headingDegrees: Double) -> Double
    ) throws -> (clean: ClosedLoopResult, faulted: ClosedLoopResult) {
        var faulted = config
        faulted.headingFault = fault
        return (try runClosedLoop(config), try runClosedLoop(faulted))
    }

    @Test("one report rotated 180° mid straight walk barely moves the drone", arguments: PlantModel.both)
    func oneFlippedReport(plant: PlantModel) throws {
        // Given a person walking east at 1.4 m/s, followed (60 s), with and without the glitch
        let config = ClosedLoopConfig(plant: plant, durationSeconds: 45)
        // When one heading report, sampled at t = 30 s, is rotated by 180°
        let (clean, glitched) = try Self.cleanAndFaulted(config) { t, h in abs(t - 30) < 1e-6 ? h + 180 : h }
        // Then the drone's position relative to the person moves < 0.5 m against the clean run
        let displacement = Self.relativeDisplacement(clean, glitched, from: 29, to: 45)
        print("[\(plant)] one 180° heading report at 30 s: relative displacement \((displacement * 1000).rounded() / 1000) m, rejected \(glitched.machine.navigator.rejectedHeadingReports)")
        #expect(displacement < 0.5)
        // (the old Navigator took the flipped report at once: 0.53 m nominal, 0.64 m off-model;
        // rejected, it changes nothing at all)
        #expect(displacement < 0.05)
        #expect(glitched.machine.navigator.rejectedHeadingReports == 1)
        #expect(glitched.samples.filter { $0.time >= 15 }.allSatisfy { $0.state == .following })
    }

    @Test("honest heading reports are never rejected, also while the drone turns", arguments: [1.0, 5.0], PlantModel.both)
    func honestReportsPass(rate: Double, plant: PlantModel) throws {
        // Given a person who turns 90° (the drone yaws to face them) and true heading reports
        let config = ClosedLoopConfig(plant: plant, person: .rightAngle(turnAt: 20),
                                      durationSeconds: 40, gpsRateHz: rate)
        let result = try runClosedLoop(config)
        // Then no report is rejected and no heading hold happens
        #expect(result.machine.navigator.rejectedHeadingReports == 0)
        #expect(!result.samples.contains { $0.state == .holding(.headingRejected) })
    }

    @Test("a real 180° re-mount ends in a named hold, never flight on a wrong frame", arguments: PlantModel.both)
    func reMount(plant: PlantModel) throws {
        // Given a followed walk; when every heading report from t = 30 s is rotated by 180°
        let config = ClosedLoopConfig(plant: plant, durationSeconds: 50)
        let (clean, result) = try Self.cleanAndFaulted(config) { t, h in t >= 30 ? h + 180 : h }
        let timeout = config.failsafe.headingTimeoutSeconds
        // Then it holds for the rejected heading once the rejections last headingTimeoutSeconds…
        let hold = try #require(result.samples.first { $0.state == .holding(.headingRejected) })
        #expect(hold.time >= 30 + config.headingLatencySeconds + timeout - 1e-6)
        #expect(hold.time <= 30 + config.headingLatencySeconds + timeout + 0.1)
        // …following on the old (right) frame until then, never on the rotated one
        let before = Self.relativeDisplacement(clean, result, from: 29, to: hold.time)
        print("[\(plant)] 180° re-mount at 30 s: hold at \(hold.time) s, relative displacement before it \((before * 1000).rounded() / 1000) m, rejected \(result.machine.navigator.rejectedHeadingReports)")
        #expect(before < 0.5)
        let after = result.samples.filter { $0.time >= hold.time }
        #expect(!after.contains { $0.state == .following || $0.state == .climbing })
        // …and lands when the hold expires (navdata never confirms "landed" in this world)
        #expect(after.contains { $0.state == .landing(.holdExpired(.headingRejected)) })
        #expect(result.machine.state.name == "landing(hold-expired:heading-rejected)")
    }
}
