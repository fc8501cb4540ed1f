import Foundation
import Testing
import TestSupport

/// FollowMe commands only its own flight (docs/mavlink.md §7.14), with real processes on loopback: the
/// built `followme run` (`takeoff = "start"`) as the ground station of `followme sim --protocol mavlink`,
/// a real gpsd for the person (standing), and a pilot flying the same Copter from their own ground
/// station (system 255: the control port's `pilot-takeoff` and `pilot-land`, docs/mavlink.md §8.5).
/// What FollowMe sent is read from the Copter itself (`commands_by_system`, `setpoints_by_system` of the
/// sim's status: FollowMe is system 245, docs/mavlink.md §3), and what it thought from its flight log.
@Suite("MAVLink Copter: a pilot's own flights get no command from FollowMe, before and after its own flight", .serialized)
struct MAVLinkPilotsOwnFlightsTests {
    /// The Copter's part of the sim's status (`mode`, `armed`, `landed_state`, counters).
    static func copter(_ status: SimStatus?) -> [String: Any] { status?.raw["mavlink"] as? [String: Any] ?? [:] }

    /// COMMAND_LONG/COMMAND_INT and set-points the Copter received from system `system`, so far.
    static func sent(by system: Int, _ status: SimStatus?) -> (commands: Int, setpoints: Int) {
        let copter = Self.copter(status)
        return ((copter["commands_by_system"] as? [String: Int])?[String(system)] ?? 0,
                (copter["setpoints_by_system"] as? [String: Int])?[String(system)] ?? 0)
    }

    /// `followme start|land --socket SOCKET` from another shell.
    static func command(_ word: String, socket: String) throws -> ChildProcess.Completed {
        try ChildProcess.run(FollowMeBinary.url.path, [word, "--socket", socket], timeoutSeconds: 30)
    }

    static let followMe = 245, pilot = 255

    @Test("one run: a pilot flies while FollowMe waits for START → nothing sent, back to preflight; START flies FollowMe's own flight and LAND lands it; a pilot flies again → nothing sent; SIGTERM exits 0",
          .timeLimit(.minutes(4)))
    func pilotsFlightsGetNothing() async throws {
        await FieldSlots.shared.acquire()
        var rig: FaultRig?
        do {
            let dir = try scratchDirectory(label: "faults")
            let socket = dir.appendingPathComponent("status.sock").path
            // The person stands (their walk would start once the Copter is airborne: an hour later instead).
            let field = try await FaultRig.startSim(
                name: "mavlink-pilots-own-flights", dir: dir,
                config: merged(shortFailsafes, ["follow": ["takeoff": "\"start\""]]),
                runArguments: ["--status-socket", socket], drone: .mavlink, simArguments: ["--person-start", "3600"])
            rig = field
            try field.startGPSD()
            try field.startRun()
            try await Self.scenario(field, socket: socket)
        } catch {
            if let rig { print(rig.diagnostics()) }
            await rig?.stopAll()
            await FieldSlots.shared.release()
            throw error
        }
        await rig?.stopAll()
        await FieldSlots.shared.release()
    }

