@testable import Cockpit
import FlightRecords
import Foundation
import Synchronization
import Testing
import TestSupport

/// The page as a phone shows it: one headless Chromium emulating a 390×844 phone (an iPhone 12–15's
/// CSS viewport) loads it from a cockpit on 127.0.0.1 for a preflight still waiting, ready to start,
/// following, a hold on the person's stale GPS, a landing, the pairing sheet and a refused live view.
/// The DOM must show the state in words, START only when it is the one thing missing, LAND always, and
/// the console must stay silent; the screenshots are kept in `.build/cockpit-screenshots/` for a
/// person to look at (`CockpitLayoutTests` measures the page at 320×568 too).
@Suite(.serialized, .timeLimit(.minutes(2))) struct CockpitScreenshotTests {
    static let scenarios: [(name: String, status: FlightStatus, words: [String])] = [
        ("preflight-waiting", CockpitFixtures.preflightWaiting, ["preflight", "drone heading", "drone telemetry"]),
        ("following", CockpitFixtures.following, ["following", "11.2 m", "keeping 11 m", "ANGLE 90°"]),
        ("holding-target-stale", CockpitFixtures.holdingTargetStale, ["holding", "person's GPS stale"]),
        ("landing", CockpitFixtures.landingOperator, ["landing", "you pressed LAND"]),
        ("ready-to-start", CockpitFixtures.readyToStart, ["Ready: press START"]),
        // Without `#watch` a page with no token stored asks to be paired first.
        ("pairing", CockpitFixtures.following, ["Pair this phone", "followme pair"]),
        // No stream to be had (every place taken): after 2.5 s without news the banner says so, and why.
        ("disconnected", CockpitFixtures.following, ["NO DATA FOR", "last seen following", "live views are open already"]),
    ]

    @Test("each state renders at 390×844 with its words in the banner")
    func renders() async throws {
        let chromium = try #require(PhoneBrowser.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        // The flight publishes every 0.25 s; so does this test while the browser looks.
        let cockpits = try await LiveCockpits()
        defer { cockpits.stop() }
        let (server, refusing) = (cockpits.server, cockpits.refusing)
        let dir = PhoneBrowser.repository.appendingPathComponent(".build/cockpit-screenshots")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let phone = try PhoneBrowser(chromium: chromium, width: 390, height: 844)
        defer { phone.quit() }

        for (name, status, words) in Self.scenarios {
            cockpits.show(status)
            let port = name == "disconnected" ? refusing.port : server.port
            // Each load has its own query: a URL that differs only in its fragment would not load the page again.
            try await phone.navigate("http://127.0.0.1:\(port)/?\(name)" + (name == "pairing" ? "" : "#watch"))
            let settled = name == "disconnected" ? "/NO DATA FOR/.test(document.getElementById('link').textContent) && /live views/.test(document.body.innerText)"
                : "document.getElementById('banner').className !== 'st-unknown'"
            _ = try await phone.evaluate("""
                (async () => { for (let i = 0; i < 60 && !(\(settled)); i++) await new Promise(r => setTimeout(r, 100)); })()
                """)
            let dom = try await phone.evaluate("document.documentElement.outerHTML") as? String ?? ""
            let png = dir.appendingPathComponent("\(name).png")
            try await phone.screenshot(png)

            let data = try Data(contentsOf: png)
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name): no PNG")
            #expect(data.count > 20_000, "\(name): a \(data.count)-byte screenshot is (nearly) blank")
            let banner = try #require(dom.range(of: "<header").map { String(dom[$0.lowerBound...].prefix(600)) },
                                      "\(name): no banner in \(dom.prefix(400))")
            for word in words { #expect(dom.contains(word), "\(name): \(word) is not on the page; banner: \(banner)") }
            #expect(banner.contains(" stale\"") == (name == "disconnected"), "\(name): the banner's stale mark: \(banner)")
            #expect(dom.contains(#"<div id="pair" class="overlay">"#) == (name == "pairing"), "\(name): the pairing sheet")
            // START is offered only when it is the one thing the flight waits for; LAND always.
            #expect(dom.contains(#"<button id="b-start" class="cmd start" data-command="start">"#) == (name == "ready-to-start"), "\(name): START")
            #expect(dom.contains(#"<button id="b-land" class="cmd land" data-command="land">"#), "\(name): LAND")
        }
        // (Refused streams are logged by the browser itself: "Failed to load resource" is not the page's.)
        let console = try await phone.console().filter { !$0.contains("Failed to load resource") }
        #expect(console.isEmpty, "the page's console: \(console)")
    }
}
