import Foundation
import Testing
import TestSupport

/// `followme run` with `[drone] protocol = "mavlink"` end to end (issue 16, "Done means"): `followme sim
/// --protocol mavlink` (an ArduPilot-like Copter speaking MAVLink 2 on loopback UDP, the person's NMEA
/// over TCP), a real gpsd reading the person's receiver, and `followme run` as the Copter's ground
/// station with the autopilot's own position (no onboard receiver read). It takes off, follows, holds
/// when the person's receiver goes silent, lands on SIGTERM confirmed by the Copter, and exits 0.
/// Ground truth comes from the simulator's control channel, not from what followme believes.
@Suite(.serialized) struct RunMAVLinkEndToEndTests {
    /// `follow.standoff_m` and `follow.altitude_m` at their defaults (etc/followme.toml).
    static let standoffMeters = 11.0
    static let altitudeMeters = 3.0

    /// `[mavlink] position_source`: the autopilot's own estimate (no onboard receiver read), or the
    /// sim's onboard NMEA receiver through gpsd (heading from its HDT plus `mount_offset_deg`), as with
    /// the AR.Drone.
    @Test("MAVLink Copter: takes off, follows at the standoff, holds on target loss, lands on SIGTERM, exits 0",
          .timeLimit(.minutes(5)), arguments: ["autopilot", "receiver"])
    func followHoldAndLandOnSIGTERM(positionSource: String) async throws {
        let dir = try scratchDirectory(label: "mavlink-run")
        defer { try? FileManager.default.removeItem(at: dir) }

        // Given the simulated Copter (any free MAVLink port) — with a MAVLink camera that records video (CAM1_TYPE 6)
        // for the autopilot's position, without a camera (CAM1_TYPE 0) for the receiver's — a person who starts
        // walking once it is up, and a real gpsd reading the person's receiver
        let camera = positionSource == "autopilot"
        let field = try await SimField.start(
            in: dir, name: "mavlink", control: true,
            simArguments: ["--protocol", "mavlink", "--mavlink-port", "0", "--camera-type", camera ? "6" : "0"])
        let run: ChildProcess
        do {
            let port = try #require(Self.mavlinkPort(of: field), "no mavlink_port in \(field.sim.stdoutLines.text.prefix(500))")
            // And followme run as its ground station: ArduPilot, the drone's position from `positionSource`
            run = try field.startRun(flightLog: dir.appendingPathComponent("flight.jsonl"), ["--land-timeout", "40"],
                                     overrides: [
                                         "drone": ["protocol": "\"mavlink\""],
                                         "mavlink": ["address": "\"127.0.0.1\"", "port": "\(port)",
                                                     "autopilot": "\"ardupilot\"",
                                                     "position_source": "\"\(positionSource)\""],
                                     ])
        } catch {
            await field.stop()
            throw error
        }
        let log = FlightLogLines(url: dir.appendingPathComponent("flight.jsonl"))
        await Self.fly(run: run, field: field, log: log)
        await run.terminate()
        await field.stop()
        // And the drone's own fixes came from where the file says: the autopilot, or the onboard receiver
        let devices = Set(log.onboardFixDevices())
        #expect(devices == [positionSource == "autopilot" ? "autopilot" : field.onboardDevice], "\(devices)")
        // And the vehicle's camera (docs/mavlink.md §7.15): started while following and stopped once down, each in
        // the flight log; without one, "none" said once
        #expect(log.cameraStates() == (camera ? ["ready", "recording", "stopped"] : ["none"]), "\(log.cameraStates())")
    }