    private static func scenario(_ rig: FaultRig, socket: String) async throws {
        let started = monotonicSeconds()
        // Given followme run waiting on the ground for START, its message rates set
        let waiting = await eventually(seconds: 60) { watchedFlightState(socket: socket) == "preflight(waiting: start)" }
        try #require(waiting, "\(rig.diagnostics())")
        let before = rig.status()
        #expect(Self.copter(before)["armed"] as? Bool == false, "\(Self.copter(before))")

        // When a pilot arms the Copter, takes it off to 3 m from their own station and switches to LOITER
        let firstWatch = try await Self.pilotFlies(rig, socket: socket, watchSeconds: 6, label: "first")

        // And lands it (LAND, disarmed on the ground)
        let landedAt = try await Self.pilotLands(rig)
        // Then FollowMe is back in preflight, waiting for START (the pilot's flight is over)
        let back = await rig.log.waitForTransition(after: landedAt - 1, within: 10) { $0.reason == "landed-while-released" }
        #expect(back?.to.hasPrefix("preflight") == true, "\(back?.description ?? "no landed-while-released")\n\(rig.log.tail())")
        let waitingAgain = await eventually(seconds: 10) { watchedFlightState(socket: socket) == "preflight(waiting: start)" }
        #expect(waitingAgain, "state \(watchedFlightState(socket: socket) ?? "?")")
        try await Task.sleep(for: .seconds(1))
        // And the Copter got no command and no set-point from FollowMe all along; the pilot's 4 commands counted
        let afterFirst = rig.status()
        #expect(Self.sent(by: followMe, afterFirst) == Self.sent(by: followMe, before),
                "FollowMe sent \(Self.sent(by: followMe, before)) → \(Self.sent(by: followMe, afterFirst)) (commands, set-points) during the pilot's flight")
        #expect(Self.sent(by: pilot, afterFirst).commands == 4, "\(Self.copter(afterFirst))")

