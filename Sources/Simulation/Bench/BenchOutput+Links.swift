import FlightRecords

/// The same run (scenario × noise × controller) behind the AR.Drone link and behind the MAVLink link.
public struct BenchLinkComparison: Sendable, Hashable {
    public var scenario: String
    public var noise: BenchNoise
    public var controller: BenchController
    /// RMS |distance − standoff|, metres, on each link.
    public var ardroneRMSMeters: Double
    public var mavlinkRMSMeters: Double
    /// Closest approach while airborne, metres, on each link.
    public var ardroneMinSeparationMeters: Double
    public var mavlinkMinSeparationMeters: Double

    /// MAVLink RMS / AR.Drone RMS: above 1, the MAVLink run followed worse. NaN when either is missing.
    public var ratio: Double { mavlinkRMSMeters / ardroneRMSMeters }
}

extension BenchReport {
    /// Whether the report is the AR.Drone-only one `followme bench` always printed (its output stays as it was).
    var isARDroneOnly: Bool { links.allSatisfy { $0 == .ardrone } }

    /// One comparison per AR.Drone run that has the same run on MAVLink, in run order.
    public var linkComparisons: [BenchLinkComparison] {
        results.filter { $0.link == .ardrone }.compactMap { a in
            guard let m = results.first(where: {
                $0.link == .mavlink && $0.scenario == a.scenario && $0.noise == a.noise && $0.controller == a.controller
            }) else { return nil }
            return BenchLinkComparison(
                scenario: a.scenario, noise: a.noise, controller: a.controller,
                ardroneRMSMeters: a.metrics.rangeErrorRMSMeters, mavlinkRMSMeters: m.metrics.rangeErrorRMSMeters,
                ardroneMinSeparationMeters: a.metrics.minSeparationMeters,
                mavlinkMinSeparationMeters: m.metrics.minSeparationMeters)
        }
    }

    /// The median over scenarios of MAVLink/AR.Drone RMS ratios for `controller`, for one noise model or
    /// (nil) all; NaN ratios left out; nil if none remain.
    public func medianLinkRatio(noise: BenchNoise?, controller: BenchController) -> Double? {
        median(linkComparisons.filter { $0.controller == controller && (noise == nil || $0.noise == noise) }
            .map(\.ratio).filter { !$0.isNaN })
    }

    /// The median RMS |distance − standoff| over `link`'s runs of `controller`, one noise model or (nil) all, metres.
    public func medianRMSMeters(link: BenchLink, noise: BenchNoise?, controller: BenchController) -> Double? {
        median(results.filter { $0.link == link && $0.controller == controller && (noise == nil || $0.noise == noise) }
            .map(\.metrics.rangeErrorRMSMeters).filter { !$0.isNaN })
    }
}

extension BenchOutput {
    /// The two links side by side: per run both RMS and closest approaches and their ratio, then the
    /// medians per link and of the ratios. Empty unless the report has runs on both links.
    static func linkTable(_ report: BenchReport) -> String {
        let comparisons = report.linkComparisons
        guard !comparisons.isEmpty else { return "" }
        var out = "links side by side: the same core behind the AR.Drone link (AT commands, navdata) and the MAVLink link "
            + "(MAVLinkSession's GUIDED take-off and the core's velocity as LOCAL_NED set-points to the simulated ArduPilot Copter; "
            + "onboard position from the \(report.configuration.mavlinkPositionSource == .autopilot ? "autopilot" : "simulated receiver"))\n"
        let header = [pad("scenario", 22), pad("noise", 10), pad("controller", 10), lpad("AR RMS m", 9), lpad("MAV RMS m", 10),
                      lpad("MAV/AR", 9), lpad("AR min sep", 11), lpad("MAV min sep", 12)]
        out += header.joined(separator: " ") + "\n"
        out += String(repeating: "-", count: header.joined(separator: " ").count) + "\n"
        for c in comparisons {
            let row = [pad(c.scenario, 22), pad(c.noise.rawValue, 10), pad(c.controller.rawValue, 10),
                       lpad(num(c.ardroneRMSMeters, 2), 9), lpad(num(c.mavlinkRMSMeters, 2), 10), lpad(num(c.ratio, 2), 9),
                       lpad(num(c.ardroneMinSeparationMeters, 2), 11), lpad(num(c.mavlinkMinSeparationMeters, 2), 12)]
            out += row.joined(separator: " ") + "\n"
        }
        for controller in BenchController.allCases where comparisons.contains(where: { $0.controller == controller }) {
            var parts: [String] = []
            for noise in [BenchNoise?.none] + BenchNoise.allCases.map(Optional.some) {
                let a = report.medianRMSMeters(link: .ardrone, noise: noise, controller: controller)
                let m = report.medianRMSMeters(link: .mavlink, noise: noise, controller: controller)
                let r = report.medianLinkRatio(noise: noise, controller: controller)
                parts.append("\(noise?.rawValue ?? "all") AR \(opt(a, 2)) m, MAV \(opt(m, 2)) m, ratio \(opt(r, 2))")
            }
            out += "\(controller) medians: " + parts.joined(separator: "; ") + "\n"
        }
        out += "AR / MAV RMS = |distance − standoff| from true positions on each link; MAV/AR = MAVLink RMS ÷ AR.Drone RMS "
            + "(> 1: MAVLink followed worse; the AR.Drone plant is the controller's own model, the Copter's velocity loop is not)\n"
        return out
    }

    /// The JSON fields a report with a MAVLink run adds (an AR.Drone-only report's document has none
    /// of them): the links, per-link FM/naive medians, the side-by-side comparisons.
    static func addLinkFields(_ report: BenchReport, to j: inout JSONLine) {
        guard !report.isARDroneOnly else { return }
        j.addRaw("links", "[" + report.links.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]")
        j.add("mavlink_position_source", report.configuration.mavlinkPositionSource.rawValue)
        var byLink = JSONLine()
        for link in report.links {
            var medians = JSONLine()
            for noise in BenchNoise.allCases { medians.add(noise.rawValue, report.medianRatio(noise: noise, link: link)) }
            medians.add("all", report.medianRatio(noise: nil, link: link))
            byLink.addRaw(link.rawValue, medians.string)
        }
        j.addRaw("median_ratio_by_link", byLink.string)
        j.addRaw("link_comparisons", "[" + report.linkComparisons.map { c in
            var o = JSONLine()
            for (key, value) in [("scenario", c.scenario), ("noise", c.noise.rawValue), ("controller", c.controller.rawValue)] {
                o.add(key, value)
            }
            let metres: KeyValuePairs = [
                "ardrone_rms_m": c.ardroneRMSMeters, "mavlink_rms_m": c.mavlinkRMSMeters, "ratio": c.ratio,
                "ardrone_min_separation_m": c.ardroneMinSeparationMeters, "mavlink_min_separation_m": c.mavlinkMinSeparationMeters,
            ]
            for (key, value) in metres { o.add(key, value) }
            return o.string
        }.joined(separator: ",") + "]")
        var linkMedians = JSONLine()
        for controller in BenchController.allCases {
            var medians = JSONLine()
            for noise in BenchNoise.allCases {
                medians.add(noise.rawValue, report.medianLinkRatio(noise: noise, controller: controller))
            }
            medians.add("all", report.medianLinkRatio(noise: nil, controller: controller))
            for link in report.links {
                medians.add("\(link.rawValue)_median_rms_m", report.medianRMSMeters(link: link, noise: nil, controller: controller))
            }
            linkMedians.addRaw(controller.rawValue, medians.string)
        }
        j.addRaw("median_link_ratio", linkMedians.string)
    }
}
