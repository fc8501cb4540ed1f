import Foundation
import Testing
import TestSupport

/// Issue 16 item 5 (the same guarantees on both links): the failsafe outcomes of `followme run` with
/// `[drone] protocol = "mavlink"`, flying `followme sim --protocol mavlink` (an ArduPilot-like Copter
/// on loopback UDP) through a real gpsd for the person. Same rig, timeouts and helpers as the
/// AR.Drone's fault suite (`FaultRig` with `drone: .mavlink`, `expectHoldThenLand`); each outcome is
/// read from the flight log and from the simulator's ground truth (the Copter's mode, armed and
/// landed state, altitude), not from followme's own claims alone. One field per row (~30 s each).
@Suite("Fault injection on the MAVLink link: hold, land, battery, SIGTERM", .serialized)
struct MAVLinkFailsafeTests {
    /// One fault and the outcome it must have.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// Injects the fault; returns when it took effect (sim clock = flight-log clock).
        let inject: @Sendable (FaultRig) throws -> Double
        /// The hold that must come first and the timeout that bounds it, or nil (the row lands at once).
        let hold: (state: String, timeoutSeconds: Double)?
        let landState: String
        /// Seconds after the injection the landing decision must fall in (rows without a hold).
        let landWindow: ClosedRange<Double>
        /// Whether telemetry can confirm the landing (not while the Copter is silent).
        let confirmed: Bool
        var testDescription: String { name }
    }

    static let battery = FailsafeTimingTests.batteryCases[0]

    static let rows: [Row] = [
        // The person's receiver goes silent: hold(target-stale), land after land_after_s, landed.
        Row(name: "target-stale", inject: { try $0.control.silence("person", true) },
            hold: ("holding(target-stale)", Short.targetTimeoutSeconds), landState: "landing(hold-expired:target-stale)",
            landWindow: 0...0, confirmed: true),
        // Everything the Copter sends stops (a lost downlink; our commands still reach it): the
        // AR.Drone's navdata-lost outcome — hold, then land blind; the Copter lands; followme
        // cannot confirm it (no telemetry) and on SIGTERM exits 1, as test 6b.
        Row(name: "telemetry-silent", inject: { try $0.control.silence("mavlink", true) },
            hold: ("holding(navdata-lost)", Short.telemetryTimeoutSeconds), landState: "landing(hold-expired:navdata-lost)",
            landWindow: 0...0, confirmed: false),
        // SYS_STATUS says 20 % (min_battery_pct 25): land after low_battery_confirm_s.
        Row(name: "low-battery", inject: { try $0.control.send(["command": "battery", "percent": battery.percent])["t"] as? Double ?? .nan },
            hold: nil, landState: battery.landing, landWindow: battery.earliestSeconds...battery.latestSeconds, confirmed: true),
        // SIGTERM mid-flight: landing(shutdown), landed by telemetry, exit 0.
        Row(name: "sigterm", inject: { rig in
            let t0 = monotonicSeconds()
            rig.run?.signal(SIGTERM)
            return t0
        }, hold: nil, landState: "landing(shutdown)", landWindow: 0...1, confirmed: true),
    ]

    @Test("MAVLink Copter: target stale → hold, land; telemetry silent → hold, land blind; low battery → land; SIGTERM → land, exit 0",
          .timeLimit(.minutes(3)), arguments: rows)
    func outcome(_ row: Row) async throws {
        try await FaultRig.withFollowingField("mavlink-\(row.name)", drone: .mavlink) { rig in
            // Given followme following the person with the Copter in GUIDED, armed, in the air
            let before = try #require(rig.status())
            let copterBefore = before.raw["mavlink"] as? [String: Any] ?? [:]
            #expect(copterBefore["mode"] as? String == "GUIDED" && copterBefore["armed"] as? Bool == true, "\(copterBefore)")

            // When the fault is injected
            let t0 = try row.inject(rig)

            // Then the flight log shows the hold (if any) and the landing on time
            var times: HoldLandTimes?
            let land: Transition?
            if let hold = row.hold {
                times = await expectHoldThenLand(rig, t0: t0, timeoutSeconds: hold.timeoutSeconds,
                                                 holdState: { $0 == hold.state }, landState: row.landState,
                                                 expectLanded: row.confirmed)
                land = times?.land
            } else {
                land = await rig.log.waitForTransition(after: t0 - 1, within: 8) {
                    $0.to.hasPrefix("landing") || $0.to.hasPrefix("holding")
                }
                #expect(land?.to == row.landState, "\(rig.diagnostics())")
                let toLand = land.map { $0.t - t0 } ?? .nan
                #expect(row.landWindow.contains(toLand), "landing \(toLand) s after the fault, allowed \(row.landWindow)")
            }
            let landed = await rig.log.waitForTransition(to: "landed", after: t0, within: row.confirmed ? 15 : 1)
            #expect((landed?.reason == "landed-confirmed") == row.confirmed, "\(String(describing: landed))\n\(rig.diagnostics())")

            // And the Copter itself is on the ground, disarmed, in LAND because followme told it to
            // (for the silent Copter: while still silent — followme landed it blind)
            let down = await poll(seconds: 15) { () -> SimStatus? in
                guard let s = try? rig.control.status(), s.state == "landed", rig.landingReason(s) != nil else { return nil }
                return s
            }
            #expect(down.map(rig.landingReason) == "commanded", "sim: \(rig.status()?.raw["mavlink"] ?? "-")\n\(rig.diagnostics())")
            #expect((down?.altitudeMeters ?? .nan) < 0.05, "sim: \(down?.summary ?? "-")")
            let copter = down?.raw["mavlink"] as? [String: Any] ?? [:]
            if row.name == "telemetry-silent" {
                #expect(copter["silent"] as? Bool == true && (copter["telemetry_suppressed"] as? Int ?? 0) > 0, "\(copter)")
                #expect(!rig.log.linkEvents("navdata-lost", after: t0).isEmpty, "the link did not report the silence")
            }

            // And followme exits on SIGTERM: 0 once telemetry confirmed the landing, else 1 (as the AR.Drone, 6b)
            let run = try #require(rig.run)
            run.signal(SIGTERM)
            let exit = await run.waitForExit(seconds: 30)
            #expect(exit == (row.confirmed ? 0 : 1), "exit \(String(describing: exit))\n\(run.stderrText.text.suffix(1500))")
            var values: [String: Any] = [
                "landing_state": land?.to ?? "-", "to_landing_s": land.map { $0.t - t0 } ?? .nan,
                "to_landed_s": landed.map { $0.t - t0 } ?? .nan, "copter_on_ground_after_s": down.map { $0.t - t0 } ?? .nan,
                "exit_on_sigterm": Int(exit ?? -1),
            ]
            if let times { values["to_hold_s"] = times.toHold; values["held_s"] = times.holdDuration }
            FaultReport.record("mavlink-\(row.name)", values)
        }
    }
}
