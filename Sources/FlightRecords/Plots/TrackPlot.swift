import FollowCore

/// A plan-view plot of tracks on a local plane (metres east/north) as an SVG document.
///
/// Pure string building: equal scale on both axes (a metre is a metre in every direction), a
/// labelled grid, a 1-2-5 scale bar, a legend, and start (hollow) / end (filled) markers. Each
/// series is exactly one `<polyline>`; axes, grid and scale bar are `<line>`s.
public struct TrackPlot: Sendable, Hashable {
    /// One track.
    public struct Series: Sendable, Hashable {
        public var name: String
        /// Any SVG colour, e.g. `#1f77b4`.
        public var color: String
        /// Metres east/north of the plot's origin.
        public var pointsPlane: [PlaneVector]

        public init(name: String, color: String, pointsPlane: [PlaneVector]) {
            self.name = name
            self.color = color
            self.pointsPlane = pointsPlane
        }
    }

    public var title: String = ""
    /// Extra lines under the title (settings, metrics).
    public var notes: [String] = []
    public var series: [Series] = []
    public var widthPixels: Double = 800
    public var heightPixels: Double = 800

    /// Colours of the person and drone tracks in every FollowMe plot.
    public static let personColor = "#1f77b4"
    public static let droneColor = "#d62728"

    /// Where `svg()` draws a point: pixels in its viewBox of the plane's metres east/north, equal scale
    /// on both axes; and the plot rectangle.
    public struct Projection: Sendable, Hashable {
        public var left: Double, top: Double, plotWidth: Double, plotHeight: Double
        /// Pixels per metre.
        public var scale: Double
        /// The metres east at the plot's left edge and north at its top edge.
        public var east0: Double, north1: Double

        /// The viewBox x of `east` metres.
        public func x(_ east: Double) -> Double { left + (east - east0) * scale }
        /// The viewBox y of `north` metres.
        public func y(_ north: Double) -> Double { top + (north1 - north) * scale }
    }

    /// The mapping `svg()` uses for this plot's series and size.
    public func projection() -> Projection {
        let w = max(widthPixels, 200), h = max(heightPixels, 200)
        let left = 72.0, right = 24.0, top = 44.0 + 16.0 * Double(notes.count), bottom = 56.0
        let plotWidth = w - left - right, plotHeight = max(h - top - bottom, 50)

        // Data bounds, at least 10 m across, with a 6 % margin.
        var minE = Double.infinity, maxE = -Double.infinity, minN = Double.infinity, maxN = -Double.infinity
        for s in series {
            for p in s.pointsPlane where p.isFinite {
                minE = min(minE, p.east); maxE = max(maxE, p.east)
                minN = min(minN, p.north); maxN = max(maxN, p.north)
            }
        }
        if !minE.isFinite { minE = -5; maxE = 5; minN = -5; maxN = 5 }
        let centerE = (minE + maxE) / 2, centerN = (minN + maxN) / 2
        let spanE = max(maxE - minE, 10) * 1.12, spanN = max(maxN - minN, 10) * 1.12
        // Pixels per metre, equal on both axes; the visible area fills the plot rectangle.
        let scale = min(plotWidth / spanE, plotHeight / spanN)
        let visibleE = plotWidth / scale, visibleN = plotHeight / scale
        let east0 = centerE - visibleE / 2, north1 = centerN + visibleN / 2
        return Projection(left: left, top: top, plotWidth: plotWidth, plotHeight: plotHeight, scale: scale,
                          east0: east0, north1: north1)
    }

    /// The SVG document (UTF-8 text, starts with `<svg`).
    public func svg() -> String {
        let w = max(widthPixels, 200), h = max(heightPixels, 200)
        let projection = projection()
        let (left, top, plotWidth, plotHeight, scale) =
            (projection.left, projection.top, projection.plotWidth, projection.plotHeight, projection.scale)
        let (east0, north1) = (projection.east0, projection.north1)
        let (visibleE, visibleN) = (plotWidth / scale, plotHeight / scale)
        func x(_ east: Double) -> Double { projection.x(east) }
        func y(_ north: Double) -> Double { projection.y(north) }

        var out = ""
        out.reserveCapacity(4096 + series.reduce(0) { $0 + $1.pointsPlane.count * 16 })
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(w, 0))\" height=\"\(f(h, 0))\" "
        out += "viewBox=\"0 0 \(f(w, 0)) \(f(h, 0))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<title>\(xmlEscaped(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(f(w, 0))\" height=\"\(f(h, 0))\" fill=\"white\"/>\n"
        out += "<text x=\"\(f(left, 1))\" y=\"22\" font-size=\"16\" font-weight=\"bold\">\(xmlEscaped(title))</text>\n"
        for (i, note) in notes.enumerated() {
            out += "<text x=\"\(f(left, 1))\" y=\"\(f(40 + 16 * Double(i), 1))\" fill=\"#444\">\(xmlEscaped(note))</text>\n"
        }

