@testable import Simulation
@testable import FollowCore
import Testing

/// The issue 12 knobs reach the simulation: plant, wind, target fix rate, Doppler, geofence,
/// smallest standoff, and the scenarios mean what their names say.
@Suite("Bench knobs and issue 12 scenarios")
struct BenchKnobsTests {
    static func configuration(_ change: (inout BenchConfiguration) -> Void = { _ in }) -> BenchConfiguration {
        var c = BenchConfiguration(durationSeconds: 30, personStartSeconds: 15, settleSeconds: 10, eulerAngleMaxDegrees: 20)
        change(&c)
        return c
    }

    static func run(_ scenario: BenchScenario, noise: BenchNoise = .clean,
                    _ change: (inout BenchConfiguration) -> Void = { _ in }) throws -> BenchResult {
        try BenchRunner.run(scenario, controller: .followMe, noise: noise, configuration: configuration(change))
    }

    @Test("the off-model plant flies differently from the nominal one and is recorded")
    func plant() throws {
        let nominal = try Self.run(.jogStraight())
        let off = try Self.run(.jogStraight()) { $0.plant = .offModel }
        #expect(nominal.plant == .nominal)
        #expect(off.plant == .offModel)
        #expect(off.track != nominal.track)
        #expect(BenchPlant.offModel.dynamics.commandLatencySeconds == 0.18)
        #expect(abs(BenchPlant.offModel.dynamics.dragRatePerSecond - 0.58 * 0.8) < 1e-12)
        #expect(abs(BenchPlant.offModel.dynamics.speedPerSinTiltMetersPerSecond - 17.5 * 1.15) < 1e-12)
    }

    @Test("wind reaches the drone: calm take-off has no drift, a 5 m/s wind one does; the scenario's wind wins")
    func wind() throws {
        // Given the person standing, once in calm air (configuration wind overridden by nothing)…
        let calm = try Self.run(BenchScenario(name: "stand", summary: "", kind: .synthetic,
                                              person: StraightWalkScenario(speedMetersPerSecond: 0),
                                              origin: BenchScenario.defaultOrigin))
        // …and once in the wind-stand scenario while the configuration asks for calm
        let windy = try Self.run(.windStand()) { $0.wind = .calm }
        // Then the calm climb does not move, the windy one is blown sideways (any controller with
        // less than perfect instantaneous rejection: the firmware take-off alone lasts seconds)
        #expect(try #require(calm.metrics.climbDriftMeters) < 0.01)
        #expect(try #require(windy.metrics.climbDriftMeters) > 0.01)
        #expect(windy.wind.meanENU == BenchScenario.issueWindMeanENU)
        #expect(windy.track != calm.track)
    }

    @Test("gusts are deterministic for a seed and change with it, even with clean GPS")
    func gustSeeds() throws {
        let a = try Self.run(.windGustStand()) { $0.seed = 5 }
        let b = try Self.run(.windGustStand()) { $0.seed = 5 }
        let c = try Self.run(.windGustStand()) { $0.seed = 6 }
        #expect(a == b)
        #expect(a.track != c.track)
    }

    @Test("target fix rate and Doppler reach the person's receiver")
    func targetReceiver() throws {
        let fast = try Self.run(.jogSCurve())
        let slow = try Self.run(.jogSCurve()) { $0.targetRateHertz = 1 }
        let noDoppler = try Self.run(.jogSCurve()) { $0.targetRateHertz = 1; $0.targetReportsVelocity = false }
        #expect(fast.track != slow.track)
        #expect(slow.track != noDoppler.track)
        #expect(throws: BenchError.self) { try BenchConfiguration(targetRateHertz: 0).validate() }
    }

