#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Links
import Testing
import TestSupport

/// The phone cockpit end to end (issue 23): a real flight (`followme sim` + a real gpsd + `followme
/// run` with `[web] listen` on loopback and `takeoff = "start"`), its page opened in headless
/// Chromium at a phone's size (390 × 844) and driven as a person would through Chromium's DevTools
/// protocol (Support/cdp_driver.py): a wrong pairing code is refused at once by `POST /pair`, START
/// unpaired is refused with nothing flown; pairing with the right code sends the START again, which takes
/// off; a load on the web server while it follows leaves the drone's 30 Hz PCMD alone; HOLD stops the
/// drone, RESUME follows again, LAND lands it (confirmed by the simulator's navdata), SIGTERM exits 0.
/// Screenshots are written to the scratch directory and their paths printed.
@Suite(.serialized) struct CockpitFlightBrowserTests {
    /// This file's directory, and the repository three levels up.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The test tools' Python (pinned websocket-client: scripts/ensure-deps.sh --test).
    static var python: String {
        ProcessInfo.processInfo.environment["FOLLOWME_PYMAVLINK_PYTHON"]
            ?? repository.appendingPathComponent(".build/pymavlink-venv/bin/python3").path
    }

    static var driverScript: String { testsDirectory.appendingPathComponent("Support/cdp_driver.py").path }

