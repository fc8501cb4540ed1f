import Foundation
import FlightRecords
import FollowCore

/// `followme bench` output: the human table and the `--json` document.
public enum BenchOutput {
    /// The speed-up over real time the bench must reach (simulated seconds per wall-clock second).
    public static let speedupTarget = 1000.0

    /// One row per run, the FollowMe/baseline ratio on FollowMe's row, then the medians and timing.
    public static func table(_ report: BenchReport, scenarios: [BenchScenario], wallSeconds: Double) -> String {
        let c = report.configuration
        var out = "followme bench: seed \(c.seed), person moves \(num(c.durationSeconds, 0)) s after a "
            + "\(num(c.personStartSeconds, 0)) s take-off wait, metrics from \(num(c.settleSeconds, 0)) s after the start; "
            + "standoff \(num(c.standoffMeters, 1)) m; same simulated drone for both (euler_angle_max "
            + "\(num(c.eulerAngleMaxDegrees, 0))°; FollowMe brakes up to \(num(c.effectiveBrakingTiltDegrees, 0))°); GPS clean = perfect at 5 Hz/0.3 s, realistic = 2 m bias, ρ 0.5\n"
        if let latency = c.receiverLatencySeconds {
            out += "receivers deliver each fix \(num(latency, 3)) s after its epoch; FollowMe dates fixes by their measured age "
                + "(the simulated host clock is trusted; the configured \(num(FollowParameters.defaults.assumedGPSLatencySeconds, 1)) s until "
                + "\(FixAgeMeter.minimumSamples) samples)\n"
        }
        let legacy = report.isARDroneOnly
        if !legacy {
            out += "links: \(report.links.map(\.rawValue).joined(separator: ", ")) (mavlink: MAVLinkSession to the simulated "
                + "ArduPilot Copter on the same plant and wind, onboard position from the \(c.mavlinkPositionSource))\n"
        }
        for s in scenarios {
            out += "  \(pad(s.name, 22)) \(s.summary)\n"
        }
        out += "\n"
        let header = [pad("scenario", 22), pad("noise", 10), pad("controller", 10)] + (legacy ? [] : [pad("link", 7)]) + [lpad("RMS m", 8), lpad("p95 m", 8),
                      lpad("min sep m", 10), lpad("at s", 6), lpad("<lim s", 7), lpad("facing°", 8), lpad("air s", 6), "  " + pad("final", 26),
                      lpad("FM/naive", 9)]
        out += header.joined(separator: " ") + "\n"
        out += String(repeating: "-", count: header.joined(separator: " ").count) + "\n"
        let comparisons = report.comparisons
        var lastKey = ""
        for r in report.results {
            let m = r.metrics
            let key = r.scenario + r.noise.rawValue
            let ratio = r.controller == .followMe
                ? comparisons.first { $0.scenario == r.scenario && $0.noise == r.noise && $0.link == r.link }.map { num($0.ratio, 3) } ?? ""
                : ""
            let final = r.controller == .followMe ? r.finalControllerState : "drone \(r.finalDroneState)"
            let row = [pad(key == lastKey ? "" : r.scenario, 22), pad(key == lastKey ? "" : r.noise.rawValue, 10),
                       pad(r.controller.rawValue, 10)] + (legacy ? [] : [pad(r.link.rawValue, 7)]) + [lpad(num(m.rangeErrorRMSMeters, 2), 8),
                       lpad(num(m.rangeErrorP95Meters, 2), 8), lpad(num(m.minSeparationMeters, 2), 10),
                       lpad(m.minSeparationAtSeconds.map { num($0, 0) } ?? "-", 6),
                       lpad(num(m.secondsBelowMinSeparation, 1), 7),
                       lpad(num(m.facingErrorRMSDegrees, 1), 8), lpad(num(m.airborneSeconds, 0), 6),
                       "  " + pad(final, 26), lpad(ratio, 9)]
            out += row.joined(separator: " ") + "\n"
            lastKey = key
        }
        out += "\n"
        out += "RMS / p95 = |distance − standoff| from true positions; min sep = closest approach while airborne (at s: when), <lim s = airborne seconds closer than min_separation_m; "
            + "facing = nose vs bearing to the person; FM/naive = FollowMe RMS ÷ baseline RMS (< 1: FollowMe better)\n"
        for link in legacy ? [nil] : report.links.map(Optional.some) {
            var medians: [String] = []
            for noise in BenchNoise.allCases {
                if let m = report.medianRatio(noise: noise, link: link) { medians.append("\(noise) \(num(m, 3))") }
            }
            if let all = report.medianRatio(noise: nil, link: link) {
                medians.append("all \(num(all, 3)) (FollowMe's error \(num(1 / all, 0))× smaller)")
            }
            out += "median-scenario FollowMe/baseline RMS ratio\(link.map { " (\($0))" } ?? ""): "
                + (medians.isEmpty ? "n/a" : medians.joined(separator: ", ")) + "\n"
        }
        out += "\n" + followTable(report)
        let modes = modeTable(report)
        if !modes.isEmpty { out += "\n" + modes }
        let links = linkTable(report)
        if !links.isEmpty { out += "\n" + links }
        let speedup = report.simulatedSeconds / max(wallSeconds, 1e-9)
        out += "speed-up over real time: \(num(report.simulatedSeconds, 0)) simulated s in \(num(wallSeconds, 2)) wall s = "
            + "\(num(speedup, 0))× (target ≥ \(num(speedupTarget, 0))×: \(speedup >= speedupTarget ? "met" : "NOT met"))\n"
        return out
    }

