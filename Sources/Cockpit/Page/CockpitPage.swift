import FlightRecords
import Foundation

/// The cockpit page: one HTML document with its style and script inline, nothing fetched from
/// anywhere but the server that sent it (no CDN, no font, no image): it works on a phone on the
/// ground unit's own network, without the internet.
///
/// Made for a phone held in one hand outdoors, from 320×568 CSS px up (390×844 is the common one):
/// black on white (sunlight), big bold type, the state as a coloured banner on top, the four buttons
/// at the bottom under the thumb, LAND always on screen; a red REC with the recording's length in the
/// banner while the camera records; for a paired phone, a link to the last flight's video.
/// Element ids are the tests' handles.
enum CockpitPage {
    /// The page with the latest status inlined, so that it shows the flight at once, before its stream
    /// delivers (and a screenshot taken at load shows it too).
    static func html(status: FlightStatus?) -> String {
        // JSON's only `<` are inside strings, where `\u003c` means the same: no `</script>` can end the block.
        let json = status?.jsonLine().replacingOccurrences(of: "<", with: "\\u003c") ?? ""
        return template.replacingOccurrences(of: initialStatusMarker, with: json)
    }

    /// Where `html(status:)` puts the status.
    static let initialStatusMarker = "<!--initial-status-->"

    /// The whole page, without a status.
    static let template = """
        <!doctype html>
        <html lang="en"><head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light">
        <meta name="referrer" content="no-referrer">
        <title>FollowMe cockpit</title>
        <style>\(style)</style>
        </head><body>
        <header id="banner" class="st-unknown">
          <div id="state">CONNECTING</div>
          <div id="detail">waiting for the flight's status</div>
          <div class="link-row"><div id="link"></div><div id="rec" role="status" hidden>REC</div></div>
          <div id="camera-note" hidden></div>
          <div id="why"></div>
          <div id="security" role="alert" hidden><span id="security-text"></span><button type="button" id="security-close" aria-label="dismiss the warning">✕</button></div>
        </header>
        <main>
          <section class="card" id="video-card" hidden><div class="label">LAST FLIGHT'S VIDEO</div>
            <a id="video-download" href="/video/last" download>Download last video</a><div id="video-info" class="small"></div></section>
          <section id="distance-box" class="card">
            <div class="row"><span class="label">DRONE TO YOU</span><span id="distance" class="big">–</span></div>
            <div id="bar"><div id="bar-danger"></div><div id="bar-standoff"></div><div id="bar-now"></div></div>
            <div class="row small"><span id="minsep-text"></span><span class="ago"></span><span id="standoff-text"></span></div>
          </section>
          <section class="vitals">
            <div class="card vital"><div class="label">BATTERY</div><div id="battery" class="mid">–</div><div class="ago"></div></div>
            <div class="card vital"><div class="label">WIND</div><div id="wind" class="mid">–</div><div class="ago"></div></div>
            <div class="card vital"><div class="label">LINK</div><div id="linkrate" class="mid">–</div><div class="ago"></div></div>
            <div class="card vital"><div class="label">HEIGHT</div><div id="altitude" class="mid">–</div><div class="ago"></div></div>
          </section>
          <section class="card plan-card">
            <svg id="plan" viewBox="-100 -100 200 200" preserveAspectRatio="xMidYMid meet" role="img" aria-label="plan view"></svg>
            <div class="ago"></div><div id="plan-legend" class="small"><span class="k-person">●</span> you <span class="k-drone">▲</span> drone <span class="k-home">■</span> home <span class="k-fence">◯</span> fence</div>
          </section>
          <section class="grid">
            <div class="card tile"><div class="label">YOUR GPS</div><div id="target-fix" class="fix">–</div><div class="ago"></div></div>
            <div class="card tile"><div class="label">DRONE GPS</div><div id="onboard-fix" class="fix">–</div><div class="ago"></div></div>
          </section>
          <section class="card"><div class="label">LAST COMMAND</div><div id="last-command">none</div></section>
          <section class="card" id="mode-card"><div class="row"><span class="label">FOLLOW MODE</span><span id="mode-now" class="mode-now">–</span></div>
            <div class="mode-row"><select id="mode-select" aria-label="follow mode"><option value="leash">leash</option><option value="angle">angle</option><option value="orbit-clockwise">orbit ↻</option><option value="orbit-counterclockwise">orbit ↺</option></select><input id="mode-angle" type="number" min="-180" max="180" step="5" value="180" aria-label="angle in degrees"><span class="deg">°</span><button id="b-mode" class="plain mode-set">SET</button></div>
            <div class="small">angle: 0 in front of you, 90 right, 180 behind, −90 left</div></section>
          <section class="card"><div class="label">WARNINGS</div><ol id="warnings"></ol></section>
        </main>
        <footer id="buttons">
          <div class="row3">
            <button id="b-start" class="cmd start" data-command="start">START</button>
            <button id="b-hold" class="cmd hold" data-command="hold">HOLD</button>
            <button id="b-resume" class="cmd resume" data-command="resume">RESUME</button>
          </div>
          <button id="b-land" class="cmd land" data-command="land">LAND</button>
          <div id="toast" role="status"></div>
        </footer>
        <div id="pair" class="overlay" hidden>
          <form id="pair-form" class="sheet">
            <div class="sheet-title">Pair this phone</div>
            <p>Scan the QR code <b>followme pair</b> shows on the ground unit, or type the code it prints.</p>
            <input id="pair-code" placeholder="XXXXX-XXXXX" autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false" maxlength="256" required aria-label="pairing code">
            <div id="pair-error" role="alert"></div>
            <div class="row2"><button type="button" id="pair-later" class="plain">Only watch</button><button type="submit" id="pair-go" class="go">Pair</button></div>
          </form>
        </div>
        <div id="confirm" class="overlay" hidden>
          <div class="sheet">
            <div class="sheet-title">Take off now?</div>
            <p>The drone lifts off and follows you. Stand clear.</p>
            <div class="row2"><button type="button" id="confirm-no" class="plain">Cancel</button><button type="button" id="confirm-yes" class="go start">TAKE OFF</button></div>
          </div>
        </div>
        <script id="initial-status" type="application/json">\(initialStatusMarker)</script>
        <script>\(script)\(scriptPairing)</script>
        </body></html>
        """
}
