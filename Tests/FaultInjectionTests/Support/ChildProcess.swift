import Foundation

// Copied from Tests/CLITests/ChildProcess.swift (test targets cannot share code), plus `kill`,
// a monotonic clock and a UDP port finder.

/// A child process started by a test, stopped by its PID (SIGTERM, then SIGKILL) when done.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let stdoutLines = LineCollector()
    let stderrText = LineCollector()
    let name: String

    init(name: String, executable: String, arguments: [String], environment: [String: String]? = nil) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [stdoutLines] h in stdoutLines.append(h.availableData) }
        err.fileHandleForReading.readabilityHandler = { [stderrText] h in stderrText.append(h.availableData) }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends a signal by PID (only while it runs).
    func signal(_ sig: Int32) { if process.isRunning { kill(pid, sig) } }

    /// Waits up to `seconds` for the process to exit; returns its status, or nil if still running.
    func waitForExit(seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after a grace period.
    func stop(graceSeconds: Double = 3) async {
        guard process.isRunning else { return }
        signal(SIGTERM)
        if await waitForExit(seconds: graceSeconds) == nil {
            signal(SIGKILL)
            _ = await waitForExit(seconds: 3)
        }
    }

    /// SIGKILL now and wait for the exit (bounded).
    func kill9() async {
        signal(SIGKILL)
        _ = await waitForExit(seconds: 5)
    }
}

/// Thread-safe accumulation of a child's output, split into lines.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    func append(_ d: Data) { lock.lock(); buffer.append(d); lock.unlock() }

    var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: buffer, as: UTF8.self) }
    var lines: [String] { text.split(separator: "\n").map(String.init) }
}

/// Polls `condition` every 100 ms until it holds or `seconds` pass.
func eventually(seconds: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return try condition()
}

/// Polls `probe` every 100 ms until it returns a value or `seconds` pass.
func poll<T>(seconds: Double, _ probe: () throws -> T?) async rethrows -> T? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let value = try probe() { return value }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return try probe()
}

/// CLOCK_MONOTONIC in seconds: the clock of the flight log's `t` and the simulator's replies.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A TCP port that was free a moment ago (bind port 0, read it, close).
func freeTCPPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// The built `followme` executable, next to the test bundle in the build folder.
enum FollowMeBinary {
    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("followme")
    }

    /// The executable for `followme run`: `$FAULT_RUN_BINARY` if set, else `url`.
    static var runURL: URL {
        ProcessInfo.processInfo.environment["FAULT_RUN_BINARY"].map { URL(fileURLWithPath: $0) } ?? url
    }
}

/// A scratch directory gpsd (as nobody) can write its control socket into.
func scratchDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("followme-faults-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    chmod(dir.path, 0o777)
    return dir
}
