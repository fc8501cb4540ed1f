@testable import FollowCore
import Testing

/// The person's word (issue 23): HOLD, RESUME and LAND from the cockpit, the CLI or `watch`, as the
/// flight's rules take them — at once, over following and the hold clock, never over an emergency
/// or a pilot who took the vehicle.
@Suite("FlightStateMachine: the operator's HOLD, RESUME and LAND")
struct OperatorCommandTests {
    static let landAfter = FlightStateMachineTests.failsafe.landAfterSeconds

    @Test("HOLD while following holds the point at once, for as long as it lasts; RESUME follows again")
    func holdAndResume() throws {
        // Given a drone following the person
        var world = try World.following()
        // When the operator says HOLD
        #expect(world.operatorSays(.hold) == .accepted)
        // Then the flight holds in the same step, for the operator, holding a point (not the firmware's hover)
        #expect(world.state == .holding(.operatorHold))
        #expect(world.transitions.last?.reason == .hold(.operatorHold))
        #expect(world.command?.intent == .fly && world.command?.motion != nil)
        #expect(world.operatorSays(.hold) == .alreadySo)
        // and keeps holding three times longer than any automatic hold may last, without landing
        world.run(for: 3 * Self.landAfter)
        #expect(world.state == .holding(.operatorHold))
        // When the operator says RESUME, it follows again
        #expect(world.operatorSays(.resume) == .accepted)
        let reachedAgain = world.run(until: { $0 == .following }, within: 1)
        #expect(reachedAgain != nil)
        #expect(world.operatorSays(.resume) == .alreadySo)
    }

    @Test("LAND lands at once from following, from a hold and from the climb", arguments: ["following", "holding", "climbing"])
    func land(from: String) throws {
        var world = try World()
        switch from {
        case "climbing":
            let reached = world.run(until: { $0 == .climbing }, within: 30)
            try #require(reached != nil)
        case "holding":
            world.flyToFollowing()
            world.sendsTarget = false
            let reached = world.run(until: { $0.kind == .holding })
            try #require(reached != nil)
        default: world.flyToFollowing()
        }
        #expect(world.operatorSays(.land) == .accepted)
        #expect(world.state == .landing(.operatorCommand))
        #expect(world.state.name == "landing(operator)")
        #expect(world.command?.intent == .land)
        #expect(world.operatorSays(.land) == .alreadySo)
        #expect(world.operatorSays(.resume) == .refused(.landing))
        world.run(for: 4)
        #expect(world.state == .landed)
        #expect(world.operatorSays(.hold) == .refused(.landed))
    }

    @Test("an automatic reason under the operator's hold shows and starts its own clock: it lands landAfterSeconds after it, not after the HOLD")
    func automaticReasonUnderTheHold() throws {
        var world = try World.following()
        world.operatorSays(.hold)
        world.run(for: 2 * Self.landAfter)
        // When the person's receiver goes silent during a long operator hold
        world.sendsTarget = false
        let heldTime = world.run(until: { $0 == .holding(.targetStale) })
        let held = try #require(heldTime)
        // Then the hold shows the reason, and lands landAfterSeconds after it, not at once
        let landingTime = world.run(until: { $0.kind == .landing })
        let landing = try #require(landingTime)
        #expect(world.state == .landing(.holdExpired(.targetStale)))
        #expect(abs(landing - held - Self.landAfter) <= FlightStateMachineTests.tick + 1e-9, "\(landing - held) s")
    }

    @Test("the receiver back under the operator's hold: it holds for the operator again, not follows", .timeLimit(.minutes(1)))
    func holdOutlastsARecoveredReason() throws {
        var world = try World.following()
        world.operatorSays(.hold)
        world.sendsTarget = false
        let staleTime = world.run(until: { $0 == .holding(.targetStale) })
        _ = try #require(staleTime)
        world.sendsTarget = true
        let reachedAgain = world.run(until: { $0 == .holding(.operatorHold) }, within: 3)
        #expect(reachedAgain != nil)
        world.run(for: 2)
        #expect(world.state == .holding(.operatorHold))
    }

    @Test("before take-off HOLD or LAND keeps it on the ground with everything ready; RESUME takes off", arguments: [
        OperatorCommand.hold, .land,
    ])
    func preflight(command: OperatorCommand) throws {
        var world = try World()
        #expect(world.operatorSays(command) == .accepted)
        world.run(for: 10)
        #expect(world.state == .preflight(waitingFor: .operatorResume), "\(world.state.name)")
        #expect(world.state.name == "preflight(waiting: operator-hold)")
        #expect(world.transitions.isEmpty || world.transitions.allSatisfy { $0.to.kind == .preflight })
        #expect(world.operatorSays(.resume) == .accepted)
        let reachedAgain = world.run(until: { $0 == .takingOff }, within: 2)
        #expect(reachedAgain != nil)
    }

    @Test("an emergency and a released vehicle refuse every command: a pilot or the autopilot's failsafe is never overruled")
    func refused() throws {
        var released = try ReleasedStateTests.releasedWorld()
        for command in OperatorCommand.allCases {
            #expect(released.operatorSays(command) == .refused(.released))
        }
        released.run(for: 2)
        #expect(released.state.kind == .released)

        var world = try World.following()
        world.emergency = true
        let reached = world.run(until: { $0 == .emergency }, within: 2)
        try #require(reached != nil)
        #expect(world.operatorSays(.land) == .refused(.emergency))
        #expect(world.operatorSays(.hold) == .refused(.emergency))
    }

