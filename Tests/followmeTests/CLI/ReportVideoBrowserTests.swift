import Foundation
import Testing
import TestSupport

/// `followme report` with a recording (docs/video.md §7), the binary end to end: a flight log whose
/// recorder notice names `video/ID.h264` relative to the log's directory, a real H.264 stream (ffmpeg's
/// testsrc) with an index placing frame k at host time 1001 + k/30 (the log starts at 1000), then the
/// page loaded in headless Chromium at `#video=2`: the video itself seeks and the cursor goes to 3 s.
@Suite(.serialized) struct ReportVideoBrowserTests {
    static let id = "2026-12-07T150102Z"

    /// The flight log: fixes every 0.2 s over 1000…1005, the recorder's notice, closed by statistics-final.
    static func flightLog() -> String {
        var lines = ["{\"t\":1000.0,\"kind\":\"start\",\"standoff_m\":8,\"min_separation_m\":3}",
                     "{\"t\":1000.9,\"kind\":\"link\",\"event\":\"notice\",\"reason\":\"video recording started: video/\(id).h264\"}"]
        for i in 0...25 {
            let t = 1000 + Double(i) * 0.2
            for (role, offset) in [("target", 0.0), ("onboard", -7e-5)] {
                lines.append("{\"t\":\(t),\"kind\":\"gps\",\"event\":{\"role\":\"\(role)\",\"mode\":3,\"lat\":\(47.5 + Double(i) * 1e-5 + offset),"
                    + "\"lon\":8.25,\"rx\":\(t)},\"verdict\":\"accepted\"}")
            }
        }
        lines.append("{\"t\":1005.1,\"kind\":\"link\",\"event\":\"statistics-final\"}")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("followme report finds, muxes and shows the recording; in Chromium the video at 2 s puts the cursor at 3 s",
          .timeLimit(.minutes(3)))
    func reportWithVideoInChromium() throws {
        let dir = try scratchDirectory(label: "report-video")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("video")
        try FileManager.default.createDirectory(at: video, withIntermediateDirectories: true)
        // Given 3 s of H.264 (90 frames) as the recorder writes it, and its index
        let raw = video.appendingPathComponent("\(Self.id).h264")
        let ffmpeg = try #require(ChildProcess.locate("ffmpeg"), "ffmpeg is not installed (scripts/ensure-deps.sh --test)")
        let encoded = try ChildProcess.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                                    "testsrc=size=640x360:rate=30", "-t", "3", "-c:v", "libx264", "-preset", "ultrafast",
                                                    "-g", "30", "-bf", "0", "-pix_fmt", "yuv420p", "-f", "h264", raw.path], timeoutSeconds: 60)
        #expect(encoded.exitCode == 0, "\(encoded.stderr)")
        var index = ["{\"video\":\"ardrone-pave\",\"t\":1000.9}"]
        for k in 0..<90 { index.append("{\"frame\":\(k),\"drone_ms\":\(Double(k) * 1000 / 30),\"t\":\(1001 + Double(k) / 30)}") }
        try (index.joined(separator: "\n") + "\n").write(to: video.appendingPathComponent("\(Self.id).video.jsonl"), atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("flight.jsonl")
        try Self.flightLog().write(to: log, atomically: true, encoding: .utf8)

        // When followme report writes the page (4 thumbnails)
        let report = try FollowMeBinary.run(["report", log.path, "--thumbnails", "4"], timeoutSeconds: 60)
        let page = dir.appendingPathComponent("flight.html")
        #expect(report.exitCode == 0, "\(report.both)")
        // Then it prints only the page's path, says on stderr that it muxed, and the MP4 lies beside the raw stream
        #expect(report.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == page.path)
        #expect(report.stderr.contains("muxed"), "\(report.stderr)")
        #expect(FileManager.default.fileExists(atPath: video.appendingPathComponent("\(Self.id).mp4").path))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<video class=\"flight-video\" controls=\"controls\" preload=\"metadata\" src=\"video/\(Self.id).mp4\">"))
        #expect(html.components(separatedBy: "<img ").count - 1 == 4)
        #expect(!html.contains("http"))
        // And --no-video leaves it out
        let without = try FollowMeBinary.run(["report", log.path, "--no-video", "-o", dir.appendingPathComponent("plain.html").path])
        #expect(without.exitCode == 0)
        #expect(!((try? String(contentsOf: dir.appendingPathComponent("plain.html"), encoding: .utf8)) ?? "<video").contains("<video"))

        // And in a real browser, asked for 2 s into the video, the video seeks there and the cursor follows it:
        // frame 60 was read at host 1003, i.e. 3 s on the time axis
        let browser = try #require(ReportBrowserTests.chromium, "chromium is not installed (scripts/ensure-deps.sh --test)")
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                      "--user-data-dir=\(dir.appendingPathComponent("chromium-profile").path)", "--window-size=1400,1800",
                      "--enable-logging=stderr", "--v=0", "--autoplay-policy=no-user-gesture-required", "--virtual-time-budget=5000"]
        let dom = try ChildProcess.run(browser, common + ["--dump-dom", page.absoluteString + "#video=2"], timeoutSeconds: 90)
        let body = dom.stdout.range(of: "<body[^>]*>", options: .regularExpression).map { String(dom.stdout[$0]) } ?? ""
        #expect(body.contains("data-video-s=\"2.000\""), "the video did not report its own time: \(body)")
        #expect(body.contains("data-cursor-s=\"3.000\""), "\(body)")
        // And the plan view's markers are shown, and the console said nothing
        #expect(dom.stdout.contains("<g id=\"plan-cursor\" visibility=\"visible\""))
        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console: \(console.joined(separator: "\n"))")
        let screenshot = dir.appendingPathComponent("report-video.png")
        _ = try ChildProcess.run(browser, common + ["--screenshot=\(screenshot.path)", page.absoluteString + "#video=2"], timeoutSeconds: 90)
        ReportBrowserTests.keepArtifacts([log, page, screenshot])
    }
}