        // Grid, ticks and axis labels.
        let step = Self.niceStep(max(visibleE, visibleN) / 8)
        let decimals = step >= 1 ? 0 : (step >= 0.1 ? 1 : 2)
        out += "<g id=\"axes\" stroke=\"#ddd\" stroke-width=\"1\">\n"
        var labels = ""
        var e = (east0 / step).rounded(.up) * step
        while e <= east0 + visibleE + 1e-9 {
            let px = x(e)
            out += line(px, top, px, top + plotHeight)
            labels += "<text x=\"\(f(px, 1))\" y=\"\(f(top + plotHeight + 16, 1))\" text-anchor=\"middle\">\(f(e, decimals))</text>\n"
            e += step
        }
        let north0 = north1 - visibleN
        var n = (north0 / step).rounded(.up) * step
        while n <= north1 + 1e-9 {
            let py = y(n)
            out += line(left, py, left + plotWidth, py)
            labels += "<text x=\"\(f(left - 6, 1))\" y=\"\(f(py + 4, 1))\" text-anchor=\"end\">\(f(n, decimals))</text>\n"
            n += step
        }
        out += "</g>\n"
        out += "<rect x=\"\(f(left, 1))\" y=\"\(f(top, 1))\" width=\"\(f(plotWidth, 1))\" height=\"\(f(plotHeight, 1))\" "
        out += "fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n"
        out += "<g id=\"tick-labels\" fill=\"#333\">\n" + labels + "</g>\n"
        out += "<text x=\"\(f(left + plotWidth / 2, 1))\" y=\"\(f(h - 14, 1))\" text-anchor=\"middle\">east (m)</text>\n"
        out += "<text x=\"18\" y=\"\(f(top + plotHeight / 2, 1))\" text-anchor=\"middle\" "
        out += "transform=\"rotate(-90 18 \(f(top + plotHeight / 2, 1)))\">north (m)</text>\n"

        // Tracks and their start/end markers.
        for s in series where !s.pointsPlane.isEmpty {
            let points = s.pointsPlane.filter(\.isFinite)
            guard let first = points.first, let last = points.last else { continue }
            // A non-finite point breaks the line (a jump that is not a path, e.g. a turning frame).
            for run in s.pointsPlane.split(whereSeparator: { !$0.isFinite }) {
                out += "<polyline fill=\"none\" stroke=\"\(xmlEscaped(s.color))\" stroke-width=\"2\" stroke-linejoin=\"round\" "
                out += "stroke-linecap=\"round\" points=\""
                for (i, p) in run.enumerated() {
                    if i > 0 { out += " " }
                    out += f(x(p.east), 1) + "," + f(y(p.north), 1)
                }
                out += "\"><title>\(xmlEscaped(s.name))</title></polyline>\n"
            }
            out += "<circle cx=\"\(f(x(first.east), 1))\" cy=\"\(f(y(first.north), 1))\" r=\"5\" fill=\"white\" "
            out += "stroke=\"\(xmlEscaped(s.color))\" stroke-width=\"2\"/>\n"
            out += "<circle cx=\"\(f(x(last.east), 1))\" cy=\"\(f(y(last.north), 1))\" r=\"5\" fill=\"\(xmlEscaped(s.color))\"/>\n"
        }

