import Foundation
import Testing
import TestSupport

/// `followme report` end to end: a real flight (`followme sim` + a real gpsd + `followme run`,
/// about 30 s), its flight log turned into the HTML page, and the page loaded in a real browser
/// (headless Chromium, installed by `scripts/ensure-deps.sh --test`): a screenshot is taken, the
/// page's own script measures every chart after layout (its `#render-check`, read from the DOM
/// dump), and the browser's console must stay silent.
@Suite(.serialized) struct ReportBrowserTests {
    static var chromium: String? { ["chromium", "chromium-browser"].lazy.compactMap(ChildProcess.locate).first }

    @Test("a real flight's report renders in headless Chromium: every chart has a size, no console message",
          .timeLimit(.minutes(4)))
    func realFlightRendersInChromium() async throws {
        let dir = try scratchDirectory(label: "report")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("flight.jsonl") // where RunEndToEndTests.startRun writes it

        // Given a real flight: take-off, following a walking person for 8 s, SIGTERM, landing
        try await fly(log: log, in: dir)

        // When `followme report` turns its log into a page (default: next to the log)
        let report = try FollowMeBinary.run(["report", log.path])
        let page = dir.appendingPathComponent("flight.html")
        #expect(report.exitCode == 0, "report failed: \(report.both)")
        #expect(report.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == page.path)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("http"), "the page names a URL")
        #expect(html.contains("landed: shutdown"), "the summary names the landing reason")

        // And a real browser loads it
        let browser = try #require(Self.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let profile = dir.appendingPathComponent("chromium-profile").path
        // --no-sandbox: the tests may run as root; --disable-dev-shm-usage: containers often have a tiny /dev/shm.
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                      "--user-data-dir=\(profile)", "--window-size=1280,2600", "--enable-logging=stderr", "--v=0"]
        let screenshot = dir.appendingPathComponent("report.png")
        let shot = try ChildProcess.run(browser, common + ["--screenshot=\(screenshot.path)", page.absoluteString],
                                        timeoutSeconds: 90)
        let dom = try ChildProcess.run(browser, common + ["--dump-dom", page.absoluteString], timeoutSeconds: 90)
        Self.keepArtifacts([log, page, screenshot])

