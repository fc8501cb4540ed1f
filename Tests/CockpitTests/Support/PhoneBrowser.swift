#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// One headless Chromium emulating a phone (touch, device scale 2), kept for a whole test and driven
/// through its DevTools protocol by Tests/followmeTests/CLI/Support/cdp_driver.py (one JSON line per request,
/// one per answer, on a Unix socket): resize, navigate, evaluate, screenshot. Starting Chromium once
/// and reloading the page per case keeps a dozen screenshots within seconds. Every call blocks on its
/// own thread (`offPool`), never on one of the few cooperative threads the cockpit's handlers need.
final class PhoneBrowser: @unchecked Sendable {  // one caller at a time: the test's task
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static var chromium: String? { ["chromium", "chromium-browser"].lazy.compactMap(ChildProcess.locate).first }
    /// The test tools' Python with websocket-client (scripts/ensure-deps.sh --test makes it).
    static var python: String {
        ProcessInfo.processInfo.environment["FOLLOWME_PYMAVLINK_PYTHON"]
            ?? repository.appendingPathComponent(".build/pymavlink-venv/bin/python3").path
    }

    private let driver: ChildProcess
    private let fd: Int32
    private let dir: URL
    private var buffered: [UInt8] = []

    /// Starts Chromium at `width`×`height` CSS px with a fresh profile (no stored token).
    init(chromium: String, width: Int, height: Int) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("phone-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let control = dir.appendingPathComponent("cdp.sock").path
        let script = Self.repository.appendingPathComponent("Tests/followmeTests/CLI/Support/cdp_driver.py").path
        driver = try ChildProcess(name: "cdp-driver", executable: Self.python, arguments: [
            script, chromium, dir.appendingPathComponent("profile").path, control, String(width), String(height),
        ])
        let deadline = Date().addingTimeInterval(60)
        while !driver.stdoutLines.lines.contains("ready"), driver.isRunning, Date() < deadline { usleep(20_000) }
        guard driver.stdoutLines.lines.contains("ready") else {
            _ = driver.stop(signal: SIGKILL)
            throw Failure("the DevTools driver did not start (\(Self.python); scripts/ensure-deps.sh --test): \(driver.stderrText.text.suffix(1500))")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, byte) in control.utf8.enumerated() { raw[i] = byte } }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard socketFD >= 0, connected == 0 else {
            _ = driver.stop(signal: SIGKILL)
            throw Failure("cannot connect to the driver's socket: errno \(errno)")
        }
        fd = socketFD
    }

    /// Stops Chromium and the driver (by their process) and removes the profile.
    func quit() {
        _ = try? exchange(Data(#"{"quit":true}"#.utf8) + Data("\n".utf8))
        _ = driver.stop(signal: SIGTERM, graceSeconds: 5)
        close(fd)
        try? FileManager.default.removeItem(at: dir)
    }

    func request(_ object: [String: any Sendable]) async throws -> [String: Any] {
        let line = try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8)
        let answer = try await offPool { [self] in try exchange(line) }
        let decoded = try JSONSerialization.jsonObject(with: answer) as? [String: Any] ?? [:]
        if let error = decoded["error"] as? String { throw Failure(error) }
        return decoded
    }

    /// Sends one request line and reads its answer line, blocking.
    private func exchange(_ line: Data) throws -> Data {
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = Data(buffered[..<newline])
                buffered.removeFirst(newline + 1)
                return answer
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure("the DevTools driver went away: \(driver.stderrText.text.suffix(1000))") }
            buffered += chunk[..<n]
        }
    }

    /// The phone's screen from the next navigation on.
    func viewport(width: Int, height: Int) async throws { _ = try await request(["viewport": [width, height]]) }

    /// Loads `url` and returns once its load event fired.
    func navigate(_ url: String) async throws { _ = try await request(["navigate": url]) }

    /// The value of `js` (a promise is awaited), as JSON can carry it.
    func evaluate(_ js: String) async throws -> Any? { try await request(["eval": js])["value"] }

    /// What `js` returns as a JSON string (`JSON.stringify(…)`), decoded.
    func evaluate<T: Decodable>(_ type: T.Type, _ js: String) async throws -> T {
        guard let json = try await evaluate(js) as? String else { throw Failure("no JSON string from \(js.prefix(80))") }
        return try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    /// The viewport as it is on the screen, as PNG.
    func screenshot(_ url: URL) async throws { _ = try await request(["screenshot": url.path]) }

    /// Console messages and uncaught exceptions so far.
    func console() async throws -> [String] { try await request(["console": true])["value"] as? [String] ?? [] }
}
