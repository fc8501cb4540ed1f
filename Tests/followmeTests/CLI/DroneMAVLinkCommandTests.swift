import Foundation
import Testing
import TestSupport

/// `followme drone status|takeoff|land` with `[drone] protocol = "mavlink"` against `followme sim
/// --protocol mavlink` (an ArduPilot-like Copter) over loopback UDP. Every outcome is checked against
/// the simulator's own state (its control channel: mode, armed, landed state, altitude), not only
/// against what the command printed. The config also points `[drone]` at the simulator's idle
/// AR.Drone ports, so a build that ignored the protocol would still talk only to loopback.
@Suite(.serialized) struct DroneMAVLinkCommandTests {
    /// `follow.altitude_m` at its default (etc/followme.toml): where NAV_TAKEOFF climbs to.
    static let takeoffAltitudeMeters = 3.0

    /// The simulated Copter (no gpsd: the drone commands read no receiver) and a config for it.
    final class Bench: @unchecked Sendable {
        let field: SimField
        let config: URL

        init(_ extraConfig: ConfigOverrides = [:]) async throws {
            let dir = try scratchDirectory(label: "drone-mavlink")
            field = try await SimField.startSim(
                in: dir, name: "drone-mavlink", control: true, simArguments: ["--protocol", "mavlink", "--mavlink-port", "0"])
            config = dir.appendingPathComponent("followme.toml")
            do {
                let port = try #require(field.ports.mavlink_port, "no mavlink_port in \(field.sim.stdoutLines.text.prefix(300))")
                try field.configText(merged(["drone": ["protocol": "\"mavlink\""], "mavlink": ["port": "\(port)"]], extraConfig))
                    .write(to: config, atomically: true, encoding: .utf8)
            } catch {
                await stop()
                throw error
            }
        }

        /// Starts `followme drone <arguments> --config <this bench's config>`.
        func drone(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(name: "drone", executable: FollowMeBinary.url.path,
                             arguments: ["drone"] + arguments + ["--config", config.path])
        }

        /// The Copter as the simulator knows it: mode, armed, landed state, and its altitude.
        func copter() throws -> (mode: String, armed: Bool, landedState: String, altitudeMeters: Double) {
            let status = try #require(field.control).status()
            let mavlink = status.raw["mavlink"] as? [String: Any] ?? [:]
            return (mavlink["mode"] as? String ?? "?", mavlink["armed"] as? Bool ?? false,
                    mavlink["landed_state"] as? String ?? "?", status.altitudeMeters)
        }

        func stop() async {
            await field.stop()
            try? FileManager.default.removeItem(at: field.dir)
        }
    }

    /// Runs `body` on a fresh bench and stops it whatever happens.
    static func withBench(_ extraConfig: ConfigOverrides = [:], _ body: (Bench) async throws -> Void) async throws {
        let bench = try await Bench(extraConfig)
        do {
            try await body(bench)
        } catch {
            await bench.stop()
            throw error
        }
        await bench.stop()
    }

    static func transcript(_ child: ChildProcess) -> String {
        "stdout: \(child.stdoutLines.text)\nstderr: \(child.stderrText.text)"
    }

    /// `drone takeoff --hover-seconds 60` until it prints "hovering" (the Copter confirmed IN_AIR).
    static func airborne(_ bench: Bench) async throws -> ChildProcess {
        let takeoff = try bench.drone(["takeoff", "--hover-seconds", "60", "--timeout", "30"])
        let hovering = await eventually(seconds: 40) { takeoff.stdoutLines.text.contains("hovering") }
        try #require(hovering, "\(transcript(takeoff))")
        return takeoff
    }

    @Test("status --json: the autopilot's telemetry as navdata lines with mode, armed, system and landed state; arms nothing",
          .timeLimit(.minutes(2)))
    func statusJSON() async throws {
        try await Self.withBench { bench in
            // When `drone status --json --count 15` runs against the Copter on the ground
            let status = try bench.drone(["status", "--json", "--count", "15", "--timeout", "15"])
            let exit = await status.waitForExit(seconds: 25)

            // Then it exits 0 after 15 telemetry lines, each a JSON object with the AR.Drone's fields
            // and the autopilot's own, as the simulator's Copter is: STABILIZE, disarmed, on the ground
            #expect(exit == 0, "\(Self.transcript(status))")
            let objects = status.stdoutLines.lines.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(objects.count == status.stdoutLines.lines.count, "a line is not JSON: \(status.stdoutLines.text)")
            let telemetry = objects.filter { $0["event"] as? String == "navdata" }
            #expect(telemetry.count == 15, "\(status.stdoutLines.text)")
            let last = try #require(telemetry.last)
            #expect(last["mode"] as? String == "STABILIZE" && last["armed"] as? Bool == false, "\(last)")
            #expect(last["system_status"] as? String == "standby" && last["landed_state"] as? String == "on-ground", "\(last)")
            #expect(last["ctrl_state"] as? String == "landed" && last["alt_m"] as? Double == 0, "\(last)")
            #expect(telemetry.contains { ($0["battery_pct"] as? Int ?? 0) > 90 }, "\(telemetry)")
            // And the link connected to a vehicle on the ground and had its message rates acknowledged
            #expect(objects.contains { $0["event"] as? String == "connected" && $0["drone_was_flying"] as? Bool == false })
            #expect(objects.contains { $0["event"] as? String == "config-ack" }, "\(status.stdoutLines.text)")
            // And the Copter is as it was: nothing armed it or changed its mode
            let copter = try bench.copter()
            #expect(copter.mode == "STABILIZE" && !copter.armed && copter.landedState == "on-ground", "\(copter)")
        }
    }

