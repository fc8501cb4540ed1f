// Fault-injection suite (issue "Field deployment and flight safety under faults", item 4).
//
// Each test starts its own field — `followme sim --control-port 0` (simulated AR.Drone 2.0 on the
// real UDP protocol, onboard + person NMEA over TCP), a real gpsd (as nobody when root), and the
// built `followme run` with short failsafe timeouts — waits for "following", injects one fault
// through the sim's control channel (or by signalling a process), and asserts the outcome from the
// flight log (`t` = CLOCK_MONOTONIC, the sim's clock too) and from the sim's own status.
//
//   swift build --build-tests --scratch-path .build-faults
//   swift test --skip-build --scratch-path .build-faults --filter FaultInjectionTests
//
// Environment: FAULT_PARALLEL (fields at once, default 3), FAULT_RESULTS (append the measured
// times as JSON lines to this file; they are also printed as `FAULT-RESULT {…}`),
// FAULT_RESTART_CYCLES (kill/restart cycles in test 13, default 5), FAULT_RUN_BINARY (a followme
// executable for `followme run` only, e.g. a build of an older commit, to show that a test fails
// without a fix; the simulator is always the one built with the tests).

import Foundation
import Testing

/// Limits how many simulated fields (sim + gpsd + followme, ~3 busy processes) run at once: the
/// CI machine has 2 cores, and an overloaded machine would measure itself, not the failsafes.
/// `FAULT_PARALLEL` overrides the default of 3.
actor FieldSlots {
    static let shared = FieldSlots(limit: Int(ProcessInfo.processInfo.environment["FAULT_PARALLEL"] ?? "") ?? 3)

    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { available = max(1, limit) }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty { available += 1 } else { waiters.removeFirst().resume() }
    }
}

/// Measured outcomes, printed as `FAULT-RESULT {json}` and appended to `$FAULT_RESULTS` if set.
enum FaultReport {
    private static let lock = NSLock()

    /// Non-finite numbers (a time that was never measured) are written as null: JSON has no NaN,
    /// and one would make the whole line fail to serialise.
    static func record(_ fault: String, _ values: [String: Any]) {
        var object = values.mapValues { value -> Any in
            if let number = value as? Double, !number.isFinite { return NSNull() }
            return value
        }
        object["fault"] = fault
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        let line = String(decoding: data, as: UTF8.self)
        lock.lock()
        defer { lock.unlock() }
        print("FAULT-RESULT \(line)")
        if let path = ProcessInfo.processInfo.environment["FAULT_RESULTS"],
           let handle = FileHandle(forWritingAtPath: path) ?? {
               _ = FileManager.default.createFile(atPath: path, contents: nil)
               return FileHandle(forWritingAtPath: path)
           }() {
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            handle.closeFile()
        }
    }
}

/// The ports `followme sim` printed in its "listening" line.
struct SimPorts: Decodable {
    let at_port: Int
    let navdata_port: Int
    let nmea_port: Int
    let person_nmea_port: Int?
    let control_port: Int?
}

/// Config sections as TOML literals: `["failsafe": ["land_after_s": "4.0"]]`.
typealias ConfigOverrides = [String: [String: String]]

/// Short failsafe timeouts so every fault resolves in seconds (ranges: etc/followme.toml). Fix
/// quality (`max_eph_m`) stays at the shipped default: gpsd 3.22 reads the simulator's open-sky
/// HDOP 0.9 as eph 17.1 m, which the field must accept.
let shortFailsafes: ConfigOverrides = [
    "follow": ["altitude_m": "2.0"],
    "failsafe": [
        "target_timeout_s": "1.0", "land_after_s": "4.0", "onboard_timeout_s": "1.0", "heading_timeout_s": "1.0",
        "navdata_timeout_s": "0.5", "geofence_m": "500.0", "min_battery_pct": "25",
    ],
]

/// `base` with `overrides` on top, key by key.
func merged(_ base: ConfigOverrides, _ overrides: ConfigOverrides) -> ConfigOverrides {
    var out = base
    for (section, keys) in overrides { out[section, default: [:]].merge(keys) { _, new in new } }
    return out
}

