// Fault-injection suite (issue "Field deployment and flight safety under faults", item 4).
//
// Each test starts its own field — `followme sim --control-port 0` (simulated AR.Drone 2.0 on the
// real UDP protocol, onboard + person NMEA over TCP), a real gpsd (as nobody when root), and the
// built `followme run` with short failsafe timeouts — waits for "following", injects one fault
// through the sim's control channel (or by signalling a process), and asserts the outcome from the
// flight log (`t` = CLOCK_MONOTONIC, the sim's clock too) and from the sim's own status.
//
//   swift build --build-tests --scratch-path .build-faults
//   swift test --skip-build --scratch-path .build-faults \
//     --filter 'followmeTests\.(BadConfig|FailsafeTiming|FlightSafetyFault|MAVLinkFailsafe|MAVLinkPilotAndGCSFailsafe|MAVLinkPilotsOwnFlights|Robustness)Tests'
//
// Environment: FAULT_PARALLEL (fields at once, default 3), FAULT_RESULTS (append the measured
// times as JSON lines to this file; they are also printed as `FAULT-RESULT {…}`),
// FAULT_RESTART_CYCLES (kill/restart cycles in test 13, default 5), FAULT_RUN_BINARY (a followme
// executable for `followme run` only, e.g. a build of an older commit, to show that a test fails
// without a fix; the simulator is always the one built with the tests).

import Foundation
import Testing
import TestSupport

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

/// Which drone the field simulates: the AR.Drone 2.0 (the default), or an ArduPilot-like Copter
/// over MAVLink (`followme sim --protocol mavlink`, `followme run` with `[drone] protocol = "mavlink"`
/// and the autopilot's own position: no onboard receiver is read).
enum FaultDrone: Sendable {
    case ardrone, mavlink

    var simArguments: [String] { self == .mavlink ? ["--protocol", "mavlink", "--mavlink-port", "0"] : [] }

    /// `config` with what this drone needs on top (the Copter's MAVLink port, read from the sim).
    func config(_ config: ConfigOverrides, field: SimField) -> ConfigOverrides {
        guard self == .mavlink else { return config }
        return merged(config, [
            "drone": ["protocol": "\"mavlink\""],
            "mavlink": ["port": "\(field.ports.mavlink_port ?? 0)", "position_source": "\"autopilot\""],
        ])
    }
}

/// A simulated field for one fault (`SimField`: `followme sim` with its control channel, a person
/// walking away once the drone is up, a real gpsd reading both NMEA streams) and `followme run`
/// flying it with a JSONL flight log. Every process is stopped by its PID in `stopAll()`.
final class FaultRig: @unchecked Sendable {
    let field: SimField
    let drone: FaultDrone
    let config: ConfigOverrides
    let runArguments: [String]
    private(set) var run: ChildProcess?
    private(set) var runs: [ChildProcess] = []
    /// The flight log of the current `followme run`.
    private(set) var log: FlightLogReader
    private var runCount = 0

    var name: String { field.name }
    var dir: URL { field.dir }
    var ports: SimField.Ports { field.ports }
    var control: SimControl { field.control! }

    private init(field: SimField, drone: FaultDrone, config: ConfigOverrides, runArguments: [String]) {
        self.field = field
        self.drone = drone
        self.config = drone.config(config, field: field)
        self.runArguments = runArguments
        self.log = FlightLogReader(url: field.dir.appendingPathComponent("flight-0.jsonl"))
    }

    /// Starts the simulator only (no gpsd, no followme).
    static func startSim(name: String, dir: URL, config: ConfigOverrides = shortFailsafes,
                         runArguments: [String] = [], person: String = "straight-walk",
                         drone: FaultDrone = .ardrone, simArguments: [String] = []) async throws -> FaultRig {
        let field = try await SimField.startSim(in: dir, name: name, person: person, control: true,
                                                simArguments: drone.simArguments + simArguments)
        return FaultRig(field: field, drone: drone, config: config, runArguments: runArguments)
    }

    /// Starts the whole field: sim, gpsd, `followme run`.
    static func start(name: String, config: ConfigOverrides, runArguments: [String] = [],
                      drone: FaultDrone = .ardrone, simArguments: [String] = []) async throws -> FaultRig {
        let dir = try scratchDirectory(label: "faults")
        let rig = try await startSim(name: name, dir: dir, config: config, runArguments: runArguments, drone: drone,
                                     simArguments: simArguments)
        do {
            try rig.startGPSD()
            try rig.startRun()
        } catch {
            await rig.stopAll()
            throw error
        }
        return rig
    }

    /// Starts gpsd reading both NMEA streams (as nobody when we are root).
    func startGPSD() throws { try field.startGPSD() }

    /// SIGKILLs gpsd (a crash) and waits for it to exit.
    func killGPSD() async { await field.killGPSD() }

    /// The config text for this field with `config` (or `overrides`) applied.
    func configText(_ overrides: ConfigOverrides? = nil) -> String {
        field.configText(overrides ?? config)
    }

    /// Starts `followme run` with a new flight log (`flight-N.jsonl`), which becomes `log`.
    @discardableResult
    func startRun() throws -> ChildProcess {
        let logURL = dir.appendingPathComponent("flight-\(runCount).jsonl")
        let process = try field.startRun(flightLog: logURL, ["--land-timeout", "20"] + runArguments, overrides: config,
                                         configName: "followme-\(runCount).toml", executable: FollowMeBinary.runURL)
        runCount += 1
        log = FlightLogReader(url: logURL)
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
        for process in runs { await process.terminate() }
        await field.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// Why the simulated drone is on the ground, as the AR.Drone simulator says it ("commanded":
    /// told to land by followme; "automatic": the `land` fault). The MAVLink Copter has no such field:
    /// it is "commanded" when it sits in LAND, disarmed, with no `land` fault injected and no GCS
    /// failsafe triggered (its only own ways into LAND, docs/mavlink.md §8.5), so only a ground
    /// station's command did; "gcs-failsafe" when its GCS failsafe did.
    func landingReason(_ status: SimStatus) -> String? {
        guard drone == .mavlink else { return status.landingReason }
        let copter = status.raw["mavlink"] as? [String: Any] ?? [:]
        guard copter["mode"] as? String == "LAND", copter["armed"] as? Bool == false else { return nil }
        if copter["gcs_failsafes"] as? Int ?? 0 > 0 { return "gcs-failsafe" }
        return status.faults["automatic_landings"] as? Int == 0 ? "commanded" : "automatic"
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
        _ name: String, config: ConfigOverrides = [:], runArguments: [String] = [], drone: FaultDrone = .ardrone,
        simArguments: [String] = [], _ body: (FaultRig) async throws -> Void
    ) async throws {
        await FieldSlots.shared.acquire()
        var rig: FaultRig?
        do {
            let started = try await FaultRig.start(name: name, config: merged(shortFailsafes, config),
                                                   runArguments: runArguments, drone: drone, simArguments: simArguments)
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
