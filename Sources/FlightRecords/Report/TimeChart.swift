/// The one time axis every chart of a page shares: the same seconds map to the same x in each
/// chart's viewBox, so the charts stacked at the same width line up.
struct TimeAxis {
    /// viewBox width of every chart, and the plot area's left edge and width in it.
    static let widthPixels = 1000.0
    /// The right margin holds a second axis's tick labels (satellites beside metres).
    static let left = 64.0, right = 40.0
    static var plotWidth: Double { widthPixels - left - right }

    /// The axis runs from 0 to `endSeconds` (at least 1 s).
    var endSeconds: Double

    init(endSeconds: Double) { self.endSeconds = max(endSeconds.isFinite ? endSeconds : 1, 1) }

    func x(_ t: Double) -> Double { Self.left + min(max(t, 0), endSeconds) / endSeconds * Self.plotWidth }

    /// Tick times: a 1-2-5 step giving about ten ticks.
    var ticks: [Double] {
        let step = TrackPlot.niceStep(endSeconds / 10)
        return stride(from: 0.0, through: endSeconds + 1e-9, by: step).map { $0 }
    }
}

/// One time-series chart: lines over the flight states' coloured bands, on the shared `TimeAxis`.
struct TimeChart {
    struct Line {
        var name: String
        var color: String
        var samples: [FlightTimeline.Sample]
        var dashed = false
    }

    /// A second y axis on the right, for lines of another unit (satellites beside metres, drops
    /// beside rates): its own range from zero, its tick labels in the right margin (in its lines'
    /// colour: name the unit in the lines' names).
    struct RightAxis {
        var lines: [Line]
        /// The colour of its tick labels: its lines' (or the main one's).
        var color: String
    }

    /// A horizontal line (the standoff, the minimum separation) or, with `upper`, a shaded band.
    struct Level {
        var value: Double
        var upper: Double? = nil
        var label: String
        var color: String
        var dashed = true
    }

    /// A labelled point (the closest approach).
    struct Point {
        var t: Double
        var value: Double
        var label: String
        var color: String
    }

    var id: String
    var title: String
    var unit: String
    var lines: [Line]
    var levels: [Level] = []
    var points: [Point] = []
    /// A fixed y range (PCMD: −1…1); nil = from the data (and the levels).
    var fixedRange: ClosedRange<Double>? = nil
    /// Whether the automatic range starts at zero (distances, speeds, ages).
    var fromZero = true
    /// Whether the markers' names are written at the top of the plot (on the first chart only).
    var labelsMarkers = false
    var rightAxis: RightAxis? = nil
    /// Stretches with something missing (no fix, navdata lost): shaded, named `gapLabel` at the
    /// top when wide enough, each with its reason in the tooltip.
    var gaps: [FlightTimeline.Gap] = []
    var gapLabel = "no data"

    static let plotHeight = 120.0, top = 28.0, bottom = 26.0
    static var heightPixels: Double { top + plotHeight + bottom }

    /// The y range: fixed, or the data and levels padded by 8 % (at least `minimumSpan` tall).
    func range(minimumSpan: Double = 1) -> ClosedRange<Double> {
        if let fixedRange { return fixedRange }
        let values = lines.flatMap { $0.samples.map(\.value) } + levels.flatMap { [$0.value] + ($0.upper.map { [$0] } ?? []) }
        return Self.range(of: values, fromZero: fromZero, minimumSpan: minimumSpan)
    }

    /// The right axis's range: its lines' values from zero, padded like the left's.
    func rightRange() -> ClosedRange<Double> {
        Self.range(of: (rightAxis?.lines ?? []).flatMap { $0.samples.map(\.value) }, fromZero: true, minimumSpan: 1)
    }

    /// `values` (the finite ones) padded by 8 %, at least `minimumSpan` tall, from zero if asked.
    static func range(of values: [Double], fromZero: Bool, minimumSpan: Double) -> ClosedRange<Double> {
        let values = values.filter(\.isFinite)
        var low = values.min() ?? 0, high = values.max() ?? 1
        if fromZero { low = min(low, 0) }
        let pad = max(high - low, minimumSpan) * 0.08
        if !fromZero || low < 0 { low -= pad }
        high += pad
        if high - low < minimumSpan { high = low + minimumSpan }
        return low...high
    }

