import Foundation
import Testing
import TestSupport

/// The wind failsafe end to end: `followme sim --wind-mps W` (a steady wind on the simulated
/// AR.Drone, real UDP protocol; its navdata raises state bit 20 while airborne at or above the
/// tilt authority), a real gpsd, and `followme run` with the shipped config (max_tilt_deg 20:
/// authority 17.5·sin 20° = 6.0 m/s). At 8 m/s the drone takes off and lands for the wind before it
/// follows for more than a few seconds; at 3 m/s it follows. Either flight ends as docs/commands.md
/// §4.1 documents for `followme run`: it stays landed until SIGTERM/SIGINT, then exits 0 (no exit code
/// is specific to a failsafe landing).
@Suite(.serialized) struct WindFailsafeEndToEndTests {
    /// How long after take-off the flight log is watched, seconds (the same for both winds).
    static let windowSeconds = 30.0
    /// Most "following" time the strong wind may leave before its landing, seconds (our choice: a
    /// few seconds; the core's saturation clock is 2 s and the firmware bit's confirmation 1 s).
    static let maxFollowingSeconds = 4.0

    @Test("--wind-mps 8 (authority 6.0 m/s): takes off, landing(wind-too-strong:…) before following > 4 s, landed, exit 0 on SIGTERM",
          .timeLimit(.minutes(4)))
    func strongWindLands() async throws {
        try await Self.fly(windMetersPerSecond: 8) { run, flight, control in
            // Then it lands for the wind within the window after take-off
            let landing = await flight.waitFor(within: Self.windowSeconds) { $0.to.hasPrefix("landing") }
            #expect(landing?.to.hasPrefix("landing(wind-too-strong:") == true,
                    "no wind landing within \(Self.windowSeconds) s of take-off: \(flight.summary)\n\(run.stderrText.text.suffix(3000))")
            guard let landing, landing.to.hasPrefix("landing(wind-too-strong:") else { return }
            // before it followed for more than a few seconds
            let following = flight.secondsIn("following", before: landing.t)
            #expect(following <= Self.maxFollowingSeconds, "following for \(following) s before \(landing.to): \(flight.summary)")
            // And navdata confirms it landed, the simulated drone is on the ground
            let landed = await flight.waitFor(within: 30) { $0.to == "landed" }
            #expect(landed?.reason == "landed-confirmed", "\(flight.summary)")
            let status = try control.status()
            #expect(status.state == "landed", "sim: \(status.raw)")
            // And the drone had left the ground, and the simulator raised the wind bit while airborne
            #expect(flight.highestAltitudeMeters > 0.2, "the sim's drone never rose above \(flight.highestAltitudeMeters) m")
            #expect(flight.windBitSeen, "the sim's navdata state word never had bit 20 while airborne")
            // And followme stays landed (no new take-off) until it is told to stop
            try await Task.sleep(for: .seconds(2))
            #expect(run.isRunning, "followme run exited on its own: \(run.stderrText.text.suffix(2000))")
            #expect(flight.transitions().last?.to == "landed")
        }
    }

    @Test("--wind-mps 3 (within the 6.0 m/s authority): no wind landing in the same window; it follows; exit 0 on SIGTERM",
          .timeLimit(.minutes(4)))
    func moderateWindFollows() async throws {
        try await Self.fly(windMetersPerSecond: 3) { run, flight, _ in
            // Then within the same window after take-off it follows and never lands
            let ended = await flight.waitFor(within: Self.windowSeconds) { $0.to.hasPrefix("landing") }
            #expect(ended == nil, "landed in a 3 m/s wind: \(flight.summary)\n\(run.stderrText.text.suffix(3000))")
            let following = flight.secondsIn("following", before: .infinity)
            #expect(following >= Self.windowSeconds / 2, "only \(following) s following: \(flight.summary)")
            #expect(!flight.windBitSeen, "the sim raised bit 20 in a 3 m/s wind")
        }
    }

    /// Starts the field with `--wind-mps windMetersPerSecond` and `followme run` (shipped config),
    /// waits for take-off, runs `then`, then sends SIGTERM and checks the documented exit: 0 with
    /// the drone on the ground. Prints the measured times as `WIND-E2E {…}`.
    static func fly(
        windMetersPerSecond: Double,
        then: (ChildProcess, WindFlight, SimControl) async throws -> Void
    ) async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let started = monotonicSeconds()
        // Given a simulated drone in a steady wind, a person walking off once it is up, a real gpsd
        let field = try await SimField.start(in: dir, control: true,
                                             simArguments: ["--wind-mps", "\(windMetersPerSecond)", "--wind-towards-deg", "90"])
        let run: ChildProcess
        do {
            run = try field.startRun(flightLog: dir.appendingPathComponent("flight.jsonl"), ["--land-timeout", "40"])
        } catch {
            await field.stop()
            throw error
        }
        let control = try #require(field.control)
        let flight = WindFlight(log: dir.appendingPathComponent("flight.jsonl"), control: control)
        do {
            // When followme run flies it: it takes off
            let takeoff = await flight.waitFor(within: 90) { $0.to == "taking-off" }
            #expect(takeoff != nil, "never took off: \(flight.summary)\n\(run.stderrText.text.suffix(3000))")
            if let takeoff {
                flight.start = takeoff.t
                try await then(run, flight, control)
            }
            // When SIGTERM arrives it exits 0 (the drone on the ground, confirmed by navdata)
            run.signal(SIGTERM)
            let status = await run.waitForExit(seconds: 60)
            #expect(status == 0, "exit \(String(describing: status)); stderr:\n\(run.stderrText.text.suffix(3000))")
            #expect(flight.transitions().last?.to == "landed", "\(flight.summary)")
        } catch {
            await run.terminate()
            await field.stop()
            throw error
        }
        print("WIND-E2E {\"wind_mps\":\(windMetersPerSecond),\"wall_s\":\(monotonicSeconds() - started),"
              + "\"transitions\":\"\(flight.summary)\"}")
        await run.terminate()
        await field.stop()
    }
}