/// A simulated field for one fault: `followme sim` with its control channel (drone on the real
/// UDP protocol, onboard and person NMEA over TCP, a person walking away once the drone is up),
/// a real gpsd reading both NMEA streams, and `followme run` flying it with a JSONL flight log.
/// Every process is stopped by its PID in `stopAll()`.
final class FaultRig: @unchecked Sendable {
    static var gpsdPath: String? {
        ["/usr/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let name: String
    let dir: URL
    let sim: ChildProcess
    let ports: SimPorts
    let control: SimControl
    let gpsdPort: Int
    let config: ConfigOverrides
    let runArguments: [String]
    private(set) var gpsd: ChildProcess?
    private(set) var run: ChildProcess?
    private(set) var runs: [ChildProcess] = []
    /// The flight log of the current `followme run`.
    private(set) var log: FlightLogReader
    private var runCount = 0

    private init(name: String, dir: URL, sim: ChildProcess, ports: SimPorts, control: SimControl, config: ConfigOverrides,
                 runArguments: [String]) {
        self.name = name
        self.dir = dir
        self.sim = sim
        self.ports = ports
        self.control = control
        self.gpsdPort = freeTCPPort()
        self.config = config
        self.runArguments = runArguments
        self.log = FlightLogReader(url: dir.appendingPathComponent("flight-0.jsonl"))
    }

    /// Starts the simulator only (no gpsd, no followme).
    static func startSim(name: String, dir: URL, config: ConfigOverrides = shortFailsafes,
                         runArguments: [String] = [], person: String = "straight-walk") async throws -> FaultRig {
        let sim = try ChildProcess(name: "sim", executable: FollowMeBinary.url.path, arguments: [
            "sim", "--at-port", "0", "--navdata-port", "0", "--nmea-port", "0", "--person-nmea-port", "0",
            "--control-port", "0", "--person", person, "--person-start", "airborne", "--json",
        ])
        let started = await eventually(seconds: 20) { sim.stdoutLines.lines.first?.contains("listening") == true }
        guard started, let first = sim.stdoutLines.lines.first,
              let ports = try? JSONDecoder().decode(SimPorts.self, from: Data(first.utf8)),
              let controlPort = ports.control_port
        else {
            await sim.stop()
            Issue.record("[\(name)] sim did not start: \(sim.stdoutLines.text.prefix(500)) \(sim.stderrText.text.suffix(2000))")
            throw CancellationError()
        }
        do {
            let control = try SimControl(port: controlPort)
            return FaultRig(name: name, dir: dir, sim: sim, ports: ports, control: control, config: config,
                            runArguments: runArguments)
        } catch {
            await sim.stop()
            throw error
        }
    }

    /// Starts the whole field: sim, gpsd, `followme run`.
    static func start(name: String, config: ConfigOverrides, runArguments: [String] = []) async throws -> FaultRig {
        let dir = try scratchDirectory()
        let rig = try await startSim(name: name, dir: dir, config: config, runArguments: runArguments)
        do {
            try rig.startGPSD()
            try rig.startRun()
        } catch {
            await rig.stopAll()
            throw error
        }
        return rig
    }

    var targetDevice: String { "tcp://127.0.0.1:\(ports.person_nmea_port ?? 0)" }
    var onboardDevice: String { "tcp://127.0.0.1:\(ports.nmea_port)" }

    /// Starts gpsd on `gpsdPort` reading both NMEA streams (as nobody when we are root).
    func startGPSD() throws {
        let gpsdPath = try #require(Self.gpsdPath, "gpsd is not installed (apt-get install gpsd)")
        var executable = gpsdPath
        var arguments = ["-N", "-n", "-S", String(gpsdPort), "-F", dir.appendingPathComponent("ctl.sock").path,
                         targetDevice, onboardDevice]
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            // A root gpsd drops privileges and leaks its SHM segment; run it as nobody (docs/gpsd.md §2.3).
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", gpsdPath] + arguments
            executable = "/usr/bin/setpriv"
        }
        gpsd = try ChildProcess(name: "gpsd", executable: executable, arguments: arguments,
                                environment: ["TMPDIR": dir.path, "GPSD_SHM_KEY": String(format: "0x4770%04X", gpsdPort)])
    }

    /// SIGKILLs gpsd (a crash) and waits for it to exit.
    func killGPSD() async {
        await gpsd?.kill9()
    }

    /// The config text for this field with `config` applied.
    func configText(_ overrides: ConfigOverrides? = nil) -> String {
        var sections: ConfigOverrides = [
            "gpsd": ["host": "\"127.0.0.1\"", "port": "\(gpsdPort)"],
            "target": ["device": "\"\(targetDevice)\""],
            "onboard": ["device": "\"\(onboardDevice)\"", "mount_offset_deg": "90.0"],
            "drone": ["address": "\"127.0.0.1\"", "at_port": "\(ports.at_port)", "navdata_port": "\(ports.navdata_port)"],
        ]
        sections = merged(sections, overrides ?? config)
        var text = ""
        for section in sections.keys.sorted() {
            text += "[\(section)]\n"
            for (key, value) in sections[section]!.sorted(by: { $0.key < $1.key }) { text += "\(key) = \(value)\n" }
        }
        return text
    }

    /// Starts `followme run` with a new flight log (`flight-N.jsonl`), which becomes `log`.
    @discardableResult
    func startRun() throws -> ChildProcess {
        let configURL = dir.appendingPathComponent("followme-\(runCount).toml")
        try configText().write(to: configURL, atomically: true, encoding: .utf8)
        let logURL = dir.appendingPathComponent("flight-\(runCount).jsonl")
        runCount += 1
        log = FlightLogReader(url: logURL)
        let process = try ChildProcess(name: "run", executable: FollowMeBinary.runURL.path, arguments: [
            "run", "--config", configURL.path, "--flight-log", logURL.path, "--land-timeout", "20",
        ] + runArguments)
        run = process
        runs.append(process)
        return process
    }

    /// Waits for the current run to reach "following".
    func waitForFollowing(within seconds: Double = 90) async -> Transition? {
        await log.waitForTransition(to: "following", after: 0, within: seconds)
    }

    /// The simulator's status; records an issue and returns nil if it does not answer.
    func status() -> SimStatus? {
        do {
            return try control.status()
        } catch {
            Issue.record("[\(name)] sim status failed: \(error)")
            return nil
        }
    }

    /// Stops every process this rig started, by PID: followme first (it may land), then gpsd, then the sim.
    func stopAll() async {
        for process in runs { await process.stop() }
        await gpsd?.stop()
        await sim.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// Context for failure messages.
    func diagnostics() -> String {
        var s = "[\(name)] flight log tail:\n\(log.tail())\n"
        if let run { s += "followme stderr tail:\n\(run.stderrText.text.suffix(2500))\n" }
        if let status = try? control.status() { s += "sim: \(status.summary)\n" }
        return s
    }

    /// Runs `body` on a field that is following a walking person; stops every process afterwards,
    /// whatever happens. Waits for a free slot first (`FieldSlots`).
    static func withFollowingField(
        _ name: String, config: ConfigOverrides = [:], runArguments: [String] = [],
        _ body: (FaultRig) async throws -> Void
    ) async throws {
        await FieldSlots.shared.acquire()
        var rig: FaultRig?
        do {
            let started = try await FaultRig.start(name: name, config: merged(shortFailsafes, config), runArguments: runArguments)
            rig = started
            // Given a drone following the person
            let following = await started.waitForFollowing()
            guard following != nil else {
                Issue.record("[\(name)] never reached following\n\(started.diagnostics())")
                throw CancellationError()
            }
            try await Task.sleep(for: .seconds(1.5))
            try await body(started)
        } catch {
            if let rig, !(error is CancellationError) { print(rig.diagnostics()) }
            await rig?.stopAll()
            await FieldSlots.shared.release()
            throw error
        }
        await rig?.stopAll()
        await FieldSlots.shared.release()
    }
}
