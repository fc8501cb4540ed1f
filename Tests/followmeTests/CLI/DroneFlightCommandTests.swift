import Foundation
import Testing
import TestSupport

/// `followme drone status|takeoff|land|emergency-reset` against `followme sim` over real UDP on
/// loopback: each step confirmed by navdata, and SIGTERM/SIGINT handled as the help text says
/// (take-off: a signal lands at once; land: a signal does not stop the landing).
///
/// `FAULT_RUN_BINARY=/path/to/followme` runs another build (its sim and its drone commands), e.g. the
/// build before a change, to show these tests pass or fail there too.
@Suite(.serialized) struct DroneFlightCommandTests {
    /// The `followme` under test (sim and drone commands from the same build: they share the protocol code).
    static var binary: String {
        ProcessInfo.processInfo.environment["FAULT_RUN_BINARY"] ?? FollowMeBinary.url.path
    }

    /// A simulated drone (no person) and a config pointing `[drone]` at it.
    final class Bench: @unchecked Sendable {
        let sim: ChildProcess
        let config: URL
        let configText: String

        init() async throws {
            let sim = try ChildProcess(name: "sim", executable: DroneFlightCommandTests.binary, arguments: [
                "sim", "--at-port", "0", "--navdata-port", "0", "--nmea-port", "0", "--person-nmea-port", "0", "--json",
            ])
            let started = await eventually(seconds: 20) { sim.stdoutLines.lines.first?.contains("listening") == true }
            guard started, let first = sim.stdoutLines.lines.first,
                  let ports = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any],
                  let at = ports["at_port"] as? Int, let navdata = ports["navdata_port"] as? Int
            else {
                sim.signal(SIGKILL)
                Issue.record("sim did not start: \(sim.stderrText.text)")
                throw CancellationError()
            }
            self.sim = sim
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("followme-drone-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            config = dir.appendingPathComponent("followme.toml")
            // The receivers' devices are required (two receivers on one gpsd); the drone commands never read them.
            configText = "[target]\ndevice = \"/dev/gpstarget\"\n[onboard]\ndevice = \"/dev/gpsonboard\"\n"
                + "[drone]\naddress = \"127.0.0.1\"\nat_port = \(at)\nnavdata_port = \(navdata)\n"
            try configText.write(to: config, atomically: true, encoding: .utf8)
        }

        /// Starts `followme drone <arguments> --config <this bench's config>`.
        func drone(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(name: "drone", executable: DroneFlightCommandTests.binary,
                             arguments: ["drone"] + arguments + ["--config", config.path])
        }

        func stop() async {
            sim.signal(SIGTERM)
            if await sim.waitForExit(seconds: 3) == nil { sim.signal(SIGKILL) }
            try? FileManager.default.removeItem(at: config.deletingLastPathComponent())
        }
    }

    /// Waits for `text` on the child's stdout.
    static func waitForOutput(_ child: ChildProcess, _ text: String, seconds: Double = 20) async -> Bool {
        await eventually(seconds: seconds) { child.stdoutLines.text.contains(text) }
    }

    static func transcript(_ child: ChildProcess) -> String {
        "stdout: \(child.stdoutLines.text)\nstderr: \(child.stderrText.text)"
    }

