#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A child process started with `posix_spawn` and stopped by its PID only.
///
/// stdin is /dev/null; stdout and stderr go to `outputPath`. Signal dispositions and the
/// signal mask are reset in the child (the test runner may ignore SIGPIPE, and ignored
/// signals survive `exec`). Every wait is bounded. Reusable by other test targets: it needs
/// only Glibc and Synchronization.
final class ChildProcess: Sendable {
    /// How a child ended.
    enum Termination: Sendable, Hashable, CustomStringConvertible {
        case exited(code: Int32)
        case signaled(signal: Int32)

        var description: String {
            switch self {
            case .exited(let code): return "exit \(code)"
            case .signaled(let signal): return "signal \(signal)"
            }
        }
    }

    enum LaunchError: Error, CustomStringConvertible {
        case executableNotFound(String)
        case spawnFailed(executable: String, errno: Int32)

        var description: String {
            switch self {
            case .executableNotFound(let name):
                return "\(name) not found in /usr/sbin, /usr/bin, /usr/local/{s,}bin or PATH (Debian: apt-get install gpsd gpsd-clients)"
            case .spawnFailed(let exe, let e):
                return "posix_spawn \(exe) failed: \(String(cString: strerror(e)))"
            }
        }
    }

    let pid: pid_t
    /// The command line, for messages.
    let commandLine: String
    /// Where stdout and stderr go.
    let outputPath: String
    private let termination = Mutex<Termination?>(nil)

    private init(pid: pid_t, commandLine: String, outputPath: String) {
        self.pid = pid
        self.commandLine = commandLine
        self.outputPath = outputPath
    }

    /// The uid/gid the children run as when the tests run as root (`nobody` on Debian).
    ///
    /// gpsd started as root drops privileges and then cannot remove its SysV shared-memory
    /// segment or control socket, so root test runs leak both (docs/gpsd.md §2.3).
    static let unprivilegedID: UInt32 = 65534

    /// True if children are re-executed through `setpriv` as `unprivilegedID`.
    static var dropsPrivileges: Bool {
        geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0
    }

    /// Finds an executable by name in the system directories, then in PATH.
    static func locate(_ name: String) -> String? {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
        var dirs = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/sbin", "/bin"]
        if let path = getenv("PATH") { dirs += String(cString: path).split(separator: ":").map(String.init) }
        for dir in dirs where access("\(dir)/\(name)", X_OK) == 0 { return "\(dir)/\(name)" }
        return nil
    }

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment (nothing is inherited).
    ///   - unprivilegedIfRoot: when the tests run as root, run the child as `nobody` via setpriv.
    static func launch(
        _ executable: String, _ arguments: [String], environment: [String: String],
        outputPath: String, unprivilegedIfRoot: Bool = true
    ) throws -> ChildProcess {
        guard let exe = locate(executable) else { throw LaunchError.executableNotFound(executable) }
        var argv = [exe] + arguments
        if unprivilegedIfRoot, dropsPrivileges {
            argv = ["/usr/bin/setpriv", "--reuid=\(unprivilegedID)", "--regid=\(unprivilegedID)",
                    "--clear-groups", "--"] + argv
        }
        let env = environment.map { "\($0.key)=\($0.value)" }.sorted()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, &attr, cArgs, cEnv)
        guard rc == 0 else { throw LaunchError.spawnFailed(executable: argv[0], errno: rc) }
        return ChildProcess(pid: pid, commandLine: argv.joined(separator: " "), outputPath: outputPath)
    }

    /// Reaps the child if it has exited (never blocks). Nil while it runs.
    func poll() -> Termination? {
        termination.withLock { state in
            if let state { return state }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            guard r == pid else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
            let low = status & 0x7f
            state = low == 0 ? .exited(code: (status >> 8) & 0xff) : .signaled(signal: low)
            return state
        }
    }

    var isRunning: Bool { poll() == nil }

    /// Sends `signal` to this PID (no-op once reaped, so a recycled PID is never hit).
    func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    /// Waits up to `timeoutSeconds` for the child to exit.
    func waitForExit(timeoutSeconds: Double) -> Termination? {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while true {
            if let t = poll() { return t }
            if TestClock.now() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// PIDs whose parent is this process (from /proc), e.g. the gpsd a gpsfake spawned.
    func childPIDs() -> [pid_t] {
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        var result: [pid_t] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let child = pid_t(name), let stat = readSmallFile("/proc/\(name)/stat") else { continue }
            // "pid (comm) state ppid ...": comm may contain spaces, so parse after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == pid { result.append(child) }
        }
        return result
    }

    /// Stops the child: `signal`, then after `graceSeconds` SIGKILL to it and to its children
    /// (a gpsfake that did not exit would orphan its gpsd). Returns within `graceSeconds` + 1 s,
    /// usually in a few milliseconds; safe in a `defer`.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, graceSeconds: Double = 1) -> Termination? {
        if let t = poll() { return t }
        let children = childPIDs()
        kill(pid, signal)
        if let t = waitForExit(timeoutSeconds: graceSeconds) { return t }
        for child in childPIDs() + children { kill(child, SIGKILL) }
        kill(pid, SIGKILL)
        return waitForExit(timeoutSeconds: 1)
    }

    /// `stop` on a thread of its own (see `Blocking`), for async code.
    @discardableResult
    func stopAsync(signal: Int32 = SIGTERM, graceSeconds: Double = 1) async -> Termination? {
        await Blocking.run { self.stop(signal: signal, graceSeconds: graceSeconds) }
    }

    /// Waits for exit without blocking a cooperative thread.
    func waitForExitAsync(timeoutSeconds: Double) async -> Termination? {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while true {
            if let t = poll() { return t }
            if TestClock.now() >= deadline { return nil }
            await TestClock.sleep(seconds: 0.005)
        }
    }

    /// Where each of this process and its children is blocked in the kernel
    /// (`/proc/<pid>/wchan`, e.g. `unix_stream_read_generic`, `n_tty_write`, `do_select`).
    func waitChannels() -> String {
        ([pid] + childPIDs()).map { p in "\(p): \(readSmallFile("/proc/\(p)/wchan") ?? "?")" }.joined(separator: ", ")
    }

    /// The child's stdout + stderr so far (for failure messages).
    func output() -> String { readSmallFile(outputPath) ?? "" }
}

/// Reads a file of at most 1 MiB as UTF-8 (lossy). Nil if it cannot be opened.
func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count < 1 << 20 {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
