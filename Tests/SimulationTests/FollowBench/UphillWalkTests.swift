@testable import Simulation
@testable import FollowCore
import Testing

/// `[follow] altitude_mode = "person"` closed-loop on the bench (issue 26 goal: uphill 10 % for 100 m,
/// height above the person within 0.5 m RMS), behind the MAVLink link (an autopilot's height is above
/// home), on the nominal and the off-model Copter.
@Suite("Uphill walk: altitude_mode person keeps altitude_m above the walker")
struct UphillWalkTests {
    static func run(_ scenario: BenchScenario, plant: BenchPlant) throws -> BenchResult {
        var c = BenchConfiguration()
        c.plant = plant
        return try BenchRunner.run(scenario, controller: .followMe, noise: .clean, configuration: c, link: .mavlink)
    }

    @Test("person: height above the walker ≤ 0.5 m RMS up the whole grade, following throughout, never inside min_separation_m",
          arguments: BenchPlant.allCases)
    func climbsWithTheWalker(plant: BenchPlant) throws {
        // Given a walker going 10 m up a 10 % grade, and a flight in altitude_mode "person"
        let result = try Self.run(.uphillWalk(), plant: plant)
        // Then the drone's height above the walker's ground stays within 0.5 m RMS of altitude_m
        let height = try #require(result.metrics.followMode?.heightErrorRMSMeters)
        #expect(height <= 0.5, "height RMS \(height) m on \(plant)")
        // And it climbed the 10 m with them, following to the end, never too close
        let top = result.track.compactMap(\.altitudeMeters).max() ?? 0
        #expect(abs(top - (FollowParameters.personAltitudeMinimumMeters + 10)) < 0.6, "top \(top) m")
        #expect(result.finalControllerState == "following", "\(result.events.map(\.description))")
        #expect(result.metrics.minSeparationMeters >= BenchConfiguration().failsafe.minSeparationMeters)
    }

    @Test("takeoff (the default) on the same walk: the drone stays at altitude_m above take-off and holds as the ground rises into it")
    func takeoffModeStaysLow() throws {
        let takeoff = BenchScenario(
            name: "uphill-walk-takeoff", summary: "", kind: .synthetic, person: SlopeWalkScenario(), origin: BenchScenario.defaultOrigin,
            durationSeconds: 110, followMode: BenchFollowMode(mode: .leash, altitudeMode: .takeoff, altitudeCeilingMeters: 20))
        let result = try Self.run(takeoff, plant: .nominal)
        // Then it never climbs, and holds (person-above-drone) once the walker is 2 m up: what "person" is for
        let top = result.track.compactMap(\.altitudeMeters).max() ?? 0
        #expect(top < 3.5, "top \(top) m")
        #expect(result.events.contains { $0.description.contains("→ holding(person-above-drone)") },
                "\(result.events.map(\.description))")
    }

    @Test("person, realistic GPS with vertical noise (seeds 1–5): the lowest the drone comes over the ground under it, at altitude_m 3 and 8")
    func clearanceWithVerticalNoise() throws {
        var lowest: [Double: [Double]] = [:]
        for altitude in [3.0, 8.0] {
            var mode = try #require(BenchScenario.uphillWalk().followMode)
            mode.altitudeMeters = altitude
            let scenario = BenchScenario(name: "uphill-walk", summary: "", kind: .synthetic, person: SlopeWalkScenario(),
                                         origin: BenchScenario.defaultOrigin, durationSeconds: 110, followMode: mode)
            for seed in UInt64(1)...5 {
                var c = BenchConfiguration()
                c.seed = seed
                let result = try BenchRunner.run(scenario, controller: .followMe, noise: .realistic, configuration: c, link: .mavlink)
                // Height above the ground under the drone once it has climbed (the walk runs north from the origin)
                let clearances = result.track.filter { $0.timeSeconds > 20 }.compactMap { sample in
                    sample.altitudeMeters.map { $0 - SlopeWalkScenario().groundAltitudeMeters(alongMeters: sample.dronePlane.north) }
                }
                lowest[altitude, default: []].append(((clearances.min() ?? .nan) * 100).rounded() / 100)
                #expect(result.metrics.minSeparationMeters >= c.failsafe.minSeparationMeters)
            }
        }
        // A measurement, not a bound (docs/bench.md §5): the receiver's slow vertical bias flies the drone that much
        // lower; at altitude_m 3 some seeds put it into the slope. Pinned loosely so a change in it is seen.
        print("uphill-walk realistic+vertical, lowest height over the ground under the drone, seeds 1–5: \(lowest.sorted { $0.key < $1.key })")
        #expect(lowest.values.allSatisfy { $0.count == 5 && $0.allSatisfy { $0.isFinite } })
    }
}