    @Test("LAND outranks the operator's own HOLD; SIGTERM during a hold lands as before")
    func landOverHold() throws {
        var world = try World.following()
        world.operatorSays(.hold)
        #expect(world.operatorSays(.land) == .accepted)
        #expect(world.state == .landing(.operatorCommand))
        var other = try World.following()
        other.operatorSays(.hold)
        other.shutdown()
        #expect(other.state == .landing(.shutdown))
    }

    @Test("HOLD during the take-off, before the drone is up: held, then RESUME goes back to taking off; LAND there lands")
    func duringTakeOff() throws {
        var world = try World()
        world.takeoffDelay = 3  // the firmware answers REF take-off late: the drone is still on the ground
        let started = world.run(until: { $0 == .takingOff }, within: 30)
        try #require(started != nil)
        #expect(world.operatorSays(.hold) == .accepted)
        #expect(world.state == .holding(.operatorHold))
        world.run(for: 1)
        #expect(world.state == .holding(.operatorHold))
        #expect(world.operatorSays(.resume) == .accepted)
        let resumed = world.run(until: { $0 == .takingOff || $0 == .climbing }, within: 6)
        #expect(resumed != nil, "\(world.state.name) \(world.transitions.map { "\($0.to.name)/\($0.reason.name)" }) \(world.flightState)")
        #expect(world.operatorSays(.land) == .accepted)
        #expect(world.state == .landing(.operatorCommand))
    }

    // MARK: START

    /// A world whose flight takes off only on START (`[follow] takeoff = "start"`).
    static func startWorld() throws -> World {
        var failsafe = FailsafeParameters.testDefault
        failsafe.takeOffOnStart = true
        return try World(failsafe: failsafe)
    }

    @Test("takeoff = start: with everything ready it waits for START; START takes off at once; one START, one take-off")
    func startTakesOff() throws {
        // Given a flight that takes off on START, everything else ready for 10 s
        var world = try Self.startWorld()
        world.run(for: 10)
        // Then it is still on the ground, waiting for START alone
        #expect(world.state == .preflight(waitingFor: .operatorStart), "\(world.state.name)")
        #expect(world.state.name == "preflight(waiting: start)")
        #expect(world.transitions.allSatisfy { $0.to.kind == .preflight })
        // When the operator says START, it takes off within a tick
        #expect(world.operatorSays(.start) == .accepted)
        let started = world.run(until: { $0 == .takingOff }, within: 0.1)
        #expect(started != nil, "\(world.state.name)")
        #expect(world.machine.operatorStarted == false, "the take-off consumes the START")
        // And once up, START is refused (it is a take-off, not a resume)
        world.flyToFollowing()
        #expect(world.operatorSays(.start) == .refused(.following))
        #expect(OperatorCommand.Outcome.refused(.following).name == "refused:following")
    }

    @Test("START is refused while any other prerequisite is missing, and names them; nothing takes off")
    func startNotReady() throws {
        // Given a flight that takes off on START, before any fix or navdata arrived
        var world = try Self.startWorld()
        let outcome = world.operatorSays(.start)
        // Then START is refused naming what is missing (never `start` itself), and it stays down
        guard case .notReady(let missing)? = outcome else {
            Issue.record("START before any data: \(String(describing: outcome))")
            return
        }
        #expect(missing.contains(.targetFix) && missing.contains(.telemetry) && !missing.contains(.operatorStart))
        #expect(outcome?.name.hasPrefix("refused:waiting ") == true && outcome?.name.contains("target-fix") == true)
        #expect(outcome?.isAccepted == false)
        world.run(for: 10)
        #expect(world.state == .preflight(waitingFor: .operatorStart), "a refused START is not remembered")
    }

    @Test("START lifts a HOLD or LAND given before take-off (takeoff = auto or start); RESUME alone does not start a takeoff = start flight")
    func startOverPreflightHold() throws {
        // takeoff = auto: HOLD keeps it down, START takes off
        var auto = try World()
        auto.operatorSays(.hold)
        auto.run(for: 10)
        #expect(auto.state.name == "preflight(waiting: operator-hold)")
        #expect(auto.operatorSays(.start) == .accepted)
        #expect(auto.run(until: { $0 == .takingOff }, within: 0.1) != nil)

        // takeoff = start: LAND before take-off, then RESUME leaves it waiting for START
        var world = try Self.startWorld()
        world.operatorSays(.land)
        world.run(for: 10)
        #expect(world.state == .preflight(waitingFor: [.operatorResume, .operatorStart]), "\(world.state.name)")
        #expect(world.operatorSays(.resume) == .accepted)
        world.run(for: 2)
        #expect(world.state == .preflight(waitingFor: .operatorStart))
        #expect(world.operatorSays(.start) == .accepted)
        #expect(world.run(until: { $0 == .takingOff }, within: 0.1) != nil)
    }

    @Test("outcome names are the flight log's kebab-case words")
    func outcomeNames() {
        #expect(OperatorCommand.Outcome.refused(.takingOff).name == "refused:taking-off")
        #expect(OperatorCommand.Outcome.alreadySo.name == "already")
        #expect(OperatorCommand.Outcome.notReady([.heading, .telemetry]).name == "refused:waiting heading,navdata")
    }
}