        // When the operator says START (`followme start` from another shell)
        let start = try Self.command("start", socket: socket)
        #expect(start.exitCode == 0 && start.stdout.hasPrefix("start: accepted"), "\(start.stdout) \(start.stderr)")
        // Then FollowMe takes off its own flight (GUIDED, armed by it) and follows
        let following = await rig.log.waitForTransition(to: "following", after: started, within: 40)
        try #require(following != nil, "\(rig.diagnostics())")
        let flying = rig.status()
        #expect(Self.copter(flying)["mode"] as? String == "GUIDED" && Self.copter(flying)["landed_state"] as? String == "in-air",
                "\(Self.copter(flying))")
        #expect(Self.sent(by: followMe, flying).commands > Self.sent(by: followMe, afterFirst).commands)
        #expect(Self.sent(by: followMe, flying).setpoints > 0)
        // When `followme land`, it lands its flight and the Copter disarms
        let land = try Self.command("land", socket: socket)
        #expect(land.exitCode == 0 && land.stdout.contains("landing(operator)"), "\(land.stdout) \(land.stderr)")
        let disarmed = await poll(seconds: 20) { () -> SimStatus? in
            guard let s = try? rig.control.status(), Self.copter(s)["armed"] as? Bool == false,
                  Self.copter(s)["landed_state"] as? String == "on-ground" else { return nil }
            return s
        }
        try #require(disarmed != nil, "\(Self.copter(rig.status()))\n\(rig.diagnostics())")
        #expect(Self.copter(disarmed)["mode"] as? String == "LAND")
        let landed = await eventually(seconds: 10) { watchedFlightState(socket: socket) == "landed" }
        #expect(landed, "state \(watchedFlightState(socket: socket) ?? "?")")
        try await Task.sleep(for: .seconds(1))
        let afterOwn = rig.status()

        // When a pilot flies again in the same run, and lands
        let secondWatch = try await Self.pilotFlies(rig, socket: socket, watchSeconds: 3, label: "second")
        let landedAgainAt = try await Self.pilotLands(rig)
        // Then FollowMe watched and is landed again (it takes off once per run), and sent nothing to the pilot's flight
        let over = await rig.log.waitForTransition(after: landedAgainAt - 1, within: 10) { $0.reason == "landed-while-released" }
        #expect(over?.to == "landed", "\(over?.description ?? "no landed-while-released")\n\(rig.log.tail())")
        try await Task.sleep(for: .seconds(1))
        let afterSecond = rig.status()
        #expect(Self.sent(by: followMe, afterSecond) == Self.sent(by: followMe, afterOwn),
                "FollowMe sent \(Self.sent(by: followMe, afterOwn)) → \(Self.sent(by: followMe, afterSecond)) (commands, set-points) during the pilot's second flight")
        #expect(Self.sent(by: pilot, afterSecond).commands == 8, "\(Self.copter(afterSecond))")

        // When followme gets SIGTERM on the ground (not released: docs/commands.md §2), it exits 0
        let run = try #require(rig.run)
        run.signal(SIGTERM)
        let exit = await run.waitForExit(seconds: 15)
        #expect(exit == 0, "exit \(String(describing: exit))\n\(run.stderrText.text.suffix(1500))")
        FaultReport.record("mavlink-pilots-own-flights", [
            "scenario_s": monotonicSeconds() - started,
            "first_pilot_flight_watched_as": firstWatch?.description ?? "-", "back_to": back?.description ?? "-",
            "second_pilot_flight_watched_as": secondWatch?.description ?? "-", "after_second": over?.description ?? "-",
            "followme_commands_setpoints": ["\(Self.sent(by: followMe, before))", "\(Self.sent(by: followMe, afterFirst))",
                                            "\(Self.sent(by: followMe, afterOwn))", "\(Self.sent(by: followMe, afterSecond))"],
        ])
    }

    /// The pilot takes off to 3 m and switches to LOITER; checks that FollowMe watches (flight log:
    /// released, from preflight or landed) and the Copter stays the pilot's, in LOITER in the air, for `watchSeconds`.
    /// Returns the transition into released.
    private static func pilotFlies(_ rig: FaultRig, socket: String, watchSeconds: Double, label: String) async throws -> Transition? {
        let before = Self.sent(by: followMe, rig.status())
        let reply = try rig.control.send(["command": "pilot-takeoff", "meters": 3, "mode": "LOITER"])
        let t0 = reply["t"] as? Double ?? .nan
        // FollowMe watches: the flight goes to released(…) (someone-elses-flight, or the mode the link saw)
        let released = await rig.log.waitForTransition(after: t0 - 0.5, within: 10) { $0.to.hasPrefix("released(") }
        #expect(released != nil, "[\(label)] no released transition\n\(rig.log.tail())")
        let loiter = await poll(seconds: 15) { () -> SimStatus? in
            guard let s = try? rig.control.status(), Self.copter(s)["mode"] as? String == "LOITER" else { return nil }
            return s
        }
        var samples: [String] = []
        let end = monotonicSeconds() + (loiter == nil ? 0 : watchSeconds)
        while monotonicSeconds() < end {
            let c = Self.copter(try? rig.control.status())
            samples.append("\(c["mode"] as? String ?? "?") \(c["armed"] as? Bool == true ? "armed" : "disarmed") \(c["landed_state"] as? String ?? "?")")
            try await Task.sleep(for: .milliseconds(500))
        }
        // Nothing from FollowMe reached the pilot's Copter while it took off and flew (a LAND would have
        // kept it from LOITER)
        let after = rig.status()
        #expect(Self.sent(by: followMe, after) == before,
                "[\(label)] FollowMe sent \(before) → \(Self.sent(by: followMe, after)) (commands, set-points) to the pilot's flight")
        try #require(loiter != nil, "[\(label)] the pilot's Copter never reached LOITER: \(Self.copter(after))")
        #expect(samples.allSatisfy { $0 == "LOITER armed in-air" }, "[\(label)] \(samples)")
        let state = watchedFlightState(socket: socket) ?? "?"
        #expect(state.hasPrefix("released("), "[\(label)] state \(state)")
        return released
    }

    /// The pilot sends LAND; waits until the Copter is disarmed on the ground; returns the sim's time of the LAND.
    private static func pilotLands(_ rig: FaultRig) async throws -> Double {
        let reply = try rig.control.send(["command": "pilot-land"])
        let down = await poll(seconds: 15) { () -> SimStatus? in
            guard let s = try? rig.control.status(), Self.copter(s)["armed"] as? Bool == false,
                  Self.copter(s)["landed_state"] as? String == "on-ground" else { return nil }
            return s
        }
        try #require(down != nil, "the pilot's Copter did not land: \(Self.copter(rig.status()))")
        return reply["t"] as? Double ?? .nan
    }
}