    @Test("takeoff: GUIDED, armed, up to altitude_m (confirmed IN_AIR); SIGTERM while hovering lands, disarmed, exit 0",
          .timeLimit(.minutes(2)))
    func takeoffHoverAndLandOnSignal() async throws {
        try await Self.withBench { bench in
            // When `drone takeoff` runs and says it is hovering
            let takeoff = try await Self.airborne(bench)
            // Then the Copter is armed, in GUIDED, in the air at the take-off altitude
            let up = try bench.copter()
            #expect(up.mode == "GUIDED" && up.armed && up.landedState == "in-air", "\(up)")
            #expect(abs(up.altitudeMeters - Self.takeoffAltitudeMeters) < 0.5, "\(up)")
            #expect(takeoff.stdoutLines.text.contains("airborne after"), "\(Self.transcript(takeoff))")

            // When SIGTERM arrives during the hover
            takeoff.signal(SIGTERM)
            let exit = await takeoff.waitForExit(seconds: 30)
            // Then it lands at once, waits for the Copter on the ground and disarmed, and exits 0
            #expect(exit == 0, "\(Self.transcript(takeoff))")
            #expect(takeoff.stdoutLines.text.contains("landed (LANDED, LAND, disarmed"), "\(Self.transcript(takeoff))")
            let down = try bench.copter()
            #expect(down.mode == "LAND" && !down.armed && down.landedState == "on-ground", "\(down)")
            #expect(down.altitudeMeters < 0.05, "\(down)")
        }
    }

    @Test("status on a flying Copter does not land it; land lands it (LAND, on the ground, disarmed); land again: already landed",
          .timeLimit(.minutes(2)))
    func statusKeepsFlyingThenLand() async throws {
        try await Self.withBench { bench in
            // Given a Copter left hovering in GUIDED by a take-off that was killed (no landing)
            let takeoff = try await Self.airborne(bench)
            takeoff.signal(SIGKILL)
            _ = await takeoff.waitForExit(seconds: 5)

            // When `drone status` watches it
            let status = try bench.drone(["status", "--json", "--count", "10", "--timeout", "15"])
            #expect(await status.waitForExit(seconds: 25) == 0, "\(Self.transcript(status))")
            // Then it saw a flying vehicle, adopted it, and the Copter is still in the air in GUIDED
            #expect(status.stdoutLines.text.contains(#""drone_was_flying":true,"desired_flying":true"#), "\(Self.transcript(status))")
            #expect(status.stdoutLines.text.contains(#""ctrl_state":"flying""#))
            let still = try bench.copter()
            #expect(still.mode == "GUIDED" && still.armed && still.landedState == "in-air", "\(still)")

            // When `drone land` runs
            let land = try bench.drone(["land", "--timeout", "30"])
            let exit = await land.waitForExit(seconds: 40)
            // Then the Copter lands in LAND and disarms, and the command says so and exits 0
            #expect(exit == 0, "\(Self.transcript(land))")
            #expect(land.stdoutLines.text.contains("landed (LANDED, LAND, disarmed"), "\(Self.transcript(land))")
            let down = try bench.copter()
            #expect(down.mode == "LAND" && !down.armed && down.landedState == "on-ground" && down.altitudeMeters < 0.05, "\(down)")

            // And a second `drone land` finds it landed and sends nothing that arms it
            let again = try bench.drone(["land"])
            #expect(await again.waitForExit(seconds: 20) == 0, "\(Self.transcript(again))")
            #expect(again.stdoutLines.text.contains("already landed"), "\(Self.transcript(again))")
            #expect(try bench.copter().armed == false)
        }
    }

    @Test("takeoff refuses a battery under [failsafe] min_battery_pct: exit 1, the Copter never armed",
          .timeLimit(.minutes(2)))
    func takeoffRefusesLowBattery() async throws {
        try await Self.withBench { bench in
            // Given the Copter's battery at 20 % (min_battery_pct 30 in this config)
            try #require(bench.field.control).send(["command": "battery", "percent": 20])
            try await Self.withBatteryFloor(bench, percent: 30)
            // When `drone takeoff` runs
            let takeoff = try bench.drone(["takeoff", "--hover-seconds", "0", "--timeout", "10"])
            let exit = await takeoff.waitForExit(seconds: 25)
            // Then it refuses with the reason, exit 1, and the Copter stayed disarmed in STABILIZE
            #expect(exit == 1, "\(Self.transcript(takeoff))")
            #expect(takeoff.stderrText.text.contains("min_battery_pct"), "\(Self.transcript(takeoff))")
            #expect(!takeoff.stdoutLines.text.contains("taking off"), "\(Self.transcript(takeoff))")
            let copter = try bench.copter()
            #expect(!copter.armed && copter.mode == "STABILIZE", "\(copter)")
        }
    }

    /// Rewrites the bench config with `[failsafe] min_battery_pct = percent`.
    static func withBatteryFloor(_ bench: Bench, percent: Int) async throws {
        let port = try #require(bench.field.ports.mavlink_port)
        try bench.field.configText([
            "drone": ["protocol": "\"mavlink\""], "mavlink": ["port": "\(port)"], "failsafe": ["min_battery_pct": "\(percent)"],
        ]).write(to: bench.config, atomically: true, encoding: .utf8)
    }

    @Test("AR.Drone-only options and commands refuse a MAVLink config (exit 2) instead of talking AT to it",
          arguments: [["emergency-reset"], ["status", "--at-port", "5556"], ["takeoff", "--flat-trim"]])
    func ardroneOnlyRefused(arguments: [String]) async throws {
        try await Self.withBench { bench in
            let child = try bench.drone(arguments + ["--connect-timeout", "2"])
            let exit = await child.waitForExit(seconds: 15)
            #expect(exit == 2, "\(Self.transcript(child))")
            #expect(try bench.copter().armed == false)
        }
    }
}
