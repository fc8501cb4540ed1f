import Synchronization

/// Starts gpsd and gpsfake for tests, each on its own loopback port, and waits until they
/// accept clients. Stop them with `ChildProcess.stop()` (by PID) in a `defer`.
///
/// Recipes and timings: docs/gpsd.md §2.2–2.4 (always `-n`, private port, private
/// TMPDIR, SIGTERM gpsfake so it takes its gpsd down with it).
enum GPSDProcesses {
    struct Running: Sendable {
        let process: ChildProcess
        let port: Int
    }

    enum StartError: Error, CustomStringConvertible {
        case notAccepting(command: String, port: Int, termination: String, output: String)

        var description: String {
            switch self {
            case .notAccepting(let command, let port, let termination, let output):
                return "\(command) did not accept on port \(port) (\(termination)); output:\n\(output)"
            }
        }
    }

    private static let startCounter = Atomic<Int>(0)

    /// Seconds a daemon gets to open its port (gpsd takes ~0.2 s; the machine may be loaded).
    static let startTimeoutSeconds = 10.0

    /// `gpsd -N -n -S <port> -F <dir>/ctl-N.sock -P <dir>/gpsd-N.pid <devices…>`.
    ///
    /// - Parameter port: a fixed port (restart on the same port); nil picks a free one and
    ///   retries with another if gpsd cannot bind it.
    static func startGPSD(devices: [String], in dir: TestDirectory, port fixedPort: Int? = nil) async throws -> Running {
        try await startWithRetry(fixedPort: fixedPort) { port in
            let n = startCounter.add(1, ordering: .relaxed).newValue
            // A per-port SysV SHM key, as gpsfake does ([fake.py:597]): parallel gpsds must not
            // share the default key "GPSD".
            let shmKey = "0x4770" + hex4(port)
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
    static func startGPSFake<Attached>(
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
    static func startGPSFake(
        logs: [String], in dir: TestDirectory, cycleSeconds: Double, oneShot: Bool, waitSeconds: Int = 60
    ) async throws -> Running {
        try await startGPSFake(logs: logs, in: dir, cycleSeconds: cycleSeconds, oneShot: oneShot,
                               waitSeconds: waitSeconds, attach: { _ in () }, detach: { _ in }).0
    }

    enum GPSFakeError: Error, CustomStringConvertible {
        case devicesNeverAdded([String])
        var description: String {
            switch self {
            case .devicesNeverAdded(let attempts): return attempts.joined(separator: "\n---\n")
            }
        }
    }

    private static func startWithRetry(
        fixedPort: Int?, _ launch: (Int) throws -> ChildProcess
    ) async throws -> Running {
        var lastError: (any Error)?
        for _ in 0..<(fixedPort == nil ? 3 : 1) {
            let port = fixedPort ?? LoopbackPorts.freeTCPPort()
            let process = try launch(port)
            if await LoopbackPorts.waitUntilAccepting(port: port, timeoutSeconds: startTimeoutSeconds,
                                                     giveUp: { !process.isRunning }) {
                return Running(process: process, port: port)
            }
            let termination = await process.stopAsync()
            lastError = StartError.notAccepting(command: process.commandLine, port: port,
                                                termination: termination.map { "\($0)" } ?? "still running",
                                                output: process.output())
        }
        throw lastError!
    }

    private static func hex4(_ port: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<4).reversed().map { digits[(port >> ($0 * 4)) & 0xf] })
    }
}

extension GPSDProcesses.Running {
    /// `diagnostics()` without blocking a cooperative thread.
    func diagnosticsAsync() async -> String {
        await Blocking.run { self.diagnostics() }
    }

    /// What gpsd and its process say right now, for a failure message.
    func diagnostics() -> String {
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
