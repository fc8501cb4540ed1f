@testable import FollowCore
import Testing

@Suite("FlightStateMachine: states, telemetry-confirmed transitions, every failsafe")
struct FlightStateMachineTests {
    static let failsafe = FailsafeParameters.testDefault
    static let tick = 1.0 / 30

    @Test("every prerequisite has one name of its own, in the status's and the log's vocabulary")
    func prerequisiteNames() {
        let each = (0..<16).map { Prerequisites(rawValue: 1 << $0) }.filter { Prerequisites.all.contains($0) }
        #expect(Prerequisites.named.count == Prerequisites.all.rawValue.nonzeroBitCount)
        #expect(each.allSatisfy { $0.names.count == 1 }, "\(each.map(\.names))")
        #expect(Set(each.flatMap(\.names)).count == each.count)
        #expect(Prerequisites.all.names.count == each.count)
        #expect(Prerequisites([.heading, .telemetry, .operatorStart]).names == ["heading", "navdata", "start"])
    }

    @Test func takeOffClimbAndFollowEachConfirmedByTelemetry() throws {
        // Given a landed drone and every source live
        var world = try World()
        world.step()
        #expect(world.command?.intent == .stayLanded)
        // When everything has been fresh (and converged) long enough
        world.flyToFollowing()
        // Then it went preflight → takingOff → climbing → following, each on telemetry
        let path = world.transitions.map { ($0.to.kind, $0.reason) }
        #expect(path.map(\.0) == [.takingOff, .climbing, .following])
        #expect(path.map(\.1) == [.prerequisitesMet, .airborneConfirmed, .altitudeReached])
        #expect(world.state == .following)
        #expect(world.command?.intent == .fly)
        #expect(world.pilot != nil)
        #expect(world.machine.home != nil)
    }

