import Foundation
import Testing
import TestSupport

/// Fault 14: a config with one bad value must stop `followme run` before it touches the drone.
@Suite("Fault injection: a bad config never reaches the drone")
struct BadConfigTests {
    /// One bad value each, on top of an otherwise valid config for the simulated field.
    static let badConfigs: [(label: String, overrides: ConfigOverrides, mentions: String)] = [
        ("negative standoff", ["follow": ["standoff_m": "-1.0"]], "standoff_m"),
        ("misspelt key", ["follow": ["standof_m": "6.0"]], "standof_m"),
        ("unknown table", ["drones": ["address": "\"127.0.0.1\""]], "drones"),
        ("land_after_s not above target_timeout_s", ["failsafe": ["land_after_s": "0.5"]], "land_after_s"),
        ("navdata port = AT port", ["drone": ["navdata_port": "AT_PORT"]], "navdata_port"),
        ("decimal where an integer is expected", ["failsafe": ["min_battery_pct": "25.5"]], "min_battery_pct"),
        ("nan", ["failsafe": ["geofence_m": "nan"]], "geofence_m"),
        ("string for a number", ["onboard": ["mount_offset_deg": "\"ninety\""]], "mount_offset_deg"),
        ("min separation not below standoff", ["failsafe": ["min_separation_m": "6.0"]], "min_separation_m"),
        ("altitude above the ceiling", ["follow": ["altitude_m": "12.0"]], "altitude_m"),
    ]

    @Test("14. any single bad config value → exit 2, and the drone receives zero AT datagrams",
          .timeLimit(.minutes(4)))
    func badConfigNeverFlies() async throws {
        let dir = try scratchDirectory(label: "faults")
        // Given a simulated drone (no gpsd needed: nothing may get that far)
        let rig = try await FaultRig.startSim(name: "bad-config", dir: dir)
        do {
            for (index, bad) in Self.badConfigs.enumerated() {
                // When followme run starts with one bad value
                var overrides = merged(shortFailsafes, bad.overrides)
                if overrides["drone"]?["navdata_port"] == "AT_PORT" { overrides["drone"]?["navdata_port"] = "\(rig.ports.at_port)" }
                let config = dir.appendingPathComponent("bad-\(index).toml")
                try rig.configText(overrides).write(to: config, atomically: true, encoding: .utf8)
                let run = try ChildProcess(name: "run", executable: FollowMeBinary.url.path, arguments: [
                    "run", "--config", config.path, "--flight-log", dir.appendingPathComponent("bad-\(index).jsonl").path,
                ])
                let status = await run.waitForExit(seconds: 20)
                if status == nil { await run.terminate() }
                // Then it refuses with exit 2, naming the key
                #expect(status == 2, "[\(bad.label)] exit \(String(describing: status)); stderr: \(run.stderrText.text)")
                #expect(run.stderrText.text.contains(bad.mentions), "[\(bad.label)] stderr: \(run.stderrText.text)")
            }
            // And the drone never heard from it: no AT datagram, not even a navdata trigger
            let after = try rig.control.status()
            #expect(after.atDatagrams == 0, "AT datagrams received: \(after.atDatagrams)")
            #expect(after.navdataClient == nil, "navdata trigger received from \(after.navdataClient ?? "-")")

            // Control (the counters can see traffic): a valid config on the ground, dry run, does talk to the drone
            let good = dir.appendingPathComponent("good.toml")
            try rig.configText().write(to: good, atomically: true, encoding: .utf8)
            let run = try ChildProcess(name: "run", executable: FollowMeBinary.url.path, arguments: [
                "run", "--config", good.path, "--no-takeoff", "--land-timeout", "5",
            ])
            let talked = await eventually(seconds: 20) { ((try? rig.control.status())?.atDatagrams ?? 0) > 0 }
            await run.stop(graceSeconds: 8)
            #expect(talked, "a valid config sent no AT datagram: the zero above would prove nothing")
            let control = try rig.control.status()
            #expect(control.state == "landed", "the dry run must not take off: \(control.summary)")
            FaultReport.record("14-bad-config", [
                "configs": Self.badConfigs.count, "at_datagrams_from_bad_configs": after.atDatagrams,
                "navdata_trigger_from_bad_configs": after.navdataClient != nil,
                "at_datagrams_from_valid_dry_run": control.atDatagrams,
            ])
        } catch {
            await rig.stopAll()
            throw error
        }
        await rig.stopAll()
    }
}
