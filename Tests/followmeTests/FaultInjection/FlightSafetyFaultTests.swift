import Foundation
import Testing
import TestSupport

/// One ground-truth sample of the drone relative to the person (simulator `status`).
struct OffsetSample {
    /// Simulator clock (= flight-log clock), seconds.
    let t: Double
    /// Drone minus person, metres east/north.
    let east: Double
    let north: Double
    let droneToPersonMeters: Double
    let state: String

    /// Metres between this offset and `east`/`north`.
    func distance(toEast e: Double, north n: Double) -> Double {
        ((east - e) * (east - e) + (north - n) * (north - n)).squareRoot()
    }
}

/// Samples the simulator's truth every `periodSeconds` for `seconds` (stops early once `stop` holds).
func sampleOffsets(_ rig: FaultRig, seconds: Double, periodSeconds: Double = 0.05,
                   stop: () -> Bool = { false }) async -> [OffsetSample] {
    var samples: [OffsetSample] = []
    let end = monotonicSeconds() + seconds
    while monotonicSeconds() < end, !stop() {
        if let s = try? rig.control.status(), let offset = s.droneMinusPerson, let distance = s.droneToPersonMeters {
            samples.append(OffsetSample(t: s.t, east: offset.east, north: offset.north, droneToPersonMeters: distance,
                                        state: s.state))
        }
        try? await Task.sleep(for: .milliseconds(Int(periodSeconds * 1000)))
    }
    return samples
}

/// The mean offset of `samples`, metres east/north.
func meanOffset(_ samples: [OffsetSample]) -> (east: Double, north: Double) {
    let n = Double(max(samples.count, 1))
    return (samples.map(\.east).reduce(0, +) / n, samples.map(\.north).reduce(0, +) / n)
}

/// Issue 11's faults on the whole chain (real gpsd, `followme sim`, `followme run`): a wild heading
/// report, a re-mounted receiver, a drone that lands by itself while navdata is silent, and a drone
/// whose navdata falls back to bootstrap mid-flight. Timings as in the rest of the suite: generous
/// but bounded; every number is recorded as `FAULT-RESULT`.
@Suite("Fault injection: heading glitches, a landing during a navdata gap, bootstrap fallback")
struct FlightSafetyFaultTests {
    /// How long the follower gets to settle after "following" before a displacement is measured,
    /// seconds (our choice: the straight-walk offset is steady within ~5 s of the climb).
    static let settleSeconds = 5.0
    /// The drone–person offset may change by less than this because of one wild heading report,
    /// metres. Issue 11 (defect 1) asks for < 0.5 m, but on this rig (HDT at 5 Hz, so the next
    /// report corrects a wild one after 0.2 s) the 07310b2 code that uses the wild report already
    /// stays at 0.44–0.45 m (4 runs), so 0.5 m cannot tell a fix from no fix. A report that is not
    /// used should move the drone no more than its natural spread while following (0.05–0.06 m
    /// measured over 2 s): 0.25 m, our choice, ~4× that spread and ~½ the unfixed displacement.
    static let glitchDisplacementLimitMeters = 0.25
    /// After navdata says "landed", followme may still send REF take-off bits for this long, seconds:
    /// the packet is decided on at the next 30 ms tick and the link re-sends every 30 ms (our choice:
    /// about six AT periods, for a loaded 2-core machine).
    static let reactionAllowanceSeconds = 0.2

    /// One wild heading report: rotated by 180° (a dual-antenna receiver's flip), or reading 0.0
    /// (what some compasses send when invalid; 90° from the true 270° here).
    static let glitches: [(label: String, command: [String: any Sendable], sentCounter: String)] = [
        ("rotated-180", ["command": "heading-glitch", "degrees": 180, "count": 1], "heading_glitches_sent"),
        ("reads-0", ["command": "heading-value", "degrees": 0, "count": 1], "heading_values_sent"),
    ]

