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
    /// (0 north, 90 east), and the horizontal distance between them, metres; on the MAVLink Copter, how
    /// far from the person its camera's region of interest is, metres (nil: none set).
    struct Sample {
        var bearingDegrees: Double
        var distanceMeters: Double
        var regionOfInterestOffPersonMeters: Double?
    }

    /// The sim's home (`followme sim`'s default), for turning the Copter's ROI into metres.
    static let home = (latitude: 48.8584, longitude: 2.2945)

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
        // orbit mode at 2 m/s counter-clockwise on the simulated ArduPilot Copter with a mount (MNT1_TYPE 1:
        // without one FollowMe sends no region of interest, docs/mavlink.md §7.13)
        let samples = try await Self.fly(
            label: "mode-orbit", simArguments: ["--person-start", "100000", "--protocol", "mavlink", "--mavlink-port", "0", "--mount-type", "1"],
            follow: ["mode": "\"orbit\"", "orbit_speed_mps": "2.0", "orbit_direction": "\"counterclockwise\""],
            followingSeconds: 14, mavlink: true) { control in
            // And after SIGTERM (a landing) the camera's region of interest is cleared (DO_SET_ROI_NONE)
            let cleared = await eventually(seconds: 3) { ((try? control.status().raw["mavlink"]) as? [String: Any])?["roi_lat"] == nil }
            #expect(cleared, "the Copter still has a region of interest after the landing began")
        }
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
        // And with point_camera the Copter's camera looked at the person (DO_SET_ROI_LOCATION, once a second)
        let roi = samples.suffix(20).compactMap(\.regionOfInterestOffPersonMeters)
        #expect(roi.count >= 15 && roi.allSatisfy { $0 < 4 }, "ROI off the person by \(roi) m")
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
        label: String, simArguments: [String], follow: [String: String], followingSeconds: Double, mavlink: Bool = false,
        afterTerminate: (SimControl) async -> Void = { _ in }
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
                overrides["mavlink"] = ["address": "\"127.0.0.1\"", "port": "\(port)", "autopilot": "\"ardupilot\"",
                                        "point_camera": "true"]
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
                    samples.append(Sample(bearingDegrees: bearing < 0 ? bearing + 360 : bearing, distanceMeters: distance,
                                          regionOfInterestOffPersonMeters: Self.regionOfInterestOffPerson(s)))
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
            // And it followed all along: no hold, no landing while sampled
            #expect(log.transitions().last?.to == "following", "\(log.transitions().map(\.to))")
        }
        await run.terminate()
        await afterTerminate(control)
        await field.stop()
        return samples
    }

    /// How far the Copter's region of interest (status `mavlink.roi_lat/roi_lon`) is from the person, metres.
    static func regionOfInterestOffPerson(_ s: SimStatus) -> Double? {
        guard let mavlink = s.raw["mavlink"] as? [String: Any], let lat = mavlink["roi_lat"] as? Double,
              let lon = mavlink["roi_lon"] as? Double, let pe = s.personEast, let pn = s.personNorth else { return nil }
        let north = (lat - home.latitude) * 111_200, east = (lon - home.longitude) * 111_200 * cos(home.latitude * .pi / 180)
        return hypot(east - pe, north - pn)
    }
}
