import FollowCore

/// The after-flight page: one self-contained HTML document (inline CSS, inline SVG, a few lines of
/// inline script; nothing fetched, no URL) from a `FlightTimeline`.
///
/// Layout: the summary (duration, landing reason, closest approach, RMS standoff error while
/// following, holds with reasons and durations, battery used, every flight state) beside the plan
/// view (`TrackPlot` on the timeline's local plane), then the time series stacked on one shared
/// time axis (`TimeAxis`): distance with the standoff band and the minimum-separation line,
/// altitude, speeds, the wind (when the log has it), battery, fix ages, each receiver's GPS uncertainty,
/// the drone link, PCMD — each over the flight states' coloured bands.
///
/// The document is well-formed XML too (every element closed, script and style in CDATA), so a
/// test can parse it. Every chart is an `<svg class="chart">` with an id (`chart-plan`,
/// `chart-distance`, …); the script writes their rendered sizes into `#render-check`.
///
/// With `videos`, a video section follows the summary and the plan view (FlightReportPage+Video.swift):
/// each recording's `<video controls>` links its MP4 by a relative URL (the one file the page does not
/// hold), and the plan view's markers and the charts' cursor follow the video's time.
public struct FlightReportPage: Sendable {
    public var timeline: FlightTimeline
    /// The flight's recordings, in time order; empty: no video section, and no URL in the page.
    public var videos: [FlightReportVideo] = []

    public init(timeline: FlightTimeline) {
        self.timeline = timeline
    }

    public init(timeline: FlightTimeline, videos: [FlightReportVideo]) {
        (self.timeline, self.videos) = (timeline, videos)
    }

    /// The ids of the time-series charts, top to bottom.
    public static let timeSeriesChartIDs = [
        "chart-distance", "chart-altitude", "chart-speed", "chart-battery", "chart-fix-age",
        "chart-gps-target", "chart-gps-onboard", "chart-link", "chart-pcmd",
    ]

    /// The id of the wind chart, drawn after the ground speeds when the timeline has wind samples.
    public static let windChartID = "chart-wind"

    /// The HTML document.
    public func html() -> String {
        let t = timeline
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        out += "<title>\(xmlEscaped(t.title))</title>\n"
        out += "<style>\n\(FlightReportStyle.css)\n</style>\n</head>\n<body>\n"
        out += "<header>\n<h1>\(xmlEscaped(t.title))</h1>\n"
        for note in t.notes { out += "<p>\(xmlEscaped(note))</p>\n" }
        out += "</header>\n<main>\n<div class=\"row\">\n"
        out += summary()
        out += "<figure id=\"plan\" class=\"card\">\n\(planView())</figure>\n"
        out += "</div>\n"
        out += videoSection()
        out += timeSeries()
        out += "<p id=\"render-check\" data-charts=\"0\">charts not measured (scripts off?)</p>\n"
        out += "</main>\n<script>\n\(FlightReportStyle.script)\n</script>\n</body>\n</html>\n"
        return out
    }

    // MARK: Summary