    @Test("a real flight from the phone page: wrong code refused, START, load, HOLD stops the drone, RESUME, LAND; screenshots",
          .timeLimit(.minutes(6)))
    func flyFromThePage() async throws {
        let browser = try #require(ReportBrowserTests.chromium, "chromium is not installed (scripts/ensure-deps.sh --test installs it)")
        let dir = try scratchDirectory(label: "cockpit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("flight.jsonl")
        let port = LoopbackPorts.freeTCPPort()

        // Given a flight that waits for START, serving its cockpit on loopback, AT through a recording relay
        let field = try await FlightField.start(in: dir, relayAT: true)
        let run: ChildProcess
        do {
            run = try field.field.startRun(
                flightLog: log, ["--land-timeout", "40"], atPort: field.relay?.localPort,
                overrides: ["follow": ["takeoff": "\"start\""], "web": ["listen": "\"127.0.0.1:\(port)\""]])
        } catch {
            await field.stop()
            throw error
        }
        defer { _ = run.stop(signal: SIGKILL) }
        let announced = await eventually(seconds: 30) { run.stderrText.text.contains("pairing code ") }
        try #require(announced, "no cockpit line: \(run.stderrText.text.suffix(2000))")
        let code = try #require(Self.pairingCode(in: run.stderrText.text))
        #expect(run.stderrText.text.contains("cockpit: http://127.0.0.1:\(port)/ pairing code \(code)"))

        // And the page open in a phone-sized headless Chromium
        let page = try BrowserPage(browser: browser, dir: dir, size: (390, 844))
        defer { page.quit() }
        try page.navigate("http://127.0.0.1:\(port)/")
        // What a person reads: the banner's state (its class names the state's kind) and its words
        func state() -> String {
            let kind = (try? page.evaluate("document.querySelector('#banner').className")) as? String ?? ""
            return kind.replacingOccurrences(of: "st-", with: "") + ": " + ((try? page.text("#banner")) ?? "").lowercased()
        }
        let waiting = await eventually(seconds: 90) { state().hasPrefix("preflight") && state().contains("press start") }
        #expect(waiting, "banner: \((try? page.text("#banner")) ?? "?")")
        try page.screenshot(dir.appendingPathComponent("1-preflight.png"))

        // When a wrong pairing code is entered
        let wrong = code == "00000-00000" ? "11111-11111" : "00000-00000"
        try page.enterCode(wrong)
        // Then the sheet says so at once (the server's answer to POST /pair), and stays open
        let saysWrong = await eventually(seconds: 10) {
            (try? page.visible("#pair")) == true && (try? page.text("#pair-error"))?.lowercased().contains("wrong code") == true
        }
        #expect(saysWrong, "no 'wrong code' on the pairing sheet: \((try? page.text("#pair")) ?? "?")")
        try page.screenshot(dir.appendingPathComponent("2-wrong-code.png"))
        // When START is pressed unpaired, the flight refuses it (401) and the page asks to pair
        try page.press("#b-start")
        try page.press("#confirm-yes")
        let askedAgain = await eventually(seconds: 10) {
            (try? page.visible("#pair")) == true && (try? page.text("#toast"))?.contains("not paired") == true
        }
        #expect(askedAgain, "the pairing sheet did not come back after an unpaired START")
        try await Task.sleep(for: .seconds(2))
        #expect(try field.status()["state"] as? String == "landed", "the drone moved on a wrong code")
        #expect(run.stderrText.text.contains("cockpit: command refused, wrong or missing pairing code"),
                "the refusal is logged: \(run.stderrText.text.suffix(1500))")
        #expect(!Self.flightLog(log).contains(#""kind":"operator""#), "a command with the wrong code reached the flight")

        // When the right code is entered (the page pairs, then sends the pending START again)
        try page.enterCode(code)
        // Then the drone takes off and follows; the page says so
        let following = await eventually(seconds: 90) { state().hasPrefix("following") }
        #expect(following, "state on the page: \(state())\nstderr:\n\(run.stderrText.text.suffix(2000))")
        try page.screenshot(dir.appendingPathComponent("3-following.png"))

        // When the web server is loaded for 10 s (wrk: 2 threads, 1000 connections on /status; 50 more
        // clients holding event streams) while the drone follows
        let pcmdBefore = field.relay?.recorded.pcmdFlags.count ?? 0
        let loadStart = Date()
        let load = try Self.load(port: port, seconds: 10)
        let loadSeconds = Date().timeIntervalSince(loadStart)
        let pcmdDuring = (field.relay?.recorded.pcmdFlags.count ?? 0) - pcmdBefore
        let pcmdHertz = Double(pcmdDuring) / loadSeconds
        print("cockpit load: \(load.summary); PCMD at the drone during it: \(String(format: "%.1f", pcmdHertz)) Hz")
        // Then the drone still gets its commands at ≥ 25 Hz and is still following
        #expect(pcmdHertz >= 25, "PCMD \(pcmdHertz) Hz under load")
        #expect(load.requests > 0, "wrk made no request: \(load.output)")
        #expect(state().hasPrefix("following"), "state on the page after the load: \(state())")

        // When HOLD is pressed
        try page.press("#b-hold")
        let held = await eventually(seconds: 10) { state().hasPrefix("holding") && state().contains("hold") }
        #expect(held, "state on the page: \(state())")
        // Then the drone stops (within a couple of seconds) while the person walks on
        try await Task.sleep(for: .seconds(3))
        let a = try field.status()
        try await Task.sleep(for: .seconds(2))
        let b = try field.status()
        func moved(_ k1: String, _ k2: String) -> Double {
            hypot((b[k1] as? Double ?? .nan) - (a[k1] as? Double ?? .nan), (b[k2] as? Double ?? .nan) - (a[k2] as? Double ?? .nan))
        }
        #expect(moved("east", "north") < 0.5, "the held drone moved \(moved("east", "north")) m in 2 s")
        #expect(moved("person_east", "person_north") > 1.5, "the person walked \(moved("person_east", "person_north")) m")
        #expect((try? page.text("#last-command"))?.lowercased().contains("hold") == true)
        try page.screenshot(dir.appendingPathComponent("4-holding.png"))

        // When RESUME, it follows again
        try page.press("#b-resume")
        #expect(await eventually(seconds: 30) { state().hasPrefix("following") }, "state: \(state())")

        // When LAND, it lands: the page shows it and the simulator's navdata says landed
        try page.press("#b-land")
        let landed = await eventually(seconds: 60) { state().hasPrefix("landed") && (try? field.status()["state"] as? String) == "landed" }
        #expect(landed, "page \(state()), sim \(String(describing: try? field.status()["state"]))")
        try page.screenshot(dir.appendingPathComponent("5-landed.png"))
        let console = try page.console()
        #expect(console.isEmpty, "browser console: \(console)")

        // And SIGTERM ends the run, exit 0; the flight log has each command from the web, by address
        run.signal(SIGTERM)
        #expect(await run.waitForExit(seconds: 30) == 0, "stderr:\n\(run.stderrText.text.suffix(2000))")
        let records = OperatorCommandEndToEndTests.operatorRecords(log)
        #expect(records.map(\.0) == ["start", "hold", "resume", "land"], "\(records)")
        #expect(records.allSatisfy { $0.1 == "web 127.0.0.1" && $0.2 == "accepted" }, "\(records)")
        print("cockpit screenshots: \(dir.path)/[1-5]-*.png (kept with FOLLOWME_KEEP_SCREENSHOTS)")
        if let keep = ProcessInfo.processInfo.environment["FOLLOWME_KEEP_SCREENSHOTS"] {
            for name in ["1-preflight", "2-wrong-code", "3-following", "4-holding", "5-landed"] {
                try? FileManager.default.copyItem(at: dir.appendingPathComponent("\(name).png"),
                                                  to: URL(fileURLWithPath: keep).appendingPathComponent("\(name).png"))
            }
        }
        await field.stop()
    }

