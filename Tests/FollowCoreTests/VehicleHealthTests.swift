@testable import FollowCore
import Testing

/// The autopilot's own health as MAVLink reports it (issue 22, defects 0 and 8): an unknown battery
/// after a known one, MAV_STATE_CRITICAL, and the pre-arm bit.
@Suite("FlightStateMachine: vehicle health (battery unknown, CRITICAL, ready to arm)")
struct VehicleHealthTests {
    @Test("battery unknown or CRITICAL while following: hold for that reason, then land after landAfterSeconds",
          arguments: ["battery", "critical"])
    func holdThenLand(cause: String) throws {
        // Given a drone following
        var world = try World.following()
        world.run(for: 1)
        // When the autopilot stops reporting its battery (−1), or reports CRITICAL
        let expected: HoldReason
        if cause == "battery" { world.batteryUnknown = true; expected = .batteryUnknown } else { world.critical = true; expected = .vehicleCritical }
        let heldTime = world.run(until: { $0.kind == .holding }, within: 2)
        let held = try #require(heldTime)
        // Then it holds for that reason at once
        #expect(world.state == .holding(expected))
        // and lands landAfterSeconds later
        let landedTime = world.run(until: { $0.kind == .landing }, within: 60)
        let landed = try #require(landedTime)
        #expect(world.state == .landing(.holdExpired(expected)))
        #expect(abs(landed - held - FlightStateMachineTests.failsafe.landAfterSeconds) <= FlightStateMachineTests.tick + 1e-9)
    }

    @Test("a battery that becomes known again before the deadline: following resumes")
    func batteryBack() throws {
        var world = try World.following()
        world.batteryUnknown = true
        let heldTime = world.run(until: { $0 == .holding(.batteryUnknown) }, within: 2)
        try #require(heldTime != nil)
        world.batteryUnknown = false
        #expect(world.run(until: { $0 == .following }, within: 2) != nil)
    }

    @Test("preflight: not ready to arm, CRITICAL → drone-ready missing; battery unknown → battery missing; no take-off")
    func preflight() throws {
        // Given everything fresh but the autopilot's pre-arm checks failing (EKF not using GPS yet)
        var world = try World()
        world.readyToArm = false
        world.run(for: 3)
        // Then it waits for droneReady, never takes off
        guard case .preflight(let missing) = world.state else { Issue.record("\(world.state)"); return }
        #expect(missing == .droneReady)
        // CRITICAL and an unknown battery keep it waiting too
        world.readyToArm = true
        world.critical = true
        world.batteryUnknown = true
        world.run(for: 1)
        guard case .preflight(let missing2) = world.state else { Issue.record("\(world.state)"); return }
        #expect(missing2 == [.droneReady, .battery])
        // Once all clear, it takes off
        world.critical = false
        world.batteryUnknown = false
        #expect(world.run(until: { $0 == .takingOff }, within: 2) != nil)
    }
}
