@testable import Cockpit
import FlightRecords
import Foundation
import Synchronization
import Testing
import TestSupport

/// The page on the smallest phone it must serve (320×568 CSS px, an iPhone SE 1st generation) and on
/// the common one (390×844), in one headless Chromium emulating a phone (touch, a mobile viewport: a
/// page wider than the screen makes such a browser zoom out, and the fixed buttons then sit below the
/// screen): in preflight, following, holding, landing, landed, with the pairing sheet open (also
/// after LAND was refused unpaired), with a security warning, with the live view refused and with the server gone, on a fresh load, LAND lies
/// inside the screen and is what a tap on its centre and near its corners hits, nothing is wider than the screen, and no
/// button's word is cut or wrapped. With the server gone, the values turn grey with their age. The
/// screenshots are kept in `.build/cockpit-screenshots/layout-*.png` for a person to look at.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CockpitLayoutTests {
    static let sizes = [(width: 320, height: 568), (width: 390, height: 844)]

    static var holdingOperator: FlightStatus {
        var s = CockpitFixtures.following
        (s.state, s.reason, s.stateSinceT) = ("holding(operator-hold)", "hold:operator-hold", 990)
        s.operatorCommand = .init { ($0.t, $0.command, $0.source, $0.outcome) = (990, "hold", "web 192.0.2.7", "accepted") }
        s.transitions.append(.init { ($0.t, $0.from, $0.to, $0.reason) = (990, "following", "holding(operator-hold)", "hold:operator-hold") })
        return s
    }

    static var landed: FlightStatus {
        var s = CockpitFixtures.landingOperator
        (s.state, s.reason, s.stateSinceT, s.wind) = ("landed", "landed-confirmed", 999, nil)
        (s.altitudeMeters, s.navdataHertz) = (0, 15)
        s.transitions.append(.init { ($0.t, $0.from, $0.to, $0.reason) = (999, "landing(operator)", "landed", "landed-confirmed") })
        return s
    }

    /// What the page measures of itself (CSS px of the layout viewport; boxes as left, top, right, bottom).
    struct Layout: Decodable, CustomStringConvertible {
        var land: [Double]
        var landReachable: Bool
        var scrollWidth: Double
        var scrollY: Double
        var scale: Double
        var cut: [String]
        var pairGo: [Double]?
        var pairReachable: Bool?
        var old: Bool
        var ago: String
        var distanceColor: String
        var banner: String
        var link: String

        var description: String {
            "LAND \(land) reachable \(landReachable), scrollWidth \(scrollWidth), scale \(scale), scrollY \(scrollY), cut \(cut), "
                + "Pair \(pairGo.map { "\($0)" } ?? "-") \(pairReachable.map { "\($0)" } ?? ""), old \(old) '\(ago)', banner \(banner): \(link)"
        }

        func inside(_ box: [Double], _ size: (width: Int, height: Int)) -> Bool {
            box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[2] <= Double(size.width) && box[3] <= Double(size.height)
        }
    }

    /// The page's own measurements, after `until` (a JS condition) held or 6 s passed.
    static func measure(_ phone: PhoneBrowser, until condition: String = "true") async throws -> Layout {
        try await phone.evaluate(Layout.self, """
            (async () => {
              for (let i = 0; i < 60 && !(\(condition)); i++) await new Promise(r => setTimeout(r, 100));
              await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
              const $ = id => document.getElementById(id);
              const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom].map(v => Math.round(v * 10) / 10); };
              // Whole: a tap on its centre or near any corner (6 px in, inside its rounded border) hits it.
              const reachable = e => { const r = e.getBoundingClientRect();
                return [[.5, .5], [0, 0], [1, 0], [0, 1], [1, 1]].every(([fx, fy]) => {
                  const h = document.elementFromPoint(r.left + 6 + fx * (r.width - 12), r.top + 6 + fy * (r.height - 12));
                  return !!h && (h === e || e.contains(h)); }); };
              const shown = e => !!e && e.getClientRects().length > 0 && !e.closest("[hidden]");
              // A button's words are cut when they are wider than it or wrap onto a second line.
              const cut = [...document.querySelectorAll("button")].filter(shown).filter(b => {
                const range = document.createRange(); range.selectNodeContents(b);
                const t = range.getBoundingClientRect(), r = b.getBoundingClientRect();
                const lines = new Set([...range.getClientRects()].map(x => Math.round(x.top))).size;
                return t.left < r.left - 0.5 || t.right > r.right + 0.5 || lines > 1; });
              const pair = $("pair-go") || document.querySelector("#pair button[type=submit]"), sheet = !$("pair").hidden;
              return JSON.stringify({land: box($("b-land")), landReachable: reachable($("b-land")),
                scrollWidth: document.documentElement.scrollWidth, scrollY: scrollY, scale: visualViewport.scale,
                cut: cut.map(b => b.id || b.textContent), pairGo: sheet ? box(pair) : null, pairReachable: sheet ? reachable(pair) : null,
                old: document.body.classList.contains("old"),
                ago: [...document.querySelectorAll(".ago")].filter(shown).map(a => a.textContent).join("|"),
                distanceColor: getComputedStyle($("distance")).color, banner: $("banner").className,
                link: $("link").textContent + " " + ($("why") || {}).textContent});
            })()
            """)
    }

    /// LAND on screen and whole (its centre and corners hit it), nothing wider than the screen, no button cut.
    static func expectReachable(_ layout: Layout, _ size: (width: Int, height: Int), _ label: String) {
        #expect(layout.inside(layout.land, size), "\(label): LAND is not inside the \(size.width)×\(size.height) screen: \(layout)")
        #expect(layout.landReachable, "\(label): a tap on LAND's centre hits something else: \(layout)")
        #expect(layout.scrollWidth <= Double(size.width), "\(label): the page is wider than the screen: \(layout)")
        #expect(layout.scale == 1, "\(label): the browser zoomed out: \(layout)")
        #expect(layout.cut.isEmpty, "\(label): buttons with cut words: \(layout)")
        if let pair = layout.pairGo {
            #expect(layout.inside(pair, size) && layout.pairReachable == true, "\(label): the Pair button is not reachable: \(layout)")
        }
    }

    @Test("LAND on screen, no overflow, no cut button at 320×568 and 390×844 in every state; stale values grey with their age")
    func layoutInEveryState() async throws {
        let chromium = try #require(PhoneBrowser.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let dir = PhoneBrowser.repository.appendingPathComponent(".build/cockpit-screenshots")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // The flight publishes every 0.25 s; so does this test while the browser looks.
        let cockpits = try await LiveCockpits()
        defer { cockpits.stop() }
        let (server, refusing) = (cockpits.server, cockpits.refusing)
        let phone = try PhoneBrowser(chromium: chromium, width: 320, height: 568)
        defer { phone.quit() }
        var report: [String] = []

        let url = "http://127.0.0.1:\(server.port)/"
        // Each load has its own query: a URL that differs only in its fragment would not load the page again.
        let cases: [(name: String, status: FlightStatus, fragment: String)] = [
            ("preflight", CockpitFixtures.preflightWaiting, "#watch"), ("following", CockpitFixtures.following, "#watch"),
            ("holding", Self.holdingOperator, "#watch"), ("landing", CockpitFixtures.landingOperator, "#watch"),
            ("landed", Self.landed, "#watch"), ("pairing", CockpitFixtures.following, ""),
        ]
        for (name, status, fragment) in cases {
            cockpits.show(status)
            for size in Self.sizes {
                try await phone.viewport(width: size.width, height: size.height)
                try await phone.navigate(url + "?\(name)-\(size.width)" + fragment)
                let layout = try await Self.measure(phone, until: "document.getElementById('banner').className !== 'st-unknown'")
                try await phone.screenshot(dir.appendingPathComponent("layout-\(name)-\(size.width)x\(size.height).png"))
                report.append("\(name) \(size.width)×\(size.height): \(layout)")
                Self.expectReachable(layout, size, "\(name) at \(size.width)×\(size.height)")
                #expect(!layout.old && layout.ago.isEmpty, "\(name): live values look stale: \(layout)")
                #expect((layout.pairGo != nil) == (name == "pairing"), "\(name): the pairing sheet: \(layout)")
            }
        }

        // LAND pressed unpaired: the red answer grows the buttons' bar; the sheet's Pair and LAND stay whole.
        for size in Self.sizes {
            try await phone.viewport(width: size.width, height: size.height)
            try await phone.navigate(url + "?unpaired-\(size.width)")
            _ = try await phone.evaluate("document.getElementById('b-land').click()")
            let layout = try await Self.measure(phone, until: "/LAND DID NOT GO THROUGH/.test(document.getElementById('toast').textContent)")
            try await phone.screenshot(dir.appendingPathComponent("layout-land-unpaired-\(size.width)x\(size.height).png"))
            report.append("land-unpaired \(size.width)×\(size.height): \(layout)")
            Self.expectReachable(layout, size, "LAND unpaired at \(size.width)×\(size.height)")
            #expect(layout.pairGo != nil, "no pairing sheet after an unpaired LAND: \(layout)")
        }

        // A security warning (what a paired phone's stream sends) in the banner: LAND stays reachable.
        cockpits.show(CockpitFixtures.following)
        try await phone.viewport(width: 320, height: 568)
        try await phone.navigate(url + "?security#watch")
        _ = try await phone.evaluate("""
            source.dispatchEvent(new MessageEvent("security", {data: JSON.stringify({message: "someone is trying pairing codes from 192.168.1.34", at_s: 1000})}))
            """)
        let warned = try await Self.measure(phone)
        try await phone.screenshot(dir.appendingPathComponent("layout-security-320x568.png"))
        report.append("security 320×568: \(warned)")
        Self.expectReachable(warned, (320, 568), "security warning")
        let warning = try await phone.evaluate("document.getElementById('security').innerText") as? String ?? ""
        #expect(warning.contains("someone is trying pairing codes from 192.168.1.34"), "the warning: '\(warning)'")

        // The live view refused (every slot taken): the banner says why, in the server's words.
        try await phone.navigate("http://127.0.0.1:\(refusing.port)/#watch")
        let refused = try await Self.measure(phone, until: "/live views are open/.test(document.body.innerText)")
        try await phone.screenshot(dir.appendingPathComponent("layout-refused-320x568.png"))
        report.append("refused 320×568: \(refused)")
        Self.expectReachable(refused, (320, 568), "live view refused")
        #expect(refused.link.contains("live views are open already"), "the refusal's reason is not on the page: \(refused)")

        // The server gone while following: stale banner, values grey with their age, LAND still there.
        try await phone.navigate(url + "?gone#watch")
        _ = try await Self.measure(phone, until: "document.getElementById('banner').className === 'st-following'")
        server.stop()
        await server.waitUntilStopped()
        for size in Self.sizes {
            try await phone.viewport(width: size.width, height: size.height)
            let gone = try await Self.measure(phone, until: "document.body.classList.contains('old') && /s ago/.test(document.body.innerText)")
            try await phone.screenshot(dir.appendingPathComponent("layout-gone-\(size.width)x\(size.height).png"))
            report.append("gone \(size.width)×\(size.height): \(gone)")
            Self.expectReachable(gone, size, "server gone at \(size.width)×\(size.height)")
            #expect(gone.old && gone.ago.contains(" s ago"), "values without news are not marked with their age: \(gone)")
            #expect(gone.distanceColor == "rgb(153, 153, 153)", "the distance is not greyed: \(gone)")
            #expect(gone.banner.contains("stale") && gone.link.contains("does not answer"), "the banner: \(gone)")
        }
        let console = try await phone.console().filter { !$0.contains("Failed to load resource") }
        #expect(console.isEmpty, "the page's console: \(console)")
        print("cockpit layout (\(dir.path)/layout-*.png):\n" + report.joined(separator: "\n"))
    }
}