    static func pairingCode(in text: String) -> String? {
        guard let range = text.range(of: #"pairing code [0-9A-Z]{5}-[0-9A-Z]{5}"#, options: .regularExpression) else { return nil }
        return String(text[range].suffix(11))
    }

    static func flightLog(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// What the load did: wrk's requests and its summary, the event streams held.
    struct Load {
        var requests = 0
        var summary = ""
        var output = ""
    }

    /// wrk on `GET /status` (1000 connections) and 50 held `GET /events` streams, for `seconds`.
    static func load(port: Int, seconds: Int) throws -> Load {
        let wrk = try #require(ChildProcess.locate("wrk"), "wrk is not installed (scripts/ensure-deps.sh --test installs it)")
        let streams = try ChildProcess(name: "sse-clients", executable: "python3", arguments: ["-c", """
            import socket, time
            held = []
            for _ in range(50):
                s = socket.create_connection(("127.0.0.1", \(port)))
                s.sendall(b"GET /events HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: text/event-stream\\r\\n\\r\\n")
                held.append(s)
            print("held", len(held), flush=True)
            time.sleep(\(seconds + 5))
            """])
        defer { _ = streams.stop(signal: SIGKILL) }
        let r = try ChildProcess.run(wrk, ["-t2", "-c1000", "-d\(seconds)s", "--timeout", "5s", "http://127.0.0.1:\(port)/status"],
                                     timeoutSeconds: Double(seconds) + 30)
        var load = Load()
        load.output = r.stdout + r.stderr
        if let range = r.stdout.range(of: #"(\d+) requests in"#, options: .regularExpression) {
            load.requests = Int(r.stdout[range].split(separator: " ")[0]) ?? 0
        }
        load.summary = r.stdout.split(separator: "\n").filter {
            $0.contains("requests in") || $0.contains("Requests/sec") || $0.contains("Latency") || $0.contains("Non-2xx")
                || $0.contains("Socket errors")
        }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        return load
    }
}

/// A page in headless Chromium, driven through `cdp_driver.py` (one JSON request, one answer).
final class BrowserPage {
    private let driver: ChildProcess
    private let fd: Int32
    private var lines = LineSplitter()

    init(browser: String, dir: URL, size: (Int, Int)) throws {
        let control = dir.appendingPathComponent("cdp.sock").path
        driver = try ChildProcess(name: "cdp-driver", executable: CockpitFlightBrowserTests.python, arguments: [
            CockpitFlightBrowserTests.driverScript, browser, dir.appendingPathComponent("chromium-profile").path, control,
            String(size.0), String(size.1),
        ])
        let deadline = Date().addingTimeInterval(60)
        while !driver.stdoutLines.lines.contains("ready"), Date() < deadline { usleep(50_000) }
        try #require(driver.stdoutLines.lines.contains("ready"), "the DevTools driver did not start: \(driver.stderrText.text.suffix(2000))")
        fd = try UnixSocketAddress.connectStream(path: control)
    }

    deinit { close(fd) }

    func quit() {
        _ = try? request(["quit": true])
        _ = driver.stop(signal: SIGTERM, graceSeconds: 5)
    }

    func request(_ object: [String: Any]) throws -> [String: Any] {
        let line = try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BrowserError("the DevTools driver went away: \(driver.stderrText.text.suffix(1000))") }
            if let answer = lines.append(chunk[..<n]).first {
                let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] ?? [:]
                if let error = object["error"] as? String { throw BrowserError(error) }
                return object
            }
        }
    }

    struct BrowserError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    func navigate(_ url: String) throws { _ = try request(["navigate": url]) }

    func evaluate(_ js: String) throws -> Any? { try request(["eval": js])["value"] }

    /// The visible text of the element `selector`.
    func text(_ selector: String) throws -> String {
        try evaluate("(document.querySelector(\(Self.quoted(selector)))||{}).innerText||''") as? String ?? ""
    }

    func visible(_ selector: String) throws -> Bool {
        // Not offsetParent: a fixed-position sheet has none.
        try evaluate("(e => !!e && !e.hidden && getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0)(document.querySelector(\(Self.quoted(selector))))") as? Bool ?? false
    }

    /// Taps the element (a click, as a tap delivers).
    func press(_ selector: String) throws {
        let ok = try evaluate("(e => { if (!e || e.disabled) return false; e.click(); return true })(document.querySelector(\(Self.quoted(selector))))")
        guard ok as? Bool == true else { throw BrowserError("\(selector) is missing or disabled") }
    }

    /// Types the pairing code into the page's dialog and submits it.
    func enterCode(_ code: String) throws {
        let ok = try evaluate("""
            (() => { const d = document.querySelector('#pair'), i = document.querySelector('#pair-code'), f = document.querySelector('#pair-form');
              if (!d || !i || !f) return false; d.hidden = false; i.value = \(Self.quoted(code)); f.requestSubmit(); return true })()
            """)
        guard ok as? Bool == true else { throw BrowserError("no pairing dialog") }
    }

    func screenshot(_ url: URL) throws { _ = try request(["screenshot": url.path]) }

    func console() throws -> [String] { try request(["console": true])["value"] as? [String] ?? [] }

    static func quoted(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [s]), as: UTF8.self).dropFirst().dropLast().description
    }
}