    func summary() -> String {
        let t = timeline
        var rows: [(String, String, String)] = [] // label, value, class
        rows.append(("Duration", "\(seconds(t.endSeconds)) logged, \(seconds(t.airborneSeconds)) airborne", ""))
        rows.append(("Landing", t.landingReason.map { "landed: \($0)" } ?? "no landing in this record", ""))
        rows.append(("Final state", t.finalState ?? "—", ""))
        if let closest = t.scores.closestApproachMeters {
            let below = t.minSeparationMeters.map { closest < $0 } ?? false
            var text = "\(meters(closest))"
            if let at = t.scores.closestApproachAtSeconds { text += " at \(seconds(at))" }
            if let limit = t.minSeparationMeters { text += " (min separation \(meters(limit))\(below ? ": BELOW" : ""))" }
            rows.append(("Closest approach", text, below ? "warn" : "ok"))
        } else {
            rows.append(("Closest approach", "— (never airborne with both fixes)", ""))
        }
        if let rms = t.scores.rmsStandoffErrorMeters {
            var text = "\(meters(rms)) over \(t.scores.rmsSamples) samples"
            if let standoff = t.standoffMeters { text += " (standoff \(meters(standoff)))" }
            rows.append(("RMS standoff error while following", text, ""))
        } else {
            rows.append(("RMS standoff error while following", "— (no settled following)", ""))
        }
        if let following = t.scores.followingSeconds { rows.append(("Following", seconds(following), "")) }
        let holds = t.holds
        let holdSeconds = holds.reduce(0) { $0 + $1.durationSeconds }
        rows.append(("Holds", holds.isEmpty ? "none" : "\(holds.count), \(seconds(holdSeconds)) in all",
                     holds.isEmpty ? "ok" : "warn"))
        if let used = t.batteryUsedPercent, let first = t.battery.first, let last = t.battery.last {
            rows.append(("Battery used", "\(fixed(used, decimals: 0)) % (\(fixed(first.value, decimals: 0)) → "
                + "\(fixed(last.value, decimals: 0)) %)", ""))
        } else {
            rows.append(("Battery used", "— (fewer than two readings)", ""))
        }
        var out = "<section id=\"summary\" class=\"card\">\n<h2>Summary</h2>\n<table>\n"
        for (label, value, cls) in rows {
            out += "<tr><th>\(xmlEscaped(label))</th><td\(cls.isEmpty ? "" : " class=\"\(cls)\"")>\(xmlEscaped(value))</td></tr>\n"
        }
        out += "</table>\n"
        if !t.scores.method.isEmpty { out += "<p class=\"method\">\(xmlEscaped(t.scores.method))</p>\n" }
        if !holds.isEmpty {
            out += Self.openDetails("Holds (\(holds.count))", rows: holds.count)
            out += "<table id=\"holds\">\n<tr><th>at</th><th>for</th><th>reason</th></tr>\n"
            for hold in holds {
                out += "<tr><td class=\"num\">\(seconds(hold.startSeconds))</td><td class=\"num\">"
                out += "\(seconds(hold.durationSeconds))</td><td>\(xmlEscaped(hold.reason))</td></tr>\n"
            }
            out += "</table>\n</details>\n"
        }
        out += Self.openDetails("Flight states (\(t.states.count))", rows: t.states.count)
        out += "<table id=\"states\">\n<tr><th>from</th><th>for</th><th>state</th><th>because</th></tr>\n"
        for span in t.states {
            out += "<tr><td class=\"num\">\(seconds(span.startSeconds))</td><td class=\"num\">\(seconds(span.durationSeconds))</td>"
            out += "<td><span class=\"swatch-inline\" style=\"color: \(FlightReportStyle.color(span.kind))\">■</span> "
            out += "\(xmlEscaped(span.state))</td><td>\(xmlEscaped(span.reason))</td></tr>\n"
        }
        out += "</table>\n</details>\n"
        if let config = t.configurationText {
            out += "<details id=\"configuration\">\n<summary>Configuration it flew with</summary>\n"
            out += "<pre>\(xmlEscaped(config))</pre>\n</details>\n"
        }
        out += "</section>\n"
        return out
    }

    /// Opens a `<details>` section titled `title`: open when it has at most 12 rows (our choice: a
    /// long flight's table would push the charts a screen down), else one click away.
    static func openDetails(_ title: String, rows: Int) -> String {
        "<details\(rows <= 12 ? " open=\"open\"" : "")>\n<summary>\(xmlEscaped(title))</summary>\n"
    }

    // MARK: Plan view

    func planView() -> String {
        let t = timeline
        var series: [TrackPlot.Series] = [
            .init(name: "person", color: FlightReportStyle.person, pointsPlane: t.personTrack.map(\.plane)),
            .init(name: "drone", color: FlightReportStyle.drone, pointsPlane: t.droneTrack.map(\.plane)),
        ]
        if let at = t.scores.closestApproachAtSeconds, let p = Self.position(t.personTrack, at: at),
           let d = Self.position(t.droneTrack, at: at) {
            series.append(.init(name: "closest approach", color: FlightReportStyle.closest, pointsPlane: [p, d]))
        }
        let plot = TrackPlot(title: "Plan view", notes: ["metres east/north on the flight's local plane"],
                             series: series, widthPixels: 560, heightPixels: 560)
        // Inline SVG in HTML needs no namespace; the page carries no URL at all.
        var svg = plot.svg().replacingFirst(" xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        svg = svg.replacingFirst("<svg ", with: "<svg class=\"chart plan\" id=\"chart-plan\" ")
        // The cursor's markers go on top, before the document's one closing tag.
        if svg.hasSuffix("</svg>\n") {
            svg.removeLast("</svg>\n".count)
            svg += planCursor(plot.projection()) + "</svg>\n"
        }
        return svg
    }

    /// The track's position nearest in time to `t`.
    static func position(_ track: [FlightTimeline.TrackPoint], at t: Double) -> PlaneVector? {
        track.min { abs($0.t - t) < abs($1.t - t) }?.plane
    }

    // MARK: Time series

    func timeSeries() -> String {
        let t = timeline
        let axis = TimeAxis(endSeconds: t.endSeconds)
        var out = "<section id=\"timeseries\" class=\"card\" data-end-s=\"\(fixed(axis.endSeconds, decimals: 3))\">\n"
        out += "<h2>Time series <span class=\"method\">(seconds since the log started; one time axis)</span></h2>\n"
        out += "<ul id=\"legend\">\n"
        let kinds = StateBandKind.allCases.filter { kind in t.states.contains { $0.kind == kind } }
        for kind in kinds {
            out += "<li><span class=\"swatch\" style=\"background: \(FlightReportStyle.color(kind)); opacity: 0.5\"></span>"
            out += "\(kind.rawValue)</li>\n"
        }
        if !t.markers.isEmpty { out += "<li><span class=\"swatch\" style=\"border-style: dashed\"></span>event (hover)</li>\n" }
        out += "</ul>\n<p id=\"cursor-time\">&#160;</p>\n"
        for chart in charts() { out += chart.svg(axis: axis, states: t.states, markers: t.markers) }
        out += "</section>\n"
        return out
    }

    /// The charts, top to bottom (ids `timeSeriesChartIDs`).
    func charts() -> [TimeChart] {
        let t = timeline
        var distanceLevels: [TimeChart.Level] = []
        if let standoff = t.standoffMeters {
            let half = Self.standoffBandHalfWidthMeters(standoff)
            distanceLevels.append(.init(value: standoff - half, upper: standoff + half,
                                        label: "standoff \(fixed(standoff, decimals: 1)) ± \(fixed(half, decimals: 1)) m", color: FlightReportStyle.standoff))
        }
        if let limit = t.minSeparationMeters {
            distanceLevels.append(.init(value: limit, label: "min separation \(fixed(limit, decimals: 1)) m", color: FlightReportStyle.minSeparation))
        }
        var closest: [TimeChart.Point] = []
        if let m = t.scores.closestApproachMeters, let at = t.scores.closestApproachAtSeconds {
            closest.append(.init(t: at, value: m, label: "closest \(meters(m))", color: FlightReportStyle.closest))
        }
        var charts = [
            TimeChart(id: "chart-distance", title: "Distance to the person", unit: "m",
                      lines: [.init(name: "each sample", color: "#90a4ae", samples: t.distance),
                              .init(name: "1 s mean", color: "#263238", samples: Self.movingMean(t.distance, windowSeconds: 1))],
                      levels: distanceLevels, points: closest, labelsMarkers: true),
            TimeChart(id: "chart-altitude", title: "Altitude", unit: "m",
                      lines: [.init(name: "drone", color: FlightReportStyle.drone, samples: t.altitude)]),
            TimeChart(id: "chart-speed", title: "Ground speed", unit: "m/s", lines: [
                .init(name: "person", color: FlightReportStyle.person, samples: t.personSpeed),
                .init(name: "drone", color: FlightReportStyle.drone, samples: t.droneSpeed),
            ]),
            TimeChart(id: "chart-battery", title: "Battery", unit: "%",
                      lines: [.init(name: "battery", color: "#ef6c00", samples: t.battery)], fromZero: false),
            TimeChart(id: "chart-fix-age", title: "Fix age", unit: "s since the latest fix", lines: [
                .init(name: "person (target)", color: FlightReportStyle.person, samples: t.targetFixAge),
                .init(name: "drone (onboard)", color: FlightReportStyle.drone, samples: t.onboardFixAge, dashed: true),
            ]),
            gpsChart(role: "target"),
            gpsChart(role: "onboard"),
            linkChart(),
            TimeChart(id: "chart-pcmd", title: "PCMD sent", unit: "pilot fraction", lines: [
                .init(name: "roll", color: FlightReportStyle.pcmd[0], samples: t.pcmdRoll),
                .init(name: "pitch", color: FlightReportStyle.pcmd[1], samples: t.pcmdPitch),
                .init(name: "gaz", color: FlightReportStyle.pcmd[2], samples: t.pcmdGaz),
                .init(name: "yaw", color: FlightReportStyle.pcmd[3], samples: t.pcmdYaw),
            ], fixedRange: -1...1),
        ]
        if !t.wind.isEmpty { charts.insert(windChart(), at: 3) }
        return charts
    }

    /// The wind failsafe's estimate over time, with the tilt authority (the wind full tilt only
    /// just holds) as a level line: how close the flight came to being blown away.
    func windChart() -> TimeChart {
        let t = timeline
        var levels: [TimeChart.Level] = []
        if let authority = t.windAuthorityMetersPerSecond {
            levels.append(.init(value: authority, label: "full tilt holds \(fixed(authority, decimals: 1)) m/s",
                                color: FlightReportStyle.minSeparation))
        }
        return TimeChart(id: Self.windChartID, title: "Wind (failsafe estimate)", unit: "m/s",
                         lines: [.init(name: "wind", color: "#00838f", samples: t.wind)], levels: levels)
    }

    /// Half the height of the standoff band on the distance chart: 10 % of the standoff, at least
    /// 1 m. Our choice, a visual guide only (the summary's RMS is the score).
    public static func standoffBandHalfWidthMeters(_ standoffMeters: Double) -> Double {
        max(1, 0.1 * standoffMeters)
    }

    /// Each sample replaced by the mean of the samples within ±`windowSeconds`/2 of it: the
    /// distance at each fix zigzags by the person's movement between the two receivers' fixes (a
    /// fix pair is up to one fix period apart); the mean shows the trend. Samples in time order.
    static func movingMean(_ samples: [FlightTimeline.Sample], windowSeconds: Double) -> [FlightTimeline.Sample] {
        var out: [FlightTimeline.Sample] = []
        out.reserveCapacity(samples.count)
        var lo = 0, hi = 0, sum = 0.0
        for s in samples {
            while hi < samples.count, samples[hi].t <= s.t + windowSeconds / 2 { sum += samples[hi].value; hi += 1 }
            while samples[lo].t < s.t - windowSeconds / 2 { sum -= samples[lo].value; lo += 1 }
            out.append(.init(t: s.t, value: sum / Double(hi - lo)))
        }
        return out
    }

    func meters(_ x: Double) -> String { "\(fixed(x, decimals: 2)) m" }
    func seconds(_ x: Double) -> String { "\(fixed(x, decimals: 1)) s" }
}

extension String {
    /// This string with the first occurrence of `target` replaced (no Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var out = self
        out.replaceSubrange(range, with: replacement)
        return out
    }
}
