@testable import Simulation
@testable import FollowCore
import Testing

/// The follow mode changed in flight on the bench (issue 26 item 5): `FlightLoopCore` on simulated time
/// behind both links — the AR.Drone simulator and the MAVLink Copter — on the nominal and the off-model
/// plant, the operator changing leash → angle 180 → angle 0 (the far side) → orbit → leash while a
/// person walks straight and then stands. No change brings the drone nearer than the standoff less
/// `toleranceMeters`, never inside min_separation_m.
@Suite("Bench: follow mode changed in flight")
struct ModeChangeBenchTests {
    /// Our bound on how far inside the standoff the drone may be while it goes round: above what the runs
    /// show (closest 7.27–7.38 m of 8 m; 6.87 m behind MAVLink on the off-model Copter), far from
    /// min_separation_m. With the standoff direction flipped on a change (checked) every run comes to
    /// 3.5–3.7 m and this test fails.
    static let toleranceMeters = 1.5

    static func change(_ mode: FollowMode, angle: Double? = nil) -> FollowModeChange {
        try! FollowModeChange(mode: mode, angleDegrees: angle)
    }

    /// A 1.4 m/s walk north for 90 s, then standing 60 s; the changes on the way.
    static var scenario: BenchScenario {
        var mode = BenchFollowMode(mode: .leash)
        mode.changes = [.init(atSeconds: 20, change(.angle, angle: 180)), .init(atSeconds: 35, change(.angle, angle: 0)),
                        .init(atSeconds: 65, change(.orbit)), .init(atSeconds: 110, change(.leash))]
        let walk = LegsScenario(legs: [PersonLeg(bearingDegrees: 0, speedMetersPerSecond: 1.4, seconds: 90), .stand(60)])
        return BenchScenario(name: "mode-changes", summary: "leash → angle 180 → angle 0 → orbit → leash; walk, then stand",
                             kind: .synthetic, person: walk, origin: BenchScenario.defaultOrigin, durationSeconds: 150,
                             followMode: mode)
    }

    @Test("never nearer than the standoff less the tolerance, never inside min_separation_m; every change taken",
          arguments: BenchLink.allCases, BenchPlant.allCases)
    func changesInFlight(link: BenchLink, plant: BenchPlant) throws {
        var c = BenchConfiguration()
        c.plant = plant
        let result = try BenchRunner.run(Self.scenario, controller: .followMe, noise: .clean, configuration: c, link: link)
        let taken = result.events.filter { $0.description.hasPrefix("mode ") }.map(\.description)
        #expect(taken == ["mode angle: accepted", "mode angle: accepted", "mode orbit: accepted", "mode leash: accepted"], "\(taken)")
        let from = c.personStartSeconds + 20
        let closest = result.track.filter { $0.timeSeconds >= from }.map { ($0.dronePlane - $0.personPlane).length }.min() ?? 0
        print("[\(link) \(plant)] closest \(closest) m from the first change (standoff \(c.standoffMeters) m), min separation \(result.metrics.minSeparationMeters) m")
        #expect(closest >= c.standoffMeters - Self.toleranceMeters)
        #expect(result.metrics.minSeparationMeters >= c.failsafe.minSeparationMeters)
        #expect(result.finalControllerState == "following", "\(result.events.map(\.description))")
    }
}
