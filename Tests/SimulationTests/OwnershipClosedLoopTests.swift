@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// FollowMe commands only its own flight (docs/mavlink.md §7.14), closed loop against the simulated
/// ArduPilot Copter: the pilot scenarios of one run, and a restart in flight.
@Suite("Ownership closed loop: a pilot's flights get nothing; a restart adopts without landing or sinking")
struct OwnershipClosedLoopTests {
    @Test("one run: a pilot flies while FollowMe waits for START → nothing sent; START flies FollowMe's own flight; after it landed a pilot flies again → nothing sent")
    func pilotScenarios() throws {
        // Given FollowMe waiting on the ground for START, configured
        var rig = try OwnershipRig(takeOffOnStart: true)
        rig.run(for: 12)
        #expect(rig.state == .preflight(waitingFor: .operatorStart), "\(rig.state.name)")
        // When a pilot arms, takes off in GUIDED from their own station and switches to LOITER
        rig.pilotFlies()
        // Then FollowMe watches: no command and no set-point reached the vehicle (the old link: set-points
        // in GUIDED, then DO_SET_MODE LAND 5 s after "not in control")
        #expect(rig.copter.isArmed && rig.copter.mode == .loiter)
        #expect(rig.commandsSent.isEmpty, "\(rig.commandsSent.map(\.id))")
        #expect(rig.setpointsSent.isEmpty, "\(rig.setpointsSent.count) set-points")
        #expect(rig.state.kind == .released, "\(rig.state.name)")
        #expect(rig.session.owner == .someoneElse)
        // When the pilot lands, FollowMe is back in preflight, waiting for START
        let landed = rig.pilotLands()
        #expect(landed)
        rig.run(for: 2)
        #expect(rig.commandsSent.isEmpty, "\(rig.commandsSent.map(\.id))")
        #expect(rig.state == .preflight(waitingFor: .operatorStart), "\(rig.state.name)")

        // When the operator says START: FollowMe's own flight
        rig.operatorSays(.start)
        let reached = rig.run(within: 60) { $0.state == .following }
        #expect(reached, "\(rig.state.name)")
        #expect(rig.session.owner == .followMe)
        // And LAND: it lands it, and the Copter disarms
        rig.operatorSays(.land)
        let down = rig.run(within: 60) { $0.state == .landed && !$0.copter.isArmed }
        #expect(down, "\(rig.state.name)")
        let sentByOurFlight = rig.commandsSent.count
        rig.run(for: 2)

        // When a pilot flies again in the same run
        rig.pilotFlies()
        // Then nothing reaches the vehicle (the old link sent DO_SET_MODE LAND at once: its "owner asked to fly" stayed set)
        #expect(rig.commandsSent.count == sentByOurFlight, "\(rig.commandsSent.dropFirst(sentByOurFlight).map(\.id))")
        #expect(rig.state.kind == .released, "\(rig.state.name)")
        let landedAgain = rig.pilotLands()
        #expect(landedAgain)
        rig.run(for: 2)
        #expect(rig.commandsSent.count == sentByOurFlight)
        #expect(rig.state == .landed, "\(rig.state.name)")
    }

    @Test("killed while following and started again 0.5 s later: adopted in GUIDED, neither landed for the battery nor sinking")
    func restartAdopts() throws {
        // Given FollowMe's own flight, following
        var rig = try OwnershipRig(takeOffOnStart: false)
        let reached = rig.run(within: 60) { $0.state == .following }
        #expect(reached, "\(rig.state.name)")
        rig.run(for: 5)
        let height = rig.copter.altitudeMeters
        // When it is killed and started again 0.5 s later (the Copter's streams run on at the old rates:
        // the new link hears GLOBAL_POSITION_INT before SYS_STATUS)
        try rig.restart(afterSeconds: 0.5)
        var lowest = rig.copter.altitudeMeters
        for _ in 0..<(20 * 30) {
            rig.step()
            lowest = min(lowest, rig.copter.altitudeMeters)
        }
        // Then the new run adopts it and follows on: no landing (the old core: landing(critical-battery)
        // 33 ms after adoption), the height kept
        #expect(rig.session.owner == .adopted)
        #expect(rig.transitions.contains { $0.reason == .adoptedInFlight }, "\(rig.transitions.map(\.reason))")
        #expect(!rig.transitions.contains { if case .land = $0.reason { true } else { false } }, "\(rig.transitions.map(\.reason))")
        #expect(rig.copter.mode == .guided)
        #expect(lowest > height - 0.3, "sank from \(height) to \(lowest) m")
        #expect(rig.state == .following, "\(rig.state.name)")
    }
}

extension OwnershipClosedLoopTests {
    @Test("a pilot switches to LOITER on the ground after FollowMe's GUIDED, before its ARM: FollowMe asks nothing again (no GUIDED, ARM, take-off) and waits for START; START flies")
    func pilotSwitchOnTheGroundDuringTakeoff() throws {
        // Given FollowMe with the automatic take-off rule, its GUIDED shown, not yet armed
        var rig = try OwnershipRig(takeOffOnStart: false)
        let guided = rig.run(within: 30) { $0.copter.mode == .guided && !$0.copter.isArmed }
        try #require(guided, "\(rig.state.name)")
        #expect(rig.state == .takingOff, "\(rig.state.name)")
        // When the pilot moves the transmitter's switch to LOITER on the ground
        rig.pilotSwitches(to: .loiter)
        let sent = rig.commandsSent.count
        rig.run(for: 20)
        // Then nothing more is asked of the vehicle (the old link set GUIDED again 2 s later, then armed it)
        #expect(rig.commandsSent.count == sent, "\(rig.commandsSent.dropFirst(sent).map(\.id))")
        #expect(rig.copter.mode == .loiter && !rig.copter.isArmed)
        // And the flight waits for the operator's START, though the rule is automatic
        #expect(rig.state == .preflight(waitingFor: .operatorStart), "\(rig.state.name) \(rig.transitions.map(\.reason.name))")
        // When the operator says START, FollowMe's take-off begins again and it follows
        rig.operatorSays(.start)
        #expect(rig.run(within: 60) { $0.state == .following }, "\(rig.state.name)")
        #expect(rig.copter.mode == .guided && rig.session.owner == .followMe)
    }
}
