import FollowCore
import Synchronization

/// Starts gpsd and gpsfake for tests, each on its own loopback port, and waits until they
/// accept clients. Stop them with `ChildProcess.stop()` (by PID) in a `defer`.
///
/// Recipes and timings: docs/gpsd.md §2.2–2.4 (always `-n`, private port, private
/// TMPDIR, SIGTERM gpsfake so it takes its gpsd down with it).
package enum GPSDProcesses {
    package struct Running: Sendable {
        package let process: ChildProcess
        package let port: Int
        /// When the daemon that came up was launched (CLOCK_MONOTONIC).
        package let launchedAt: MonotonicTime
    }

    package enum StartError: Error, CustomStringConvertible {
        case notAccepting(command: String, port: Int, termination: String, output: String)

        package var description: String {
            switch self {
            case .notAccepting(let command, let port, let termination, let output):
                return "\(command) did not accept on port \(port) (\(termination)); output:\n\(output)"
            }
        }
    }

    private static let startCounter = Atomic<Int>(0)

    /// Seconds a daemon gets to open its port (gpsd takes ~0.2 s; the machine may be loaded).
    package static let startTimeoutSeconds = 10.0

    /// `gpsd -N -n -S <port> -F <dir>/ctl-N.sock -P <dir>/gpsd-N.pid <devices…>`.
    ///
    /// - Parameter port: a fixed port (restart on the same port); nil picks a free one and
    ///   retries with another if gpsd cannot bind it.
    /// - Parameter pollSeconds: how often to try connecting while gpsd starts.
    package static func startGPSD(
        devices: [String], in dir: TestDirectory, port fixedPort: Int? = nil, pollSeconds: Double = 0.005
    ) async throws -> Running {
        try await startWithRetry(fixedPort: fixedPort, pollSeconds: pollSeconds) { port in
            let n = startCounter.add(1, ordering: .relaxed).newValue
            // A per-port SysV SHM key, as gpsfake does ([fake.py:597]): parallel gpsds must not
            // share the default key "GPSD".
            let shmKey = shmKey(port: port)
            return try ChildProcess.launch(
                "gpsd", ["-N", "-n", "-S", String(port), "-F", dir.file("ctl-\(n).sock"),
                         "-P", dir.file("gpsd-\(n).pid")] + devices,
                environment: dir.environment(["GPSD_SHM_KEY": shmKey]),
                outputPath: dir.file("gpsd-\(n).log"))
        }
    }

    /// `gpsfake -q [-1] -n -W <wait> -P <port> -c <cycle> <logs…>`, with its devices in gpsd's pool.
    ///
    /// `attach(port)` runs as soon as gpsd accepts clients, i.e. before gpsd has activated the
    /// replayed device (~1 s later, docs/gpsd.md §2.3), so a client started there misses
    /// nothing. Then this checks with `?DEVICES;` that the devices really are in gpsd's pool:
    /// twice in ~170 parallel starts we saw gpsd running with an empty pool 20 s later while
    /// gpsfake kept feeding a pty nobody reads (likely cause, not proven: gpsfake's
    /// `add_device` silently does nothing when its control-socket connect fails — fake.py
    /// `__get_control_socket` returns None on socket.error). Then `detach` undoes `attach`,
    /// gpsfake is stopped and started again on a new port (at most 3 attempts).
    package static func startGPSFake<Attached>(
        logs: [String], in dir: TestDirectory, cycleSeconds: Double, oneShot: Bool, waitSeconds: Int = 60,
        attach: (Int) -> Attached, detach: (Attached) -> Void
    ) async throws -> (Running, Attached) {
        var failures: [String] = []
        for _ in 0..<3 {
            let running = try await startWithRetry(fixedPort: nil) { port in
                let n = startCounter.add(1, ordering: .relaxed).newValue
                return try ChildProcess.launch(
                    "gpsfake", ["-q"] + (oneShot ? ["-1"] : []) +
                        ["-n", "-W", String(waitSeconds), "-P", String(port), "-c", String(cycleSeconds)] + logs,
                    environment: dir.environment(),
                    outputPath: dir.file("gpsfake-\(n).log"))
            }
            let attached = attach(running.port)
            let deadline = TestClock.now().adding(seconds: 5)
            let port = running.port
            while TestClock.now() < deadline, running.process.isRunning, !Task.isCancelled {
                if let count = await Blocking.run({ GPSDProbe.deviceCount(port: port) }), count >= logs.count {
                    return (running, attached)
                }
                await TestClock.sleep(seconds: 0.05)
            }
            failures.append("gpsfake on port \(running.port): devices never added: \(await running.diagnosticsAsync())")
            print("[gpsfake] port \(running.port): gpsd's pool stayed empty for 5 s; starting gpsfake again")
            detach(attached)
            await running.process.stopAsync()
        }
        throw GPSFakeError.devicesNeverAdded(failures)
    }

    /// `startGPSFake` for callers that connect only after the devices are in the pool.
    package static func startGPSFake(
        logs: [String], in dir: TestDirectory, cycleSeconds: Double, oneShot: Bool, waitSeconds: Int = 60
    ) async throws -> Running {
        try await startGPSFake(logs: logs, in: dir, cycleSeconds: cycleSeconds, oneShot: oneShot,
                               waitSeconds: waitSeconds, attach: { _ in () }, detach: { _ in }).0
    }

    package enum GPSFakeError: Error, CustomStringConvertible {
        case devicesNeverAdded([String])
        package var description: String {
            switch self {
            case .devicesNeverAdded(let attempts): return attempts.joined(separator: "\n---\n")
            }
        }
    }

    private static func startWithRetry(
        fixedPort: Int?, pollSeconds: Double = 0.005, _ launch: (Int) throws -> ChildProcess
    ) async throws -> Running {
        var lastError: (any Error)?
        for _ in 0..<(fixedPort == nil ? 3 : 1) {
            let port = fixedPort ?? LoopbackPorts.freeTCPPort()
            let launchedAt = TestClock.now()
            let process = try launch(port)
            if await LoopbackPorts.waitUntilAccepting(port: port, timeoutSeconds: startTimeoutSeconds,
                                                     pollSeconds: pollSeconds, giveUp: { !process.isRunning }) {
                return Running(process: process, port: port, launchedAt: launchedAt)
            }
            let termination = await process.stopAsync()
            lastError = StartError.notAccepting(command: process.commandLine, port: port,
                                                termination: termination.map { "\($0)" } ?? "still running",
                                                output: process.output())
        }
        throw lastError!
    }

    /// gpsd's SysV shared-memory key for a daemon on `port`: `0x4770` + the port in 4 hex digits.
    package static func shmKey(port: Int) -> String { "0x4770" + hex4(port) }

    private static func hex4(_ port: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<4).reversed().map { digits[(port >> ($0 * 4)) & 0xf] })
    }
}

