@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// FollowMe against the simulated PX4 copter (`MAVLinkCopterParameters.px4`: PX4's modes and parameters,
/// the offboard-loss failsafe, a home altitude that moves 15 s and 45 s after lift-off), closed loop
/// in process (`OwnershipRig`): the sequence docs/mavlink.md §7.3 gives for PX4, and where PX4 differs
/// (its parameters fixed one at a time: `ParametersClosedLoopTests`).
@Suite("PX4 closed loop: take-off, OFFBOARD, a moving home, a pilot's Hold, offboard loss, a restart")
struct PX4ClosedLoopTests {
    /// The rig, following: armed, AUTO.TAKEOFF, AUTO.LOITER, then OFFBOARD.
    static func following() throws -> OwnershipRig {
        var rig = try OwnershipRig(takeOffOnStart: false, autopilot: .px4)
        var modes: [ArduCopterMode] = []
        let reached = rig.run(within: 60) {
            if modes.last != $0.copter.mode { modes.append($0.copter.mode) }
            return $0.state == .following && $0.copter.mode == .guided
        }
        try #require(reached, "\(rig.state.name) in \(rig.copter.modeName(of: rig.copter.mode))")
        #expect(modes == [.brake, .auto, .brake, .guided], "\(modes.map(rig.copter.modeName(of:)))")
        return rig
    }

    @Test("the home altitude jumps 2.5 m up, then 2.4 m down after lift-off: relative_alt jumps with it, the true height moves < 0.3 m")
    func movingHome() throws {
        var rig = try Self.following()
        let liftOff = try #require(rig.copter.liftOffAt)
        // Settled at altitude before PX4 moves its home (15 s after lift-off).
        rig.run(for: max(0, 13 - rig.now.seconds(since: liftOff)))
        #expect(rig.copter.reportedHomeShiftMeters == 0)
        let before = rig.copter.altitudeMeters
        var worst = 0.0, shifts: Set<Double> = []
        while rig.now.seconds(since: liftOff) < 60 {
            rig.step()
            worst = max(worst, abs(rig.copter.altitudeMeters - before))
            shifts.insert((rig.copter.reportedHomeShiftMeters * 10).rounded() / 10)
        }
        #expect(shifts == [0, 2.5, 0.1], "the home did not move as scheduled: \(shifts.sorted())")
        #expect(worst < 0.3, "the true height moved \(worst) m while PX4's home moved")
        #expect(rig.state == .following && rig.copter.mode == .guided, "\(rig.state.name)")
    }

    @Test("a pilot's Hold during PX4's own take-off (before the first OFFBOARD) is not overridden: released, no OFFBOARD, no LAND")
    func pilotsHoldDuringTakeoff() throws {
        var rig = try OwnershipRig(takeOffOnStart: false, autopilot: .px4)
        let climbing = rig.run(within: 60) { $0.copter.mode == .auto && $0.copter.altitudeMeters > 1 }
        try #require(climbing, "\(rig.state.name)")
        let target = try #require({ if case .takingOff(let t) = rig.copter.phase { t } else { nil } }())
        #expect(rig.copter.altitudeMeters < target - 1.2, "too late to tell the pilot's Hold from the take-off's end")
        let sent = rig.commandsSent.count
        // When the pilot switches to Hold (AUTO.LOITER) on the transmitter, 1 m up a climb
        rig.pilotSwitches(to: .brake)
        rig.run(for: 15)
        // Then FollowMe lets go: no OFFBOARD (DO_SET_MODE), no LAND; the copter holds where the pilot stopped it
        #expect(rig.copter.mode == .brake, "\(rig.copter.modeName(of: rig.copter.mode))")
        #expect(rig.commandsSent.count == sent, "\(rig.commandsSent.dropFirst(sent).map(\.id))")
        #expect(rig.state.kind == .released, "\(rig.state.name) \(rig.transitions.map(\.reason.name))")
    }

    @Test("FollowMe killed while following: PX4's offboard-loss failsafe (COM_OBL_RC_ACT 4) lands the copter and disarms it")
    func offboardLossLands() throws {
        var rig = try Self.following()
        rig.followMeRuns = false
        let landed = rig.run(within: 60) { !$0.copter.isArmed }
        #expect(landed, "\(rig.copter.modeName(of: rig.copter.mode)) at \(rig.copter.altitudeMeters) m")
        #expect(rig.copter.counters[.offboardLosses] == 1)
        #expect(rig.copter.mode == .land)
    }

