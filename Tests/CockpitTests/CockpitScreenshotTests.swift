@testable import Cockpit
import FlightRecords
import Foundation
import Testing
import TestSupport

/// The page as a phone shows it: headless Chromium at 390×844 (an iPhone 12–15's CSS viewport)
/// loads it from a cockpit on 127.0.0.1 (a screenshot is taken at load: the page carries the latest
/// status inline; its stream never ends, so no "network idle" ever comes) for a
/// preflight still waiting, following, and a hold on the person's stale GPS. The DOM must show the
/// state in words and the console must stay silent; the screenshots are kept in
/// `.build/cockpit-screenshots/` for a person to look at.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CockpitScreenshotTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var chromium: String? { ["chromium", "chromium-browser"].lazy.compactMap(ChildProcess.locate).first }

    static let scenarios: [String: (status: FlightStatus, words: [String])] = [
        "preflight-waiting": (CockpitFixtures.preflightWaiting, ["preflight", "drone heading", "drone telemetry"]),
        "following": (CockpitFixtures.following, ["following", "11.2 m", "keeping 11 m", "ANGLE 90°"]),
        "holding-target-stale": (CockpitFixtures.holdingTargetStale, ["holding", "person's GPS stale"]),
        "landing": (CockpitFixtures.landingOperator, ["landing", "you pressed LAND"]),
        "ready-to-start": (CockpitFixtures.readyToStart, ["Ready: press START"]),
        // Without `#watch` a page with no token stored asks to be paired first.
        "pairing": (CockpitFixtures.following, ["Pair this phone", "followme pair"]),
        // No stream to be had (every place taken): after 2.5 s without news the banner says so, and why.
        "disconnected": (CockpitFixtures.following, ["NO DATA FOR", "last seen following", "live views are open already"]),
    ]

    @Test("each state renders at 390×844 with its words in the banner",
          arguments: ["preflight-waiting", "following", "holding-target-stale", "landing", "ready-to-start", "pairing", "disconnected"])
    func renders(name: String) async throws {
        let (status, words) = try #require(Self.scenarios[name])
        let browser = try #require(Self.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let (server, board, _) = try await CockpitFixtures.server(maxStreams: name == "disconnected" ? 0 : 32)
        defer { server.stop() }
        // The flight publishes every 0.25 s; so does this test while the browser looks.
        let publisher = Task {
            while !Task.isCancelled {
                board.publish(status)
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        defer { publisher.cancel() }
        let dir = Self.repo.appendingPathComponent(".build/cockpit-screenshots")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("cockpit-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let url = "http://127.0.0.1:\(server.port)/" + (name == "pairing" ? "" : "#watch")
        // --no-sandbox: the tests may run as root; --disable-dev-shm-usage: containers often have a tiny /dev/shm.
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                      "--user-data-dir=\(profile)", "--window-size=390,844", "--timeout=5000",
                      "--enable-logging=stderr", "--v=0"]
            // Without a stream the network goes idle, so virtual time can run the page's clock 4 s on.
            + (name == "disconnected" ? ["--virtual-time-budget=4000"] : [])
        let png = dir.appendingPathComponent("\(name).png")
        try? FileManager.default.removeItem(at: png)
        let shot = try await offPool { try ChildProcess.run(browser, common + ["--screenshot=\(png.path)", url], timeoutSeconds: 30) }
        let dom = try await offPool { try ChildProcess.run(browser, common + ["--dump-dom", url], timeoutSeconds: 30) }

        let data = try Data(contentsOf: png)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "no PNG: \(shot.stderr.suffix(1500))")
        #expect(data.count > 20_000, "a \(data.count)-byte screenshot is (nearly) blank")
        let banner = try #require(dom.stdout.range(of: "<header").map { String(dom.stdout[$0.lowerBound...].prefix(600)) },
                                  "no banner in \(dom.stdout.prefix(400))")
        for word in words { #expect(dom.stdout.contains(word), "\(word) is not on the page; banner: \(banner)") }
        #expect(banner.contains(" stale\"") == (name == "disconnected"), "the banner's stale mark: \(banner)")
        #expect(dom.stdout.contains(#"<div id="pair" class="overlay">"#) == (name == "pairing"), "the pairing sheet")
        // START is offered only when it is the one thing the flight waits for; LAND always.
        #expect(dom.stdout.contains(#"<button id="b-start" class="cmd start" data-command="start">"#) == (name == "ready-to-start"))
        #expect(dom.stdout.contains(#"<button id="b-land" class="cmd land" data-command="land">"#))
        // (Refused streams are logged by the browser itself: the disconnected page's console is not silent.)
        for run in [shot, dom] where name != "disconnected" {
            let console = run.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
            #expect(console.isEmpty, "the page's console: \(console)")
        }
    }
}
