@testable import Simulation
@testable import FollowCore
import Testing

/// Issue 22's bar: a 3 m/s jogger who stops dead (1 Hz fixes, the shipped 11 m standoff, 3 + 4 m
/// protected radius) is never approached inside min_separation_m + gps_relative_error_m — on the
/// ArduCopter-like Copter (GUIDED velocity control with its acceleration and jerk limits) and on its
/// off-model variant, and the walker is followed without ringing (RMS ≤ 0.2 m). Before issue 22 the
/// Copter rang on the walk (0.87 m RMS, 10.7–12.5 m, a 3.2 s period: the AR.Drone velocity loop's
/// lead term stacked on the autopilot's loop) and the jogger was approached to 6.1 m (5.1 m off-model).
@Suite("Jogger stops dead, walker without ringing: the MAVLink Copter (issue 22)")
struct JoggerStopsDeadTests {
    static func configuration(rate: Double, plant: BenchPlant, standoff: Double = 11) -> BenchConfiguration {
        var c = BenchConfiguration()
        c.durationSeconds = 120
        c.targetRateHertz = rate
        c.plant = plant
        c.standoffMeters = standoff
        c.failsafe.minSeparationMeters = 3
        c.failsafe.gpsRelativeErrorMeters = 4
        return c
    }

    @Test("jog-stop-dead on the Copter: closest approach ≥ 7 m", arguments: [
        (1.0, BenchPlant.nominal, 11.0), (5.0, .nominal, 11.0), (5.0, .offModel, 11.0),
        // The off-model Copter (WPNAV_ACCEL 180, PSC_JERK_XY 3) does not defend 11 m at 1 Hz (it would
        // wait in preflight: braking); 11.5 m it does.
        (1.0, .offModel, 11.5),
    ])
    func jogStopDead(rate: Double, plant: BenchPlant, standoff: Double) throws {
        let c = Self.configuration(rate: rate, plant: plant, standoff: standoff)
        let r = try BenchRunner.run(.jogStopDead(), controller: .followMe, noise: .clean, configuration: c, link: .mavlink)
        #expect(r.metrics.airborneSeconds > 60, "never flew: \(r.finalControllerState)")
        #expect(r.metrics.minSeparationMeters >= 7, "\(r.metrics.minSeparationMeters) m at \(r.metrics.minSeparationAtSeconds ?? -1) s")
    }

    @Test("a 1.4 m/s walk on the Copter, position from the autopilot: RMS ≤ 0.2 m (no ringing)",
          arguments: [BenchPlant.nominal, .offModel], [1.0, 5.0])
    func walk(plant: BenchPlant, rate: Double) throws {
        var c = Self.configuration(rate: rate, plant: plant, standoff: plant == .offModel && rate == 1 ? 11.5 : 11)
        c.durationSeconds = 90
        let r = try BenchRunner.run(.straightWalk(), controller: .followMe, noise: .clean, configuration: c, link: .mavlink)
        #expect(r.metrics.rangeErrorRMSMeters <= 0.2, "\(r.metrics.rangeErrorRMSMeters) m")
    }

    @Test("the off-model Copter at 1 Hz and 11 m waits in preflight for braking: it cannot defend that standoff")
    func offModelRefusesShortStandoff() throws {
        let c = Self.configuration(rate: 1, plant: .offModel)
        let r = try BenchRunner.run(.jogStopDead(), controller: .followMe, noise: .clean, configuration: c, link: .mavlink)
        #expect(r.metrics.airborneSeconds == 0)
        #expect(r.finalControllerState.contains("braking"), "\(r.finalControllerState)")
    }
}
