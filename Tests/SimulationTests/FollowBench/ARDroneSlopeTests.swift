@testable import Simulation
@testable import FollowCore
import Testing

/// Issue 26 item 3 on the AR.Drone: its altitude is the ultrasound's, height above the ground under it,
/// so it climbs a slope by itself and `altitude_mode` changes nothing there. On the bench's sloped walk
/// (`uphill-walk`: 20 m flat, then 10 % for 100 m) the simulated AR.Drone has the slope under it
/// (`DroneSimulator.groundAltitudeMeters`), on the nominal and the off-model plant.
@Suite("AR.Drone on a slope: altitude_m above the ground under it")
struct ARDroneSlopeTests {
    static func run(plant: BenchPlant, noise: BenchNoise = .clean) throws -> BenchResult {
        var c = BenchConfiguration()
        c.plant = plant
        return try BenchRunner.run(.uphillWalk(), controller: .followMe, noise: noise, configuration: c, link: .ardrone)
    }

    @Test("up 10 m of 10 % grade: the drone keeps altitude_m above the ground under it, so ≈ grade × standoff below the walker's",
          arguments: BenchPlant.allCases)
    func climbsWithTheGround(plant: BenchPlant) throws {
        // Given the walker going up the grade with the AR.Drone following (the leash, altitude_mode "person")
        let result = try Self.run(plant: plant)
        let altitude = try #require(BenchScenario.uphillWalk().followMode?.altitudeMeters)
        let slope = SlopeWalkScenario()
        // Then its ultrasound height stays near altitude_m all the way up (the ground rising under it is
        // taken back by the controller's climb), never near the ground
        let following = result.track.filter { $0.timeSeconds > 30 }
        let heights = following.compactMap(\.altitudeMeters)
        let worst = heights.map { abs($0 - altitude) }.max() ?? .infinity
        #expect(worst < 0.6, "worst |height above ground − altitude_m| \(worst) m on \(plant)")
        // And it really climbed: at the end it is ≈ 10 m above take-off (the ground under it) + altitude_m
        let last = try #require(following.last)
        let aboveTakeoff = try #require(last.altitudeMeters) + slope.groundAltitudeMeters(atPlane: last.dronePlane)
        #expect(abs(aboveTakeoff - (altitude + 10)) < 0.6, "above take-off at the end \(aboveTakeoff) m")
        // by its own climb: on the grade the link asks the firmware to climb (PCMD gaz > 0), on the flat not
        let start = BenchConfiguration().personStartSeconds
        func meanGaz(_ from: Double, _ to: Double) -> Double {
            let gaz = result.track.filter { $0.timeSeconds > start + from && $0.timeSeconds < start + to }
                .compactMap { $0.pcmd.flatMap { $0.count > 2 ? $0[2] : nil } }
            return gaz.reduce(0, +) / Double(max(gaz.count, 1))
        }
        let flatGaz = meanGaz(8, 14), slopeGaz = meanGaz(40, 80)
        print("[\(plant)] mean gaz flat \(flatGaz), on the grade \(slopeGaz)")
        #expect(abs(flatGaz) < 0.02 && slopeGaz > 0.1, "gaz flat \(flatGaz), on the grade \(slopeGaz)")
        // And its height above the walker's ground is altitude_m less the rise between them: 11 m behind on
        // 10 % ≈ 1.1 m lower (the figure the bench prints as height RMS for this run)
        let height = try #require(result.metrics.followMode?.heightErrorRMSMeters)
        #expect(abs(height - slope.grade * result.standoffMeters) < 0.3, "height RMS \(height) m")
        #expect(result.finalControllerState == "following", "\(result.events.map(\.description))")
        #expect(result.metrics.minSeparationMeters >= BenchConfiguration().failsafe.minSeparationMeters)
    }

    @Test("flat ground gives the AR.Drone no terrain: the walk without a slope flies as before (heights equal)")
    func flatIsUnchanged() throws {
        var flat = SlopeWalkScenario()
        flat.grade = 0
        #expect(!flat.hasTerrain && SlopeWalkScenario().hasTerrain)
        #expect(SlopeWalkScenario().groundAltitudeMeters(atPlane: PlaneVector(east: 0, north: 70)) == 5)
        #expect(SlopeWalkScenario().groundAltitudeMeters(atPlane: PlaneVector(east: 30, north: -11)) == 0)
    }
}
