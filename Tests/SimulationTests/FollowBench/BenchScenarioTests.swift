@testable import Simulation
@testable import FollowCore
import Testing

@Suite("Bench scenarios")
struct BenchScenarioTests {
    static let origin = GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7)!

    /// Points `spacing` metres apart heading `bearing`, one per second, from `origin`.
    static func walk(count: Int, spacing: Double = 1.4, bearing: Double = 90, start: Double = 1000) -> [TimedCoordinate] {
        let plane = LocalPlane(origin: origin)
        return (0..<count).map { i in
            TimedCoordinate(timeSeconds: start + Double(i),
                            coordinate: plane.unproject(PlaneVector.unit(bearingDegrees: bearing) * (spacing * Double(i)))!)
        }
    }

    @Test("the standard set, in table order, each starting off in its documented direction", arguments: [
        ("straight-walk", 45.0), ("square", 0.0), ("stop-and-go", 90.0), ("jog-curve", 0.0),
    ])
    func standard(name: String, bearing: Double) throws {
        let scenarios = BenchScenario.standard()
        #expect(scenarios.map(\.name) == ["straight-walk", "square", "stop-and-go", "jog-curve"])
        let s = try #require(scenarios.first { $0.name == name })
        #expect(abs(wrappedDegrees180(s.initialBearingDegrees() - bearing)) < 0.5)
        #expect(s.kind == .synthetic)
        #expect(s.endSeconds == nil)
    }

    @Test("a replay drops repeated and backward timestamps and starts at its first point")
    func replayCleansTimes() throws {
        // Given a recorded walk with a repeated timestamp and one that goes backwards
        var points = Self.walk(count: 20)
        points.insert(TimedCoordinate(timeSeconds: points[5].timeSeconds, coordinate: points[6].coordinate), at: 6)
        points.insert(TimedCoordinate(timeSeconds: points[2].timeSeconds, coordinate: points[2].coordinate), at: 12)
        // When it becomes a scenario
        let scenario = try BenchScenario.replay(name: "walk", summary: "test", points: points)
        // Then it lasts from the first to the last point, at the first point's place, moving east at 1.4 m/s
        #expect(scenario.kind == .replay)
        #expect(scenario.endSeconds == 19)
        #expect(scenario.origin == Self.origin)
        let state = scenario.person.state(atSeconds: 10.5)
        #expect(abs(state.positionPlane.east - 14.7) < 1e-6)
        #expect(abs(state.velocityENU.east - 1.4) < 1e-6)
        #expect(abs(scenario.initialBearingDegrees() - 90) < 0.01)
    }

    @Test("a replay with fewer than two usable points is refused", arguments: [0, 1])
    func tooShort(count: Int) {
        #expect(throws: BenchError.trackTooShort(name: "x", usablePoints: count)) {
            try BenchScenario.replay(name: "x", summary: "", points: Self.walk(count: count))
        }
        // The same point repeated is one usable point.
        #expect(throws: BenchError.trackTooShort(name: "x", usablePoints: 1)) {
            try BenchScenario.replay(name: "x", summary: "", points: Array(repeating: Self.walk(count: 1)[0], count: 5))
        }
    }

    @Test("a replay run stops when the track ends, shorter than the configured duration")
    func replayRunStopsAtTrackEnd() throws {
        let scenario = try BenchScenario.replay(name: "walk", summary: "", points: Self.walk(count: 41))
        let config = BenchConfiguration(durationSeconds: 300, personStartSeconds: 10, settleSeconds: 10)
        let result = try BenchRunner.run(scenario, controller: .naive, noise: .clean, configuration: config)
        #expect(abs(result.simulatedSeconds - 50) < 0.01)
        #expect(result.scenarioKind == .replay)
        #expect(result.origin == Self.origin)
    }
}