    /// The follow-quality figures per FollowMe run (docs/bench.md §6): plant, wind, trailing, aim bias, climb drift, stalls
    /// and the time in each state other than the usual take-off path.
    static func followTable(_ report: BenchReport) -> String {
        let c = report.configuration
        var out = "follow quality: plant \(c.plant), target fixes \(num(c.targetRateHertz ?? 5, 1)) Hz "
            + "\(c.targetReportsVelocity ? "with" : "without") Doppler velocity, min_separation_m "
            + "\(num(c.failsafe.minSeparationMeters, 2)), gps_relative_error_m \(num(c.failsafe.gpsRelativeErrorMeters, 2))"
            + (c.adversarialTargetOffsetMeters > 0
                ? ", person fixes \(num(c.adversarialTargetOffsetMeters, 2)) m farther from the drone than the truth" : "") + "\n"
        let legacy = report.isARDroneOnly
        let header = [pad("scenario", 22), pad("noise", 10)] + (legacy ? [] : [pad("link", 7)]) + [lpad("wind m/s", 9), lpad("gust σ", 7), lpad("fence m", 8),
                      lpad("trail m", 8), lpad("aim bias", 9), lpad("aim RMS", 8), lpad("climb drift", 12),
                      lpad("stall s", 8), lpad("v over m/s", 11), lpad("over %", 7), lpad("swings", 7),
                      lpad("ring s", 7), lpad("settle s", 9), "  states (s)"]
        out += header.joined(separator: " ") + "\n"
        out += String(repeating: "-", count: header.joined(separator: " ").count + 20) + "\n"
        for r in report.results where r.controller == .followMe {
            let m = r.metrics
            let states = m.secondsByState
                .filter { !["preflight", "taking-off", "climbing"].contains($0.name) && !$0.name.hasPrefix("preflight") }
                .map { "\($0.name) \(num($0.seconds, 1))" }.joined(separator: ", ")
            let row = [pad(r.scenario, 22), pad(r.noise.rawValue, 10)] + (legacy ? [] : [pad(r.link.rawValue, 7)])
                + [lpad(num(r.wind.meanENU.length, 1), 9),
                       lpad(num(r.wind.gustSigmaMetersPerSecond, 2), 7), lpad(num(r.geofenceMeters, 0), 8),
                       lpad(opt(m.trailingMeanMeters, 2), 8), lpad(opt(m.aimBiasMeters, 2), 9),
                       lpad(opt(m.aimErrorRMSMeters, 2), 8), lpad(opt(m.climbDriftMeters, 2), 12),
                       lpad(num(m.stalledFollowingSeconds, 1), 8)] + speedColumns(m.speedAfterStart) + ["  " + states]
            out += row.joined(separator: " ") + "\n"
        }
        out += "trail = mean along-track distance behind the moving person minus the standoff; aim bias = |mean(drone − aim point)| "
            + "while following (a standing offset); climb drift = farthest from the take-off point while taking off/climbing; "
            + "stall = s labelled following while > 3 m beyond the standoff and slower than half the moving person; "
            + "after the person starts (the worst start; window to the stop or 30 s): v over = peak (drone ground speed − "
            + "person's speed), over % = of the person's mean speed, swings = rises above +0.1 m/s after being below "
            + "−0.1 m/s, ring s = mean time between swings, settle s = until within ±0.2 m/s for the rest (≥ 3 s)\n"
        return out
    }