    @Test func takeOffIsNotAssumedFromTimeAndIsAbandonedWhenNotConfirmed() throws {
        // Given a drone whose firmware ignores take-off (navdata keeps saying landed)
        var world = try World()
        world.firmwareFollowsIntent = false
        let startedTime = world.run(until: { $0 == .takingOff }, within: 10)
        let started = try #require(startedTime)
        // When takeOffTimeoutSeconds pass without navdata confirming lift-off
        let endedTime = world.run(until: { $0 != .takingOff }, within: 10)
        let ended = try #require(endedTime)
        // Then it was never taken for airborne, and the attempt is abandoned: landed, named reason
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .takeOffNotConfirmed)
        #expect(world.transitions.last?.reason.name == "take-off-not-confirmed")
        #expect(abs(ended - started - Self.failsafe.takeOffTimeoutSeconds) <= Self.tick + 1e-9)
        #expect(world.command == DroneCommand(intent: .stayLanded))
        // And it never tries again by itself
        world.run(for: 60)
        #expect(world.state == .landed)
        #expect(world.command == DroneCommand(intent: .stayLanded))
        #expect(world.transitions.filter { $0.to == .takingOff }.count == 1)
    }

    @Test("take-off is aborted (REF land) when a prerequisite stops holding before the drone is up", arguments: [
        ("target", Prerequisites.targetFix), ("navdata", .telemetry), ("heading", .heading),
        ("person-close", .targetClear), ("configuration", .droneConfigured),
    ])
    func takeOffAbortsWhenAPrerequisiteIsLost(lost: String, expected: Prerequisites) throws {
        // Given a drone taking off (its firmware lifting slowly: TRANS_TAKEOFF for 10 s)
        var world = try World()
        world.climbOutSeconds = 10
        let reached1 = world.run(until: { $0 == .takingOff }, within: 10)
        try #require(reached1 != nil)
        world.run(for: 0.5)
        #expect(world.state == .takingOff)
        // When one prerequisite stops holding
        switch lost {
        case "target": world.sendsTarget = false
        case "navdata": world.sendsNavdata = false
        case "heading": world.sendsHeading = false
        case "person-close": world.person = PlaneVector(east: 1, north: 1)
        default: world.droneConfiguration = .failed(key: "control:altitude_max")
        }
        let aborted = world.run(until: { $0 != .takingOff }, within: 10)
        // Then the take-off is aborted with that reason and REF land is sent, never take-off again
        try #require(aborted != nil)
        guard case .landing(.takeOffAborted(let missing)) = world.state else {
            Issue.record("expected landing(take-off-aborted), got \(world.state.name)")
            return
        }
        #expect(missing.contains(expected))
        #expect(world.command?.intent == .land)
        #expect(world.state.name.hasPrefix("landing(take-off-aborted:"))
        world.sendsNavdata = true
        world.sendsTarget = true
        world.sendsHeading = true
        world.run(for: 10)
        #expect(world.state == .landed)
        #expect(world.transitions.filter { $0.to == .takingOff }.count == 1)
    }

    @Test func aSaggingBatteryDoesNotAbortTheTakeOff() throws {
        // Given a drone taking off with 36 % (just above the 35 % take-off threshold)
        var world = try World()
        world.battery = 36
        let reached2 = world.run(until: { $0 == .takingOff }, within: 10)
        try #require(reached2 != nil)
        // When the reading sags to 30 % as the motors start
        world.battery = 30
        // Then the take-off goes on
        world.flyToFollowing()
        #expect(world.state == .following)
    }

    @Test func climbingWaitsForTheAltitude() throws {
        var world = try World()
        world.run(until: { $0 == .climbing })
        // While climbing the PCMD asks for height and no horizontal motion
        world.step()
        let pilot = try #require(world.pilot)
        #expect(pilot.gaz > 0)
        #expect(abs(pilot.roll) < 0.05 && abs(pilot.pitch) < 0.05)
        #expect(world.state == .climbing)
    }

    @Test("preflight says what it waits for", arguments: [
        ("heading", Prerequisites.heading),
        // Without one of the fixes the separation from the person cannot be checked either.
        ("target", Prerequisites([.targetFix, .targetClear])),
        ("onboard", Prerequisites([.onboardFix, .targetClear])),
        ("battery", Prerequisites.battery),
        ("emergency", Prerequisites.droneReady),
    ])
    func preflightWaitsFor(missing: String, expected: Prerequisites) throws {
        // Given a landed drone with one thing missing
        var world = try World()
        switch missing {
        case "heading": world.sendsHeading = false
        case "target": world.sendsTarget = false
        case "onboard": world.sendsOnboard = false
        case "battery": world.battery = 30   // under minTakeoffBatteryPercent 35
        default: world.emergency = true
        }
        // When 10 s pass
        world.run(for: 10)
        // Then it is still on the ground, saying exactly what it waits for
        #expect(world.state == .preflight(waitingFor: expected))
        #expect(world.command == DroneCommand(intent: .stayLanded))
        #expect(world.transitions.isEmpty)
    }

    @Test("a drone configuration that is not done blocks take-off and is listed", arguments: [
        DroneConfigurationStatus.pending, .failed(key: "control:altitude_max"),
    ])
    func droneConfigurationBlocksTakeOff(status: DroneConfigurationStatus) throws {
        // Given a landed drone with every source live whose configuration writes are not done
        var world = try World()
        world.droneConfiguration = status
        // When 10 s pass
        world.run(for: 10)
        // Then it stays on the ground, waiting for exactly that
        #expect(world.state == .preflight(waitingFor: .droneConfigured))
        #expect(world.state.name == "preflight(waiting: drone-configuration)")
        #expect(world.command == DroneCommand(intent: .stayLanded))
        // And when the link reports the writes done, it takes off
        world.droneConfiguration = .done
        world.run(for: 1)
        #expect(world.state == .takingOff)
    }

    @Test func noNavdataMeansWaitingForAllOfIt() throws {
        var world = try World()
        world.sendsNavdata = false
        world.run(for: 5)
        // (and for the configuration: the link writes it once navdata flows, FlightLoopCore.start)
        #expect(world.state == .preflight(waitingFor: [.telemetry, .battery, .droneReady, .droneConfigured]))
    }

    // MARK: Target stale

    @Test func targetStaleHoldsAtTheTimeoutThenLandsAfterLandAfter() throws {
        // Given a drone following
        var world = try World.following()
        world.run(for: 5)
        // When the person's receiver goes silent
        world.sendsTarget = false
        world.step()
        let lastFix = try #require(world.lastTargetFixAt)
        // Then it holds (REF still flying; a position hold on PCMD, since it still knows where it
        // is and which way it points) at the first tick after the fix is targetTimeoutSeconds
        // old — following until then
        let holdTime = world.run(until: { $0.kind != .following })
        let holdStart = try #require(holdTime)
        #expect(world.state == .holding(.targetStale))
        #expect(world.command?.intent == .fly)
        #expect(world.pilot != nil)
        #expect(world.machine.holdPoint != nil)
        #expect(holdStart > lastFix + Self.failsafe.targetTimeoutSeconds)
        #expect(holdStart <= lastFix + Self.failsafe.targetTimeoutSeconds + Self.tick + 1e-9)
        // And lands at the first tick landAfterSeconds after holding began, holding until then
        let landTime = world.run(until: { $0 != .holding(.targetStale) })
        let landStart = try #require(landTime)
        #expect(world.state == .landing(.holdExpired(.targetStale)))
        #expect(world.command == DroneCommand(intent: .land))
        #expect(landStart >= holdStart + Self.failsafe.landAfterSeconds - 1e-9)
        #expect(landStart <= holdStart + Self.failsafe.landAfterSeconds + Self.tick + 1e-9)
        // And it is "landed" only when navdata says so (the fake firmware needs 2 s)
        world.run(for: 1.5)
        #expect(world.state == .landing(.holdExpired(.targetStale)))
        world.run(for: 1)
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .landedConfirmed)
        #expect(world.command == DroneCommand(intent: .stayLanded))
    }

    @Test func landingWithoutLandedTelemetryStaysLanding() throws {
        var world = try World.following()
        world.sendsTarget = false
        world.run(until: { $0.kind == .landing })
        // When the firmware never reports landed
        world.firmwareFollowsIntent = false
        world.run(for: 30)
        // Then the machine keeps commanding land and never assumes it is down
        #expect(world.state == .landing(.holdExpired(.targetStale)))
        #expect(world.command?.intent == .land)
    }

    @Test func targetBackBeforeTheDeadlineResumesFollowing() throws {
        // Given a drone holding because the target went stale
        var world = try World.following()
        world.sendsTarget = false
        world.run(until: { $0 == .holding(.targetStale) })
        // When fixes return 5 s later
        world.run(for: 5)
        world.sendsTarget = true
        world.run(for: 0.5)
        // Then it follows again, and never landed
        #expect(world.state == .following)
        #expect(world.transitions.last?.reason == .dataFresh)
        #expect(world.pilot != nil)
        #expect(!world.transitions.contains { $0.to.kind == .landing })
        // And a later stale spell gets a fresh land deadline
        world.sendsTarget = false
        let tTime = world.run(until: { $0.kind == .holding })

        let t = try #require(tTime)
        world.run(until: t + Self.failsafe.landAfterSeconds - 0.1)
        #expect(world.state == .holding(.targetStale))
    }
}