    /// The chart as one `<svg class="chart">` (no namespace attribute: it is inline HTML).
    func svg(axis: TimeAxis, states: [FlightTimeline.StateSpan], markers: [FlightTimeline.Marker]) -> String {
        let w = TimeAxis.widthPixels, h = Self.heightPixels
        let top = Self.top, bottom = top + Self.plotHeight
        let left = TimeAxis.left, plotWidth = TimeAxis.plotWidth
        let yRange = range()
        func y(_ v: Double) -> Double { Self.y(v, in: yRange) }
        let rightRange = rightRange()
        let rightLines = rightAxis?.lines ?? []
        var out = "<svg class=\"chart\" id=\"\(id)\" viewBox=\"0 0 \(f(w)) \(f(h))\" role=\"img\" "
        out += "aria-label=\"\(xmlEscaped(title))\">\n"
        out += "<title>\(xmlEscaped(title))</title>\n"
        // Title and the lines' key, on one row above the plot.
        out += "<text x=\"\(f(left))\" y=\"17\" class=\"chart-title\">\(xmlEscaped(title))"
        out += unit.isEmpty ? "" : " <tspan class=\"unit\">(\(xmlEscaped(unit)))</tspan>"
        out += "</text>\n"
        // The key, right-aligned: the lines, then the levels (a band's swatch is a box).
        var keyX = left + plotWidth
        let keys = (lines + rightLines).map { (name: $0.name, color: $0.color, dashed: $0.dashed, band: false) }
            + levels.map { (name: $0.label, color: $0.color, dashed: $0.dashed, band: $0.upper != nil) }
        for key in keys.reversed() {
            keyX -= 30 + 6.6 * Double(key.name.count) + 12
            if key.band {
                out += "<rect x=\"\(f(keyX))\" y=\"7\" width=\"22\" height=\"11\" fill=\"\(key.color)\" fill-opacity=\"0.3\"/>"
            } else {
                out += "<line x1=\"\(f(keyX))\" y1=\"13\" x2=\"\(f(keyX + 22))\" y2=\"13\" stroke=\"\(key.color)\" "
                out += "stroke-width=\"3\"\(key.dashed ? " stroke-dasharray=\"6 3\"" : "")/>"
            }
            out += "<text x=\"\(f(keyX + 28))\" y=\"17\" class=\"key\">\(xmlEscaped(key.name))</text>\n"
        }
        // Flight-state bands behind everything.
        out += "<g class=\"states\">\n"
        for span in states where span.endSeconds > 0 {
            let x0 = axis.x(span.startSeconds), x1 = axis.x(span.endSeconds)
            guard x1 - x0 > 0.05 else { continue }
            out += "<rect x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(x1 - x0))\" height=\"\(f(Self.plotHeight))\" "
            out += "fill=\"\(FlightReportStyle.color(span.kind))\" fill-opacity=\"0.22\">"
            out += "<title>\(xmlEscaped(span.state)) \(fixed(span.startSeconds, decimals: 1))–"
            out += "\(fixed(span.endSeconds, decimals: 1)) s</title></rect>\n"
        }
        out += "</g>\n"
        out += gapsMarkup(axis: axis)
        // Grid and tick labels.
        out += "<g class=\"grid\">\n"
        let yStep = TrackPlot.niceStep((yRange.upperBound - yRange.lowerBound) / 4)
        let yDecimals = yStep >= 1 ? 0 : (yStep >= 0.1 ? 1 : 2)
        var labels = ""
        var v = (yRange.lowerBound / yStep).rounded(.up) * yStep
        while v <= yRange.upperBound + 1e-9 {
            out += "<line x1=\"\(f(left))\" y1=\"\(f(y(v)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(v)))\"/>\n"
            labels += "<text x=\"\(f(left - 6))\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\">"
            labels += "\(fixed(abs(v) < 1e-9 ? 0 : v, decimals: yDecimals))</text>\n"
            v += yStep
        }
        let ticks = axis.ticks
        let tDecimals = ticks.count > 1 && ticks[1] - ticks[0] < 1 ? 1 : 0
        for t in ticks {
            out += "<line x1=\"\(f(axis.x(t)))\" y1=\"\(f(top))\" x2=\"\(f(axis.x(t)))\" y2=\"\(f(bottom))\"/>\n"
            labels += "<text x=\"\(f(axis.x(t)))\" y=\"\(f(bottom + 16))\" text-anchor=\"middle\">"
            labels += "\(fixed(t, decimals: tDecimals))</text>\n"
        }
        out += "</g>\n<g class=\"tick-labels\">\n" + labels
        if let rightAxis, rightLines.contains(where: { !$0.samples.isEmpty }) {
            out += rightTicksMarkup(color: rightAxis.color, range: rightRange)
        }
        out += "</g>\n"
        // Levels (named in the key): a shaded band, or a line.
        for level in levels {
            if let upper = level.upper {
                let y0 = y(upper), y1 = y(level.value)
                out += "<rect x=\"\(f(left))\" y=\"\(f(y0))\" width=\"\(f(plotWidth))\" height=\"\(f(max(y1 - y0, 1)))\" "
                out += "fill=\"\(level.color)\" fill-opacity=\"0.18\" class=\"band\"><title>\(xmlEscaped(level.label))</title></rect>\n"
            } else {
                out += "<line x1=\"\(f(left))\" y1=\"\(f(y(level.value)))\" x2=\"\(f(left + plotWidth))\" "
                out += "y2=\"\(f(y(level.value)))\" stroke=\"\(level.color)\" stroke-width=\"1.5\""
                out += "\(level.dashed ? " stroke-dasharray=\"7 4\"" : "")><title>\(xmlEscaped(level.label))</title></line>\n"
            }
        }
        // The lines, clipped to the plot by the y clamp.
        for line in lines { out += seriesMarkup(line, axis: axis, range: yRange) }
        for line in rightLines { out += seriesMarkup(line, axis: axis, range: rightRange) }
        let allLines = lines + rightLines
        if allLines.allSatisfy(\.samples.isEmpty) {
            out += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(top + Self.plotHeight / 2))\" text-anchor=\"middle\" "
            out += "class=\"no-data\">no data in this log</text>\n"
        } else if allLines.contains(where: \.samples.isEmpty) {
            // Some lines have data, some not (an older log without SKY reports): say which.
            let missing = allLines.filter(\.samples.isEmpty).map(\.name).joined(separator: ", ")
            out += "<text x=\"\(f(left + 6))\" y=\"\(f(bottom - 6))\" class=\"no-data partial\">no data in this log: \(xmlEscaped(missing))</text>\n"
        }
        for point in points {
            out += "<circle cx=\"\(f(axis.x(point.t)))\" cy=\"\(f(y(point.value)))\" r=\"4.5\" fill=\"white\" "
            out += "stroke=\"\(point.color)\" stroke-width=\"2.5\"/>\n"
            let anchor = axis.x(point.t) > left + plotWidth * 0.8 ? "end" : "start"
            let dx = anchor == "end" ? -8.0 : 8.0
            out += "<text x=\"\(f(axis.x(point.t) + dx))\" y=\"\(f(y(point.value) + 15))\" text-anchor=\"\(anchor)\" "
            out += "class=\"point-label\" fill=\"\(point.color)\">\(xmlEscaped(point.label))</text>\n"
        }
        // Markers: a thin vertical line each, named in its tooltip (and over the plot where the
        // name fits without touching the previous one).
        var labelledUpToX = -Double.infinity
        for marker in markers {
            let x = axis.x(marker.t)
            out += "<line class=\"marker\" x1=\"\(f(x))\" y1=\"\(f(top))\" x2=\"\(f(x))\" y2=\"\(f(bottom))\">"
            out += "<title>\(xmlEscaped(marker.label)) at \(fixed(marker.t, decimals: 1)) s</title></line>\n"
            let labelWidth = 6.6 * Double(marker.label.count) + 24
            let anchor = x > left + plotWidth * 0.75 ? "end" : "start"
            let labelStartX = anchor == "end" ? x - labelWidth : x
            if labelsMarkers, labelStartX > labelledUpToX {
                labelledUpToX = labelStartX + labelWidth
                out += "<text x=\"\(f(x + (anchor == "end" ? -4 : 4)))\" y=\"\(f(top + 12))\" text-anchor=\"\(anchor)\" "
                out += "class=\"marker-label\">\(xmlEscaped(marker.label))</text>\n"
            }
        }
        out += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(Self.plotHeight))\" "
        out += "class=\"frame\"/>\n"
        out += "<line class=\"cursor\" x1=\"-10\" y1=\"\(f(top))\" x2=\"-10\" y2=\"\(f(bottom))\"/>\n"
        out += "</svg>\n"
        return out
    }

    /// The y of `v` in the plot of a chart whose y axis spans `range` (clamped to the plot).
    static func y(_ v: Double, in range: ClosedRange<Double>) -> Double {
        top + plotHeight - (min(max(v, range.lowerBound), range.upperBound) - range.lowerBound)
            / (range.upperBound - range.lowerBound) * plotHeight
    }

    /// The samples of `line` as the runs drawn joined: split where a gap lies between two
    /// consecutive samples and neither is inside it. A line with samples in a gap is drawn through
    /// it (a receiver without a fix still counts satellites; the link's rates go on while navdata
    /// is lost); one without (a fix's error estimate, a silent receiver's SKY) stops at it.
    func runs(of line: Line) -> [[FlightTimeline.Sample]] {
        var runs: [[FlightTimeline.Sample]] = []
        var previous: FlightTimeline.Sample?
        for s in line.samples where s.t.isFinite && s.value.isFinite {
            let split = previous.map { p in
                gaps.contains { gap in
                    func inside(_ t: Double) -> Bool { gap.startSeconds < t && t < gap.endSeconds }
                    return gap.startSeconds < s.t && gap.endSeconds > p.t && !inside(p.t) && !inside(s.t)
                }
            } ?? true
            if split { runs.append([]) }
            runs[runs.count - 1].append(s)
            previous = s
        }
        return runs
    }

    /// One line: a `<polyline>` per run (`data-series` = its name), a dot for a run of one sample.
    func seriesMarkup(_ line: Line, axis: TimeAxis, range: ClosedRange<Double>) -> String {
        var out = ""
        for run in runs(of: line) {
            let series = "data-series=\"\(xmlEscaped(line.name))\""
            if run.count == 1, let s = run.first {
                out += "<circle class=\"series\" \(series) cx=\"\(f(axis.x(s.t)))\" cy=\"\(f(Self.y(s.value, in: range)))\" "
                out += "r=\"2\" fill=\"\(line.color)\"><title>\(xmlEscaped(line.name))</title></circle>\n"
                continue
            }
            out += "<polyline class=\"series\" \(series) fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"1.6\" "
            out += "stroke-linejoin=\"round\"\(line.dashed ? " stroke-dasharray=\"6 3\"" : "") points=\""
            out += run.map { f(axis.x($0.t)) + "," + f(Self.y($0.value, in: range)) }.joined(separator: " ")
            out += "\"><title>\(xmlEscaped(line.name))</title></polyline>\n"
        }
        return out
    }

    /// The gaps: a shaded stretch each (`data-start-s`, `data-end-s`), named at the top where wide enough.
    func gapsMarkup(axis: TimeAxis) -> String {
        guard !gaps.isEmpty else { return "" }
        var out = "<g class=\"gaps\">\n"
        for gap in gaps {
            let x0 = axis.x(gap.startSeconds), x1 = axis.x(gap.endSeconds)
            out += "<rect class=\"gap\" x=\"\(f(x0))\" y=\"\(f(Self.top))\" width=\"\(f(max(x1 - x0, 1)))\" "
            out += "height=\"\(f(Self.plotHeight))\" data-start-s=\"\(fixed(gap.startSeconds, decimals: 3))\" "
            out += "data-end-s=\"\(fixed(gap.endSeconds, decimals: 3))\"><title>\(xmlEscaped(gap.reason)) "
            out += "\(fixed(gap.startSeconds, decimals: 1))–\(fixed(gap.endSeconds, decimals: 1)) s</title></rect>\n"
            if x1 - x0 > 6.6 * Double(gapLabel.count) + 8 {
                out += "<text class=\"gap-label\" x=\"\(f(x0 + 4))\" y=\"\(f(Self.top + 13))\">"
                out += "\(xmlEscaped(gapLabel))</text>\n"
            }
        }
        return out + "</g>\n"
    }

    /// The right axis's tick labels (in the right margin) and tick marks on the frame; its unit is
    /// in its lines' names (the margin is too narrow for it).
    func rightTicksMarkup(color: String, range: ClosedRange<Double>) -> String {
        let x = TimeAxis.left + TimeAxis.plotWidth
        let step = max(TrackPlot.niceStep((range.upperBound - range.lowerBound) / 4), 1) // counts: whole steps
        var out = ""
        var v = (range.lowerBound / step).rounded(.up) * step
        while v <= range.upperBound + 1e-9 {
            let y = Self.y(v, in: range)
            out += "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(x + 4))\" y2=\"\(f(y))\" stroke=\"\(color)\"/>"
            out += "<text class=\"right-tick\" x=\"\(f(x + 6))\" y=\"\(f(y + 4))\" style=\"fill: \(color)\">\(fixed(v, decimals: 0))</text>\n"
            v += step
        }
        return out
    }

    private func f(_ x: Double) -> String { fixed(x, decimals: 1) }
}