    @Test("the 5-minute jog runs 5 minutes with the shipped failsafe, keeping the bench's separation settings")
    func fiveMinuteJog() throws {
        let scenario = BenchScenario.jogFiveMinutesDefaults()
        #expect(scenario.durationSeconds == 300)
        #expect(scenario.usesShippedFailsafe)
        // Given a shipped failsafe with a 100 m fence and the bench's separation 2 + 1.5 at the
        // smallest standoff that allows
        var config = BenchConfiguration(durationSeconds: 20, personStartSeconds: 15, settleSeconds: 10,
                                        eulerAngleMaxDegrees: 20)
        config.failsafe.minSeparationMeters = 2
        config.failsafe.gpsRelativeErrorMeters = 1.5
        config.standoffMeters = try #require(config.smallestAcceptedStandoffMeters())
        config.shippedFailsafe.minSeparationMeters = 3
        config.shippedFailsafe.gpsRelativeErrorMeters = 4
        config.shippedFailsafe.geofenceMeters = 100
        // When it runs (it would be refused with the shipped 3 + 4 m at that standoff)
        let r = try BenchRunner.run(scenario, controller: .followMe, noise: .clean, configuration: config)
        // Then it ran the scenario's 300 s (after the 15 s take-off wait) with the shipped fence
        #expect(abs(r.simulatedSeconds - 315) < 0.01)
        #expect(r.geofenceMeters == 100)
        // and other scenarios keep the bench's own failsafe
        let other = try BenchRunner.run(.walkAtDrone(), controller: .followMe, noise: .clean, configuration: config)
        #expect(other.geofenceMeters == config.failsafe.geofenceMeters)
    }

    @Test("walking and jogging at the drone: the person's path runs through the drone's start")
    func atTheDrone() {
        let standoff = 4.0
        for scenario in [BenchScenario.walkAtDrone(), .jogAtDrone()] {
            let start = scenario.person.state(atSeconds: 0).positionPlane
            let droneStart = start - PlaneVector.unit(bearingDegrees: scenario.droneStartBearingDegrees) * standoff
            let speed = scenario.person.state(atSeconds: 20).velocityENU.length
            // At 10 s + standoff / speed + half the start's ramp (v/a at 4 m/s²) the person stands where the drone started
            let ramp = speed / PersonSpeed.hardStopMetersPerSecondSquared
            let arrival = scenario.person.state(atSeconds: 10 + standoff / speed + ramp / 2).positionPlane
            #expect((arrival - droneStart).length < 1e-6, "\(scenario.name)")
        }
    }

    @Test("turn back: the person returns along the line the drone trails on")
    func turnBack() {
        let s = BenchScenario.turnBack()
        #expect(s.droneStartBearingDegrees == 0)
        let back = s.person.state(atSeconds: 33 + 40).positionPlane
        #expect(abs(back.east) < 1e-9)
        #expect(back.north < 0) // walked back past the start, where the drone began
    }

    @Test("smallest accepted standoff is exactly FollowCore's limit for the failsafe")
    func smallestStandoff() throws {
        var c = BenchConfiguration()
        c.failsafe.minSeparationMeters = 2
        c.failsafe.gpsRelativeErrorMeters = 1.5
        let smallest = try #require(c.smallestAcceptedStandoffMeters())
        func accepted(_ standoff: Double) -> Bool {
            var d = c
            d.standoffMeters = standoff
            return (try? d.validate()) != nil
        }
        #expect(accepted(smallest))
        #expect(!accepted(smallest - 0.002))
        #expect(smallest > c.failsafe.protectedRadiusMeters)
    }

    @Test("an adversarial offset makes the person look farther away by exactly that much")
    func adversarialOffset() throws {
        // Given a person standing still and perfect fixes, once honest and once 2 m farther from the drone
        let stand = BenchScenario(name: "stand", summary: "", kind: .synthetic,
                                  person: StraightWalkScenario(speedMetersPerSecond: 0), origin: BenchScenario.defaultOrigin)
        let honest = try Self.run(stand)
        let lying = try Self.run(stand) { $0.adversarialTargetOffsetMeters = 2 }
        // Then the honest run holds the standoff and the other one sits 2 m closer in truth
        let standoff = Self.configuration().standoffMeters
        #expect(abs(honest.metrics.meanDistanceMeters - standoff) < 0.2)
        #expect(abs(lying.metrics.meanDistanceMeters - (standoff - 2)) < 0.2)
        #expect(throws: BenchError.self) { try BenchConfiguration(adversarialTargetOffsetMeters: -1).validate() }
    }

    @Test("the extra scenarios have unique names distinct from the standard ones")
    func names() {
        let names = (BenchScenario.standard() + BenchScenario.extra()).map(\.name)
        #expect(Set(names).count == names.count)
        #expect(BenchScenario.extra().count == 13)
    }
}
