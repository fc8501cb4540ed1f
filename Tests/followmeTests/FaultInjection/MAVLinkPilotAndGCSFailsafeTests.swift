import Foundation
import Testing
import TestSupport

/// Issue 22: who has the Copter when FollowMe does not. `followme run` flying `followme sim
/// --protocol mavlink` (real processes on loopback, a real gpsd for the person), with the Copter's
/// RC pilot (the control port's `pilot-mode`) and its GCS failsafe (FS_GCS_ENABLE, FS_GCS_TIMEOUT 5 s,
/// SYSID_MYGCS 245; docs/mavlink.md §8.5). Each outcome is read from the flight log and from the
/// simulator's ground truth (the Copter's own mode, armed and landed state), not from followme alone.
@Suite("MAVLink Copter: the pilot takes over, FollowMe killed, no GCS failsafe", .serialized)
struct MAVLinkPilotAndGCSFailsafeTests {
    /// The Copter's part of the sim's status (`mode`, `armed`, `landed_state`, counters).
    static func copter(_ status: SimStatus?) -> [String: Any] { status?.raw["mavlink"] as? [String: Any] ?? [:] }

    @Test("the pilot switches to LOITER: FollowMe is released, commands no LAND, exits 3 on SIGTERM; the Copter stays in LOITER",
          .timeLimit(.minutes(2)))
    func pilotTakesOver() async throws {
        try await FaultRig.withFollowingField("mavlink-pilot-loiter", drone: .mavlink) { rig in
            // Given followme following the walking person with the Copter in GUIDED, armed, in the air
            let before = Self.copter(rig.status())
            #expect(before["mode"] as? String == "GUIDED" && before["armed"] as? Bool == true, "\(before)")

            // When the pilot flips the transmitter's mode switch to LOITER
            let reply = try rig.control.send(["command": "pilot-mode", "mode": "LOITER"])
            let t0 = reply["t"] as? Double ?? .nan
            #expect(reply["ok"] as? Bool == true, "\(reply)")

            // Then the flight log shows FollowMe released the Copter
            let released = await rig.log.waitForTransition(to: "released(mode:LOITER)", after: t0 - 1, within: 5)
            #expect(released != nil, "\(rig.diagnostics())")

            // And for 10 s, while the person walks away, the Copter stays in LOITER in the air: no LAND
            // from FollowMe (the sim would obey one), nor any other mode change
            let atRelease = rig.status()
            let distanceAtRelease = atRelease?.droneToPersonMeters ?? .nan
            var samples: [(mode: String, landed: String)] = []
            let watchEnd = monotonicSeconds() + 10
            while monotonicSeconds() < watchEnd {
                let copter = Self.copter(rig.status())
                samples.append((copter["mode"] as? String ?? "?", copter["landed_state"] as? String ?? "?"))
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(samples.count >= 15 && samples.allSatisfy { $0.mode == "LOITER" && $0.landed == "in-air" },
                    "\(samples)\n\(rig.diagnostics())")
            let distanceAfter = rig.status()?.droneToPersonMeters ?? .nan
            #expect(distanceAfter > distanceAtRelease + 5, "the person did not walk away: \(distanceAtRelease) → \(distanceAfter) m")
            #expect(rig.log.firstTransition(after: t0) { $0.to.hasPrefix("landing") } == nil, "\(rig.log.tail())")
            // And FollowMe sent the Copter nothing to do: no COMMAND_LONG (mode, land) and no set-point
            // (the Copter counts set-points it ignores in LOITER)
            let counters = (Self.copter(atRelease), Self.copter(rig.status()))
            let newCommands = (counters.1["commands"] as? Int ?? -1) - (counters.0["commands"] as? Int ?? 0)
            let newSetpoints = (counters.1["setpoints_ignored"] as? Int ?? -1) - (counters.0["setpoints_ignored"] as? Int ?? 0)
            #expect(newCommands == 0 && newSetpoints == 0, "\(newCommands) commands, \(newSetpoints) set-points after the release")

            // When followme gets SIGTERM
            let run = try #require(rig.run)
            run.signal(SIGTERM)
            let exit = await run.waitForExit(seconds: 10)
            // Then it exits at once with 3 (released, not landed), and the Copter is still the pilot's
            #expect(exit == 3, "exit \(String(describing: exit))\n\(run.stderrText.text.suffix(1500))")
            let after = Self.copter(rig.status())
            #expect(after["mode"] as? String == "LOITER" && after["armed"] as? Bool == true
                    && after["landed_state"] as? String == "in-air", "\(after)")

            // And once FollowMe's HEARTBEAT has been gone for FS_GCS_TIMEOUT, the GCS failsafe leaves the
            // pilot in control (FS_OPTIONS 16: continue in pilot-controlled modes): still LOITER
            let failsafe = await poll(seconds: 8) { () -> [String: Any]? in
                let c = Self.copter(try? rig.control.status())
                return c["gcs_failsafe"] as? Bool == true ? c : nil
            }
            #expect(failsafe?["mode"] as? String == "LOITER" && failsafe?["armed"] as? Bool == true, "\(failsafe ?? [:])")
            FaultReport.record("mavlink-pilot-loiter", [
                "to_released_s": released.map { $0.t - t0 } ?? .nan, "exit_on_sigterm": Int(exit ?? -1),
                "distance_at_release_m": distanceAtRelease, "distance_after_10s_m": distanceAfter,
                "commands_after_release": newCommands, "setpoints_after_release": newSetpoints,
            ])
        }
    }

