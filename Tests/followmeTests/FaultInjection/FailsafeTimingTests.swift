import Foundation
import Testing
import TestSupport

/// Timings shared by the scenarios: the timeouts are read from `shortFailsafes` (the config the
/// rig flies with), so the two cannot drift apart.
enum Short {
    static let targetTimeoutSeconds = failsafeSeconds("target_timeout_s")
    static let onboardTimeoutSeconds = failsafeSeconds("onboard_timeout_s")
    static let headingTimeoutSeconds = failsafeSeconds("heading_timeout_s")
    static let telemetryTimeoutSeconds = failsafeSeconds("navdata_timeout_s")
    static let landAfterSeconds = failsafeSeconds("land_after_s")
    /// What the brief allows on top of a timeout before the hold must have started.
    static let holdSlackSeconds = 1.0
    /// Allowed lateness of the land decision after `landAfterSeconds` of holding.
    static let landSlackSeconds = 1.0

    /// `[failsafe] key` of `shortFailsafes`, seconds (a missing or non-numeric key is a bug in the rig).
    private static func failsafeSeconds(_ key: String) -> Double {
        guard let text = shortFailsafes["failsafe"]?[key], let seconds = Double(text) else {
            fatalError("shortFailsafes has no numeric [failsafe] \(key)")
        }
        return seconds
    }
}

/// What `expectHoldThenLand` measured, seconds from the injection.
struct HoldLandTimes {
    var hold: Transition
    var land: Transition
    var landed: Transition?
    var injectedAt: Double
    var toHold: Double { hold.t - injectedAt }
    var toLand: Double { land.t - injectedAt }
    var toLanded: Double? { landed.map { $0.t - injectedAt } }
    var holdDuration: Double { land.t - hold.t }
}

/// After a fault at `t0` (sim clock = flight-log clock): a hold whose state satisfies `holdState`
/// within `timeout + holdSlack`, then `landState` after `landAfterSeconds` of holding, then
/// "landed" confirmed by navdata, and the simulated drone on the ground.
func expectHoldThenLand(
    _ rig: FaultRig, t0: Double, timeoutSeconds: Double, holdState: (String) -> Bool, landState: String,
    expectLanded: Bool = true
) async -> HoldLandTimes? {
    let log = rig.log
    // Then the drone holds within the timeout + slack
    guard let hold = await log.waitForTransition(after: t0 - 1, within: timeoutSeconds + Short.holdSlackSeconds + 6, {
        $0.to.hasPrefix("holding") || $0.to.hasPrefix("landing")
    }) else {
        Issue.record("no hold after the fault\n\(rig.diagnostics())")
        return nil
    }
    #expect(holdState(hold.to), "first hold \(hold)\n\(rig.diagnostics())")
    #expect(hold.t >= t0, "held before the fault was injected: \(hold)")
    #expect(hold.t - t0 <= timeoutSeconds + Short.holdSlackSeconds, "hold \(hold.t - t0) s after the fault")

    // And lands once it held for land_after_s
    guard let land = await log.waitForTransition(after: hold.t, within: Short.landAfterSeconds + Short.landSlackSeconds + 8, {
        $0.to.hasPrefix("landing")
    }) else {
        Issue.record("no landing after the hold\n\(rig.diagnostics())")
        return nil
    }
    #expect(land.to == landState, "\(land)\n\(rig.diagnostics())")
    let held = land.t - hold.t
    #expect(held >= Short.landAfterSeconds - 0.05 && held <= Short.landAfterSeconds + Short.landSlackSeconds,
            "held \(held) s before landing (land_after_s \(Short.landAfterSeconds))")
    // And it never resumed following in between
    let between = log.transitions().filter { $0.t > hold.t && $0.t < land.t }
    #expect(!between.contains { $0.to == "following" || $0.to == "climbing" }, "resumed while holding: \(between)")

    var times = HoldLandTimes(hold: hold, land: land, landed: nil, injectedAt: t0)
    guard expectLanded else { return times }
    // And navdata confirms the landing (2 m at 0.5 m/s ≈ 4 s)
    times.landed = await log.waitForTransition(to: "landed", after: land.t, within: 15)
    #expect(times.landed?.reason == "landed-confirmed", "\(String(describing: times.landed))\n\(rig.diagnostics())")
    // And the simulated drone is on the ground, landed because it was told to
    if let status = rig.status() {
        #expect(status.state == "landed", "sim: \(status.summary)")
        #expect(status.altitudeMeters == 0, "sim: \(status.summary)")
        #expect(rig.landingReason(status) == "commanded", "sim: \(status.summary)")
    }
    return times
}