/// `followme sim`'s and `followme bench`'s wind options (one `WindOptions` group) are checked before
/// anything binds or flies (exit 2, ArgumentParser's usage error as for every other bad option).
@Suite struct WindSimOptionTests {
    @Test("followme sim refuses a negative or non-finite wind", arguments: [
        (["--wind-mps=-1"], "--wind-mps must be a finite speed >= 0"),
        (["--wind-mps", "inf"], "--wind-mps must be a finite speed >= 0"),
        (["--wind-towards-deg", "nan"], "--wind-towards-deg must be finite"),
    ])
    func refused(arguments: [String], message: String) throws {
        // When the simulator is started with the bad wind option (every port 0: nothing fixed is taken)
        let r = try FollowMeBinary.run(["sim", "--at-port", "0", "--navdata-port", "0", "--nmea-port", "0",
                                        "--person-nmea-port", "0"] + arguments, timeoutSeconds: 10)
        // Then it says why and exits 2 without listening
        #expect(r.exitCode == 2, "\(r.both)")
        #expect(r.stderr.contains(message), "\(r.both)")
        #expect(!r.stdout.contains("listening"))
    }

    @Test("followme bench refuses the same winds before it flies", arguments: [
        (["--wind-mps=-1"], "--wind-mps must be a finite speed >= 0"),
        (["--wind-mps", "nan"], "--wind-mps must be a finite speed >= 0"),
        (["--wind-towards-deg", "inf"], "--wind-towards-deg must be finite"),
    ])
    func benchRefused(arguments: [String], message: String) throws {
        let r = try FollowMeBinary.run(["bench", "--no-replays"] + arguments, timeoutSeconds: 20)
        #expect(r.exitCode == 2, "\(r.both)")
        #expect(r.stderr.contains(message), "\(r.both)")
    }
}

/// The flight log's state changes (`"kind":"transition"` lines; `t` is CLOCK_MONOTONIC seconds),
/// read while `followme run` writes it, and what the simulator's state word showed meanwhile.
final class WindFlight: @unchecked Sendable {
    struct Transition {
        let t: Double
        let to: String
        let reason: String
    }

    let log: URL
    let control: SimControl
    /// Take-off time (`t` of the `taking-off` transition); transitions before it are ignored.
    var start = -Double.infinity
    /// Whether a status poll saw bit 20 in the sim's navdata state word while it was airborne.
    private(set) var windBitSeen = false
    /// The highest altitude a status poll saw, metres (the sim's ground truth).
    private(set) var highestAltitudeMeters = 0.0

    init(log: URL, control: SimControl) {
        self.log = log
        self.control = control
    }

    func transitions() -> [Transition] {
        guard let data = try? Data(contentsOf: log) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  object["kind"] as? String == "transition", let t = object["t"] as? Double,
                  let to = object["to"] as? String else { return nil }
            return Transition(t: t, to: to, reason: object["reason"] as? String ?? "")
        }
    }

    /// `t=… to (reason)` for every transition, for failure messages.
    var summary: String {
        transitions().map { String(format: "%.2f ", $0.t) + "\($0.to) (\($0.reason))" }.joined(separator: "; ")
    }

    /// Polls the flight log (and the sim's state word) every 0.1 s for `seconds` after take-off
    /// (or from now, before it) for the first transition at or after take-off that matches.
    func waitFor(within seconds: Double, _ predicate: (Transition) -> Bool) async -> Transition? {
        let deadline = (start.isFinite ? start : monotonicSeconds()) + seconds
        while true {
            if let status = try? control.status() {
                if status.altitudeMeters.isFinite { highestAltitudeMeters = max(highestAltitudeMeters, status.altitudeMeters) }
                if status.state != "landed", let word = status.raw["state_word"] as? Int, word & (1 << 20) != 0 {
                    windBitSeen = true
                }
            }
            if let match = transitions().first(where: { $0.t >= start && predicate($0) }) { return match }
            if monotonicSeconds() >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Seconds spent in `state` from take-off until `end` (or now, for a state still in force).
    func secondsIn(_ state: String, before end: Double) -> Double {
        let list = transitions().filter { $0.t >= start }
        var total = 0.0
        for (index, transition) in list.enumerated() where transition.to == state && transition.t < end {
            let next = index + 1 < list.count ? list[index + 1].t : monotonicSeconds()
            total += min(next, end) - transition.t
        }
        return total
    }
}