extension GPSDProcesses.Running {
    /// `diagnostics()` without blocking a cooperative thread.
    package func diagnosticsAsync() async -> String {
        await Blocking.run { self.diagnostics() }
    }

    /// What gpsd and its process say right now, for a failure message.
    package func diagnostics() -> String {
        """
        \(process.commandLine) (pid \(process.pid)) is \(process.poll().map { "gone: \($0)" } ?? "running"), \
        blocked in: \(process.waitChannels())
        ?DEVICES → \(GPSDProbe.devices(port: port))
        ?WATCH (1 s) → \(GPSDProbe.exchange(port: port, command: #"?WATCH={"enable":true,"json":true};"#).prefix(1500))
        output:
        \(process.output())
        """
    }
}

/// One real gpsd in a private directory of its own, for tests that need just a daemon reading
/// `sources` (e.g. `tcp://127.0.0.1:PORT`): `GPSDProcesses.startGPSD` (port retry, `nobody` when
/// root), stopped by its PID (SIGTERM, SIGKILL after 3 s) and its directory removed by `stop()`.
package final class GPSDDaemon: Sendable {
    package let running: GPSDProcesses.Running
    package let directory: TestDirectory

    package var port: Int { running.port }
    package var pid: Int32 { running.process.pid }
    /// When the daemon was launched (CLOCK_MONOTONIC).
    package var launchedAt: MonotonicTime { running.launchedAt }

    private init(running: GPSDProcesses.Running, directory: TestDirectory) {
        self.running = running
        self.directory = directory
    }

    /// Starts gpsd reading `sources` and waits (polling every 20 ms) until its port accepts.
    package static func start(sources: [String]) async throws -> GPSDDaemon {
        let directory = try TestDirectory(label: "gpsd", prefix: "followme-simtests")
        do {
            let running = try await GPSDProcesses.startGPSD(devices: sources, in: directory, pollSeconds: 0.02)
            return GPSDDaemon(running: running, directory: directory)
        } catch {
            directory.remove()
            throw error
        }
    }

    /// Stops gpsd (SIGTERM; SIGKILL after 3 s) and removes its directory.
    package func stop() {
        running.process.stop(graceSeconds: 3)
        directory.remove()
    }
}

extension GPSDProcesses {
    /// A private `TestDirectory` labelled `label` and a gpsd reading `devices` from it, for the
    /// length of `body`; then gpsd is stopped (by PID) and the directory removed.
    package static func withGPSD<T>(
        label: String, devices: [String], _ body: (TestDirectory, Running) async throws -> T
    ) async throws -> T {
        let dir = try TestDirectory(label: label)
        defer { dir.remove() }
        let gpsd = try await startGPSD(devices: devices, in: dir)
        defer { gpsd.process.stop() }
        return try await body(dir, gpsd)
    }
}
