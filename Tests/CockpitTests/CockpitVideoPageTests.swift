@testable import Cockpit
import FlightRecords
import Foundation
import Testing

/// The camera on the page, in headless Chromium at 390×844: a red "REC m:ss" in the banner while
/// the camera records (nothing otherwise), "camera refused: …" in small type, and for a paired phone
/// on the ground only, once the recording is finished, "Download last video" at the top of the page,
/// with its start, length and size. The
/// screenshots go to `.build/cockpit-screenshots/` (`video-recording.png`, `video-recording-320.png`, `video-landed.png`, `video-refused.png`).
@Suite(.serialized, .timeLimit(.minutes(1))) struct CockpitVideoPageTests {
    static func eventually(_ phone: PhoneBrowser, _ condition: String) async throws -> Bool {
        try await CockpitPairingPageTests.eventually(phone, condition)
    }

    @Test("REC with the length while recording; the paired phone's download link once landed; refused in small type; unpaired: no link")
    func recAndDownload() async throws {
        let chromium = try #require(PhoneBrowser.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let directory = try CockpitVideoTests.recordings([CockpitVideoTests.newer])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (server, board, _) = try await CockpitFixtures.server(code: "123456", videoDirectory: directory)
        defer { server.stop() }
        board.publish(CockpitFixtures.followingRecording)
        let shots = PhoneBrowser.repository.appendingPathComponent(".build/cockpit-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let phone = try PhoneBrowser(chromium: chromium, width: 390, height: 844)
        defer { phone.quit() }
        let base = "http://127.0.0.1:\(server.port)/"

        // Given a paired phone while the camera records (83.4 s)
        try await phone.navigate(base + "?video#pair=123456")
        #expect(try await Self.eventually(phone, "localStorage.getItem('followme-token') !== null"), "not paired")
        // Then REC 1:23 shows beside the state, and no download link while recording
        #expect(try await Self.eventually(phone, "!document.getElementById('rec').hidden"), "no REC")
        #expect(try await phone.evaluate("document.getElementById('rec').textContent") as? String == "REC 1:23")
        #expect(try await phone.evaluate("document.getElementById('video-card').hidden") as? Bool == true)
        _ = try await phone.evaluate("new Promise(r => setTimeout(r, 300))")
        try await phone.screenshot(shots.appendingPathComponent("video-recording.png"))
        // (At 320×568, the smallest phone the page is made for, REC still fits beside the link line.)
        try await phone.viewport(width: 320, height: 568)
        _ = try await phone.evaluate("new Promise(r => setTimeout(r, 300))")
        let fits = try await phone.evaluate("document.getElementById('rec').getBoundingClientRect().right <= 320 && document.documentElement.scrollWidth <= 320")
        #expect(fits as? Bool == true, "REC or the page is wider than 320 px")
        try await phone.screenshot(shots.appendingPathComponent("video-recording-320.png"))
        try await phone.viewport(width: 390, height: 844)

        // When the drone has landed and the recording is closed
        board.publish(CockpitFixtures.landed)
        // Then REC is gone and the link offers the recording: its start (UTC), length and size
        #expect(try await Self.eventually(phone, "!document.getElementById('video-card').hidden"), "no download link")
        #expect(try await phone.evaluate("document.getElementById('rec').hidden") as? Bool == true)
        let info = try await phone.evaluate("document.getElementById('video-card').innerText") as? String ?? ""
        #expect(info.contains("Download last video") && info.contains("started 16:01 UTC") && info.contains("1:23") && info.contains("0.3 MB"),
                "\(info)")
        try await phone.screenshot(shots.appendingPathComponent("video-landed.png"))
        // And the link downloads without leaving the page (the ticket's address is an attachment)
        _ = try await phone.evaluate("document.getElementById('video-download').click()")
        let downloading = try await Self.eventually(phone, "/VIDEO: downloading/.test(document.getElementById('toast').textContent)")
        let toast = await CockpitPairingPageTests.text(phone, "document.getElementById('toast').textContent")
        #expect(downloading, "\(toast)")
        #expect(try await phone.evaluate("location.pathname") as? String == "/")

        // When the camera refuses (in the air, where the link is hidden): a small note, no REC
        var refused = CockpitFixtures.following
        (refused.camera, refused.cameraReason) = ("refused", "video not recorded: 120 MB free on /var/lib/followme/video")
        board.publish(refused)
        #expect(try await Self.eventually(phone, "!document.getElementById('camera-note').hidden"), "no refusal note")
        #expect(try await phone.evaluate("document.getElementById('camera-note').textContent") as? String
            == "camera refused: video not recorded: 120 MB free on /var/lib/followme/video")
        #expect(try await phone.evaluate("document.getElementById('rec').hidden") as? Bool == true)
        #expect(try await Self.eventually(phone, "document.getElementById('video-card').hidden"), "the link in the air")
        try await phone.screenshot(shots.appendingPathComponent("video-refused.png"))

        // And an unpaired page (watch only) never shows the link
        board.publish(CockpitFixtures.landed)
        _ = try await phone.evaluate("localStorage.clear()")
        try await phone.navigate(base + "?unpaired#watch")
        #expect(try await Self.eventually(phone, "document.getElementById('banner').className.includes('st-landed')"))
        _ = try await phone.evaluate("new Promise(r => setTimeout(r, 500))")
        #expect(try await phone.evaluate("document.getElementById('video-card').hidden") as? Bool == true)
        let console = try await phone.console().filter { !$0.contains("Failed to load resource") }
        #expect(console.isEmpty, "the page's console: \(console)")
    }
}
