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
        #video { margin-top: 20px; }
        figure.recording { display: flex; flex-wrap: wrap; gap: 12px 16px; margin: 0 0 12px; align-items: flex-start; }
        figure.recording video { flex: 0 1 640px; width: 640px; max-width: 100%; aspect-ratio: 16 / 9; background: #000; }
        .no-mp4 { flex: 0 1 640px; font-size: 14px; }
        .no-mp4 pre { white-space: pre-wrap; word-break: break-all; }
        .thumbs { flex: 1 1 330px; display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 6px;
                  align-content: start; }
        button.thumb { padding: 0; border: 2px solid transparent; background: #eceff1; cursor: pointer; font-size: 11px;
                       color: #37474f; text-align: center; }
        button.thumb img { display: block; width: 100%; height: auto; }
        button.thumb.current { border-color: #d62728; }
        .thumbs-note { grid-column: 1 / -1; color: #666; font-size: 13px; margin: 0; }
        figure.recording figcaption { flex-basis: 100%; font-size: 13px; color: #444; }
        #plan-cursor .cursor-label { font-size: 12px; font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
        /*]]>*/
        """

    /// The script: measures every chart once (the size goes into `#render-check`, which a headless
    /// browser's DOM dump shows) and moves one shared time cursor: the charts' line, the readout and
    /// the plan view's person and drone markers, to the time under the mouse on a chart, or to the
    /// time a recording's video shows (its figure's `data-map`, on `timeupdate`, `seeked` and every
    /// animation frame while it plays). Clicking a chart or a thumbnail seeks the video; `#video=S` in
    /// the page's URL starts the first recording at S seconds. The time shown is left in `<body>`'s
    /// `data-cursor-s` (and the video's own time, when a video moved it, in `data-video-s`).
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
          var left = \(TimeAxis.left), width = \(TimeAxis.plotWidth);
          function rows(text) {
            return text ? text.split(" ").map(function (p) { return p.split(",").map(Number); }) : [];
          }
          // Column yi at x in column xi of rows ascending in it: linear between rows, clamped at the ends.
          function lookup(table, x, xi, yi) {
            var n = table.length;
            if (n === 0) { return null; }
            if (table[0][xi] >= x) { return table[0][yi]; }
            if (x >= table[n - 1][xi]) { return table[n - 1][yi]; }
            var lo = 0, hi = n - 1;
            while (hi - lo > 1) {
              var mid = (lo + hi) >> 1;
              if (table[mid][xi] > x) { hi = mid; } else { lo = mid; }
            }
            var a = table[lo], b = table[hi], span = b[xi] - a[xi];
            return span > 0 ? a[yi] + (x - a[xi]) / span * (b[yi] - a[yi]) : a[yi];
          }
          var plan = document.getElementById("plan-cursor");
          var person = plan ? rows(plan.getAttribute("data-person")) : [];
          var drone = plan ? rows(plan.getAttribute("data-drone")) : [];
          function place(t) {
            if (!plan) { return; }
            var p = person.length ? [lookup(person, t, 0, 1), lookup(person, t, 0, 2)] : null;
            var d = drone.length ? [lookup(drone, t, 0, 1), lookup(drone, t, 0, 2)] : null;
            var dot = plan.querySelector(".cursor-person"), box = plan.querySelector(".cursor-drone");
            var link = plan.querySelector(".cursor-link"), label = plan.querySelector(".cursor-label");
            if (p) { dot.setAttribute("cx", p[0]); dot.setAttribute("cy", p[1]); }
            if (d) { box.setAttribute("x", d[0] - 7); box.setAttribute("y", d[1] - 7); }
            dot.setAttribute("visibility", p ? "inherit" : "hidden");
            box.setAttribute("visibility", d ? "inherit" : "hidden");
            var both = p ? d : null;
            if (both) {
              link.setAttribute("x1", p[0]); link.setAttribute("y1", p[1]);
              link.setAttribute("x2", d[0]); link.setAttribute("y2", d[1]);
            }
            link.setAttribute("visibility", both ? "inherit" : "hidden");
            var at = d || p;
            if (at) { label.setAttribute("x", at[0] + 11); label.setAttribute("y", at[1] - 9); }
            label.textContent = t.toFixed(1) + " s";
            plan.setAttribute("visibility", "visible");
          }
          function show(t) {
            var x = left + Math.min(Math.max(t, 0), end) / end * width;
            series.forEach(function (chart) {
              var line = chart.querySelector("line.cursor");
              line.setAttribute("x1", x); line.setAttribute("x2", x);
            });
            readout.textContent = "t = " + t.toFixed(1) + " s";
            place(t);
            document.body.setAttribute("data-cursor-s", t.toFixed(3));
          }
          var recordings = Array.prototype.slice.call(document.querySelectorAll("figure.recording")).map(function (figure) {
            var r = { figure: figure, map: rows(figure.getAttribute("data-map")), video: figure.querySelector("video"),
                      thumbs: Array.prototype.slice.call(figure.querySelectorAll("button.thumb")),
                      start: Number(figure.getAttribute("data-start-s")), end: Number(figure.getAttribute("data-end-s")) };
            r.mark = function (t) {
              var current = null;
              r.thumbs.forEach(function (b) { if (t >= Number(b.getAttribute("data-t"))) { current = b; } });
              r.thumbs.forEach(function (b) { b.classList.toggle("current", b === current); });
            };
            r.follow = function () {
              var t = lookup(r.map, r.video.currentTime, 0, 1);
              if (t === null) { return; }
              show(t); r.mark(t);
              document.body.setAttribute("data-video-s", r.video.currentTime.toFixed(3));
            };
            r.seek = function (v, t) {
              show(t); r.mark(t);
              if (!r.video) { return; }
              if (r.video.readyState) { r.video.currentTime = v; return; }
              r.video.addEventListener("loadedmetadata", function () { r.video.currentTime = v; }, { once: true });
            };
            if (r.video) {
              r.video.addEventListener("timeupdate", r.follow);
              r.video.addEventListener("seeked", r.follow);
              r.video.addEventListener("play", function tick() {
                r.follow();
                if (!r.video.paused) { requestAnimationFrame(tick); }
              });
            }
            r.thumbs.forEach(function (b) {
              b.addEventListener("click", function () {
                r.seek(Number(b.getAttribute("data-video-s")), Number(b.getAttribute("data-t")));
              });
            });
            return r;
          });
          function timeAt(chart, e) {
            var p = chart.createSVGPoint();
            p.x = e.clientX; p.y = e.clientY;
            var x = p.matrixTransform(chart.getScreenCTM().inverse()).x;
            var t = (x - left) / width * end;
            return t >= 0 ? (t > end ? null : t) : null;
          }
          series.forEach(function (chart) {
            chart.addEventListener("mousemove", function (e) {
              var t = timeAt(chart, e);
              if (t !== null) { show(t); }
            });
            chart.addEventListener("click", function (e) {
              var t = timeAt(chart, e);
              if (t === null) { return; }
              recordings.forEach(function (r) {
                if (t >= r.start ? r.end >= t : false) { r.seek(lookup(r.map, t, 1, 0), t); }
              });
            });
          });
          var asked = /^#video=([0-9]+(?:[.][0-9]+)?)$/.exec(location.hash);
          if (asked ? recordings.length : 0) {
            var v = Number(asked[1]);
            recordings[0].seek(v, lookup(recordings[0].map, v, 0, 1));
          }
        })();
        //]]>
        """
}
