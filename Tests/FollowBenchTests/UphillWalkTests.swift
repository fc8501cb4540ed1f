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
        #expect(abs(top - 13) < 0.6, "top \(top) m")
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
}
