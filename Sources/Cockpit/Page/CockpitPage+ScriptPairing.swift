extension CockpitPage {
    /// The page's script, second part: pairing and the commands (docs/commands.md §4.8).
    ///
    /// - Pairing: `POST /pair` `{"secret":…}` answers a token, kept in `localStorage` under
    ///   `followme-token` (it survives a reload and the server's restart until the secret is
    ///   rotated) and sent as `X-FollowMe-Token` with every command; the same answer sets the
    ///   `/events` cookie, so the stream is reopened to carry it. The sheet waits for that answer:
    ///   "wrong code" at once on 401, the lockout's wait on 429 (`retry_after_s` / `Retry-After`).
    /// - `#pair=<secret>` (the QR code `followme pair` shows) is taken out of the address bar and the
    ///   history with `history.replaceState` before anything else, then paired with. `#watch` never
    ///   asks for pairing.
    /// - At each (re)opened stream, every 10 s and when the page is shown again `GET /session` checks
    ///   the token; `paired:false` (a rotated secret) forgets it and shows the sheet.
    /// - A paired phone asks `GET /video` (with each session check, and when the camera's state changes)
    ///   and shows "Download last video" when there is one; the link fetches a one-use ticket
    ///   (`POST /video/ticket`) and downloads from the address it names.
    /// - A command answered 401 forgets the token, shows the sheet and sends the command once more
    ///   after pairing; a LAND that did not go through says so in red until the next answer (or 60 s).
    static let scriptPairing = #"""
        const TOKEN_KEY = "followme-token";
        function token() { try { return localStorage.getItem(TOKEN_KEY) || ""; } catch (x) { return ""; } }
        function keepToken(t) { try { localStorage.setItem(TOKEN_KEY, t); } catch (x) {} }
        function forgetToken() { try { localStorage.removeItem(TOKEN_KEY); } catch (x) {} }

        function toast(message, bad, ms) { const t = $("toast"); t.textContent = message; t.className = bad ? "bad" : ""; clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.textContent = ""; }, ms || 6000); }
        async function send(command, extra) {
          const t = token(), button = $("b-" + command), what = command.toUpperCase();
          const failed = why => toast(command === "land" ? "LAND DID NOT GO THROUGH: " + why : what + ": " + why, true, command === "land" ? 60000 : 6000);
          const headers = {"Content-Type": "application/json"};
          if (t) headers["X-FollowMe-Token"] = t;
          button.classList.add("busy");
          try {
            const r = await fetch("/command", {method: "POST", headers, body: JSON.stringify(Object.assign({command}, extra || {})), cache: "no-store"});
            let body = {}; try { body = await r.json(); } catch (x) {}
            if (r.status === 401) {
              // The toast stays short (it grows the fixed footer, over the sheet); the sheet says the rest.
              forgetToken(); pending = [command, extra];
              failed("not paired");
              askCode((t ? "This phone's pairing is no longer valid (a new code was made). " : "") + what + " did not go through: pair this phone and it is sent again.");
              return;
            }
            if (r.ok) toast(what + ": " + (body.accepted ? "done" : "refused") + " (" + body.outcome + ")", !body.accepted);
            else failed(body.error || body.outcome || ("error " + r.status));
          } catch (x) { failed("no connection to the ground unit"); }
          finally { button.classList.remove("busy"); }
        }

        let lockedUntil = 0;
        function askCode(message) {
          $("pair").hidden = false; $("pair-code").value = "";
          text("pair-error", message || "");
          $("pair-code").focus();
        }
        function pairError(message) { text("pair-error", message); $("pair-code").select(); }
        // The lockout's countdown on the sheet; the Pair button waits for its end.
        function lockout(seconds) {
          lockedUntil = performance.now() + 1000 * seconds;
          const step = () => {
            const left = Math.ceil((lockedUntil - performance.now()) / 1000);
            $("pair-go").disabled = left > 0;
            text("pair-error", left > 0 ? "Too many wrong codes on this unit: try again in " + left + " s" : "");
            if (left > 0) setTimeout(step, 500);
          };
          step();
        }
        // POST /pair; true once paired. The sheet shows why not.
        async function pair(secret) {
          const go = $("pair-go");
          go.disabled = true; go.textContent = "Pairing…";
          try {
            const r = await fetch("/pair", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({secret}), cache: "no-store"});
            let body = {}; try { body = await r.json(); } catch (x) {}
            if (r.ok && body.token) {
              keepToken(body.token);
              $("pair").hidden = true; text("pair-error", "");
              toast("Paired: this phone commands the drone");
              if (source) { source.close(); connect(); }
              if (pending) { const c = pending; pending = null; send(c[0], c[1]); }
              return true;
            }
            $("pair").hidden = false;
            if (r.status === 401) pairError(body.error || "wrong code");
            else if (r.status === 429) lockout(Number(body.retry_after_s ?? r.headers.get("Retry-After")) || 60);
            else pairError(body.error || "pairing failed (HTTP " + r.status + ")");
          } catch (x) {
            $("pair").hidden = false; pairError("no connection to the ground unit");
          } finally {
            go.textContent = "Pair"; go.disabled = performance.now() < lockedUntil;
          }
          return false;
        }
        // Is the kept token still good? Only a clear `paired:false` forgets it (no answer changes nothing).
        async function checkSession() {
          const t = token();
          if (!t) return;
          try {
            const r = await fetch("/session", {headers: {"X-FollowMe-Token": t}, cache: "no-store"});
            const body = r.ok ? await r.json() : {};
            if (body.paired === false && token() === t) { forgetToken(); askCode("This phone's pairing is no longer valid (a new code was made): pair again."); }
          } catch (x) {}
          checkVideo();
        }
        // The last flight's video, for a paired phone: `GET /video` says whether there is one (and its
        // length and size); the link is hidden in the air, while the camera records and on an unpaired phone.
        async function checkVideo() {
          const t = token(), card = $("video-card");
          if (!t || !onGround(last) || (last && last.camera === "recording")) { card.hidden = true; return; }
          try {
            const r = await fetch("/video", {headers: {"X-FollowMe-Token": t}, cache: "no-store"});
            if (!r.ok) { card.hidden = true; return; }
            const v = await r.json(), m = /T(\d\d)(\d\d)(\d\d)Z/.exec(v.id || ""), secs = Math.round(v.seconds ?? 0);
            const bytes = v.mp4_bytes ?? v.raw_bytes, mb = bytes === undefined ? "" : (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0) + " MB";
            text("video-info", [m ? "started " + m[1] + ":" + m[2] + " UTC" : v.id, v.seconds === undefined ? "" : Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0"),
              (v.mp4 ? "" : "≈") + mb].filter(Boolean).join(" · "));
            card.hidden = false;
          } catch (x) {}
        }
        // A link cannot send the token's header: a one-use ticket (`POST /video/ticket`) makes the
        // download's address; a refusal (flying, no ffmpeg) is shown here, the page never leaves.
        $("video-download").addEventListener("click", async e => {
          e.preventDefault();
          const t = token(), link = $("video-download");
          if (!t) { askCode("Pair this phone to download the video."); return; }
          link.classList.add("busy");
          try {
            const r = await fetch("/video/ticket", {method: "POST", headers: {"X-FollowMe-Token": t}, cache: "no-store"});
            let body = {}; try { body = await r.json(); } catch (x) {}
            if (r.status === 401) { forgetToken(); askCode("This phone's pairing is no longer valid: pair again to download the video."); return; }
            if (!r.ok || !body.url) { toast("VIDEO: " + (body.error || "error " + r.status), true); return; }
            const a = document.createElement("a");
            a.href = body.url; a.download = ""; document.body.appendChild(a); a.click(); a.remove();
            toast("VIDEO: downloading (a long flight takes a while)");
          } catch (x) { toast("VIDEO: no connection to the ground unit", true); }
          finally { link.classList.remove("busy"); }
        });
        $("pair-form").addEventListener("submit", e => {
          e.preventDefault();
          let secret = $("pair-code").value.trim();
          const i = secret.indexOf("#pair=");
          if (i >= 0) secret = decodeURIComponent(secret.slice(i + 6));
          if (secret) pair(secret);
        });
        $("pair-later").addEventListener("click", () => { $("pair").hidden = true; pending = null; });
        for (const b of document.querySelectorAll(".cmd")) {
          b.addEventListener("click", () => {
            const c = b.dataset.command;
            if (c === "start") { $("confirm").hidden = false; return; }
            send(c);
          });
        }
        $("b-mode").addEventListener("click", () => {
          const [mode, orbit_direction] = $("mode-select").value.split("-"), extra = {mode};
          if (orbit_direction) extra.orbit_direction = orbit_direction;
          if (mode === "angle") extra.angle_deg = Number($("mode-angle").value);
          send("mode", extra).then(() => { modeTouched = false; });
        });
        $("mode-select").addEventListener("change", () => { modeTouched = true; angleInUse(); });
        $("mode-angle").addEventListener("input", () => { modeTouched = true; });
        angleInUse();
        $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
        $("confirm-yes").addEventListener("click", () => { $("confirm").hidden = true; send("start"); });

        try { const inline = $("initial-status").textContent.trim(); if (inline) render(JSON.parse(inline)); } catch (x) {}
        const fragment = /^#pair=(.+)$/.exec(location.hash);
        if (fragment) {
          history.replaceState(null, "", location.pathname + location.search);
          let secret = fragment[1]; try { secret = decodeURIComponent(secret); } catch (x) {}
          pair(secret);
        } else if (!token() && !location.hash.includes("watch")) askCode("");
        connect();
        setInterval(tick, 500);
        setInterval(checkSession, 10000);
        document.addEventListener("visibilitychange", () => { if (!document.hidden) checkSession(); });
        """#
}
