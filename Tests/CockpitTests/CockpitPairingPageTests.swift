@testable import Cockpit
import FlightRecords
import Foundation
import Testing
import TestSupport

/// Pairing as a phone does it, in headless Chromium against a real cockpit (secret "123456"): a
/// `#pair=` link (the QR code `followme pair` shows) with a wrong secret leaves the sheet open saying
/// "wrong code", stores nothing and leaves no secret in the address bar; LAND unpaired says in red that
/// it did not go through; the right link stores the token and drops the fragment, LAND then reaches the
/// flight with the token alone, and a guess from elsewhere shows on the paired page as a warning.
@Suite(.serialized, .timeLimit(.minutes(1))) struct CockpitPairingPageTests {
    static let tokenKey = "followme-token"

    /// `condition` (JS) once it holds, within 5 s; false otherwise.
    static func eventually(_ phone: PhoneBrowser, _ condition: String) async throws -> Bool {
        try await phone.evaluate("""
            (async () => { for (let i = 0; i < 50; i++) { if (\(condition)) return true; await new Promise(r => setTimeout(r, 100)); } return false; })()
            """) as? Bool ?? false
    }

    /// What `js` evaluates to, as text, for a failure's message.
    static func text(_ phone: PhoneBrowser, _ js: String) async -> String { (try? await phone.evaluate(js)).map { "\($0 ?? "nil")" } ?? "?" }

    @Test("#pair= pairs and leaves no secret behind; a wrong code says so at once; LAND unpaired says it did not go through")
    func pairFromTheLink() async throws {
        let chromium = try #require(PhoneBrowser.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let (server, board, flight) = try await CockpitFixtures.server(code: "123456")
        defer { server.stop() }
        board.publish(CockpitFixtures.following)
        let phone = try PhoneBrowser(chromium: chromium, width: 320, height: 568)
        defer { phone.quit() }
        let dir = PhoneBrowser.repository.appendingPathComponent(".build/cockpit-screenshots")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let base = "http://127.0.0.1:\(server.port)/"
        let stored = "localStorage.getItem('\(Self.tokenKey)')"

        // Given a wrong secret in the link
        try await phone.navigate(base + "#pair=000000")
        // Then the sheet says "wrong code" as soon as the server answered, and nothing is stored
        let wrong = try await Self.eventually(phone, "!document.getElementById('pair').hidden && /wrong code/i.test(document.getElementById('pair-error').textContent)")
        try await phone.screenshot(dir.appendingPathComponent("pairing-wrong-code-320x568.png"))
        let seen1 = await Self.text(phone, "document.getElementById('pair').innerText")
        #expect(wrong, "no 'wrong code': \(seen1)")
        #expect(try await phone.evaluate(stored) is NSNull, "a token was stored for a wrong code")
        #expect(try await phone.evaluate("location.href") as? String == base, "the secret is left in the address bar")

        // When LAND is pressed unpaired (no `land_without_code`)
        _ = try await phone.evaluate("document.getElementById('b-land').click()")
        // Then the page says in red that LAND did not go through
        let notThrough = try await Self.eventually(phone, "/LAND DID NOT GO THROUGH/.test(document.getElementById('toast').textContent)")
        try await phone.screenshot(dir.appendingPathComponent("pairing-land-refused-320x568.png"))
        let seen2 = await Self.text(phone, "document.getElementById('toast').textContent")
        #expect(notThrough, "toast: \(seen2)")
        #expect(flight?.commands.isEmpty == true, "an unpaired LAND reached the flight")

        // Given the right secret in the link (the QR code's URL)
        try await phone.navigate(base + "?again#pair=123456")
        // Then the token is stored, the fragment is gone from the address bar and the history entry
        let paired = try await Self.eventually(phone, "!!\(stored)")
        let seen3 = await Self.text(phone, "document.getElementById('pair-error').textContent")
        #expect(paired, "no token stored: \(seen3)")
        #expect(try await phone.evaluate("location.href") as? String == base + "?again")
        #expect(try await phone.evaluate("document.getElementById('pair').hidden") as? Bool == true, "the sheet is open after pairing")

        // When LAND is pressed: it goes with the token (the page no longer keeps the secret)
        _ = try await phone.evaluate("document.getElementById('b-land').click()")
        let landed = try await Self.eventually(phone, "/LAND: done/.test(document.getElementById('toast').textContent)")
        let seen4 = await Self.text(phone, "document.getElementById('toast').textContent")
        #expect(landed, "toast: \(seen4)")
        #expect(flight?.commands.map(\.command.rawValue) == ["land"], "\(String(describing: flight?.commands))")

        // When someone else guesses a code, the paired phone's page warns
        let guess = try await LoopbackHTTP(port: server.port).request(
            "POST", "/pair", headers: ["Content-Type": "application/json"], body: #"{"secret":"999999"}"#)
        #expect([401, 429].contains(guess.status), "a wrong guess: \(guess.status) \(guess.body)")
        let warned = try await Self.eventually(phone, "!document.getElementById('security').hidden && /trying pairing codes/.test(document.getElementById('security').textContent)")
        try await phone.screenshot(dir.appendingPathComponent("pairing-security-320x568.png"))
        let seen5 = await Self.text(phone, "document.getElementById('banner').innerText")
        #expect(warned, "no warning on the paired page: \(seen5)")
    }
}
