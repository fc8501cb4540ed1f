/// The page's colours, stylesheet and script: all inline, nothing fetched (system fonts only).
enum FlightReportStyle {
    /// Band colour of each kind of flight state (drawn at 22 % opacity behind the charts). Our
    /// choice: calm colours for normal flight (blue going up, green following), amber for a hold,
    /// purple for landing, red only for an emergency, grey on the ground.
    static func color(_ kind: StateBandKind) -> String {
        switch kind {
        case .preflight: "#9e9e9e"
        case .takingOff: "#4fc3f7"
        case .climbing: "#1e88e5"
        case .following: "#43a047"
        case .holding: "#fb8c00"
        case .landing: "#8e24aa"
        case .landed: "#616161"
        case .emergency: "#e53935"
        // A pilot or the autopilot's failsafe flies it: not ours, not an emergency.
        case .released: "#00897b"
        case .other: "#fdd835"
        }
    }

    static let person = TrackPlot.personColor
    static let drone = TrackPlot.droneColor
    static let standoff = "#2e7d32"
    static let minSeparation = "#c62828"
    static let closest = "#6a1b9a"
    /// PCMD roll, pitch, gaz, yaw (matplotlib's tab10, as the plots use).
    static let pcmd = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    /// GPS uncertainty: HDOP, satellites (used solid, in view dashed); link: telemetry in, sent.
    static let hdop = "#6d4c41"
    static let satellites = "#00897b"
    static let telemetry = "#1565c0"
    static let sent = "#78909c"

    /// The stylesheet (inside CDATA so the page stays well-formed XML).
    static let css = """
        /*<![CDATA[*/
        body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0;
               color: #222; background: #f6f7f9; }
        header { background: #263238; color: #fff; padding: 14px 24px; }
        header h1 { margin: 0; font-size: 22px; }
        header p { margin: 4px 0 0; color: #cfd8dc; font-size: 13px; }
        main { padding: 16px 24px 32px; max-width: 1400px; }
        h2 { font-size: 17px; margin: 0 0 10px; }
        .row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
        .card { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: 14px 16px; }
        #summary { flex: 1 1 420px; min-width: 360px; }
        #plan { flex: 0 1 580px; margin: 0; }
        #plan svg { width: 100%; height: auto; display: block; }
        table { border-collapse: collapse; font-size: 14px; width: 100%; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eceff1; vertical-align: top; }
        th { color: #555; font-weight: 600; white-space: nowrap; }
        td.num { font-variant-numeric: tabular-nums; }
        .warn { color: #b71c1c; font-weight: 600; }
        .ok { color: #1b5e20; }
        .method { color: #666; font-size: 12px; margin: 8px 0 0; }
        details { margin: 14px 0 0; }
        summary { font-size: 14px; font-weight: 600; cursor: pointer; margin: 0 0 6px; }
        pre { font-size: 12px; background: #f6f7f9; padding: 8px; max-height: 420px; overflow: auto; }
        #timeseries { margin-top: 20px; }
        #legend { display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 13px; margin: 0 0 8px; padding: 0; }
        #legend li { list-style: none; display: flex; align-items: center; gap: 6px; }
        #legend .swatch { width: 18px; height: 12px; border: 1px solid #999; display: inline-block; }
        svg.chart { width: 100%; height: auto; display: block; font-size: 12px; }
        svg.chart .chart-title { font-size: 14px; font-weight: 600; fill: #222; }
        svg.chart .unit { font-weight: 400; fill: #555; }
        svg.chart .key { font-size: 12px; fill: #333; }
        svg.chart .grid line { stroke: #000; stroke-opacity: 0.09; }
        svg.chart .tick-labels text { fill: #444; font-size: 11px; }
        svg.chart .frame { fill: none; stroke: #90a4ae; }
        svg.chart .point-label { font-size: 11px; font-weight: 600; }
        svg.chart .point-label, svg.chart .marker-label {
            paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
        svg.chart .marker-label { font-size: 11px; fill: #37474f; }
        svg.chart .no-data { fill: #888; font-style: italic; }
        svg.chart .marker { stroke: #37474f; stroke-width: 1; stroke-dasharray: 2 3; }
        svg.chart .gap { fill: #b0bec5; fill-opacity: 0.55; stroke: #78909c; stroke-dasharray: 4 3; }
        svg.chart .gap-label { font-size: 11px; fill: #37474f; font-style: italic; }
        svg.chart .gap-label, svg.chart .no-data.partial {
            paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
        svg.chart .tick-labels text.right-tick { font-weight: 600; }
        svg.chart .cursor { stroke: #000; stroke-width: 1; stroke-opacity: 0.5; pointer-events: none; }
        #cursor-time { font-size: 13px; color: #333; min-height: 18px; margin: 0 0 4px; }
        #render-check { color: #999; font-size: 11px; margin-top: 24px; }
        /*]]>*/
        """

    /// The script: measures every chart once (the size goes into `#render-check`, which a headless
    /// browser's DOM dump shows) and moves a shared time cursor over all charts with the mouse.
    /// No `<` or `&` in it (the page stays well-formed XML).
    static let script = """
        //<![CDATA[
        (function () {
          var charts = Array.prototype.slice.call(document.querySelectorAll("svg.chart"));
          var sizes = charts.map(function (c) {
            var r = c.getBoundingClientRect();
            return c.id + "=" + Math.round(r.width) + "x" + Math.round(r.height);
          });
          var check = document.getElementById("render-check");
          check.setAttribute("data-charts", String(charts.length));
          check.setAttribute("data-sizes", sizes.join(" "));
          check.textContent = "rendered " + charts.length + " charts: " + sizes.join(", ");
          var series = charts.filter(function (c) { return c.querySelector("line.cursor") !== null; });
          var readout = document.getElementById("cursor-time");
          var end = Number(document.getElementById("timeseries").getAttribute("data-end-s"));
          series.forEach(function (chart) {
            chart.addEventListener("mousemove", function (e) {
              var p = chart.createSVGPoint();
              p.x = e.clientX; p.y = e.clientY;
              var x = p.matrixTransform(chart.getScreenCTM().inverse()).x;
              var t = (x - \(TimeAxis.left)) / \(TimeAxis.plotWidth) * end;
              if (t >= 0 ? t > end : true) { return; }
              series.forEach(function (other) {
                var line = other.querySelector("line.cursor");
                line.setAttribute("x1", x); line.setAttribute("x2", x);
              });
              readout.textContent = "t = " + t.toFixed(1) + " s";
            });
          });
        })();
        //]]>
        """
}
