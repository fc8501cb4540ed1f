extension CockpitPage {
    /// The page's script, first part: renders each status line from `/events` (the page carries the
    /// latest one inline), counts how old the last one is (the flight's `t` is its own monotonic clock,
    /// so age is measured by the phone from arrival): the banner turns stale after `STALE_S`, the
    /// values (distance, vitals, plan, GPS tiles) grey out with "N s ago" after `OLD_S`. The stream
    /// reconnects by itself, also when it stays open but silent for 6 s; when it fails, one
    /// `fetch("/events")` asks the server why (a 503's `{"error":…}`, which `EventSource` cannot
    /// read) and the banner shows that instead of only "reconnecting". REC and its length show while the
    /// status's `camera` is `recording` (`camera_recording_s`). `event: security` messages (a paired phone's stream) show as a dismissable
    /// warning that comes back with each new message. Pairing and commands: `scriptPairing`.
    static let script = #"""
        "use strict";
        const $ = id => document.getElementById(id);
        const STALE_S = 2.5, OLD_S = 3;
        let last = null, lastAt = 0, heardAt = 0, source = null, pending = null, modeTouched = false, streamProblem = "", probing = false, probedAt = -1e9;
        // The angle box is for the angle mode only; the controls show the flight's mode until touched.
        function angleInUse() { $("mode-angle").disabled = $("mode-select").value !== "angle"; }
        const WAITING = {"target-fix":"person's GPS fix","onboard-fix":"drone's GPS fix",heading:"drone heading",
          navdata:"drone telemetry",battery:"battery reading","drone-ready":"drone ready on the ground",
          "person-too-close":"you to step back","drone-configuration":"drone configuration",
          "target-rate":"person's GPS rate",wind:"calmer wind",braking:"braking data",
          "operator-hold":"RESUME (you pressed HOLD)",start:"your START","target-altitude":"person's GPS altitude"};
        const REASONS = {"navdata-lost":"drone telemetry lost","onboard-fix-stale":"drone's GPS stale",
          "heading-stale":"drone heading stale","target-stale":"person's GPS stale",geofence:"fence reached",
          "target-too-far":"person too far","heading-rejected":"drone heading rejected",
          "altitude-not-reached":"altitude not reached","person-above-drone":"person above the drone",
          "target-altitude-stale":"person's altitude unknown (no 3-D fix)",
          "not-in-control":"not in control","battery-unknown":"battery unknown","vehicle-critical":"vehicle critical",
          "operator-hold":"you pressed HOLD","low-battery":"low battery",shutdown:"followme is stopping",
          "drone-initiated":"the drone landed by itself",operator:"you pressed LAND","critical-battery":"critical battery",
          "prerequisites-met":"ready","altitude-reached":"altitude reached","airborne-confirmed":"airborne",
          "data-fresh":"data fresh again","landed-confirmed":"on the ground","adopted-in-flight":"adopted in flight",
          "emergency-reported":"the drone reports an emergency","take-off-not-confirmed":"take-off not seen",
          watching:"someone else flies it: FollowMe only watches","someone-elses-flight":"someone else flies it",
          "vehicle-released":"a pilot or the autopilot took it","landed-while-released":"down again",
          "take-off-aborted-on-ground":"take-off aborted on the ground: waiting"};
        function words(reason) {
          if (!reason) return "";
          const i = reason.indexOf(":");
          if (i < 0) return REASONS[reason] || reason.replace(/-/g, " ");
          const head = reason.slice(0, i), tail = reason.slice(i + 1);
          if (head === "hold" || head === "land") return words(tail);
          if (head === "hold-expired") return "hold expired: " + words(tail);
          if (head === "take-off-aborted") return "take-off aborted, missing " + tail.split(",").map(w => WAITING[w] || w).join(", ");
          if (head === "wind-too-strong") return "wind too strong";
          if (head === "mode") return "pilot or autopilot took it (" + tail + ")";
          return reason.replace(/-/g, " ");
        }
        function parseState(s) {
          const m = /^([a-z-]+)(?:\((.*)\))?$/.exec(s || "");
          return m ? {kind: m[1], arg: m[2] || ""} : {kind: "unknown", arg: ""};
        }
        const fmt = (v, d) => (v === undefined || v === null) ? "–" : Number(v).toFixed(d);
        function text(id, value) { $(id).textContent = value; }
        function fixHTML(r) {
          if (!r) return "<b>–</b>";
          if (r.lost) return "<b class=warn>NO FIX</b><br>" + esc(r.lost);
          if (r.mode === undefined) return "<b class=warn>NO FIX</b>";
          const age = r.age_s, old = age !== undefined && age > 2;
          const sats = r.sats_used !== undefined ? r.sats_used + "/" + (r.sats_seen ?? "–") + " sats" : "sats –";
          return "<b" + (r.mode < 3 ? " class=warn" : "") + ">" + r.mode + "D</b> " + sats +
            "<br>±" + fmt(r.eph_m, 1) + " m&nbsp; HDOP " + fmt(r.hdop, 1) +
            "<br><span" + (old ? " class=warn" : "") + ">" + (old ? "OLD " : "age ") + fmt(age, 1) + " s</span>";
        }
        function esc(s) { return String(s).replace(/[&<>"']/g, c => "&#" + c.charCodeAt(0) + ";"); }

        function render(s) {
          last = s; lastAt = performance.now();
          const st = parseState(s.state), banner = $("banner");
          banner.className = "st-" + st.kind;
          let title = st.kind.replace(/-/g, " "), detail = "";
          const waiting = s.waiting || [];
          if (st.kind === "preflight") {
            if (waiting.length === 1 && waiting[0] === "start") detail = "Ready: press START";
            else if (waiting.length) detail = "Waiting for " + waiting.map(w => WAITING[w] || w).join(" · ");
            else detail = "ready: taking off";
          } else if (st.kind === "following") detail = "keeping " + fmt(s.standoff_m, 0) + " m from you";
          else if (st.kind === "holding" || st.kind === "landing") {
            detail = words(st.arg);
            if (s.state_since_t !== undefined) detail += " · for " + fmt(Math.max(0, s.t - s.state_since_t), 0) + " s";
          }
          else if (st.kind === "landed") detail = words(s.reason);
          else if (st.kind === "emergency") detail = "motors cut: inspect the drone";
          else if (st.kind === "released") detail = words(st.arg);
          else detail = words(s.reason);
          if (s.dry_run) detail += " · DRY RUN";
          text("state", title); text("detail", detail);
          renderDistance(s); renderTiles(s); renderWarnings(s); renderButtons(s, st, waiting); drawPlan(s); renderCamera(s);
          tick();
        }
        // REC and the recording's length (m:ss) while the camera records; a refusal in small type.
        // When a recording ends or the drone lands, the paired phone asks again whether there is a video to download.
        let cameraWas = null;
        function onGround(s) { return !s || ["preflight", "landed"].includes(parseState(s.state).kind); }
        function renderCamera(s) {
          const recording = s.camera === "recording", secs = Math.floor(Math.max(0, s.camera_recording_s ?? 0));
          $("rec").hidden = !recording;
          if (recording) text("rec", s.camera_recording_s === undefined ? "REC" : "REC " + Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0"));
          $("camera-note").hidden = s.camera !== "refused";
          text("camera-note", s.camera === "refused" ? "camera refused: " + (s.camera_reason || "no reason given") : "");
          const now = (s.camera ?? "") + "|" + onGround(s);
          if (cameraWas !== null && cameraWas !== now && typeof checkVideo === "function") checkVideo();
          cameraWas = now;
        }
        function renderDistance(s) {
          const d = s.person ? s.person.distance_m : undefined, min = s.min_separation_m || 0, standoff = s.standoff_m || 0;
          text("distance", d === undefined ? "–" : fmt(d, 1) + " m");
          $("distance").className = "big" + (d !== undefined && d < min ? " warn" : "");
          const scale = Math.max(standoff * 1.6, min * 3, (d || 0) * 1.1, 1);
          $("bar-danger").style.width = (100 * min / scale) + "%";
          $("bar-standoff").style.left = (100 * standoff / scale) + "%";
          $("bar-now").style.display = d === undefined ? "none" : "block";
          $("bar-now").style.left = Math.min(100, 100 * (d || 0) / scale) + "%";
          text("minsep-text", min ? "min " + fmt(min, 0) + " m" : "");
          text("standoff-text", standoff ? "standoff " + fmt(standoff, 0) + " m" : "");
        }
        function vital(id, value, unit, sub, warn) {
          $(id).innerHTML = value + (unit ? "<small>" + unit + "</small>" : "") + "<div class=sub>" + (sub || "&nbsp;") + "</div>";
          $(id).className = "mid" + (warn ? " warn" : "");
        }
        function renderTiles(s) {
          $("target-fix").innerHTML = fixHTML(s.target);
          $("onboard-fix").innerHTML = fixHTML(s.onboard);
          const b = s.battery_pct, w = s.wind;
          vital("battery", fmt(b, 0), b === undefined ? "" : "%", b !== undefined && b < 25 ? "LOW" : "", b !== undefined && b < 25);
          if (w) vital("wind", fmt(w.wind_mps, 1), "m/s", fmt(100 * w.wind_authority, 0) + "% tilt", w.wind_authority >= 0.8 || w.saturated_s > 0);
          else vital("wind", "–", "", "on ground", false);
          const hz = s.navdata_hz;
          vital("linkrate", fmt(hz, 0), hz === undefined ? "" : "Hz", s.commands_per_s === undefined ? "" : fmt(s.commands_per_s, 0) + " cmd/s",
            hz === undefined || hz < 5);
          vital("altitude", fmt(s.altitude_m, 1), s.altitude_m === undefined ? "" : "m", "", false);
          const op = s.operator;
          text("last-command", op ? op.command.toUpperCase() + " · " + op.source + " → " + op.outcome +
            " (" + fmt(Math.max(0, s.t - op.t), 0) + " s ago)" : "none");
          const f = s.follow;
          if (f && !modeTouched) {
            $("mode-select").value = f.mode === "orbit" ? "orbit-" + f.orbit_direction : f.mode;
            $("mode-angle").value = fmt(f.angle_deg, 0); angleInUse();
          }
          text("mode-now", !f ? "–" : f.mode === "angle" ? "ANGLE " + fmt(f.angle_deg, 0) + "°"
            : f.mode === "orbit" ? "ORBIT " + (f.orbit_direction === "clockwise" ? "↻" : "↺") : f.mode.toUpperCase());
        }
        function renderWarnings(s) {
          const list = $("warnings"); list.textContent = "";
          const items = (s.transitions || []).slice(-5).reverse();
          for (const tr of items) {
            const li = document.createElement("li"), to = parseState(tr.to);
            li.textContent = to.kind.toUpperCase() + ": " + (words(tr.reason) || to.kind) + " (" + fmt(Math.max(0, s.t - tr.t), 0) + " s ago)";
            if (["holding", "landing", "emergency"].includes(to.kind)) li.className = "warn";
            list.appendChild(li);
          }
          if (!items.length) list.innerHTML = "<li>none</li>";
        }
        function renderButtons(s, st, waiting) {
          const flying = ["preflight", "taking-off", "climbing", "following", "holding"].includes(st.kind);
          const held = st.arg === "operator-hold" || waiting.includes("operator-hold");
          $("b-start").disabled = !(st.kind === "preflight" && s.takeoff === "start" && waiting.length === 1 && waiting[0] === "start");
          $("b-hold").disabled = !flying || held;
          $("b-resume").disabled = !held;
          $("b-land").disabled = false;
        }

        function el(tag, attrs, body) {
          let out = "<" + tag;
          for (const k in attrs) out += " " + k + '="' + (typeof attrs[k] === "number" ? +attrs[k].toFixed(3) : esc(attrs[k])) + '"';
          return out + (body === undefined ? "/>" : ">" + esc(body) + "</" + tag + ">");
        }
        function drawPlan(s) {
          const svg = $("plan"), R = 6371008.8, rad = Math.PI / 180;
          const t = s.target, o = s.onboard, h = s.home;
          const has = r => r && r.lat !== undefined && r.lon !== undefined;
          const ref = has(t) ? t : has(o) ? o : h ? h : null;
          if (!ref) { svg.setAttribute("viewBox", "-100 -60 200 120"); svg.innerHTML = el("text", {x: 0, y: 0, "text-anchor": "middle", "font-size": 14}, "no position yet"); return; }
          const cos0 = Math.cos(ref.lat * rad);
          const xy = p => [(p.lon - ref.lon) * rad * R * cos0, -(p.lat - ref.lat) * rad * R];
          const P = has(t) ? xy(t) : null, D = has(o) ? xy(o) : null, H = h ? xy(h) : null;
          const min = s.min_separation_m || 3, standoff = s.standoff_m || 0;
          const pts = [];
          if (P) pts.push([P[0] - min, P[1] - min], [P[0] + min, P[1] + min]);
          if (D) pts.push([D[0] - 3, D[1] - 3], [D[0] + 3, D[1] + 3]);
          const near = Math.max(60, 3 * standoff), anchor = P || D;
          const homeFar = H && anchor && Math.hypot(H[0] - anchor[0], H[1] - anchor[1]) > near;
          if (H && !homeFar) pts.push([H[0] - 3, H[1] - 3], [H[0] + 3, H[1] + 3]);
          const xs = pts.map(p => p[0]), ys = pts.map(p => p[1]);
          const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
          const wpx = svg.clientWidth || 360, hpx = svg.clientHeight || 186, aspect = wpx / hpx;
          const half = Math.max((Math.max(...xs) - Math.min(...xs)) / 2, (Math.max(...ys) - Math.min(...ys)) / 2 * aspect, 12) * 1.25;
          const vw = 2 * half, vh = vw / aspect, m = vw / wpx;
          svg.setAttribute("viewBox", [cx - vw / 2, cy - vh / 2, vw, vh].map(v => v.toFixed(3)).join(" "));
          let g = "";
          if (H && s.geofence_m) g += el("circle", {cx: H[0], cy: H[1], r: s.geofence_m, fill: "none", stroke: "#d08000", "stroke-width": 4 * m, "stroke-dasharray": (12 * m).toFixed(3) + " " + (8 * m).toFixed(3)});
          if (P && standoff) g += el("circle", {cx: P[0], cy: P[1], r: standoff, fill: "none", stroke: "#0b6b1f", "stroke-width": 2 * m, "stroke-dasharray": (6 * m).toFixed(3) + " " + (6 * m).toFixed(3)});
          if (P) g += el("circle", {cx: P[0], cy: P[1], r: min, fill: "rgba(220,0,0,.18)", stroke: "#c00000", "stroke-width": 3 * m});
          if (P && D) g += el("line", {x1: D[0], y1: D[1], x2: P[0], y2: P[1], stroke: "#555", "stroke-width": 2 * m});
          if (H && !homeFar) g += el("rect", {x: H[0] - 10 * m, y: H[1] - 10 * m, width: 20 * m, height: 20 * m, fill: "#fff", stroke: "#555", "stroke-width": 3 * m}) +
            el("text", {x: H[0], y: H[1] + 6 * m, "font-size": 16 * m, "text-anchor": "middle", "font-weight": 900}, "H");
          if (homeFar) {
            const a = Math.atan2(H[1] - cy, H[0] - cx), r = Math.min(vw, vh) / 2 - 24 * m;
            g += el("text", {x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), "font-size": 15 * m, "text-anchor": "middle", "font-weight": 900},
              "home " + Math.hypot(H[0] - anchor[0], H[1] - anchor[1]).toFixed(0) + " m");
          }
          if (P) g += el("circle", {cx: P[0], cy: P[1], r: 9 * m, fill: "#1565ff", stroke: "#000", "stroke-width": 2.5 * m});
          if (D) {
            const k = 16 * m;
            if (s.heading_deg === undefined) g += el("circle", {cx: D[0], cy: D[1], r: 8 * m, fill: "#000"});
            else g += el("polygon", {points: [0, -k * 1.3, k * 0.8, k, 0, k * 0.45, -k * 0.8, k].map(v => v.toFixed(3)).join(" "),
              fill: "#000", stroke: "#fff", "stroke-width": 2 * m, transform: "translate(" + D[0].toFixed(3) + " " + D[1].toFixed(3) + ") rotate(" + s.heading_deg.toFixed(1) + ")"});
          }
          const nice = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000].find(v => v >= vw / 5) || 5000;
          const x0 = cx - vw / 2 + 12 * m, y0 = cy + vh / 2 - 12 * m;
          g += el("line", {x1: x0, y1: y0, x2: x0 + nice, y2: y0, stroke: "#000", "stroke-width": 5 * m}) +
            el("text", {x: x0, y: y0 - 8 * m, "font-size": 16 * m, "font-weight": 900}, nice + " m") +
            el("text", {x: cx + vw / 2 - 16 * m, y: cy - vh / 2 + 22 * m, "font-size": 18 * m, "text-anchor": "middle", "font-weight": 900}, "N↑");
          svg.innerHTML = g;
        }

        function tick() {
          const el = $("link"), banner = $("banner"), why = $("why");
          why.textContent = source && source.readyState === 1 ? "" : streamProblem;
          if (!last) { el.textContent = source && source.readyState === 1 ? "connected, no flight status yet" : "connecting…"; return; }
          const age = (performance.now() - lastAt) / 1000, stale = age > STALE_S, old = age > OLD_S, open = source && source.readyState === 1;
          banner.classList.toggle("stale", stale);
          // "live" only while the stream is open: the status inlined at load is not live.
          el.textContent = stale ? "NO DATA FOR " + age.toFixed(0) + " s — last seen " + last.state + (open ? "" : ", reconnecting")
            : (open ? "live · " : "no live view yet · ") + (last.flight_s !== undefined ? "flight " + fmt(last.flight_s, 0) + " s" : "");
          document.body.classList.toggle("old", old);
          for (const a of document.querySelectorAll(".ago")) a.textContent = old ? age.toFixed(0) + " s ago" : "";
          if (stale) $("b-start").disabled = true;
          // An open stream that has said nothing for 6 s (the flight publishes 4 times a second) is
          // dead or was ended without the browser seeing it (a half-open Wi-Fi connection): open a new one.
          if (source && source.readyState === 1 && performance.now() - heardAt > 6000) { source.close(); connect(); }
        }
        // Why the stream failed, in the server's words: at most one probe at a time, one per 3 s. A 200
        // is aborted as soon as its headers are in (it would hold a stream slot).
        async function probe() {
          if (probing || performance.now() - probedAt < 3000) return;
          probing = true; probedAt = performance.now();
          const control = new AbortController(), timer = setTimeout(() => control.abort(), 5000);
          let answered = false;
          try {
            const r = await fetch("/events", {cache: "no-store", signal: control.signal});
            answered = true;
            if (r.ok) { streamProblem = ""; control.abort(); }
            else { let body = {}; try { body = await r.json(); } catch (x) {} streamProblem = body.error || "the live view was refused (HTTP " + r.status + ")"; }
          } catch (x) {
            if (!answered) streamProblem = "the ground unit does not answer: out of its Wi-Fi's range, or followme is not running";
          } finally { clearTimeout(timer); probing = false; tick(); }
        }
        function connect() {
          source = new EventSource("/events");
          heardAt = performance.now();
          source.onopen = () => { heardAt = performance.now(); streamProblem = ""; checkSession(); tick(); };
          source.onmessage = e => { heardAt = performance.now(); try { render(JSON.parse(e.data)); } catch (x) {} };
          source.addEventListener("security", e => { try { warnSecurity(JSON.parse(e.data)); } catch (x) {} });
          source.onerror = () => { if (source.readyState === 2) { source.close(); setTimeout(connect, 3000); } probe(); tick(); };
        }
        // A new message shows the warning again, dismissed or not; a new stream's replay of the one
        // dismissed (same `at_s` and words) does not.
        let shownAlert = "", dismissedAlert = "";
        function warnSecurity(m) {
          if (!m || !m.message) return;
          const key = m.at_s + " " + m.message;
          if (key === dismissedAlert) return;
          text("security-text", m.message);
          shownAlert = key; $("security").hidden = false;
        }
        $("security-close").addEventListener("click", () => { $("security").hidden = true; dismissedAlert = shownAlert; });
        """#
}