    /// The MAVLink port `followme sim --json` printed in its "listening" line.
    static func mavlinkPort(of field: SimField) -> Int? {
        guard let first = field.sim.stdoutLines.lines.first,
              let object = try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any],
              object["protocol"] as? String == "mavlink"
        else { return nil }
        return object["mavlink_port"] as? Int
    }

    /// True if `wanted` appear in `states` in this order (others may come between).
    static func inOrder(_ wanted: [String], in states: [String]) -> Bool {
        var rest = states[...]
        for state in wanted {
            guard let index = rest.firstIndex(of: state) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    static func fly(run: ChildProcess, field: SimField, log: FlightLogLines) async {
        guard let control = field.control else {
            Issue.record("the field has no control channel")
            return
        }
        func diagnostics() -> String {
            "sim: \((try? control.status().raw).map { "\($0)" } ?? "-")\nrun stderr:\n\(run.stderrText.text.suffix(3000))"
        }

        // Then it takes off and starts following within 90 s
        let following = await eventually(seconds: 90) {
            !run.isRunning || log.transitions().contains { $0.to == "following" }
        } && run.isRunning
        #expect(following, "never reached following\n\(diagnostics())")
        guard following else { return }
        let states = log.transitions().map(\.to)
        #expect(Self.inOrder(["taking-off", "climbing", "following"], in: states), "\(states)")
        // And the Copter is armed, in the air, in GUIDED, at the follow altitude
        if let copter = try? control.status() {
            let mavlink = copter.raw["mavlink"] as? [String: Any] ?? [:]
            #expect(mavlink["armed"] as? Bool == true && mavlink["mode"] as? String == "GUIDED", "\(mavlink)")
            #expect(mavlink["landed_state"] as? String == "in-air", "\(mavlink)")
            #expect(abs(copter.altitudeMeters - Self.altitudeMeters) < 1, "altitude \(copter.altitudeMeters)")
        } else {
            Issue.record("no status from the sim")
        }

        // And it follows the walking person at about the standoff: over 12 s of following, the Copter
        // travels with the person, and the horizontal distance settles near follow.standoff_m
        var samples: [(drone: (Double, Double), person: (Double, Double))] = []
        for _ in 0..<24 {
            try? await Task.sleep(for: .milliseconds(500))
            guard let s = try? control.status(), let pe = s.personEast, let pn = s.personNorth else { continue }
            samples.append(((s.east, s.north), (pe, pn)))
        }
        #expect(samples.count >= 20, "status samples: \(samples.count)")
        guard let first = samples.first, let last = samples.last else { return }
        let droneTravel = hypot(last.drone.0 - first.drone.0, last.drone.1 - first.drone.1)
        let personTravel = hypot(last.person.0 - first.person.0, last.person.1 - first.person.1)
        #expect(personTravel > 10, "the person walked \(personTravel) m in 12 s")
        #expect(droneTravel > 0.6 * personTravel, "drone \(droneTravel) m, person \(personTravel) m")
        let distances = samples.suffix(10).map { hypot($0.drone.0 - $0.person.0, $0.drone.1 - $0.person.1) }
        let median = distances.sorted()[distances.count / 2]
        #expect(abs(median - Self.standoffMeters) < 3, "distance over the last 5 s: \(distances)")
        print("RunMAVLinkEndToEnd: following: person walked \(personTravel) m, drone flew \(droneTravel) m in 12 s; "
            + "median distance over the last 5 s \(median) m (standoff \(Self.standoffMeters))")
        #expect(log.transitions().last?.to == "following", "\(log.transitions().map(\.to))\n\(diagnostics())")

        // When the person's receiver goes silent
        let silencedAt: Double
        do {
            silencedAt = try control.silence("person", true)
        } catch {
            Issue.record("silence person: \(error)")
            return
        }
        // Then it holds (target-stale) within target_timeout_s (1.5) plus gpsd's and the loop's delays
        let held = await eventually(seconds: 6) {
            log.transitions().contains { $0.t >= silencedAt && $0.to == "holding(target-stale)" }
        }
        #expect(held, "no hold after the target went silent: \(log.transitions().map(\.to))\n\(diagnostics())")
        if let hold = log.transitions().first(where: { $0.t >= silencedAt && $0.to == "holding(target-stale)" }) {
            print("RunMAVLinkEndToEnd: holding(target-stale) \(hold.t - silencedAt) s after the person went silent")
        }
        // And the Copter brakes and stays where it is (a zero-velocity set-point), still in the air
        try? await Task.sleep(for: .seconds(3))
        if let a = try? control.status() {
            try? await Task.sleep(for: .seconds(1))
            if let b = try? control.status() {
                let moved = hypot(b.east - a.east, b.north - a.north)
                #expect(moved < 0.5, "moved \(moved) m in 1 s of holding")
                print("RunMAVLinkEndToEnd: holding: moved \(moved) m in 1 s, speed \(b.raw["speed"] ?? "-") m/s, "
                    + "altitude \(a.altitudeMeters) → \(b.altitudeMeters) m")
                #expect(b.altitudeMeters > Self.altitudeMeters - 1, "altitude \(b.altitudeMeters) while holding")
            }
        }
        #expect(log.transitions().last?.to == "holding(target-stale)", "\(log.transitions().map(\.to))")
        _ = try? control.silence("person", false)

        // When SIGTERM arrives it lands, the Copter confirms it is down, and followme exits 0
        run.signal(SIGTERM)
        let signalledAt = monotonicSeconds()
        let status = await run.waitForExit(seconds: 60)
        print("RunMAVLinkEndToEnd: exit \(String(describing: status)) \(monotonicSeconds() - signalledAt) s after SIGTERM")
        #expect(status == 0, "exit \(String(describing: status))\n\(diagnostics())")
        let after = log.transitions().filter { $0.t >= silencedAt }.map(\.to)
        #expect(after.contains("landing(shutdown)") && after.last == "landed", "\(after)")
        if let copter = try? control.status() {
            let mavlink = copter.raw["mavlink"] as? [String: Any] ?? [:]
            #expect(mavlink["landed_state"] as? String == "on-ground", "\(mavlink)")
            // The camera stopped before followme exited (the stop goes out with the touch-down's datagram)
            #expect(mavlink["camera_recording"] as? Bool == false, "\(mavlink)")
            #expect(copter.altitudeMeters < 0.2, "altitude \(copter.altitudeMeters) after landing")
        }
        // And every line of the flight log parses
        for line in log.text().split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "bad line: \(line)")
        }
    }
}

/// The flight log `followme run` writes, read again on every call.
struct FlightLogLines: Sendable {
    let url: URL

    func text() -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// The `device` of every onboard position fix the flight took in (`"kind":"gps"` lines with a position).
    func onboardFixDevices() -> [String] {
        text().split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == "gps", let event = object["event"] as? [String: Any],
                  event["role"] as? String == "onboard", event["lat"] != nil
            else { return nil }
            return event["device"] as? String ?? "-"
        }
    }

    /// The `value` of every `camera` link line (`LinkEvent.camera`: none, ready, recording, stopped, refused), in order.
    func cameraStates() -> [String] {
        text().split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == "link", object["event"] as? String == "camera"
            else { return nil }
            return object["value"] as? String ?? "-"
        }
    }

    /// Every state transition so far: its time (CLOCK_MONOTONIC seconds, the sim's clock too) and new state.
    func transitions() -> [(t: Double, to: String)] {
        text().split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == "transition", let to = object["to"] as? String,
                  let t = object["t"] as? Double
            else { return nil }
            return (t, to)
        }
    }
}