    @Test("killed while following after the home moved, started again 0.5 s later: with COM_OF_LOSS_T 3 s adopted in OFFBOARD, the height kept; with PX4's default 1 s PX4 lands it first and the new run only watches",
          arguments: [3.0, 1.0])
    func restart(offboardLossSeconds: Double) throws {
        var rig = try Self.following()
        rig.groundStationSets("COM_OF_LOSS_T", to: Float(offboardLossSeconds))
        let liftOff = try #require(rig.copter.liftOffAt)
        rig.run(for: max(0, 20 - rig.now.seconds(since: liftOff)))
        #expect(rig.copter.reportedHomeShiftMeters == 2.5)
        let height = rig.copter.altitudeMeters
        try rig.restart(afterSeconds: 0.5)
        var lowest = height, highest = height
        for _ in 0..<(15 * 30) {
            rig.step()
            (lowest, highest) = (min(lowest, rig.copter.altitudeMeters), max(highest, rig.copter.altitudeMeters))
        }
        if offboardLossSeconds > 2 {
            // The new run's first set-point comes within the offboard-loss time: the flight goes on.
            #expect(rig.session.owner == .adopted && rig.state == .following, "\(rig.state.name)")
            #expect(!rig.transitions.contains { if case .land = $0.reason { true } else { false } }, "\(rig.transitions.map(\.reason))")
            #expect(rig.copter.mode == .guided && rig.copter.counters[.offboardLosses] == 0)
            #expect(lowest > height - 0.3 && highest < height + 0.3, "\(lowest)…\(highest) m around \(height) m")
        } else {
            // PX4's failsafe lands it before the new run's first set-point (adopted or not): landed, never
            // taken back into OFFBOARD
            #expect(rig.copter.counters[.offboardLosses] == 1, "\(rig.copter.counters)")
            #expect(!rig.copter.isArmed || rig.copter.mode == .land, "\(rig.copter.modeName(of: rig.copter.mode))")
            #expect(rig.state.kind == .landed || rig.state.kind == .landing || rig.state.kind == .released,
                    "\(rig.state.name) \(rig.transitions.map(\.reason.name))")
            #expect(!rig.transitions.contains { $0.to.kind == .following }, "\(rig.transitions.map(\.reason.name))")
        }
    }
}

extension PX4ClosedLoopTests {
    @Test("PX4's home moves 2.5 m up or down 1 s after lift-off, during the climb: its take-off still ends in OFFBOARD (judged in AMSL, as PX4 does)",
          arguments: [2.5, -2.5])
    func homeMovesDuringTheClimb(meters: Double) throws {
        var rig = try OwnershipRig(takeOffOnStart: false, autopilot: .px4)
        rig.copter.parameters.homeAltitudeSteps = [HomeAltitudeStep(afterLiftOffSeconds: 1, meters: meters)]
        let done = rig.run(within: 60) { $0.copter.mode == .guided || $0.state.kind == .released }
        rig.run(for: 5)
        #expect(done && rig.copter.mode == .guided && rig.state.kind != .released, "\(rig.state.name) \(rig.transitions.map(\.reason.name))")
    }

    @Test("PX4's home moves 2.5 m down during the climb, then a pilot's Hold 1 m up: not overridden")
    func pilotsHoldAfterTheHomeMovedDown() throws {
        var rig = try OwnershipRig(takeOffOnStart: false, autopilot: .px4)
        rig.copter.parameters.homeAltitudeSteps = [HomeAltitudeStep(afterLiftOffSeconds: 0.3, meters: -2.5)]
        let climbing = rig.run(within: 60) { $0.copter.mode == .auto && $0.copter.altitudeMeters > 1.0 }
        try #require(climbing)
        let sent = rig.commandsSent.count
        rig.pilotSwitches(to: .brake)
        rig.run(for: 10)
        #expect(rig.copter.mode == .brake && rig.commandsSent.count == sent, "\(rig.commandsSent.dropFirst(sent).map(\.id))")
    }
}
