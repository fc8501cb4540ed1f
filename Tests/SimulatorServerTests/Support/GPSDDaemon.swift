#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ShellSupport
import Observations

/// A real gpsd started for one test: `gpsd -N -n -S <port> -F <dir>/ctl.sock <sources…>`, in a
/// private directory, stopped by its PID (SIGTERM, then SIGKILL after a grace period).
///
/// Recipe from docs/gpsd.md §2.2–2.4: `-n` so sources open without waiting for a client, a
/// private port and control socket, a per-port SysV SHM key (parallel gpsds must not share the
/// default one), and — when the tests run as root — the daemon runs as `nobody` through
/// `setpriv`, because a root gpsd drops privileges and then leaks its SHM segment and socket.
final class GPSDDaemon: Sendable {
    enum LaunchError: Error, CustomStringConvertible {
        case notInstalled
        case spawnFailed(Int32)
        case notAccepting(port: Int, log: String)

        var description: String {
            switch self {
            case .notInstalled: "gpsd not found (Debian: apt-get install gpsd)"
            case .spawnFailed(let e): "posix_spawn gpsd failed: \(String(cString: strerror(e)))"
            case .notAccepting(let port, let log): "gpsd did not accept on port \(port); its log:\n\(log)"
            }
        }
    }

    let pid: pid_t
    let port: Int
    let directory: String
    /// When the daemon was launched (CLOCK_MONOTONIC).
    let launchedAt: MonotonicTime

    private init(pid: pid_t, port: Int, directory: String, launchedAt: MonotonicTime) {
        self.pid = pid
        self.port = port
        self.directory = directory
        self.launchedAt = launchedAt
    }

    /// The uid/gid children run as when the tests run as root (`nobody`).
    static let unprivilegedID: UInt32 = 65534
    static var dropsPrivileges: Bool { geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 }

    /// Starts gpsd reading `sources` (e.g. `tcp://127.0.0.1:PORT`) and waits until its port
    /// accepts; retries on another port if gpsd could not bind the first one.
    static func start(sources: [String]) async throws -> GPSDDaemon {
        let candidates: [String] = ["/usr/sbin/gpsd", "/usr/bin/gpsd", "/usr/local/sbin/gpsd"]
        guard let gpsd = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw LaunchError.notInstalled
        }
        var template = Array("/tmp/followme-simtests.XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw LaunchError.spawnFailed(errno)
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if dropsPrivileges { chown(directory, unprivilegedID, unprivilegedID) }

        var lastError: any Error = LaunchError.notInstalled
        for attempt in 0..<3 {
            let port = freeTCPPort()
            let log = "\(directory)/gpsd-\(attempt).log"
            var argv = [gpsd, "-N", "-n", "-S", String(port), "-F", "\(directory)/ctl-\(attempt).sock"] + sources
            if dropsPrivileges {
                argv = ["/usr/bin/setpriv", "--reuid=\(unprivilegedID)", "--regid=\(unprivilegedID)", "--clear-groups", "--"] + argv
            }
            let environment = [
                "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "TMPDIR=\(directory)", "HOME=\(directory)",
                "GPSD_SHM_KEY=0x4770" + hex4(port),
            ]
            let launchedAt = SystemClock.now()
            let pid = try spawn(argv, environment: environment, outputPath: log)
            let daemon = GPSDDaemon(pid: pid, port: port, directory: directory, launchedAt: launchedAt)
            if await daemon.waitUntilAccepting(timeoutSeconds: 10) { return daemon }
            daemon.stopProcess()
            lastError = LaunchError.notAccepting(port: port, log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError
    }

    /// Stops gpsd (SIGTERM; SIGKILL after 3 s) and removes its directory.
    func stop() {
        stopProcess()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func stopProcess() {
        guard !hasExited() else { return }
        kill(pid, SIGTERM)
        let deadline = SystemClock.now().adding(seconds: 3)
        while SystemClock.now() < deadline {
            if hasExited() { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    private func hasExited() -> Bool {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        return r == pid || r < 0
    }

    private func waitUntilAccepting(timeoutSeconds: Double) async -> Bool {
        let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
        while SystemClock.now() < deadline {
            if Self.isAccepting(port: port) { return true }
            if hasExited() { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    // MARK: Plumbing

    private static func spawn(_ argv: [String], environment: [String], outputPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Reset signal mask and dispositions: the test runner may ignore SIGPIPE/SIGTERM, and
        // ignored signals survive exec.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard rc == 0 else { throw LaunchError.spawnFailed(rc) }
        return pid
    }

    /// A TCP port the kernel just handed out on 127.0.0.1 (free again when this returns).
    static func freeTCPPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = LoopbackUDPSocket.loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: bound.sin_port))
    }

    static func isAccepting(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = LoopbackUDPSocket.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func hex4(_ port: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<4).reversed().map { digits[(port >> ($0 * 4)) & 0xF] })
    }
}