    /// The speed-after-start columns of the follow-quality table (docs/mavlink.md §9) ("-" when the person never started).
    static func speedColumns(_ s: BenchMetrics.SpeedAfterStart?) -> [String] {
        [lpad(s.map { num($0.overshootMetersPerSecond, 2) } ?? "-", 11), lpad(s.map { num($0.overshootPercent, 0) } ?? "-", 7),
         lpad(s.map { String($0.swings) } ?? "-", 7), lpad(opt(s?.ringingPeriodSeconds, 1), 7),
         lpad(opt(s?.settleSeconds, 1), 9)]
    }

    static func opt(_ x: Double?, _ decimals: Int) -> String { x.map { num($0, decimals) } ?? "-" }

    /// The whole report as one JSON object (no tracks; use `--plots` for those).
    public static func json(_ report: BenchReport, scenarios: [BenchScenario], wallSeconds: Double, notes: [String]) -> String {
        let c = report.configuration
        var j = JSONLine()
        j.addRaw("seed", String(c.seed)) // UInt64: written as digits, never wrapped negative
        j.add("duration_s", c.durationSeconds)
        j.add("person_start_s", c.personStartSeconds)
        j.add("settle_s", c.settleSeconds)
        j.add("standoff_m", c.standoffMeters)
        j.add("euler_angle_max_deg", c.eulerAngleMaxDegrees)
        j.add("braking_tilt_deg", c.effectiveBrakingTiltDegrees)
        j.add("plant", c.plant.rawValue)
        j.add("target_rate_hz", c.targetRateHertz ?? 5)
        j.add("target_doppler", c.targetReportsVelocity)
        j.add("min_separation_m", c.failsafe.minSeparationMeters)
        j.add("gps_relative_error_m", c.failsafe.gpsRelativeErrorMeters)
        j.add("adversarial_offset_m", c.adversarialTargetOffsetMeters)
        if let latency = c.receiverLatencySeconds { j.add("receiver_latency_s", latency) }
        j.addRaw("scenarios", array(scenarios.map { s in
            var o = JSONLine()
            o.add("name", s.name)
            o.add("kind", s.kind.rawValue)
            o.add("summary", s.summary)
            o.add("origin_lat", s.origin.latitudeDegrees)
            o.add("origin_lon", s.origin.longitudeDegrees)
            return o.string
        }))
        j.addRaw("runs", array(report.results.map { r in
            var o = JSONLine()
            o.add("scenario", r.scenario)
            o.add("controller", r.controller.rawValue)
            if !report.isARDroneOnly { o.add("link", r.link.rawValue) }
            o.add("noise", r.noise.rawValue)
            o.add("rms_m", r.metrics.rangeErrorRMSMeters)
            o.add("p95_m", r.metrics.rangeErrorP95Meters)
            o.add("max_m", r.metrics.rangeErrorMaxMeters)
            o.add("mean_distance_m", r.metrics.meanDistanceMeters)
            o.add("min_separation_m", r.metrics.minSeparationMeters)
            o.add("min_separation_at_s", r.metrics.minSeparationAtSeconds)
            o.add("below_min_separation_s", r.metrics.secondsBelowMinSeparation)
            o.add("facing_rms_deg", r.metrics.facingErrorRMSDegrees)
            o.add("airborne_s", r.metrics.airborneSeconds)
            o.add("following_fraction", r.metrics.followingFraction)
            o.add("settled_samples", r.metrics.settledSamples)
            o.add("final_drone", r.finalDroneState)
            o.add("final_controller", r.finalControllerState)
            o.add("simulated_s", r.simulatedSeconds)
            o.add("plant", r.plant.rawValue)
            o.add("wind_east_mps", r.wind.meanENU.east)
            o.add("wind_north_mps", r.wind.meanENU.north)
            o.add("gust_sigma_mps", r.wind.gustSigmaMetersPerSecond)
            o.add("gust_tau_s", r.wind.gustTimeConstantSeconds)
            o.add("geofence_m", r.geofenceMeters)
            o.add("trailing_mean_m", r.metrics.trailingMeanMeters)
            o.add("aim_bias_m", r.metrics.aimBiasMeters)
            o.add("aim_rms_m", r.metrics.aimErrorRMSMeters)
            o.add("climb_drift_m", r.metrics.climbDriftMeters)
            o.add("stalled_following_s", r.metrics.stalledFollowingSeconds)
            if let mode = r.metrics.followMode { addModeFields(mode, to: &o) }
            if let speed = r.metrics.speedAfterStart {
                o.add("person_starts", speed.personStarts)
                o.add("speed_window_start_s", speed.startSeconds)
                o.add("speed_window_s", speed.windowSeconds)
                o.add("speed_overshoot_mps", speed.overshootMetersPerSecond)
                o.add("speed_overshoot_pct", speed.overshootPercent)
                o.add("speed_window_person_mps", speed.meanPersonSpeedMetersPerSecond)
                o.add("speed_swings", speed.swings)
                o.add("speed_ringing_period_s", speed.ringingPeriodSeconds)
                o.add("speed_settle_s", speed.settleSeconds)
            }
            var states = JSONLine()
            for entry in r.metrics.secondsByState { states.add(entry.name, entry.seconds) }
            o.addRaw("state_seconds", states.string)
            return o.string
        }))
        j.addRaw("comparisons", array(report.comparisons.map { cmp in
            var o = JSONLine()
            o.add("scenario", cmp.scenario)
            o.add("noise", cmp.noise.rawValue)
            o.add("followme_rms_m", cmp.followMeRMSMeters)
            o.add("naive_rms_m", cmp.naiveRMSMeters)
            o.add("ratio", cmp.ratio)
            if !report.isARDroneOnly { o.add("link", cmp.link.rawValue) }
            return o.string
        }))
        var medians = JSONLine()
        // The first link's (the AR.Drone's when it ran): with one link, what it always was.
        let primary = report.isARDroneOnly ? nil : report.links.first
        for noise in BenchNoise.allCases { medians.add(noise.rawValue, report.medianRatio(noise: noise, link: primary)) }
        medians.add("all", report.medianRatio(noise: nil, link: primary))
        j.addRaw("median_ratio", medians.string)
        addLinkFields(report, to: &j)
        let speedup = report.simulatedSeconds / max(wallSeconds, 1e-9)
        j.add("simulated_s", report.simulatedSeconds)
        j.add("wall_s", wallSeconds)
        j.add("speedup", speedup)
        j.add("speedup_target", speedupTarget)
        j.add("speedup_met", speedup >= speedupTarget)
        j.addRaw("notes", array(notes.map { n in
            var s = ""
            JSONLine.appendString(n, to: &s)
            return s
        }))
        return j.string
    }

    /// A file-name-safe `scenario-controller-noise.svg` (`…-noise-mavlink.svg` for a MAVLink run).
    public static func plotFileName(_ r: BenchResult) -> String {
        let safe = String(r.scenario.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return "\(safe)-\(r.controller.rawValue)-\(r.noise.rawValue)\(r.link == .ardrone ? "" : "-\(r.link.rawValue)").svg"
    }

    /// The file of a follow mode's run seen from the person (`BenchResult.personFramePlot`): the plot's name with `-person`.
    public static func personFramePlotFileName(_ r: BenchResult) -> String {
        String(plotFileName(r).dropLast(".svg".count)) + "-person.svg"
    }

    private static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// Fixed decimals; "-" for NaN, "inf" for infinities.
    static func num(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "-" }
        if x.isInfinite { return x > 0 ? "inf" : "-inf" }
        return String(format: "%.\(decimals)f", x)
    }

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }

    static func lpad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : String(repeating: " ", count: n - s.count) + s
    }
}
