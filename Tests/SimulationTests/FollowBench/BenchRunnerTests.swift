@testable import Simulation
@testable import FollowCore
@testable import FlightRecords
import Testing

@Suite("Closed-loop bench runs")
struct BenchRunnerTests {
    /// Short runs: tests build in debug, where the loop is far slower than in release.
    static func configuration(seed: UInt64 = 1, duration: Double = 60) -> BenchConfiguration {
        BenchConfiguration(seed: seed, durationSeconds: duration, personStartSeconds: 15, settleSeconds: 15)
    }

    static func run(_ scenario: BenchScenario = .straightWalk(), _ controller: BenchController = .followMe,
                    _ noise: BenchNoise, seed: UInt64 = 1, duration: Double = 60) throws -> BenchResult {
        try BenchRunner.run(scenario, controller: controller, noise: noise,
                            configuration: configuration(seed: seed, duration: duration))
    }

    @Test("the same seed gives the same result twice", arguments: BenchController.allCases)
    func deterministic(controller: BenchController) throws {
        // Given realistic GPS noise and seed 7
        // When the same run is made twice
        let a = try Self.run(.square(), controller, .realistic, seed: 7, duration: 40)
        let b = try Self.run(.square(), controller, .realistic, seed: 7, duration: 40)
        // Then every metric, event and track sample is identical
        #expect(a == b)
        #expect(a.track.count > 100)
    }

    @Test("different seeds give different runs under realistic noise", arguments: BenchController.allCases)
    func seedsDiffer(controller: BenchController) throws {
        let a = try Self.run(.straightWalk(), controller, .realistic, seed: 1, duration: 40)
        let b = try Self.run(.straightWalk(), controller, .realistic, seed: 2, duration: 40)
        #expect(a.metrics.rangeErrorRMSMeters != b.metrics.rangeErrorRMSMeters)
        #expect(a.track != b.track)
    }

    @Test("under clean GPS the seed changes nothing (the noise is the only randomness)")
    func cleanIgnoresSeed() throws {
        let a = try Self.run(.straightWalk(), .followMe, .clean, seed: 1, duration: 30)
        let b = try Self.run(.straightWalk(), .followMe, .clean, seed: 99, duration: 30)
        #expect(a.metrics == b.metrics)
        #expect(a.track == b.track)
    }

    @Test("FollowMe beats the naive baseline by at least 4× RMS on the straight walk", arguments: BenchNoise.allCases)
    func beatsBaseline(noise: BenchNoise) throws {
        // Given a 1.4 m/s straight walk, both controllers on the same drone (12°) with the same standoff and noise
        let followMe = try Self.run(.straightWalk(), .followMe, noise, duration: 90)
        let naive = try Self.run(.straightWalk(), .naive, noise, duration: 90)
        print("straight walk, \(noise): FollowMe RMS \(fixed(followMe.metrics.rangeErrorRMSMeters, decimals: 3)) m, "
              + "naive RMS \(fixed(naive.metrics.rangeErrorRMSMeters, decimals: 3)) m")
        // Then FollowMe's |distance − standoff| RMS is at most a quarter of the baseline's
        #expect(followMe.metrics.rangeErrorRMSMeters * 4 <= naive.metrics.rangeErrorRMSMeters)
        // and it followed the whole measured time, still airborne at the end
        #expect(followMe.metrics.followingFraction == 1)
        #expect(followMe.finalControllerState == "following")
        #expect(followMe.finalDroneState == "flying")
    }

    @Test("clean straight walk: the drone never comes inside the minimum separation")
    func minimumSeparation() throws {
        let result = try Self.run(.straightWalk(), .followMe, .clean, duration: 90)
        let minimum = FailsafeParameters().minSeparationMeters
        #expect(result.metrics.minSeparationMeters >= minimum)
        #expect(result.metrics.minSeparationMeters.isFinite)
        // It took off by itself: take-off, climb, follow.
        let events = result.events.map(\.description)
        #expect(events.first?.hasPrefix("preflight") == true)
        #expect(events.first?.hasSuffix(" → taking-off (prerequisites-met)") == true)
        #expect(events.dropFirst().prefix(2) == [
            "taking-off → climbing (airborne-confirmed)",
            "climbing → following (altitude-reached)",
        ])
    }

    @Test("the default 12° drone flown by the baseline falls behind a walker (docs/dynamics-and-follow.md §4.2)")
    func baselineFallsBehind() throws {
        // pitch 0.2 × 12° = 2.4° → ≈0.73 m/s steady, against 1.4 m/s
        let result = try Self.run(.straightWalk(), .naive, .clean, duration: 90)
        let last = try #require(result.track.last)
        #expect((last.personPlane - last.dronePlane).length > 40)
        #expect(result.metrics.minSeparationMeters >= 5) // it only ever flies away from the start
    }

    @Test("metrics count from the settling time; the run lasts personStart + duration")
    func timeline() throws {
        var c = Self.configuration(duration: 30)
        c.trackSampleSeconds = 1
        let result = try BenchRunner.run(.straightWalk(), controller: .followMe, noise: .clean, configuration: c)
        #expect(abs(result.simulatedSeconds - 45) < 0.01)
        // (45 − 30) s settled at 30 ms ticks, ±1
        #expect(abs(result.metrics.settledSamples - 500) <= 1)
        #expect(result.track.count == 46)
        #expect(result.track.first?.timeSeconds == 0)
        // The drone starts landed the standoff behind the person, nose towards them.
        let first = try #require(result.track.first)
        #expect(abs((first.personPlane - first.dronePlane).length - BenchConfiguration().standoffMeters) < 1e-9)
        #expect(abs(wrappedDegrees180((first.personPlane - first.dronePlane).bearingDegrees - first.noseHeadingDegrees)) < 1e-9)
        #expect(result.metrics.airborneSeconds > 35 && result.metrics.airborneSeconds < 45)
    }

    @Test("bad settings are refused with the field named", arguments: [
        (BenchConfiguration(durationSeconds: 5), "durationSeconds"),
        (BenchConfiguration(durationSeconds: 60, settleSeconds: 60), "settleSeconds"),
        (BenchConfiguration(eulerAngleMaxDegrees: 45), "eulerAngleMaxDegrees"),
        (BenchConfiguration(controlPeriodSeconds: .nan), "controlPeriodSeconds"),
    ])
    func refused(configuration: BenchConfiguration, field: String) {
        #expect(throws: BenchError.self) {
            try BenchRunner.run(.straightWalk(), controller: .followMe, noise: .clean, configuration: configuration)
        }
        do {
            try configuration.validate()
        } catch {
            #expect(error.description.contains(field))
        }
    }

    @Test("a standoff too close to the minimum separation is FollowCore's refusal")
    func inconsistentStandoff() {
        let c = BenchConfiguration(standoffMeters: 3.4) // minSeparation 3 + aim margin 0.5 > 3.4
        #expect(throws: BenchError.self) {
            try BenchRunner.run(.straightWalk(), controller: .followMe, noise: .clean, configuration: c)
        }
    }
}
