@testable import FollowCore
@testable import MAVLink
import Testing


/// The link reports whether it controls the vehicle (issue 22, defect 5).
@Suite("Not in control: the flight holds, then lands, instead of 'following' a vehicle that ignores it")
struct NotInControlTests {
    @Test("following → not in control → holding(not-in-control), hover (no motion) → landing after the hold clock")
    func holdsThenLands() throws {
        var world = try World.following()
        world.linkReports(.control(inControl: false, reason: "mode not GUIDED", at: world.now))
        world.step()
        #expect(world.state == .holding(.notInControl))
        #expect(world.command?.motion == nil)
        let landed = world.run(until: { $0.kind == .landing }, within: 60)
        #expect(landed != nil)
        #expect(world.state == .landing(.holdExpired(.notInControl)), "\(world.state.name)")
    }

    @Test("back in control before the clock runs out: following again")
    func resumes() throws {
        var world = try World.following()
        world.linkReports(.control(inControl: false, reason: "mode not GUIDED", at: world.now))
        world.run(for: 2)
        #expect(world.state == .holding(.notInControl))
        world.linkReports(.control(inControl: true, reason: "GUIDED again", at: world.now))
        #expect(world.run(until: { $0 == .following }, within: 5) != nil, "\(world.state.name)")
    }
}

/// Defect 0 (issue 22): started before the autopilot can arm, the flight waits and flies later.
@Suite("An autopilot that refuses to arm: back to preflight, not landed for good")
struct TakeOffRetryTests {
    @Test("take-off not confirmed on an autopilot still on the ground → preflight; it takes off once the vehicle lifts")
    func autopilotRetries() throws {
        // Given an autopilot that does not arm (the fake firmware ignores the take-off)
        var world = try World(vehicle: .velocityLoop(.arduCopterDefaults))
        world.firmwareFollowsIntent = false
        let timeout = world.machine.failsafeParameters.takeOffTimeoutSeconds
        #expect(world.run(until: { $0 == .takingOff }, within: 5) != nil)
        // When the take-off times out
        world.run(for: timeout + 0.5)
        // Then it is back in preflight, not landed for the rest of the run (the old core: landed)
        #expect(world.transitions.contains { $0.reason == .takeOffNotConfirmed })
        #expect(!world.state.isTerminal, "\(world.state.name)")
        // And when the vehicle is ready and arms, it flies
        world.firmwareFollowsIntent = true
        #expect(world.run(until: { $0 == .following }, within: 60) != nil, "\(world.state.name)")
    }

    @Test("takeoff = start: a refused arm goes back to preflight waiting for a new START; that START flies")
    func refusedArmWaitsForTheNextStart() throws {
        // Given an autopilot that does not arm, in a flight that takes off on START
        var failsafe = FailsafeParameters.testDefault
        failsafe.takeOffOnStart = true
        var world = try World(failsafe: failsafe, vehicle: .velocityLoop(.arduCopterDefaults))
        world.firmwareFollowsIntent = false
        world.run(for: 10)
        #expect(world.operatorSays(.start) == .accepted)
        #expect(world.run(until: { $0 == .takingOff }, within: 0.1) != nil)
        // When the take-off times out with the vehicle still on the ground
        world.run(for: world.machine.failsafeParameters.takeOffTimeoutSeconds + 0.5)
        // Then it waits on the ground for START again: the first one was spent on that attempt
        #expect(world.transitions.last?.reason == .takeOffNotConfirmed)
        #expect(world.state == .preflight(waitingFor: .operatorStart), "\(world.state.name)")
        world.firmwareFollowsIntent = true
        world.run(for: 10)
        #expect(world.state == .preflight(waitingFor: .operatorStart), "no take-off without a new START")
        // And a new START flies
        #expect(world.operatorSays(.start) == .accepted)
        #expect(world.run(until: { $0 == .following }, within: 60) != nil, "\(world.state.name)")
    }

    @Test("the AR.Drone is still given up for the run (its motors spun)")
    func arDroneGivesUp() throws {
        var world = try World()
        world.firmwareFollowsIntent = false
        world.run(for: world.machine.failsafeParameters.takeOffTimeoutSeconds + 2)
        #expect(world.state == .landed)
    }
}
