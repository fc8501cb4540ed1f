@testable import Cockpit
import FlightRecords
@testable import FlightService
import FollowCore
import Foundation
import Logging
import Testing
import TestSupport

/// Pairing as a phone does it, in headless Chromium against a real cockpit (secret "123456"): a
/// `#pair=` link (the QR code `followme pair` shows) with a wrong secret leaves the sheet open saying
/// "wrong code", stores nothing and leaves no secret in the address bar; LAND unpaired says in red that
/// it did not go through; the right link stores the token and drops the fragment, LAND then reaches the
/// flight with the token alone, and a guess from elsewhere shows on the paired page as a warning. A new
/// secret (`followme pair --new` rewrites the code file) makes the paired page forget its token and ask.
@Suite(.serialized, .timeLimit(.minutes(1))) struct CockpitPairingPageTests {
    static let tokenKey = "followme-token"

    /// `condition` (JS) once it holds, within `seconds`; false otherwise.
    static func eventually(_ phone: PhoneBrowser, _ condition: String, seconds: Int = 5) async throws -> Bool {
        try await phone.evaluate("""
            (async () => { for (let i = 0; i < \(seconds * 10); i++) { if (\(condition)) return true; await new Promise(r => setTimeout(r, 100)); } return false; })()
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

    @Test("a new secret in the code file: the paired page forgets its token and shows the pairing sheet")
    func rotatedSecret() async throws {
        let chromium = try #require(PhoneBrowser.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cockpit-rotate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("cockpit-code")
        func write(_ secret: String) throws {
            try Data((secret + "\n").utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        try write("7K2QFM9XDA")
        // Given a cockpit whose secret comes from a file it watches (a real clock: it looks once a second)
        var settings = CockpitSettings(host: "127.0.0.1", port: 0, code: try PairingCode(contentsOfFile: file.path))
        settings.codeFile = file.path
        let (board, inbox) = (FlightStatusBoard(), OperatorCommandInbox())
        inbox.attach(FakeFlight().deliver)
        var logger = Logger(label: "cockpit-test")
        logger.logLevel = .critical
        let server = try await CockpitServer.start(settings: settings, board: board, commands: inbox, logger: logger,
                                                   clock: { MonotonicTime(nanoseconds: Int64(DispatchTime.now().uptimeNanoseconds)) })
        defer { server.stop() }
        board.publish(CockpitFixtures.following)
        let phone = try PhoneBrowser(chromium: chromium, width: 320, height: 568)
        defer { phone.quit() }
        // And a phone paired from the QR code's link (typed as a person would: lower case, with the dash)
        try await phone.navigate("http://127.0.0.1:\(server.port)/#pair=7k2qf-m9xda")
        let paired = try await Self.eventually(phone, "!!localStorage.getItem('\(Self.tokenKey)') && document.getElementById('pair').hidden")
        let seen1 = await Self.text(phone, "document.getElementById('pair-error').textContent")
        try #require(paired, "not paired: \(seen1)")

        // When the secret is rotated
        try write("X1Y2Z3W4V5")
        // Then the page forgets its token and asks to pair again, saying why (the stream's end or the
        // page's own look every 10 s tells it)
        let asked = try await Self.eventually(phone, "!localStorage.getItem('\(Self.tokenKey)') && !document.getElementById('pair').hidden", seconds: 15)
        let seen2 = await Self.text(phone, "document.getElementById('pair').innerText")
        #expect(asked, "the page kept its token: \(seen2)")
        #expect(seen2.contains("no longer valid"), "the sheet does not say why: \(seen2)")
    }
}
