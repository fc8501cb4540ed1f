@testable import Simulation
@testable import FollowCore
import Testing

/// The issue 12 metrics on synthetic trajectories whose answer is known.
@Suite("Follow-quality metrics: trailing, aim bias, climb drift, stalls, time per state")
struct FollowQualityMetricsTests {
    static func accumulator(standoff: Double = 8) -> MetricsAccumulator {
        MetricsAccumulator(standoffMeters: standoff, settledFromSeconds: 10, tickSeconds: 0.5, expectedSamples: 100,
                           minSeparationLimitMeters: 3)
    }

    @Test("climb drift is the farthest point from where the take-off began, only while taking off or climbing")
    func climbDrift() throws {
        // Given a drone that starts its take-off at (10, 0) and drifts east 0.1 m per tick for 30 ticks
        // (the first 6 still on the ground), then follows and flies 50 m away
        var acc = Self.accumulator()
        for i in 0..<30 {
            acc.add(timeSeconds: Double(i) * 0.5, person: PlaneVector(east: 0, north: 20),
                    drone: PlaneVector(east: 10 + 0.1 * Double(i), north: 0), noseHeadingDegrees: 0,
                    airborne: i >= 6, following: false, stateName: i < 10 ? "taking-off" : "climbing", climbing: true)
        }
        for i in 30..<40 {
            acc.add(timeSeconds: Double(i) * 0.5, person: PlaneVector(east: 0, north: 20),
                    drone: PlaneVector(east: 60, north: 0), noseHeadingDegrees: 0, airborne: true, following: true,
                    stateName: "following")
        }
        // …and later climbs again there (back from a hold with the altitude off)
        acc.add(timeSeconds: 20, person: PlaneVector(east: 0, north: 20), drone: PlaneVector(east: 61, north: 0),
                noseHeadingDegrees: 0, airborne: true, following: false, stateName: "climbing", climbing: true)
        // When the metrics are taken
        let m = acc.metrics(tracksFollowing: true)
        // Then the drift is 2.9 m (29 ticks × 0.1 m), not the later 50 m of following and re-climbing
        let drift = try #require(m.climbDriftMeters)
        #expect(abs(drift - 2.9) < 1e-9)
    }

    @Test("no take-off, no climb drift (the baseline, or a run that never left the ground)")
    func noClimb() {
        var acc = Self.accumulator()
        acc.add(timeSeconds: 0, person: .zero, drone: PlaneVector(east: 5, north: 0), noseHeadingDegrees: 0,
                airborne: true, following: false)
        #expect(acc.metrics(tracksFollowing: false).climbDriftMeters == nil)
    }

    @Test("trailing: along-track distance behind a moving person minus the standoff; standing samples ignored")
    func trailing() throws {
        // Given a person jogging north-east at 3 m/s, the drone 10.5 m straight behind them (standoff 8),
        // then 20 ticks with the person standing and the drone 30 m away
        var acc = Self.accumulator()
        let direction = PlaneVector.unit(bearingDegrees: 45)
        for i in 0..<60 {
            let t = 10 + Double(i) * 0.5
            let person = direction * (3 * t)
            acc.add(timeSeconds: t, person: person, drone: person - direction * 10.5, noseHeadingDegrees: 45,
                    airborne: true, following: true, personVelocity: direction * 3, droneVelocity: direction * 3,
                    stateName: "following")
        }
        for i in 0..<20 {
            acc.add(timeSeconds: 40 + Double(i) * 0.5, person: .zero, drone: PlaneVector(east: 30, north: 0),
                    noseHeadingDegrees: 0, airborne: true, following: true, stateName: "following")
        }
        let m = acc.metrics(tracksFollowing: true)
        // Then it trails by 2.5 m
        let trailing = try #require(m.trailingMeanMeters)
        #expect(abs(trailing - 2.5) < 1e-9)
        // And a drone ahead of the person trails negatively
        var ahead = Self.accumulator()
        ahead.add(timeSeconds: 10, person: .zero, drone: PlaneVector(east: 0, north: 3), noseHeadingDegrees: 0,
                  airborne: true, following: true, personVelocity: PlaneVector(east: 0, north: 1.4))
        #expect(ahead.metrics(tracksFollowing: true).trailingMeanMeters == -11)
    }

    @Test("aim bias is the length of the mean offset from the aim point (a standing offset), not the RMS")
    func aimBias() throws {
        // Given a drone held 1 m east of its aim point, with ±0.5 m of north-south jitter, while following
        var acc = Self.accumulator()
        for i in 0..<40 {
            let aim = PlaneVector(east: 0, north: -8)
            let jitter = PlaneVector(east: 0, north: i % 2 == 0 ? 0.5 : -0.5)
            acc.add(timeSeconds: 10 + Double(i) * 0.5, person: .zero, drone: aim + PlaneVector(east: 1, north: 0) + jitter,
                    noseHeadingDegrees: 0, airborne: true, following: true, aimPoint: aim)
        }
        // …and ticks with an aim point while not following (holding) that would double the bias
        acc.add(timeSeconds: 40, person: .zero, drone: PlaneVector(east: 40, north: 0), noseHeadingDegrees: 0,
                airborne: true, following: false, aimPoint: .zero)
        let m = acc.metrics(tracksFollowing: true)
        // Then the bias is 1 m and the RMS error √(1 + 0.25)
        #expect(abs(try #require(m.aimBiasMeters) - 1) < 1e-9)
        #expect(abs(try #require(m.aimErrorRMSMeters) - 1.25.squareRoot()) < 1e-9)
    }

    @Test("a drone parked far behind a moving person while 'following' is a stall; a named hold is not")
    func stalls() {
        // Given a person walking east at 1.4 m/s and a drone parked 20 m behind (standoff 8)
        var acc = Self.accumulator()
        for i in 0..<40 {
            let t = 10 + Double(i) * 0.5
            let person = PlaneVector(east: 1.4 * t, north: 0)
            // the first 20 ticks labelled following, the next 20 a geofence hold
            let following = i < 20
            acc.add(timeSeconds: t, person: person, drone: PlaneVector(east: 1.4 * 10 - 20, north: 0),
                    noseHeadingDegrees: 90, airborne: true, following: following,
                    personVelocity: PlaneVector(east: 1.4, north: 0), droneVelocity: .zero,
                    stateName: following ? "following" : "holding(geofence)")
        }
        // And a drone keeping up 12 m behind (4 m beyond the standoff, but moving at the person's speed)
        for i in 0..<10 {
            let t = 30 + Double(i) * 0.5
            acc.add(timeSeconds: t, person: PlaneVector(east: 1.4 * t, north: 0),
                    drone: PlaneVector(east: 1.4 * t - 12, north: 0), noseHeadingDegrees: 90, airborne: true,
                    following: true, personVelocity: PlaneVector(east: 1.4, north: 0),
                    droneVelocity: PlaneVector(east: 1.4, north: 0), stateName: "following")
        }
        let m = acc.metrics(tracksFollowing: true)
        // Then only the 20 parked "following" ticks count: 10 s
        #expect(m.stalledFollowingSeconds == 10)
        // And the time per state lists both, in order of appearance
        #expect(m.secondsByState.map(\.name) == ["following", "holding(geofence)"])
        #expect(m.secondsByState.map(\.seconds) == [15, 10])
    }
}
