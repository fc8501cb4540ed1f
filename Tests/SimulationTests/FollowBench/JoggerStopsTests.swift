@testable import Simulation
@testable import FollowCore
import Testing

/// A 3 m/s jogger who stops (1 and 5 Hz fixes, the shipped 11 m standoff, 3 + 4 m protected radius):
/// at the bound the stop point credits (4 m/s², docs/stopping-model.md §2) they are never approached
/// inside min_separation_m + gps_relative_error_m, on the AR.Drone and on the ArduCopter-like Copter
/// (GUIDED velocity control with its acceleration and jerk limits); harder stops (twice the bound, and
/// in zero time) are reported and never reach min_separation_m itself. The walker is followed without
/// ringing on the Copter (RMS ≤ 0.2 m).
@Suite("A jogger who stops: outside the protected radius at the bound; the walker without ringing")
struct JoggerStopsTests {
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

    @Test("jog-stop (4 m/s²): closest approach ≥ 7 m", arguments: [
        (BenchLink.mavlink, 1.0, BenchPlant.nominal, 11.0), (.mavlink, 5.0, .nominal, 11.0), (.mavlink, 5.0, .offModel, 11.0),
        // The off-model Copter (WPNAV_ACCEL 180, PSC_JERK_XY 3) does not defend 11 m at 1 Hz (it would
        // wait in preflight: braking); 11.5 m it does.
        (.mavlink, 1.0, .offModel, 11.5),
        (.ardrone, 1.0, .nominal, 11.0), (.ardrone, 5.0, .nominal, 11.0),
    ])
    func jogStop(link: BenchLink, rate: Double, plant: BenchPlant, standoff: Double) throws {
        let c = Self.configuration(rate: rate, plant: plant, standoff: standoff)
        let r = try BenchRunner.run(.jogStop(), controller: .followMe, noise: .clean, configuration: c, link: link)
        #expect(r.metrics.airborneSeconds > 60, "never flew: \(r.finalControllerState)")
        #expect(r.metrics.minSeparationMeters >= 7, "\(r.metrics.minSeparationMeters) m at \(r.metrics.minSeparationAtSeconds ?? -1) s")
    }

    /// Fixes on time leave the drone closest behind the jogger: without the AR.Drone's braking reaction (the
    /// swing from cruise to braking tilt) it came to 6.99 m at 20°, without the autopilot's lead on a falling cap
    /// the Copter to 6.95 m (docs/stopping-model.md §1, §3).
    @Test("jog-stop (4 m/s²), fixes on time: closest approach ≥ 7 m", arguments: [
        (BenchLink.mavlink, 12.0), (.ardrone, 12.0), (.ardrone, 20.0),
    ])
    func jogStopOnTime(link: BenchLink, cruiseTiltDegrees: Double) throws {
        var c = Self.configuration(rate: 1, plant: .nominal)
        c.receiverLatencySeconds = 0
        c.eulerAngleMaxDegrees = cruiseTiltDegrees
        let r = try BenchRunner.run(.jogStop(), controller: .followMe, noise: .clean, configuration: c, link: link)
        #expect(r.metrics.airborneSeconds > 60, "never flew: \(r.finalControllerState)")
        #expect(r.metrics.minSeparationMeters >= 7, "\(r.metrics.minSeparationMeters) m at \(r.metrics.minSeparationAtSeconds ?? -1) s")
    }

    @Test("stops harder than the bound (8 m/s², zero time): the closest approach is reported, never inside min_separation_m",
          arguments: [BenchLink.ardrone, .mavlink], [1.0, 5.0])
    func harderStops(link: BenchLink, rate: Double) throws {
        let c = Self.configuration(rate: rate, plant: .nominal)
        for scenario in [BenchScenario.jogStopHard(), .jogStopDead()] {
            let r = try BenchRunner.run(scenario, controller: .followMe, noise: .clean, configuration: c, link: link)
            print("[\(scenario.name) \(link) \(rate) Hz] closest approach \(r.metrics.minSeparationMeters) m (protected radius 7 m)")
            #expect(r.metrics.airborneSeconds > 60, "never flew: \(r.finalControllerState)")
            #expect(r.metrics.minSeparationMeters >= 3, "\(scenario.name): \(r.metrics.minSeparationMeters) m")
        }
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
        let r = try BenchRunner.run(.jogStop(), controller: .followMe, noise: .clean, configuration: c, link: .mavlink)
        #expect(r.metrics.airborneSeconds == 0)
        #expect(r.finalControllerState.contains("braking"), "\(r.finalControllerState)")
    }
}