    @Test("15a. one wild onboard heading (rotated 180°, or 0.0) mid-flight → keeps following, no hold, moves < 0.25 m relative to the person",
          .timeLimit(.minutes(6)), arguments: 0..<2)
    func headingGlitch(glitchIndex: Int) async throws {
        let glitch = Self.glitches[glitchIndex]
        try await FaultRig.withFollowingField("heading-glitch-\(glitch.label)") { rig in
            // Given a drone following a person walking a straight line, settled
            try await Task.sleep(for: .seconds(Self.settleSeconds))
            let baseline = await sampleOffsets(rig, seconds: 2)
            try #require(baseline.count >= 10, "too few status samples: \(baseline.count)")
            let reference = meanOffset(Array(baseline.suffix(baseline.count / 2)))
            let naturalMeters = baseline.map { $0.distance(toEast: reference.east, north: reference.north) }.max() ?? .nan

            // When the onboard receiver emits one wild heading report
            let t0 = try rig.control.send(glitch.command)["t"] as? Double ?? .nan
            let sent = await eventually(seconds: 3) { (try? rig.control.status())?.faults[glitch.sentCounter] as? Int == 1 }
            #expect(sent, "the glitched heading was never sent")
            let after = await sampleOffsets(rig, seconds: 4)

            // Then the drone–person offset moves less than 0.25 m from where it was
            let displacement = after.map { $0.distance(toEast: reference.east, north: reference.north) }.max() ?? .nan
            #expect(displacement < Self.glitchDisplacementLimitMeters,
                    "the offset moved \(displacement) m after one wild heading (natural spread \(naturalMeters) m)\n\(rig.diagnostics())")
            // And it kept following: no transition at all, the drone flying throughout
            let transitions = rig.log.transitions().filter { $0.t >= t0 }
            #expect(transitions.isEmpty, "transitions after the glitch: \(transitions)")
            #expect(after.allSatisfy { $0.state == "flying" })
            // And the wild report did reach followme (gpsd passed it on)
            let headings = rig.log.gpsEvents(after: t0 - 0.5).compactMap { e -> (heading: Double, verdict: String?)? in
                guard e.event["role"] as? String == "onboard", let h = e.event["heading"] as? Double else { return nil }
                return (h, e.verdict)
            }
            let typical = headings.first?.heading ?? .nan
            let wild = headings.first { abs(angleDifference($0.heading, typical)) > 60 }
            #expect(wild != nil, "the rotated heading never reached followme: \(headings.prefix(10).map(\.heading))")
            FaultReport.record("15a-heading-glitch-\(glitch.label)", [
                "relative_displacement_m": displacement, "natural_spread_m": naturalMeters,
                "transitions_after": transitions.count, "heading_reached_followme": wild != nil,
                "heading_verdict": wild?.verdict ?? "-",
                "drone_person_m": after.map(\.droneToPersonMeters).max() ?? .nan,
            ])
        }
    }

    @Test("15b. the onboard receiver re-mounted 180° (every later heading rotated) → hold(heading-rejected), then land; never follows on a wrong frame",
          .timeLimit(.minutes(6)))
    func headingRemount() async throws {
        try await FaultRig.withFollowingField("heading-remount") { rig in
            // Given a settled follower
            try await Task.sleep(for: .seconds(Self.settleSeconds))
            let baseline = await sampleOffsets(rig, seconds: 1)
            let reference = meanOffset(baseline)
            let baselineDistance = baseline.map(\.droneToPersonMeters).max() ?? .nan

            // When every later heading report is rotated by 180°
            let t0 = try rig.control.send(["command": "heading-offset", "degrees": 180])["t"] as? Double ?? .nan
            // Then, until the hold, the drone does not fly off on the wrong frame
            let beforeHold = await sampleOffsets(rig, seconds: 8) {
                rig.log.firstTransition(after: t0 - 1) { $0.to.hasPrefix("holding") || $0.to.hasPrefix("landing") } != nil
            }
            let strayMeters = beforeHold.map { $0.distance(toEast: reference.east, north: reference.north) }.max() ?? 0
            let farthest = beforeHold.map(\.droneToPersonMeters).max() ?? .nan
            #expect(strayMeters < 2.0, "the offset moved \(strayMeters) m on a wrong frame (drone–person up to \(farthest) m)")
            // And followme holds for the rejected heading (within 3 s + 1 s slack), then lands after land_after_s
            let times = await expectHoldThenLand(
                rig, t0: t0, timeoutSeconds: 3.0, holdState: { $0 == "holding(heading-rejected)" },
                landState: "landing(hold-expired:heading-rejected)")
            let resumed = rig.log.transitions().filter { $0.t >= t0 && ($0.to == "following" || $0.to == "climbing") }
            #expect(resumed.isEmpty, "followed again with the re-mounted receiver: \(resumed)")
            report("15b-heading-remount", times, extra: [
                "offset_moved_before_hold_m": strayMeters, "max_drone_person_before_hold_m": farthest,
                "baseline_drone_person_m": baselineDistance,
                "first_transition": rig.log.firstTransition(after: t0 - 1) { _ in true }?.description ?? "-",
            ])
        }
    }

    @Test("16. navdata silent while the drone lands by itself → landed (landed-unexpectedly), no REF take-off after, exits 0 on SIGTERM",
          .timeLimit(.minutes(6)))
    func navdataGapWhileTheDroneLands() async throws {
        // land_after_s 15: followme must still be holding (REF bit 9 set) when navdata returns, so the
        // outcome is its reaction to the landed report, not its own hold expiry.
        try await FaultRig.withFollowingField("navdata-gap-landing", config: ["failsafe": ["land_after_s": "15.0"]]) { rig in
            // When navdata goes silent and the drone lands on its own during the gap
            let t0 = try rig.control.silence("navdata", true)
            try rig.control.send(["command": "land"])
            let down = await poll(seconds: 12) { () -> SimStatus? in
                guard let s = try? rig.control.status(), s.state == "landed" else { return nil }
                return s
            }
            let touchdown = try #require(down, "the simulated drone did not land\n\(rig.diagnostics())")
            #expect(touchdown.landingReason == "automatic", "sim: \(touchdown.summary)")
            try await Task.sleep(for: .seconds(0.5))
            let hold = rig.log.firstTransition(after: t0 - 1) { _ in true }
            #expect(hold?.to == "holding(navdata-lost)", "during the gap: \(String(describing: hold))")
            let bitsBefore = try #require(rig.status()).takeoffBitsAfterLandedAnnounced
            // And navdata returns, showing the drone landed
            let t1 = try rig.control.silence("navdata", false)

            // Then followme goes to landed (unexpected landing), never to taking-off
            let landed = await rig.log.waitForTransition(to: "landed", after: t1 - 0.5, within: 8)
            #expect(landed?.reason == "landed-unexpectedly", "\(String(describing: landed))\n\(rig.diagnostics())")
            try await Task.sleep(for: .seconds(3))
            let after = rig.log.transitions().filter { $0.t >= t0 }
            #expect(!after.contains { $0.to == "taking-off" }, "took off again: \(after)")
            // And the drone, on the ground, received no REF take-off bit once its navdata said "landed"
            // (beyond the reaction allowance)
            let status = try #require(rig.status())
            #expect(status.state == "landed", "sim: \(status.summary)")
            let announcedAt = try #require(status.landedAnnouncedAt, "no landed navdata sent after the gap")
            let bits = status.takeoffBitsAfterLandedAnnounced - bitsBefore
            let lastBitAt = status.lastTakeoffBitAfterLandedAnnouncedAt ?? -.infinity
            let lateBitSeconds = lastBitAt - announcedAt
            #expect(lateBitSeconds <= Self.reactionAllowanceSeconds,
                    "REF take-off bits went on \(lateBitSeconds) s after the drone said it had landed (\(bits) bits)")
            // And it exits when asked
            let run = try #require(rig.run)
            run.signal(SIGTERM)
            let exit = await run.waitForExit(seconds: 15)
            #expect(exit == 0, "exit \(String(describing: exit))\n\(run.stderrText.text.suffix(1500))")
            FaultReport.record("16-navdata-gap-landing", [
                "gap_s": t1 - t0, "sim_landed_after_s": touchdown.t - t0,
                "followme_landed_after_navdata_back_s": landed.map { $0.t - t1 } ?? .nan,
                "followme_landed_reason": landed?.reason ?? "-",
                "transitions": after.map(\.description),
                "takeoff_bits_after_landed_navdata": bits,
                "last_takeoff_bit_after_landed_navdata_s": bits > 0 ? lateBitSeconds : 0,
                "exit_on_sigterm": Int(exit ?? -1),
            ])
        }
    }

    @Test("17. navdata falls back to bootstrap mid-flight (config forgotten) → the link redoes the bootstrap and config; demo resumes; flight goes on",
          .timeLimit(.minutes(6)))
    func bootstrapFallback() async throws {
        try await FaultRig.withFollowingField("bootstrap-fallback") { rig in
            let before = try #require(rig.status())
            #expect(before.navdataMode == "demo")
            // When the drone's navdata falls back to bootstrap and it forgets its configuration
            let t0 = try rig.control.send(["command": "navdata-bootstrap", "forget": "all"])["t"] as? Double ?? .nan
            // Then the drone sees navdata_demo written again, acknowledged (CTRL 5), every config key
            // written again, and demo navdata resumes
            let redone = await poll(seconds: 15) { () -> SimStatus? in
                guard let s = try? rig.control.status(), s.navdataMode == "demo", s.configKeys >= before.configKeys else { return nil }
                return s
            }
            let after = redone ?? rig.status()
            #expect(redone != nil, "bootstrap not redone: sim \(after.map { "navdata \($0.navdataMode), config keys \($0.configKeys)" } ?? "-")\n\(rig.diagnostics())")
            if let after {
                #expect(after.navdataDemoWrites > before.navdataDemoWrites, "navdata_demo writes \(before.navdataDemoWrites) → \(after.navdataDemoWrites)")
                #expect(after.configAcks > before.configAcks, "CTRL 5 \(before.configAcks) → \(after.configAcks)")
                #expect(after.configWrites - before.configWrites >= before.configKeys,
                        "config writes \(before.configWrites) → \(after.configWrites) for \(before.configKeys) keys")
            }
            let redoneAfter = redone.map { $0.t - t0 } ?? .nan
            // And the flight goes on: following again (after a hold, if any), never landing
            let following = await rig.log.waitForTransition(after: t0, within: 10) { $0.to == "following" }
            let transitions = rig.log.transitions().filter { $0.t >= t0 }
            if !transitions.isEmpty {
                #expect(following != nil, "did not resume following: \(transitions)\n\(rig.diagnostics())")
            }
            try await Task.sleep(for: .seconds(2))
            let all = rig.log.transitions().filter { $0.t >= t0 }
            #expect(!all.contains { $0.to.hasPrefix("landing") || $0.to == "landed" }, "\(all)")
            #expect(all.last.map { $0.to == "following" } ?? true, "\(all)")
            if let s = rig.status() {
                #expect(s.state == "flying", "sim: \(s.summary)")
                #expect(s.navdataMode == "demo")
            }
            // And followme got demo navdata again after the fallback
            let navdata = rig.log.objects().filter { $0["kind"] as? String == "navdata" && ($0["t"] as? Double ?? 0) > t0 + 1 }
            #expect(!navdata.isEmpty, "no navdata summary in the flight log after the fallback")
            let hold = transitions.first { $0.to.hasPrefix("holding") }
            let resumed = transitions.first { $0.to == "following" }
            // (JSON has no NaN: a value that was not measured is left out.)
            var values: [String: Any] = [
                "navdata_demo_writes": (after?.navdataDemoWrites ?? 0) - before.navdataDemoWrites,
                "config_writes": (after?.configWrites ?? 0) - before.configWrites,
                "config_acks": (after?.configAcks ?? 0) - before.configAcks,
                "hold_state": hold?.to ?? "-", "transitions": all.map(\.description),
            ]
            if redoneAfter.isFinite { values["bootstrap_redone_within_s"] = redoneAfter }
            if let hold, let resumed { values["held_s"] = resumed.t - hold.t }
            FaultReport.record("17-bootstrap-fallback", values)
        }
    }
}

/// Signed difference a − b of two compass angles, degrees in (−180, 180].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d <= -180 { d += 360 }
    return d
}
