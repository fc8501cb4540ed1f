@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// A ground station fixes the failsafe parameters one at a time while FollowMe waits (docs/mavlink.md
/// §7.8): the flight's rules and the link's against the simulated Copter (ArduPilot, and PX4 §8.6), through the codec.
@Suite("Parameters fixed one at a time: FollowMe waits, then flies")
struct ParametersClosedLoopTests {
    /// One autopilot's pair of parameters: `first` refused at `refused`, fixed at `accepted`; then
    /// `second` set to `bad` (refused) and `good`.
    struct Case: Sendable, CustomTestStringConvertible {
        let autopilot: SimulatedAutopilot
        let first: String, refused: Float, accepted: Float
        let second: String, bad: Float, good: Float
        var testDescription: String { "\(autopilot.rawValue): \(first) \(refused) → \(accepted), \(second) \(bad) → \(good)" }
    }

    @Test("refused; fixed → take-off starts; the other parameter made bad 0.35 s later → aborted on the ground; fixed → takes off and follows (the old core: landed for the run)",
          arguments: [
              Case(autopilot: .ardupilot, first: "FS_OPTIONS", refused: 0, accepted: 16, second: "FS_GCS_TIMEOUT", bad: 10, good: 5),
              Case(autopilot: .px4, first: "COM_OBL_RC_ACT", refused: 0, accepted: 4, second: "COM_OF_LOSS_T", bad: 10, good: 5),
          ])
    func parametersFixedOneAtATime(_ c: Case) throws {
        // Given FollowMe and a vehicle whose first parameter is refused: waiting
        var rig = try OwnershipRig(takeOffOnStart: false, autopilot: c.autopilot)
        _ = rig.copter.setParameter(c.first, to: c.refused)
        rig.run(for: 6)
        #expect(rig.state == .preflight(waitingFor: .droneConfigured), "\(rig.state.name)")
        #expect(!rig.copter.isArmed)

        // When the operator fixes it (everything passes: the take-off begins)
        rig.groundStationSets(c.first, to: c.accepted)
        #expect(rig.run(within: 1) { $0.state == .takingOff }, "\(rig.state.name)")
        // and 0.35 s later makes the second one bad (refused: the take-off is aborted). ArduPilot is armed by
        // then (its HEARTBEAT follows a mode change at once: the real ArduCopter SITL armed 0.09 s after
        // FS_OPTIONS 16); PX4 is not (set-points stream for 1 s before its ARM).
        rig.run(for: 0.35)
        #expect(rig.copter.isArmed == (c.autopilot == .ardupilot), "armed \(rig.copter.isArmed)")
        rig.groundStationSets(c.second, to: c.bad)
        rig.run(for: 3)
        // Then FollowMe waits in preflight for the configuration, its vehicle disarmed on the ground (the old
        // link left the ArduCopter armed and idling in GUIDED until its own DISARM_DELAY)
        #expect(rig.transitions.contains { $0.reason == .takeOffAbortedOnGround }, "\(rig.transitions.map(\.reason.name))")
        #expect(rig.state == .preflight(waitingFor: .droneConfigured), "\(rig.state.name)")
        #expect(!rig.copter.isArmed && !rig.copter.isAirborne, "FollowMe left its vehicle armed on the ground")

        // And once the second is good it takes off and follows in its control mode (GUIDED, OFFBOARD)
        rig.groundStationSets(c.second, to: c.good)
        #expect(rig.run(within: 60) { $0.state == .following && $0.copter.mode == .guided },
                "\(rig.state.name) \(rig.transitions.map(\.reason.name))")
        #expect(rig.copter.isArmed && rig.copter.isAirborne)
    }
}