        // Then the screenshot is a 1280 × 2600 PNG with something drawn on it
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "no PNG: \(shot.stderr.suffix(2000))")
        #expect(Self.pngSize(png) == [1280, 2600])
        #expect(png.count > 40_000, "a \(png.count)-byte screenshot is (nearly) blank")
        // And the page's script measured all eleven charts (the wind's too: the log has the wind
        // failsafe's estimate while airborne; both receivers' GPS uncertainty and the link), each
        // with a width and a height
        let sizes = try #require(Self.renderCheck(dom.stdout), "no #render-check in the DOM: \(dom.stdout.prefix(500))")
        #expect(sizes.keys.sorted() == ["chart-altitude", "chart-battery", "chart-distance", "chart-fix-age", "chart-gps-onboard",
                                        "chart-gps-target", "chart-link", "chart-pcmd", "chart-plan", "chart-speed", "chart-wind"])
        for (id, size) in sizes {
            #expect(size.width > 100 && size.height > 50, "\(id) rendered \(size.width) × \(size.height)")
        }
        // And the time-series charts are equally wide (one shared time axis)
        #expect(Set(sizes.filter { $0.key != "chart-plan" }.values.map(\.width)).count == 1)
        // And the console said nothing (no script error, no blocked resource)
        for run in [shot, dom] {
            let console = run.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
            #expect(console.isEmpty, "console: \(console.joined(separator: "\n"))")
        }
    }

    @Test("unreadable or invalid input: a clear error and exit 1; -o onto the log itself: exit 2")
    func badInput() throws {
        let dir = try scratchDirectory(label: "report-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try FollowMeBinary.run(["report", dir.appendingPathComponent("missing.jsonl").path])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("missing.jsonl: cannot read"), "\(missing.stderr)")
        let notALog = dir.appendingPathComponent("notes.txt")
        try "hello\nworld\n".write(to: notALog, atomically: true, encoding: .utf8)
        let invalid = try FollowMeBinary.run(["report", notALog.path])
        #expect(invalid.exitCode == 1)
        #expect(invalid.stderr.contains("not a flight log"), "\(invalid.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("notes.html").path))
        let onto = try FollowMeBinary.run(["report", notALog.path, "-o", notALog.path])
        #expect(onto.exitCode == 2, "\(onto.both)")
    }

    @Test("followme bench --report DIR writes one page per run and an index.html linking each")
    func benchReport() throws {
        let dir = try scratchDirectory(label: "bench-report")
        defer { try? FileManager.default.removeItem(at: dir) }
        let reports = dir.appendingPathComponent("reports")
        // When the bench runs one short scenario (2 controllers × 2 GPS models) with --report
        let bench = try FollowMeBinary.run(["bench", "--report", reports.path, "--scenario", "straight-walk",
                                            "--duration", "20", "--no-replays"], timeoutSeconds: 120)
        #expect(bench.exitCode == 0, "\(bench.stderr.suffix(2000))")
        // Then there are four pages and an index that links each of them
        let files = try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted()
        #expect(files == ["index.html", "straight-walk-followme-clean.html", "straight-walk-followme-realistic.html",
                          "straight-walk-naive-clean.html", "straight-walk-naive-realistic.html"])
        let index = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
        for page in files where page != "index.html" {
            #expect(index.contains("href=\"\(page)\""), "index.html does not link \(page)")
            let html = try String(contentsOf: reports.appendingPathComponent(page), encoding: .utf8)
            #expect(html.contains("id=\"chart-pcmd\"") && !html.contains("http"))
        }
    }

    /// Flies the simulated field as `RunEndToEndTests` does (following for 8 s, then SIGTERM, a
    /// landing confirmed by navdata, exit 0); the log must end `landed`.
    func fly(log: URL, in dir: URL) async throws {
        let field = try await SimField.start(in: dir)
        let endToEnd = RunEndToEndTests()
        if let run = try? await endToEnd.startRun(field: field, dir: dir) {
            await endToEnd.flyAndLand(run: run, log: log)
            await run.terminate()
        }
        await field.stop()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try #require(text.contains(#""to":"landed""#), "the flight did not land (or followme run did not start)")
    }

    /// Copies the log, the page and the screenshot into `$REPORT_TEST_ARTIFACTS` when set (to look at them).
    static func keepArtifacts(_ files: [URL]) {
        guard let keep = ProcessInfo.processInfo.environment["REPORT_TEST_ARTIFACTS"] else { return }
        try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        for file in files {
            let target = URL(fileURLWithPath: keep).appendingPathComponent(file.lastPathComponent)
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.copyItem(at: file, to: target)
        }
    }

    /// Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian; PNG spec §11.2.2).
    static func pngSize(_ png: Data) -> [Int] {
        guard png.count >= 24 else { return [] }
        let bytes = [UInt8](png.prefix(24))
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return [be32(16), be32(20)]
    }

    /// `data-sizes="chart-plan=580x580 chart-distance=1198x208 …"` of `#render-check` in a DOM dump.
    static func renderCheck(_ dom: String) -> [String: (width: Int, height: Int)]? {
        guard let start = dom.range(of: "data-sizes=\""),
              let end = dom[start.upperBound...].firstIndex(of: "\"") else { return nil }
        var sizes: [String: (width: Int, height: Int)] = [:]
        for entry in dom[start.upperBound..<end].split(separator: " ") {
            let parts = entry.split(separator: "=")
            let dims = parts.last?.split(separator: "x").compactMap { Int($0) } ?? []
            guard parts.count == 2, dims.count == 2 else { return nil }
            sizes[String(parts[0])] = (dims[0], dims[1])
        }
        return sizes
    }
}
