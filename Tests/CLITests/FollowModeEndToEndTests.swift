import Foundation
import Testing
import TestSupport

/// The follow modes end to end (issue 26, "Done means"): `followme sim` serves the person's and the
/// drone's NMEA over TCP, a real gpsd reads them, and `followme run` flies `[follow] mode = "angle"`
/// (180: behind) on the AR.Drone link and `"orbit"` on the MAVLink link. What the drone did is read from
/// the simulator's ground truth (its control channel), not from what followme believes: it ends up
/// behind the walker / goes round the standing person, and never comes inside `min_separation_m`.
@Suite(.serialized) struct FollowModeEndToEndTests {
    /// `follow.standoff_m` and `failsafe.min_separation_m` at their defaults (etc/followme.toml).
    static let standoffMeters = 11.0
    static let minSeparationMeters = 3.0

    /// One look at the simulator's truth: the drone's compass bearing from the person, degrees
    /// (0 north, 90 east), and the horizontal distance between them, metres.
    struct Sample {
        var bearingDegrees: Double
        var distanceMeters: Double
    }

    @Test("angle 180 (AR.Drone): the drone goes round from the walker's side to behind them, never inside min_separation_m",
          .timeLimit(.minutes(2)))
    func angleBehindWalker() async throws {
        // Given a person who walks east once the drone is up (the drone starts 10 m north of them:
        // on their left), and a flight in the angle mode at 180°
        let samples = try await Self.fly(
            label: "mode-angle", simArguments: ["--person-bearing-deg", "90"],
            follow: ["mode": "\"angle\"", "angle_deg": "180.0"], followingSeconds: 16)
        // Then it never came inside min_separation_m
        Self.expectSeparation(samples)
        // And over the last 3 s it is behind the walker (west of them, bearing 270°) at about the standoff
        let last = samples.suffix(12)
        let angleErrors = last.map { abs(Self.wrapped($0.bearingDegrees - 270)) }
        #expect(!last.isEmpty && angleErrors.allSatisfy { $0 < 25 }, "angle error over the last 3 s: \(angleErrors)")
        #expect(last.allSatisfy { abs($0.distanceMeters - Self.standoffMeters) < 3 }, "\(last.map(\.distanceMeters))")
        // And it got there by going round: it started on the walker's left (north of them)
        let first = try #require(samples.first)
        #expect(abs(Self.wrapped(first.bearingDegrees)) < 45, "first bearing \(first.bearingDegrees)")
        print("FollowModeEndToEnd angle: bearing \(first.bearingDegrees)° → \(last.map(\.bearingDegrees).last ?? .nan)°, "
            + "closest \(samples.map(\.distanceMeters).min() ?? .nan) m")
    }

    @Test("orbit counter-clockwise (MAVLink): the drone circles a standing person at the standoff, never inside min_separation_m",
          .timeLimit(.minutes(2)))
    func orbitStandingPerson() async throws {
        // Given a person who stands still (their walk starts long after the test), and a flight in the
        // orbit mode at 2 m/s counter-clockwise on the simulated ArduPilot Copter
        let samples = try await Self.fly(
            label: "mode-orbit", simArguments: ["--person-start", "100000", "--protocol", "mavlink", "--mavlink-port", "0"],
            follow: ["mode": "\"orbit\"", "orbit_speed_mps": "2.0", "orbit_direction": "\"counterclockwise\""],
            followingSeconds: 14, mavlink: true)
        // Then it never came inside min_separation_m
        Self.expectSeparation(samples)
        // And it went round them counter-clockwise (the compass bearing falls): at 2 m/s on 11 m,
        // 10.4°/s; at least 90° in the 14 s
        var turned = 0.0
        for (a, b) in zip(samples, samples.dropFirst()) { turned += Self.wrapped(b.bearingDegrees - a.bearingDegrees) }
        #expect(turned < -90, "turned \(turned)° round the person")
        // And once round the circle it keeps the standoff
        let settled = samples.suffix(samples.count / 2).map(\.distanceMeters)
        #expect(!settled.isEmpty && settled.allSatisfy { abs($0 - Self.standoffMeters) < 2 }, "\(settled)")
        print("FollowModeEndToEnd orbit: turned \(turned)° in \(samples.count) samples, distance \(settled.min() ?? .nan)…\(settled.max() ?? .nan) m")
    }

    /// Degrees into −180…180.
    static func wrapped(_ degrees: Double) -> Double {
        let d = degrees.truncatingRemainder(dividingBy: 360)
        return d > 180 ? d - 360 : d < -180 ? d + 360 : d
    }

    static func expectSeparation(_ samples: [Sample]) {
        #expect(samples.count >= 40, "only \(samples.count) samples")
        let closest = samples.map(\.distanceMeters).min() ?? .nan
        #expect(closest >= minSeparationMeters, "closest approach \(closest) m")
    }

    /// Starts the field and `followme run` with `follow` in `[follow]` (on the MAVLink Copter if
    /// `mavlink`), waits for `following`, then samples the simulator's truth every 250 ms for
    /// `followingSeconds`, stops everything by PID and returns the samples (each from the person).
    static func fly(
        label: String, simArguments: [String], follow: [String: String], followingSeconds: Double, mavlink: Bool = false
    ) async throws -> [Sample] {
        let dir = try scratchDirectory(label: label)
        defer { try? FileManager.default.removeItem(at: dir) }
        let field = try await SimField.start(in: dir, name: label, control: true, simArguments: simArguments)
        let log = FlightLogLines(url: dir.appendingPathComponent("flight.jsonl"))
        let run: ChildProcess
        do {
            var overrides: ConfigOverrides = ["follow": follow]
            if mavlink {
                let port = try #require(RunMAVLinkEndToEndTests.mavlinkPort(of: field))
                overrides["drone"] = ["protocol": "\"mavlink\""]
                overrides["mavlink"] = ["address": "\"127.0.0.1\"", "port": "\(port)", "autopilot": "\"ardupilot\""]
            }
            run = try field.startRun(flightLog: log.url, overrides: overrides)
        } catch {
            await field.stop()
            throw error
        }
        let control = try #require(field.control)
        var samples: [Sample] = []
        let following = await eventually(seconds: 60) { !run.isRunning || log.transitions().contains { $0.to == "following" } }
            && run.isRunning
        #expect(following, "never reached following: \(log.transitions().map(\.to))\n\(run.stderrText.text.suffix(3000))")
        if following {
            let end = monotonicSeconds() + followingSeconds
            while monotonicSeconds() < end {
                if let s = try? control.status(), let offset = s.droneMinusPerson, let distance = s.droneToPersonMeters {
                    let bearing = atan2(offset.east, offset.north) * 180 / .pi
                    samples.append(Sample(bearingDegrees: bearing < 0 ? bearing + 360 : bearing, distanceMeters: distance))
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
            // And it followed all along: no hold, no landing while sampled
            #expect(log.transitions().last?.to == "following", "\(log.transitions().map(\.to))")
        }
        await run.terminate()
        await field.stop()
        return samples
    }
}