    @Test("FollowMe killed (SIGKILL) while following: with FS_GCS_ENABLE 5 the Copter lands by itself ~5 s later and disarms",
          .timeLimit(.minutes(2)))
    func killedFollowMe() async throws {
        try await FaultRig.withFollowingField("mavlink-killed", drone: .mavlink) { rig in
            // Given followme following with the Copter in GUIDED, in the air
            let before = Self.copter(rig.status())
            #expect(before["mode"] as? String == "GUIDED" && before["landed_state"] as? String == "in-air", "\(before)")

            // When followme is killed: no landing of its own, its HEARTBEAT simply stops
            let run = try #require(rig.run)
            let t0 = monotonicSeconds()
            run.signal(SIGKILL)
            #expect(await run.waitForExit(seconds: 5) != nil)

            // Then the Copter's GCS failsafe enters LAND FS_GCS_TIMEOUT (5 s) after the last HEARTBEAT
            let land = await poll(seconds: 10) { () -> SimStatus? in
                guard let s = try? rig.control.status(), Self.copter(s)["mode"] as? String == "LAND" else { return nil }
                return s
            }
            let toLand = land.map { $0.t - t0 } ?? .nan
            #expect((4...7).contains(toLand), "LAND \(toLand) s after SIGKILL: \(Self.copter(land))")
            #expect(Self.copter(land)["gcs_failsafe"] as? Bool == true)

            // And it lands (a 4 s pause, then 2 m at 0.5 m/s) and disarms, by itself
            let down = await poll(seconds: 20) { () -> SimStatus? in
                guard let s = try? rig.control.status(), s.state == "landed", Self.copter(s)["armed"] as? Bool == false
                else { return nil }
                return s
            }
            #expect(down != nil, "sim: \(Self.copter(rig.status()))")
            #expect(down.map(rig.landingReason) == "gcs-failsafe", "\(Self.copter(down))")
            #expect((down?.altitudeMeters ?? .nan) < 0.05, "\(down?.summary ?? "-")")
            FaultReport.record("mavlink-killed", [
                "to_gcs_failsafe_land_s": toLand, "to_disarmed_s": down.map { $0.t - t0 } ?? .nan,
            ])
        }
    }

    @Test("FS_GCS_ENABLE 0 or FS_OPTIONS 0 (followme sim --fs-gcs-enable 0, --fs-options 0): FollowMe never takes off, naming the parameter; SIGTERM exits 0",
          .timeLimit(.minutes(2)), arguments: [(flag: "--fs-gcs-enable", key: "FS_GCS_ENABLE"), ("--fs-options", "FS_OPTIONS")])
    func noGCSFailsafeNoTakeOff(flag: String, key: String) async throws {
        await FieldSlots.shared.acquire()
        let rig = try await FaultRig.start(name: "mavlink\(flag)-0", config: shortFailsafes, drone: .mavlink,
                                           simArguments: [flag, "0"])
        do {
            // Given a Copter whose GCS failsafe is off (or would take a pilot's LOITER), and followme run as its ground station
            // Then followme reads the parameter and refuses: a config-failed line naming it
            let failed = await poll(seconds: 30) { rig.log.linkEvents("config-failed").first }
            #expect(failed?["key"] as? String == key, "\(failed ?? [:])\n\(rig.diagnostics())")
            // And it stays in preflight, waiting on the drone's configuration, for the next 5 s
            try await Task.sleep(for: .seconds(5))
            let states = rig.log.transitions().flatMap { [$0.from, $0.to] }
            let waiting = rig.log.text.split(separator: "\n").last {
                $0.contains("preflight(waiting:") && $0.contains("drone-configuration")
            }
            #expect(waiting != nil, "\(rig.log.tail())")
            #expect(!states.contains { ["taking-off", "climbing", "following"].contains($0) }, "\(states)")
            // And the Copter never armed
            let copter = Self.copter(rig.status())
            #expect(copter["armed"] as? Bool == false && copter["landed_state"] as? String == "on-ground", "\(copter)")

            // When followme gets SIGTERM, it exits 0 (nothing to land)
            let run = try #require(rig.run)
            run.signal(SIGTERM)
            let exit = await run.waitForExit(seconds: 10)
            #expect(exit == 0, "exit \(String(describing: exit))\n\(run.stderrText.text.suffix(1500))")
        } catch {
            print(rig.diagnostics())
            await rig.stopAll()
            await FieldSlots.shared.release()
            throw error
        }
        await rig.stopAll()
        await FieldSlots.shared.release()
    }
}
