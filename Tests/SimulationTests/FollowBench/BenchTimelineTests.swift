@testable import FlightRecords
@testable import Simulation
@testable import FollowCore
import Testing

/// The bench run → `FlightTimeline` adapter behind `followme bench --report DIR`, on a real
/// (simulated, deterministic) 30-second straight walk.
@Suite("Bench run → FlightTimeline")
struct BenchTimelineTests {
    static let result: BenchResult = {
        var configuration = BenchConfiguration()
        configuration.durationSeconds = 30
        return try! BenchRunner.run(.straightWalk(), controller: .followMe, noise: .clean, configuration: configuration)
    }()

    @Test("states, scores and tracks are the run's own")
    func statesScoresTracks() throws {
        let r = Self.result
        let timeline = FlightTimeline(benchResult: r, minSeparationMeters: 3)
        // The bands follow FollowMe's transitions: preflight, then each state entered, in order
        #expect(timeline.states.first?.state == "preflight")
        #expect(timeline.states.dropFirst().map(\.startSeconds) == r.events.map(\.timeSeconds))
        #expect(timeline.states.contains { $0.state == "following" })
        #expect(timeline.endSeconds == r.simulatedSeconds)
        // The scores are BenchMetrics', not recomputed
        #expect(timeline.scores.rmsStandoffErrorMeters == r.metrics.rangeErrorRMSMeters)
        #expect(timeline.scores.closestApproachMeters == r.metrics.minSeparationMeters)
        #expect(timeline.scores.closestApproachAtSeconds == r.metrics.minSeparationAtSeconds)
        #expect(timeline.minSeparationMeters == 3 && timeline.standoffMeters == r.standoffMeters)
        // The tracks are the true positions; the distance is theirs
        #expect(timeline.droneTrack.map(\.plane) == r.track.map(\.dronePlane))
        let sample = try #require(r.track.last)
        #expect(timeline.distance.last?.value == (sample.personPlane - sample.dronePlane).length)
    }

    @Test("altitude, battery, PCMD and both fix ages come from the simulated drone and the controller")
    func series() {
        let timeline = FlightTimeline(benchResult: Self.result, minSeparationMeters: 3)
        for series in [timeline.altitude, timeline.battery, timeline.pcmdPitch, timeline.targetFixAge, timeline.onboardFixAge,
                       timeline.personSpeed, timeline.droneSpeed] {
            #expect(!series.isEmpty)
        }
        // It climbed to about 3 m, sent some pitch, and no fix was ever older than a second (5 Hz, clean)
        #expect((timeline.altitude.map(\.value).max() ?? 0) > 2.5)
        #expect(timeline.pcmdPitch.contains { abs($0.value) > 0.05 })
        #expect(timeline.targetFixAge.filter { $0.t > 5 }.allSatisfy { $0.value < 1 })
    }

    @Test("the baseline has no flight states: no bands")
    func baselineHasNoStates() throws {
        var configuration = BenchConfiguration()
        configuration.durationSeconds = 20
        let naive = try BenchRunner.run(.straightWalk(), controller: .naive, noise: .clean, configuration: configuration)
        let timeline = FlightTimeline(benchResult: naive, minSeparationMeters: 3)
        #expect(timeline.states.isEmpty)
        #expect(!FlightReportPage(timeline: timeline).html().contains("fill-opacity=\"0.22\""))
    }
}