        // Legend and scale bar go in the plot corners covering the fewest track points.
        let rows = series.count + 1
        let legendWidth = 40.0 + 7.5 * Double(max(series.map(\.name.count).max() ?? 0, 14))
        let legendHeight = 8 + 18 * Double(rows)
        let barMeters = Self.niceStep(visibleE / 5)
        let barPixels = barMeters * scale
        let pixels = series.flatMap { $0.pointsPlane.filter(\.isFinite).map { (x($0.east), y($0.north)) } }
        // Corners: 0 top left, 1 top right, 2 bottom left, 3 bottom right; ties keep this order.
        /// The top left of a `width` × `height` box in `corner`, `inset` pixels in from the plot's edges.
        func place(_ corner: Int, width: Double, height: Double, inset: Double = 0) -> (x: Double, y: Double) {
            (x: corner % 2 == 0 ? left + inset : left + plotWidth - width - inset,
             y: corner < 2 ? top + inset : top + plotHeight - height - inset)
        }
        func crowding(_ corner: Int, width: Double, height: Double) -> Int {
            let (x0, y0) = place(corner, width: width, height: height)
            return pixels.reduce(0) { $0 + ($1.0 >= x0 && $1.0 <= x0 + width && $1.1 >= y0 && $1.1 <= y0 + height ? 1 : 0) }
        }
        /// Opens group `id` over a white box (`style`: its opacity, outline) at `x`, `y`, `width` × `height`.
        func openGroup(_ id: String, x: Double, y: Double, width: Double, height: String, style: String) -> String {
            "<g id=\"\(id)\">\n<rect x=\"\(f(x, 1))\" y=\"\(f(y, 1))\" width=\"\(f(width, 1))\" height=\"\(height)\" "
                + "fill=\"white\" \(style)/>\n"
        }
        let legendCorner = [1, 0, 3, 2].min { crowding($0, width: legendWidth + 16, height: legendHeight + 16)
            < crowding($1, width: legendWidth + 16, height: legendHeight + 16) } ?? 1
        let barCorner = [2, 3, 0, 1].filter { $0 != legendCorner }.min {
            crowding($0, width: barPixels + 40, height: 48) < crowding($1, width: barPixels + 40, height: 48)
        } ?? 2
        let bx = place(barCorner, width: barPixels, height: 0, inset: 16).x
        let by = barCorner < 2 ? top + 34 : top + plotHeight - 18
        out += openGroup("scale-bar", x: bx - 6, y: by - 22, width: barPixels + 12, height: "32",
                         style: "fill-opacity=\"0.8\"")
        out += line(bx, by, bx + barPixels, by, style: "stroke=\"black\" stroke-width=\"3\"")
        out += line(bx, by - 5, bx, by + 5, style: "stroke=\"black\" stroke-width=\"2\"")
        out += line(bx + barPixels, by - 5, bx + barPixels, by + 5, style: "stroke=\"black\" stroke-width=\"2\"")
        let barDecimals = barMeters >= 1 ? 0 : (barMeters >= 0.1 ? 1 : 2)
        out += "<text x=\"\(f(bx + barPixels / 2, 1))\" y=\"\(f(by - 8, 1))\" text-anchor=\"middle\">\(f(barMeters, barDecimals)) m</text>\n"
        out += "</g>\n"

        // Legend.
        let (lx, ly) = place(legendCorner, width: legendWidth, height: legendHeight, inset: 8)
        out += openGroup("legend", x: lx, y: ly, width: legendWidth, height: f(legendHeight, 1),
                         style: "fill-opacity=\"0.9\" stroke=\"#999\"")
        for (i, s) in series.enumerated() {
            let ry = ly + 16 + 18 * Double(i)
            out += line(lx + 8, ry - 4, lx + 30, ry - 4, style: "stroke=\"\(xmlEscaped(s.color))\" stroke-width=\"3\"")
            out += "<text x=\"\(f(lx + 36, 1))\" y=\"\(f(ry, 1))\">\(xmlEscaped(s.name))</text>\n"
        }
        out += "<text x=\"\(f(lx + 8, 1))\" y=\"\(f(ly + 16 + 18 * Double(series.count), 1))\" fill=\"#444\">○ start  ● end</text>\n"
        out += "</g>\n"
        out += "</svg>\n"
        return out
    }

    /// The smallest 1, 2 or 5 × 10ⁿ that is ≥ `x` (x > 0); 1 for non-positive or non-finite input.
    public static func niceStep(_ x: Double) -> Double {
        guard x.isFinite, x > 0 else { return 1 }
        var base = 1.0
        while base > x { base /= 10 }
        while base * 10 <= x { base *= 10 }
        for m in [1.0, 2.0, 5.0, 10.0] where base * m >= x * (1 - 1e-12) { return base * m }
        return base * 10
    }

    /// A `<line>` from (x1, y1) to (x2, y2), pixels, then `style`'s attributes (none if empty).
    func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, style: String = "") -> String {
        "<line x1=\"\(f(x1, 1))\" y1=\"\(f(y1, 1))\" x2=\"\(f(x2, 1))\" y2=\"\(f(y2, 1))\""
            + (style.isEmpty ? "" : " " + style) + "/>\n"
    }

    /// `x` with exactly `decimals` digits after the point (no Foundation), "0" for non-finite.
    func f(_ x: Double, _ decimals: Int) -> String { fixed(x, decimals: decimals) }
}

extension TrackPlot: Configurable { public static var defaults: Self { Self() } }
