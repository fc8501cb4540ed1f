@testable import ARDrone
@testable import FollowCore
@testable import Simulation
import Testing

/// The simulated AR.Drone raises navdata state bit 20 (too much wind, docs/ardrone-protocol.md §3.2)
/// while airborne in a wind at or above what its full tilt holds, c2·sin(euler_angle_max).
@Suite("DroneSimulator: state bit 20 (too much wind) at the tilt authority, only while airborne")
struct WindBitTests {
    /// Authority at euler_angle_max 20° (0.349066 rad): 17.5·sin 20° = 5.985 m/s.
    static let outdoorAuthority = 17.5 * _sin(radians(fromDegrees: 20))

    /// A drone hovering at about 1 m with the outdoor limits (20°) written as `followme run` does,
    /// in a steady wind of `windMetersPerSecond` blowing towards the east.
    static func hovering(windMetersPerSecond: Double) -> DroneSimulator {
        var sim = DroneSimulator()
        sim.apply(.config(key: "control:outdoor", value: "TRUE"), at: sim.time)
        sim.apply(.config(key: "control:euler_angle_max", value: "0.349066"), at: sim.time)
        sim.windENU = PlaneVector(east: windMetersPerSecond, north: 0)
        sim.pilot(nil, seconds: 6)
        return sim
    }

    @Test("airborne: the bit is raised at and above the authority, clear below it (wind as a share of it)", arguments: [
        (0.0, false), (0.5, false), (0.999, false), (1.0, true), (8 / outdoorAuthority, true),
    ])
    func threshold(shareOfAuthority: Double, raised: Bool) {
        // Given a drone airborne (outdoor limits, 20°) in this wind
        var sim = Self.hovering(windMetersPerSecond: 0)
        #expect(sim.flightPhase == .flying && sim.altitudeMeters > 0)
        #expect(abs(sim.windAuthorityMetersPerSecond - Self.outdoorAuthority) < 1e-4)
        sim.windENU = PlaneVector(east: shareOfAuthority * sim.windAuthorityMetersPerSecond, north: 0)
        sim.pilot(nil, seconds: 0.5)
        // When it reports its state
        // Then bit 20 is raised exactly when the wind reaches the authority
        #expect(sim.droneState.contains(.tooMuchWind) == raised)
        #expect(sim.navdata.state.rawValue & (1 << 20) == (raised ? 1 << 20 : 0))
    }

    @Test("the authority follows euler_angle_max: 5 m/s is too much at the indoor 12° (3.6 m/s), not at 20°")
    func followsTiltLimit() {
        // Given the default (indoor, 12°) limits and a 5 m/s wind
        var sim = DroneSimulator()
        sim.windENU = PlaneVector(east: 0, north: 5)
        sim.pilot(nil, seconds: 6)
        // Then the bit is up (17.5·sin 12° = 3.64 m/s)
        #expect(abs(sim.windAuthorityMetersPerSecond - 17.5 * _sin(radians(fromDegrees: 12))) < 1e-9)
        #expect(sim.droneState.contains(.tooMuchWind))
        // When the outdoor limits (20°) are written
        sim.apply(.config(key: "control:outdoor", value: "TRUE"), at: sim.time)
        sim.apply(.config(key: "control:euler_angle_max", value: "0.349066"), at: sim.time)
        // Then 5 m/s is within its authority and the bit drops
        #expect(!sim.droneState.contains(.tooMuchWind))
    }

    @Test("on the ground, before take-off, during the spin-up and after touch-down, the bit is clear in any wind")
    func onlyAirborne() {
        // Given a landed drone in a 12 m/s wind (twice the outdoor authority)
        var sim = DroneSimulator()
        sim.windENU = PlaneVector(east: 12, north: 0)
        sim.advance(to: MonotonicTime.zero.adding(seconds: 1))
        // Then no warning on the ground
        #expect(!sim.droneState.contains(.tooMuchWind))
        // When it spins up (0.5 s of the 1 s spin-up: taking off, still on the ground)
        sim.pilot(nil, seconds: 0.5)
        #expect(sim.flightPhase == .takingOff && sim.altitudeMeters == 0)
        #expect(!sim.droneState.contains(.tooMuchWind))
        // When it has left the ground
        sim.pilot(nil, seconds: 2)
        #expect(sim.altitudeMeters > 0)
        #expect(sim.droneState.contains(.tooMuchWind))
        // When it lands and touches down
        sim.pilot(nil, seconds: 1, takeoff: false)
        #expect(sim.flightPhase == .landing)
        #expect(sim.droneState.contains(.tooMuchWind))
        sim.pilot(nil, seconds: 6, takeoff: false)
        #expect(sim.flightPhase == .landed)
        // Then the bit is clear again
        #expect(!sim.droneState.contains(.tooMuchWind))
    }
}
