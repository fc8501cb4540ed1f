@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// A ground station fixes the failsafe parameters one at a time while FollowMe waits (docs/mavlink.md
/// §7.8): the flight's rules and the link's against the simulated Copter, through the codec.
@Suite("Parameters fixed one at a time: FollowMe waits, then flies")
struct ParametersClosedLoopTests {
    @Test("FS_OPTIONS refused; set to 16 → take-off starts; FS_GCS_TIMEOUT 10 0.35 s later → aborted on the ground; 5 → takes off and follows")
    func parametersFixedOneAtATime() throws {
        // Given FollowMe and a Copter whose FS_OPTIONS lacks bit 4: refused, waiting
        var rig = try OwnershipRig(takeOffOnStart: false)
        _ = rig.copter.setParameter("FS_OPTIONS", to: 0)
        rig.run(for: 6)
        #expect(rig.state == .preflight(waitingFor: .droneConfigured), "\(rig.state.name)")
        #expect(!rig.copter.isArmed)

        // When the operator sets FS_OPTIONS 16 (everything passes: the take-off begins)
        rig.groundStationSets("FS_OPTIONS", to: 16)
        #expect(rig.run(within: 1) { $0.state == .takingOff }, "\(rig.state.name)")
        // and 0.35 s later, still disarmed, FS_GCS_TIMEOUT 10 (refused: the take-off is aborted)
        rig.run(for: 0.35)
        #expect(!rig.copter.isArmed)
        rig.groundStationSets("FS_GCS_TIMEOUT", to: 10)
        rig.run(for: 3)
        // Then FollowMe waits in preflight for the configuration (the old core: landed for the run)
        #expect(rig.transitions.contains { $0.reason == .takeOffAbortedOnGround }, "\(rig.transitions.map(\.reason.name))")
        #expect(rig.state == .preflight(waitingFor: .droneConfigured), "\(rig.state.name)")
        #expect(!rig.copter.isArmed)

        // And once FS_GCS_TIMEOUT is 5 it takes off and follows
        rig.groundStationSets("FS_GCS_TIMEOUT", to: 5)
        #expect(rig.run(within: 60) { $0.state == .following }, "\(rig.state.name) \(rig.transitions.map(\.reason.name))")
        #expect(rig.copter.isArmed && rig.copter.isAirborne)
    }
}
