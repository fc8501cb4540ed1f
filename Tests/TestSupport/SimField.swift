import Foundation
import Testing

/// Config sections as TOML literals: `["failsafe": ["land_after_s": "4.0"]]`.
package typealias ConfigOverrides = [String: [String: String]]

/// `base` with `overrides` on top, key by key.
package func merged(_ base: ConfigOverrides, _ overrides: ConfigOverrides) -> ConfigOverrides {
    var out = base
    for (section, keys) in overrides { out[section, default: [:]].merge(keys) { _, new in new } }
    return out
}

/// A simulated field for `followme run` and `followme gps`: the built `followme sim` (a simulated
/// AR.Drone 2.0 on the real UDP protocol, onboard and person NMEA over TCP, a person who starts
/// walking once the drone is up, and with `control` its UDP control channel) and a real gpsd
/// reading both NMEA streams (as nobody when the tests run as root, docs/gpsd.md §2.3).
/// Every process is stopped by its PID in `stop()`.
package final class SimField: @unchecked Sendable {
    /// The ports `followme sim --json` printed in its "listening" line.
    package struct Ports: Decodable, Sendable {
        package let at_port: Int
        package let navdata_port: Int
        package let nmea_port: Int
        package let person_nmea_port: Int?
        package let control_port: Int?
        /// With `--protocol mavlink`: the Copter's MAVLink UDP port.
        package let mavlink_port: Int?
    }

    package static var gpsdPath: String? {
        ["/usr/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A label for failure messages.
    package let name: String
    /// A scratch directory (gpsd's control socket goes here); the caller owns it.
    package let dir: URL
    package let sim: ChildProcess
    package let ports: Ports
    /// The sim's control channel (nil unless started with `control: true`).
    package let control: SimControl?
    /// The port gpsd listens on (chosen free when the field is made).
    package let gpsdPort: Int
    package private(set) var gpsd: ChildProcess?

    private init(name: String, dir: URL, sim: ChildProcess, ports: Ports, control: SimControl?) {
        self.name = name
        self.dir = dir
        self.sim = sim
        self.ports = ports
        self.control = control
        gpsdPort = LoopbackPorts.freeTCPPort()
    }

    /// `tcp://` source of the person's receiver (the target).
    package var targetDevice: String { "tcp://127.0.0.1:\(ports.person_nmea_port ?? 0)" }
    /// `tcp://` source of the drone's receiver.
    package var onboardDevice: String { "tcp://127.0.0.1:\(ports.nmea_port)" }

    /// Starts the simulator only (no gpsd) and waits up to 20 s for its ports; records an issue
    /// and throws `CancellationError` if it does not come up.
    package static func startSim(
        in dir: URL, name: String = "field", person: String = "straight-walk", control: Bool = false,
        simArguments: [String] = []
    ) async throws -> SimField {
        let sim = try ChildProcess(name: "sim", executable: FollowMeBinary.url.path, arguments: [
            "sim", "--at-port", "0", "--navdata-port", "0", "--nmea-port", "0", "--person-nmea-port", "0",
        ] + (control ? ["--control-port", "0"] : []) + [
            "--person", person, "--person-start", "airborne", "--json",
        ] + simArguments)
        let started = await eventually(seconds: 20) { sim.stdoutLines.lines.first?.contains("listening") == true }
        guard started, let first = sim.stdoutLines.lines.first,
              let ports = try? JSONDecoder().decode(Ports.self, from: Data(first.utf8)),
              ports.person_nmea_port != nil, !control || ports.control_port != nil
        else {
            await sim.terminate()
            Issue.record("[\(name)] sim did not start: \(sim.stdoutLines.text.prefix(500)) \(sim.stderrText.text.suffix(2000))")
            throw CancellationError()
        }
        do {
            let channel = try ports.control_port.map { try SimControl(port: $0) }
            return SimField(name: name, dir: dir, sim: sim, ports: ports, control: control ? channel : nil)
        } catch {
            await sim.terminate()
            throw error
        }
    }

    /// Starts the simulator and gpsd.
    package static func start(
        in dir: URL, name: String = "field", person: String = "straight-walk", control: Bool = false,
        simArguments: [String] = []
    ) async throws -> SimField {
        let field = try await startSim(in: dir, name: name, person: person, control: control, simArguments: simArguments)
        do {
            try field.startGPSD()
        } catch {
            await field.sim.terminate()
            throw error
        }
        return field
    }

    /// Starts gpsd on `gpsdPort` reading both NMEA streams (`-n`: open them without waiting for a client).
    package func startGPSD() throws {
        let gpsdPath = try #require(Self.gpsdPath, "gpsd is not installed (apt-get install gpsd)")
        gpsd = try ChildProcess(
            name: "gpsd", executable: gpsdPath,
            arguments: ["-N", "-n", "-S", String(gpsdPort), "-F", dir.appendingPathComponent("ctl.sock").path,
                        targetDevice, onboardDevice],
            environment: ["TMPDIR": dir.path, "GPSD_SHM_KEY": GPSDProcesses.shmKey(port: gpsdPort)],
            unprivilegedIfRoot: true)
    }

    /// SIGKILLs gpsd (a crash) and waits for it to exit.
    package func killGPSD() async {
        await gpsd?.kill9()
    }

    /// Stops gpsd, then the sim (SIGTERM, SIGKILL after 3 s).
    package func stop() async {
        await gpsd?.terminate()
        await sim.terminate()
    }

    /// Writes this field's config (`configText(atPort:_:)`) to `dir/configName` and starts
    /// `followme run --config <it> --flight-log <flightLog> extra…` with its output captured.
    /// `environment`: added to the test runner's (e.g. `STATE_DIRECTORY`, as systemd sets it).
    package func startRun(
        flightLog: URL, _ extra: [String] = [], atPort: Int? = nil, overrides: ConfigOverrides = [:],
        configName: String = "followme.toml", executable: URL = FollowMeBinary.url, name: String = "run",
        environment: [String: String] = [:]
    ) throws -> ChildProcess {
        let config = dir.appendingPathComponent(configName)
        try configText(atPort: atPort, overrides).write(to: config, atomically: true, encoding: .utf8)
        return try ChildProcess(name: name, executable: executable.path,
                                arguments: ["run", "--config", config.path, "--flight-log", flightLog.path] + extra,
                                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// A config for this field: both receivers on the one gpsd, the drone on loopback (AT to
    /// `atPort` if given, e.g. a relay), with `overrides` on top; sections and keys sorted.
    package func configText(atPort: Int? = nil, _ overrides: ConfigOverrides = [:]) -> String {
        let sections = merged([
            "gpsd": ["host": "\"127.0.0.1\"", "port": "\(gpsdPort)"],
            "target": ["device": "\"\(targetDevice)\""],
            "onboard": ["device": "\"\(onboardDevice)\"", "mount_offset_deg": "90.0"],
            "drone": ["address": "\"127.0.0.1\"", "at_port": "\(atPort ?? ports.at_port)",
                      "navdata_port": "\(ports.navdata_port)"],
        ], overrides)
        var text = ""
        for section in sections.keys.sorted() {
            text += "[\(section)]\n"
            for (key, value) in sections[section]!.sorted(by: { $0.key < $1.key }) { text += "\(key) = \(value)\n" }
        }
        return text
    }
}