/// After a fault at `t0`: the first hold is `holdState`, within `timeoutSeconds + holdSlack`.
/// Returns the hold's latency from `t0`, seconds (NaN: no hold).
func expectHold(
    _ rig: FaultRig, t0: Double, timeoutSeconds: Double, holdState: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Double {
    let hold = await rig.log.waitForTransition(after: t0 - 1, within: 8) { $0.to.hasPrefix("holding") }
    #expect(hold?.to == holdState, "\(rig.diagnostics())", sourceLocation: sourceLocation)
    let holdLatency = hold.map { $0.t - t0 } ?? .nan
    #expect(holdLatency <= timeoutSeconds + Short.holdSlackSeconds, "hold \(holdLatency) s after the fault",
            sourceLocation: sourceLocation)
    return holdLatency
}

/// After the silenced source came back at `t1`: the drone leaves `holdState` on fresh data within
/// `withinSeconds`. Returns that transition and its latency from `t1`, seconds (NaN: none).
func expectResume(
    _ rig: FaultRig, from holdState: String, t1: Double, withinSeconds: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> (resume: Transition?, latency: Double) {
    let resume = await rig.log.waitForTransition(after: t1 - 0.5, within: 6) {
        $0.from == holdState && $0.reason == "data-fresh"
    }
    #expect(resume != nil, "did not resume\n\(rig.diagnostics())", sourceLocation: sourceLocation)
    let latency = resume.map { $0.t - t1 } ?? .nan
    #expect(latency <= withinSeconds, "resumed \(latency) s after the source came back", sourceLocation: sourceLocation)
    return (resume, latency)
}

func report(_ fault: String, _ times: HoldLandTimes?, extra: [String: Any] = [:]) {
    guard let times else { return }
    var values: [String: Any] = [
        "to_hold_s": times.toHold, "to_landing_s": times.toLand, "held_s": times.holdDuration,
        "hold_state": times.hold.to, "landing_state": times.land.to,
    ]
    if let landed = times.toLanded { values["to_landed_s"] = landed }
    values.merge(extra) { _, new in new }
    FaultReport.record(fault, values)
}

/// Faults 1–4, 6, 10–12: a failsafe that must hold and then land, or resume, on time.
@Suite("Fault injection: failsafe timing over real gpsd and the simulated drone")
struct FailsafeTimingTests {
    /// Faults 1, 3 and 4: the fault report's name, the rig's field label, the source silenced, its
    /// timeout (seconds), the holds allowed first and the landing state that must follow.
    typealias SilentSource = (
        fault: String, field: String, source: String, timeoutSeconds: Double, holdStates: [String], landState: String
    )

    @Test("1, 3, 4. a source silent for good → hold within its timeout + 1 s, land after land_after_s, landed",
          .timeLimit(.minutes(6)), arguments: [
        // 1. the person's receiver: hold(target-stale) → landing(hold-expired:target-stale) → landed
        (fault: "1-target-silent", field: "target-silent", source: "person", timeoutSeconds: Short.targetTimeoutSeconds,
         holdStates: ["holding(target-stale)"], landState: "landing(hold-expired:target-stale)"),
        // 3. the drone's receiver (fixes and heading): it holds (onboard fix or heading stale, whichever
        // ages first) and lands on the onboard fix
        (fault: "3-onboard-silent", field: "onboard-silent", source: "onboard",
         timeoutSeconds: max(Short.onboardTimeoutSeconds, Short.headingTimeoutSeconds),
         holdStates: ["holding(onboard-fix-stale)", "holding(heading-stale)"],
         landState: "landing(hold-expired:onboard-fix-stale)"),
        // 4. only the onboard heading (HDT → gpsd ATT); fixes continue
        (fault: "4-heading-lost", field: "heading-lost", source: "heading", timeoutSeconds: Short.headingTimeoutSeconds,
         holdStates: ["holding(heading-stale)"], landState: "landing(hold-expired:heading-stale)"),
    ] as [SilentSource])
    func sourceSilentForGood(_ c: SilentSource) async throws {
        try await FaultRig.withFollowingField(c.field) { rig in
            // When the source goes silent
            let t0 = try rig.control.silence(c.source, true)
            // Then it holds, lands after land_after_s of holding, and navdata confirms the landing
            let times = await expectHoldThenLand(
                rig, t0: t0, timeoutSeconds: c.timeoutSeconds, holdState: { c.holdStates.contains($0) },
                landState: c.landState)
            report(c.fault, times)
        }
    }

    @Test("2. target silent for 2 s, back before land_after_s → resumes following, never lands",
          .timeLimit(.minutes(6)))
    func targetReceiverBack() async throws {
        try await FaultRig.withFollowingField("target-back") { rig in
            // When the person's receiver goes silent for 2 s (< land_after_s 4)
            let t0 = try rig.control.silence("person", true)
            let holdLatency = await expectHold(
                rig, t0: t0, timeoutSeconds: Short.targetTimeoutSeconds, holdState: "holding(target-stale)")
            try await Task.sleep(for: .seconds(max(0.1, t0 + 2.0 - monotonicSeconds())))
            let t1 = try rig.control.silence("person", false)

            // Then it leaves the hold on fresh data, well before the land deadline
            let (resume, resumeLatency) = await expectResume(
                rig, from: "holding(target-stale)", t1: t1, withinSeconds: 1.5)
            // And follows again, with no landing for the next land_after_s + 1 s
            let following = await rig.log.waitForTransition(to: "following", after: t1 - 0.5, within: 10)
            #expect(following != nil, "\(rig.diagnostics())")
            try await Task.sleep(for: .seconds(Short.landAfterSeconds + 1))
            let landings = rig.log.transitions().filter { $0.t >= t0 && $0.to.hasPrefix("landing") }
            #expect(landings.isEmpty, "landed although the target came back: \(landings)")
            #expect(rig.log.transitions().last?.to == "following", "\(rig.diagnostics())")
            if let status = rig.status() { #expect(status.state == "flying", "sim: \(status.summary)") }
            FaultReport.record("2-target-back", [
                "to_hold_s": holdLatency, "silence_s": t1 - t0, "resume_after_back_s": resumeLatency,
                "resume_state": resume?.to ?? "-",
            ])
        }
    }

    @Test("6a. navdata silent for 2 s → hold(navdata-lost), AT keeps flowing, resumes when navdata returns",
          .timeLimit(.minutes(6)))
    func navdataGapResumes() async throws {
        try await FaultRig.withFollowingField("navdata-gap") { rig in
            let atBefore = rig.status()?.atDatagrams ?? 0
            // When the drone stops sending navdata for 2 s
            let t0 = try rig.control.silence("navdata", true)
            let holdLatency = await expectHold(
                rig, t0: t0, timeoutSeconds: Short.telemetryTimeoutSeconds, holdState: "holding(navdata-lost)")
            try await Task.sleep(for: .seconds(max(0.1, t0 + 1.6 - monotonicSeconds())))
            // Then the drone keeps receiving AT commands (followme does not go quiet), so its own com
            // watchdog never trips: it stays flying, not "hovering on lost com"
            let during = rig.status()
            try await Task.sleep(for: .seconds(max(0.1, t0 + 2.0 - monotonicSeconds())))
            let t1 = try rig.control.silence("navdata", false)
            if let during {
                #expect(during.state == "flying", "sim during the gap: \(during.summary)")
                #expect(!during.comWatchdog, "the drone's com watchdog tripped: \(during.summary)")
                #expect(during.atDatagrams > atBefore + 30, "AT traffic stopped during the navdata gap: \(during.summary)")
                #expect(during.maxCommandGapSeconds < 0.5, "AT gap \(during.maxCommandGapSeconds) s")
            }
            // And when navdata returns, the link reports it and the drone follows again
            let resumeLatency = await expectResume(rig, from: "holding(navdata-lost)", t1: t1, withinSeconds: 1.0).latency
            #expect(!rig.log.linkEvents("navdata-lost", after: t0).isEmpty)
            #expect(!rig.log.linkEvents("navdata-restored", after: t1 - 0.1).isEmpty)
            let following = await rig.log.waitForTransition(to: "following", after: t1 - 0.5, within: 10)
            #expect(following != nil)
            let landings = rig.log.transitions().filter { $0.t >= t0 && $0.to.hasPrefix("landing") }
            #expect(landings.isEmpty, "\(landings)")
            FaultReport.record("6a-navdata-gap", [
                "to_hold_s": holdLatency, "silence_s": t1 - t0, "resume_after_back_s": resumeLatency,
                "sim_state_during_gap": during?.state ?? "-", "sim_com_watchdog_during_gap": during?.comWatchdog ?? false,
                "max_at_gap_s": during?.maxCommandGapSeconds ?? .nan,
            ])
        }
    }

    @Test("6b. navdata never returns → hold, then followme lands blind (REF land); the sim lands; exit 1 on SIGTERM",
          .timeLimit(.minutes(6)))
    func navdataNeverReturns() async throws {
        try await FaultRig.withFollowingField("navdata-gone", runArguments: ["--land-timeout", "3"]) { rig in
            // When navdata stops for good
            let t0 = try rig.control.silence("navdata", true)
            // Then hold(navdata-lost), and landing(hold-expired:navdata-lost) after land_after_s; no
            // "landed" can be confirmed without navdata
            let times = await expectHoldThenLand(
                rig, t0: t0, timeoutSeconds: Short.telemetryTimeoutSeconds, holdState: { $0 == "holding(navdata-lost)" },
                landState: "landing(hold-expired:navdata-lost)", expectLanded: false)
            // And the drone, still receiving AT commands, obeys the REF land and touches down
            let down = await poll(seconds: 12) { () -> SimStatus? in
                guard let s = try? rig.control.status(), s.state == "landed" else { return nil }
                return s
            }
            #expect(down?.landingReason == "commanded", "sim: \(down?.summary ?? "no status")")
            let simLandedAt = down?.t
            #expect(rig.log.transitions().last?.to.hasPrefix("landing") == true,
                    "followme cannot know it landed without navdata: \(rig.log.transitions().suffix(3))")
            // And on SIGTERM it gives up waiting for a confirmation it cannot get: exit 1
            let run = try #require(rig.run)
            run.signal(SIGTERM)
            let status = await run.waitForExit(seconds: 15)
            #expect(status == 1, "exit \(String(describing: status)): \(run.stderrText.text.suffix(1500))")
            #expect(run.stderrText.text.contains("landing was not confirmed"))
            var extra: [String: Any] = ["exit_on_sigterm": Int(status ?? -1)]
            if let simLandedAt { extra["sim_landed_after_s"] = simLandedAt - t0 }
            report("6b-navdata-gone", times, extra: extra)
        }
    }

    /// Issue 11 (defect 11): a low reading must persist `low_battery_confirm_s` (default 2 s) before
    /// the drone lands; at or under `critical_battery_pct` (default 15) it lands at once.
    static let batteryCases: [(percent: Int, landing: String, earliestSeconds: Double, latestSeconds: Double)] = [
        (20, "landing(low-battery)", 2.0 - 0.1, 2.0 + 1.0),
        (10, "landing(critical-battery)", 0, 1.0),
    ]

    @Test("10. low battery 20 % (min 25) → land after low_battery_confirm_s; critical 10 % (≤ 15) → land at once; landed",
          .timeLimit(.minutes(6)), arguments: 0..<2)
    func lowBattery(caseIndex: Int) async throws {
        let battery = Self.batteryCases[caseIndex]
        try await FaultRig.withFollowingField("low-battery-\(battery.percent)") { rig in
            // When the battery reads 20 % (min_battery_pct 25) or 10 % (critical_battery_pct 15)
            let reply = try rig.control.send(["command": "battery", "percent": battery.percent])
            let t0 = reply["t"] as? Double ?? monotonicSeconds()
            // Then it lands for the battery after the confirmation time (low) or within a navdata
            // period or two (critical), and navdata confirms it
            let land = await rig.log.waitForTransition(after: t0 - 1, within: 8) { $0.to.hasPrefix("landing") || $0.to.hasPrefix("holding") }
            #expect(land?.to == battery.landing, "\(rig.diagnostics())")
            let toLand = land.map { $0.t - t0 } ?? .nan
            #expect(toLand >= battery.earliestSeconds && toLand <= battery.latestSeconds,
                    "landing \(toLand) s after the battery dropped to \(battery.percent) %")
            let landed = await rig.log.waitForTransition(to: "landed", after: t0, within: 15)
            #expect(landed?.reason == "landed-confirmed")
            if let status = rig.status() {
                #expect(status.state == "landed" && status.landingReason == "commanded", "sim: \(status.summary)")
            }
            FaultReport.record("10-battery-\(battery.percent)", ["to_landing_s": toLand, "to_landed_s": landed.map { $0.t - t0 } ?? .nan])
        }
    }

    @Test("11. geofence (geofence_m 15, person walking away) → hold(geofence), then land", .timeLimit(.minutes(6)))
    func geofence() async throws {
        try await FaultRig.withFollowingField("geofence", config: ["failsafe": ["geofence_m": "15.0"]]) { rig in
            let t0 = monotonicSeconds()
            // When the person keeps walking away from the take-off point (1.4 m/s, standoff 6 m)
            // Then the drone holds at the fence, and lands after land_after_s
            var farthest = 0.0
            let hold = await poll(seconds: 40) { () -> Transition? in
                if let s = try? rig.control.status() { farthest = max(farthest, (s.east * s.east + s.north * s.north).squareRoot()) }
                return rig.log.firstTransition(after: t0) { $0.to.hasPrefix("holding") || $0.to.hasPrefix("landing") }
            }
            #expect(hold?.to == "holding(geofence)",
                    "no geofence hold within 40 s; drone at most \(farthest) m from home (fence 15 m)\n\(rig.diagnostics())")
            guard let hold, hold.to == "holding(geofence)" else {
                FaultReport.record("11-geofence", ["outcome": "no-hold", "max_drone_distance_from_home_m": farthest])
                return
            }
            let times = await expectHoldThenLand(
                rig, t0: hold.t, timeoutSeconds: 0, holdState: { $0 == "holding(geofence)" },
                landState: "landing(hold-expired:geofence)")
            report("11-geofence", times, extra: ["following_to_hold_s": hold.t - t0, "max_drone_distance_from_home_m": farthest])
        }
    }

    @Test("12. SIGTERM mid-flight → landing(shutdown), landed, exit 0", .timeLimit(.minutes(6)))
    func sigterm() async throws {
        try await FaultRig.withFollowingField("sigterm") { rig in
            let run = try #require(rig.run)
            // When SIGTERM arrives
            let t0 = monotonicSeconds()
            run.signal(SIGTERM)
            // Then it lands, navdata confirms, it exits 0
            let status = await run.waitForExit(seconds: 30)
            let exitedAt = monotonicSeconds()
            #expect(status == 0, "exit \(String(describing: status))\n\(rig.diagnostics())")
            let land = rig.log.firstTransition(after: t0 - 0.1) { $0.to.hasPrefix("landing") }
            #expect(land?.to == "landing(shutdown)")
            let landed = rig.log.firstTransition(after: t0) { $0.to == "landed" }
            #expect(landed?.reason == "landed-confirmed")
            if let s = rig.status() { #expect(s.state == "landed", "sim: \(s.summary)") }
            FaultReport.record("12-sigterm", [
                "to_landing_s": land.map { $0.t - t0 } ?? .nan, "to_landed_s": landed.map { $0.t - t0 } ?? .nan,
                "to_exit_s": exitedAt - t0,
            ])
        }
    }
}
