#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A child process started with `posix_spawn` and stopped by its PID only.
///
/// stdin is /dev/null. stdout and stderr go either to a file (`launch(…, outputPath:)`, for
/// daemons whose log a failure message quotes) or into `stdoutLines` / `stderrText` (`init(name:…)`,
/// for processes whose output a test reads). Signal dispositions and the signal mask are reset in
/// the child (the test runner may ignore SIGPIPE, and ignored signals survive `exec`), and the
/// child inherits no descriptor but 0, 1 and 2. Every wait is bounded.
///
/// Hand-written rather than swift-subprocess 1.0.2: Subprocess ties a child's life to the scope of
/// a `run { … }` closure and stops it by cancelling that task, while these tests start daemons in
/// one place and stop them by PID in a synchronous `defer`.
package final class ChildProcess: Sendable {
    /// How a child ended.
    package enum Termination: Sendable, Hashable, CustomStringConvertible {
        case exited(code: Int32)
        case signaled(signal: Int32)

        package var description: String {
            switch self {
            case .exited(let code): return "exit \(code)"
            case .signaled(let signal): return "signal \(signal)"
            }
        }

        /// The exit code, or the signal number if a signal ended it (Foundation's `terminationStatus`).
        package var status: Int32 {
            switch self {
            case .exited(let code): return code
            case .signaled(let signal): return signal
            }
        }
    }

    package enum LaunchError: Error, CustomStringConvertible {
        case executableNotFound(String)
        case spawnFailed(executable: String, errno: Int32)

        package var description: String {
            switch self {
            case .executableNotFound(let name):
                return "\(name) not found in /usr/sbin, /usr/bin, /usr/local/{s,}bin or PATH (Debian: apt-get install gpsd gpsd-clients)"
            case .spawnFailed(let exe, let e):
                return "posix_spawn \(exe) failed: \(String(cString: strerror(e)))"
            }
        }
    }

    /// Where the child's stdout and stderr go.
    package enum Output: Sendable {
        /// Both appended to this file.
        case file(String)
        /// Read into `stdoutLines` and `stderrText`.
        case capture
    }

    package let pid: pid_t
    /// A name for messages ("sim", "gpsd", "run").
    package let name: String
    /// The command line, for messages.
    package let commandLine: String
    /// Where stdout and stderr go when they go to a file ("" when captured).
    package let outputPath: String
    /// The captured stdout (empty when the output goes to a file).
    package let stdoutLines = LineCollector()
    /// The captured stderr (empty when the output goes to a file).
    package let stderrText = LineCollector()
    private let termination = Mutex<Termination?>(nil)

    /// What `spawn` started: the PID, and the read ends of the stdout and stderr pipes if captured.
    private struct Spawned {
        var pid: pid_t
        var name: String
        var commandLine: String
        var outputPath: String
        var pipes: [Int32]
    }

    private init(_ spawned: Spawned) {
        pid = spawned.pid
        name = spawned.name
        commandLine = spawned.commandLine
        outputPath = spawned.outputPath
        if spawned.pipes.count == 2 {
            stdoutLines.drain(spawned.pipes[0], label: "\(name)-stdout")
            stderrText.drain(spawned.pipes[1], label: "\(name)-stderr")
        }
    }

    /// The uid/gid the children run as when the tests run as root (`nobody` on Debian).
    ///
    /// gpsd started as root drops privileges and then cannot remove its SysV shared-memory
    /// segment or control socket, so root test runs leak both (docs/gpsd.md §2.3).
    package static let unprivilegedID: UInt32 = 65534

    /// True if children are re-executed through `setpriv` as `unprivilegedID`.
    package static var dropsPrivileges: Bool {
        geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0
    }

    /// Finds an executable by name in the system directories, then in PATH.
    package static func locate(_ name: String) -> String? {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
        var dirs = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/sbin", "/bin"]
        if let path = getenv("PATH") { dirs += String(cString: path).split(separator: ":").map(String.init) }
        for dir in dirs where access("\(dir)/\(name)", X_OK) == 0 { return "\(dir)/\(name)" }
        return nil
    }

    /// Starts `executable` with `arguments`, its output appended to `outputPath`.
    /// - Parameters:
    ///   - environment: the child's whole environment (nothing is inherited).
    ///   - unprivilegedIfRoot: when the tests run as root, run the child as `nobody` via setpriv.
    package static func launch(
        _ executable: String, _ arguments: [String], environment: [String: String],
        outputPath: String, unprivilegedIfRoot: Bool = true
    ) throws -> ChildProcess {
        ChildProcess(try spawn(name: executable, executable, arguments, environment: environment,
                               output: .file(outputPath), unprivilegedIfRoot: unprivilegedIfRoot))
    }

    /// Starts `executable` (a path) with its stdout and stderr captured.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil inherits the test runner's.
    ///   - unprivilegedIfRoot: when the tests run as root, run the child as `nobody` via setpriv.
    package convenience init(
        name: String, executable: String, arguments: [String], environment: [String: String]? = nil,
        unprivilegedIfRoot: Bool = false
    ) throws {
        self.init(try Self.spawn(name: name, executable, arguments,
                                 environment: environment ?? ProcessInfo.processInfo.environment,
                                 output: .capture, unprivilegedIfRoot: unprivilegedIfRoot))
    }

    private static func spawn(
        name: String, _ executable: String, _ arguments: [String], environment: [String: String],
        output: Output, unprivilegedIfRoot: Bool
    ) throws -> Spawned {
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
        var pipes: [(read: Int32, write: Int32)] = []
        defer { pipes.forEach { close($0.write) } }
        switch output {
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .capture:
            for target: Int32 in [1, 2] {
                var fds: [Int32] = [0, 0]
                // O_CLOEXEC: no other child may inherit the write end, or the reader never sees EOF.
                guard pipe(&fds) == 0 else { throw LaunchError.spawnFailed(executable: exe, errno: errno) }
                fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
                pipes.append((fds[0], fds[1]))
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
            }
        }
        closeInheritedDescriptors(&actions)

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
        guard rc == 0 else {
            pipes.forEach { close($0.read) }
            throw LaunchError.spawnFailed(executable: argv[0], errno: rc)
        }
        let outputPath: String
        if case .file(let path) = output { outputPath = path } else { outputPath = "" }
        return Spawned(pid: pid, name: name, commandLine: argv.joined(separator: " "), outputPath: outputPath,
                       pipes: pipes.map(\.read))
    }

    /// `posix_spawn_file_actions_addclosefrom_np(3)` when the C library has it (glibc ≥ 2.34;
    /// Swift does not import it), so a child inherits no socket or pipe of the test runner.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    /// Reaps the child if it has exited (never blocks). Nil while it runs.
    package func poll() -> Termination? {
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

    package var isRunning: Bool { poll() == nil }

    /// Sends `signal` to this PID (no-op once reaped, so a recycled PID is never hit).
    package func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    /// `send(_:)`.
    package func signal(_ sig: Int32) { send(sig) }

    /// Waits up to `timeoutSeconds` for the child to exit (blocks this thread).
    package func waitForExit(timeoutSeconds: Double) -> Termination? {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while true {
            if let t = poll() { return t }
            if TestClock.now() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Waits for exit without blocking a cooperative thread.
    package func waitForExitAsync(timeoutSeconds: Double) async -> Termination? {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while true {
            if let t = poll() { return t }
            if TestClock.now() >= deadline { return nil }
            await TestClock.sleep(seconds: 0.005)
        }
    }

    /// Waits up to `seconds` (polling every 50 ms); the exit status (`Termination.status`), or nil
    /// if it still runs.
    package func waitForExit(seconds: Double) async -> Int32? {
        let deadline = TestClock.now().adding(seconds: seconds)
        while isRunning && TestClock.now() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return poll()?.status
    }

    /// PIDs whose parent is this process (from /proc), e.g. the gpsd a gpsfake spawned.
    package func childPIDs() -> [pid_t] { Self.childPIDs(of: pid) }

    /// Every process below this one (children, their children, ...) whose command name (`comm`,
    /// at most 15 characters) is `name`: the program a wrapper such as `script` or a shell runs.
    package func descendantPIDs(named name: String) -> [pid_t] {
        var found: [pid_t] = [], frontier = [pid]
        while let next = frontier.popLast() {
            for child in Self.childPIDs(of: next) {
                frontier.append(child)
                let comm = readSmallFile("/proc/\(child)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
                if comm == String(name.prefix(15)) { found.append(child) }
            }
        }
        return found
    }

    /// PIDs whose parent is `pid` (from /proc).
    package static func childPIDs(of pid: pid_t) -> [pid_t] {
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
    package func stop(signal: Int32 = SIGTERM, graceSeconds: Double = 1) -> Termination? {
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
    package func stopAsync(signal: Int32 = SIGTERM, graceSeconds: Double = 1) async -> Termination? {
        await Blocking.run { self.stop(signal: signal, graceSeconds: graceSeconds) }
    }

    /// SIGTERM, then SIGKILL after `graceSeconds` (3 s: `followme run` lands and closes its log
    /// first), without blocking a cooperative thread.
    package func terminate(graceSeconds: Double = 3) async {
        guard isRunning else { return }
        signal(SIGTERM)
        if await waitForExit(seconds: graceSeconds) == nil {
            signal(SIGKILL)
            _ = await waitForExit(seconds: 3)
        }
    }

    /// SIGKILL now (a crash) and wait for the exit (bounded).
    package func kill9() async {
        signal(SIGKILL)
        _ = await waitForExit(seconds: 5)
    }

    /// Where each of this process and its children is blocked in the kernel
    /// (`/proc/<pid>/wchan`, e.g. `unix_stream_read_generic`, `n_tty_write`, `do_select`).
    package func waitChannels() -> String {
        ([pid] + childPIDs()).map { p in "\(p): \(readSmallFile("/proc/\(p)/wchan") ?? "?")" }.joined(separator: ", ")
    }

    /// The child's stdout + stderr so far (for failure messages).
    package func output() -> String {
        outputPath.isEmpty ? stdoutLines.text + stderrText.text : readSmallFile(outputPath) ?? ""
    }
}

extension ChildProcess {
    /// How a child that was run to the end ended, and everything it printed.
    package struct Completed: Sendable {
        /// The exit code, or the signal number if a signal ended it (-1 if it could not be reaped).
        package var exitCode: Int32
        package var stdout: String
        package var stderr: String
        package var both: String { stdout + stderr }
    }

    /// Runs `executable arguments…` to the end with its output captured, killing it (SIGKILL, by
    /// PID) after `timeoutSeconds`. Blocks this thread.
    package static func run(_ executable: String, _ arguments: [String], timeoutSeconds: Double) throws -> Completed {
        let child = try ChildProcess(name: executable, executable: executable, arguments: arguments)
        let termination = child.waitForExit(timeoutSeconds: timeoutSeconds) ?? {
            child.signal(SIGKILL)
            return child.waitForExit(timeoutSeconds: 10)
        }()
        // The pipes are drained on threads of their own; wait until both are read to the end.
        child.stdoutLines.waitForEOF(seconds: 10)
        child.stderrText.waitForEOF(seconds: 10)
        return Completed(exitCode: termination?.status ?? -1, stdout: child.stdoutLines.text, stderr: child.stderrText.text)
    }
}

/// Reads a file of at most 1 MiB as UTF-8 (lossy). Nil if it cannot be opened.
package func readSmallFile(_ path: String) -> String? {
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