    /// What `signalled` saw: the exit status (nil: still running after the wait, then killed) and the output.
    struct Signalled {
        var status: Int32?
        var stdout: String
        var stderr: String
        var transcript: String { "stdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// Starts `followme drone <arguments>`, sends `signals` (200 ms apart) once `text` is on its
    /// stdout, and waits up to 25 s for it to exit.
    static func signalled(_ bench: Bench, _ arguments: [String], after text: String, _ signals: [Int32]) async throws -> Signalled {
        let child = try bench.drone(arguments)
        #expect(await waitForOutput(child, text), "\(transcript(child))")
        for (index, signal) in signals.enumerated() {
            if index > 0 { try await Task.sleep(for: .milliseconds(200)) }
            child.signal(signal)
        }
        let status = await child.waitForExit(seconds: 25)
        if status == nil { child.signal(SIGKILL) }
        return Signalled(status: status, stdout: child.stdoutLines.text, stderr: child.stderrText.text)
    }

    /// A signal sent to `takeoff` once `after` is on its stdout, and what must follow.
    struct TakeoffSignal: Sendable, CustomStringConvertible {
        var after: String
        var signal: Int32
        /// Whether the take-off was confirmed before the signal (then the exit code is 0).
        var airborne: Bool
        var description: String { "\(signal == SIGTERM ? "SIGTERM" : "SIGINT") after '\(after)'" }
    }

    @Test("takeoff: a signal lands at once, LANDED confirmed by navdata; exit 0 if the take-off had been confirmed, else 1",
          arguments: [
              // While hovering (two minutes of hover left): lands now, exit 0.
              TakeoffSignal(after: "hovering for", signal: SIGTERM, airborne: true),
              // During the take-off (the sim needs seconds to get up): "interrupted; landing", exit 1.
              TakeoffSignal(after: "taking off…", signal: SIGINT, airborne: false),
          ])
    func signalDuringTakeoffLands(_ given: TakeoffSignal) async throws {
        let bench = try await Bench()
        // Given `takeoff` with two minutes of hover time
        // When the signal arrives at the given step
        let takeoff = try await Self.signalled(bench, ["takeoff", "--hover-seconds", "120"], after: given.after, [given.signal])
        await bench.stop()
        // Then it lands at once (not after the hover time) and navdata confirms it
        #expect(takeoff.status == (given.airborne ? 0 : 1), "\(takeoff.transcript)")
        #expect(takeoff.stdout.contains("landing…\nlanded (LANDED"), "\(takeoff.transcript)")
        // And it says whether the take-off had been confirmed
        #expect(takeoff.stdout.contains("airborne after") == given.airborne, "\(takeoff.transcript)")
        #expect(takeoff.stderr.contains("interrupted; landing") == !given.airborne, "\(takeoff.transcript)")
    }

    @Test("land: SIGTERM and SIGINT during the landing do not stop it; LANDED confirmed, exit 0")
    func signalsDuringLandingAreNotObeyed() async throws {
        let bench = try await Bench()
        // Given a hovering drone whose controller crashed (SIGKILL: no landing)
        _ = try await Self.signalled(bench, ["takeoff", "--hover-seconds", "300"], after: "hovering for", [SIGKILL])
        // When `land` starts landing it, and SIGTERM then SIGINT arrive meanwhile
        let land = try await Self.signalled(bench, ["land"], after: "landing… (", [SIGTERM, SIGINT])
        await bench.stop()
        // Then the landing goes on until navdata says LANDED: exit 0
        #expect(land.status == 0, "\(land.transcript)")
        #expect(land.stdout.contains("landed (LANDED"), "\(land.transcript)")
    }

    @Test("takeoff, land, emergency-reset and status on a landed drone: confirmed, refused, already landed, JSON lines")
    func landedDrone() async throws {
        let bench = try await Bench()
        // Given a landed drone
        // When it takes off with no hover time, then `land` runs
        let takeoff = try bench.drone(["takeoff", "--hover-seconds", "0", "--timeout", "15"])
        let takeoffStatus = await takeoff.waitForExit(seconds: 40)
        let land = try bench.drone(["land"])
        let landStatus = await land.waitForExit(seconds: 20)
        // And an emergency reset is asked of a drone that is not in emergency
        let reset = try bench.drone(["emergency-reset"])
        let resetStatus = await reset.waitForExit(seconds: 20)
        // And status prints three navdata packets as JSON
        let status = try bench.drone(["status", "--json", "--count", "3", "--timeout", "10"])
        let statusStatus = await status.waitForExit(seconds: 20)
        for child in [takeoff, land, reset, status] where child.stdoutLines.text.isEmpty { child.signal(SIGKILL) }
        await bench.stop()

        // Then the take-off and the landing were both confirmed
        #expect(takeoffStatus == 0, "\(Self.transcript(takeoff))")
        #expect(takeoff.stdoutLines.text.contains("airborne after"))
        #expect(takeoff.stdoutLines.text.contains("landed (LANDED"))
        // And `land` found it on the ground
        #expect(landStatus == 0, "\(Self.transcript(land))")
        #expect(land.stdoutLines.text.contains("already landed (LANDED"))
        // And the emergency toggle was refused (it would cut the motors)
        #expect(resetStatus == 1, "\(Self.transcript(reset))")
        #expect(reset.stderrText.text.contains("not in emergency"))
        // And status printed navdata objects with the drone's state and exited 0
        #expect(statusStatus == 0, "\(Self.transcript(status))")
        let navdata = status.stdoutLines.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "navdata" }
        #expect(navdata.count == 3, "\(Self.transcript(status))")
        #expect(navdata.last?["ctrl_state"] as? String == "landed")
    }

    @Test("status and land without a drone: no navdata, exit 1")
    func noDrone() async throws {
        // Given a config whose drone ports nobody serves any more (the sim that had them stopped)
        let bench = try await Bench()
        await bench.stop()
        let config = bench.config
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bench.configText.write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config.deletingLastPathComponent()) }
        // When status waits a second and land waits for first navdata
        let status = try ChildProcess(name: "status", executable: Self.binary,
                                      arguments: ["drone", "status", "--timeout", "1", "--config", config.path])
        let land = try ChildProcess(name: "land", executable: Self.binary,
                                    arguments: ["drone", "land", "--connect-timeout", "1", "--config", config.path])
        let statusStatus = await status.waitForExit(seconds: 15)
        let landStatus = await land.waitForExit(seconds: 15)
        for child in [status, land] { child.signal(SIGKILL) }
        // Then both say there was no navdata and exit 1
        #expect(statusStatus == 1, "\(Self.transcript(status))")
        #expect(status.stderrText.text.contains("no navdata"))
        #expect(landStatus == 1, "\(Self.transcript(land))")
        #expect(land.stderrText.text.contains("no navdata"))
        // And both say what to check (LinkHint, issue 23 item 6): the drone's Wi-Fi, the [drone] keys, another controller
        for child in [status, land] {
            let stderr = child.stderrText.text
            #expect(stderr.contains("ardrone2_") && stderr.contains("[drone] address/at_port/navdata_port")
                        && stderr.contains("FreeFlight"), "\(Self.transcript(child))")
        }
    }
}
