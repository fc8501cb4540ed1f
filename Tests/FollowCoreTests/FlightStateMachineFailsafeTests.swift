@testable import FollowCore
import Testing

@Suite("FlightStateMachine: failsafes while airborne (sources, battery, geofence, climb, shutdown)")
struct FlightStateMachineFailsafeTests {
    /// A drone following near home with a 100 m fence whose onboard fixes then put it 101 m from home
    /// (beyond geofenceMeters 100), run until it holds for the geofence (fix screening and the
    /// estimate need a few fixes to get there).
    static func worldHeldByTheGeofence() throws -> World {
        var world = try World(failsafe: FailsafeParameters(geofenceMeters: 100, gpsRelativeErrorMeters: 0))
        world.flyToFollowing()
        world.person = PlaneVector(east: 105, north: 0)
        world.drone = PlaneVector(east: 101, north: 0)
        try #require(world.run(until: { $0 == .holding(.geofence) }, within: 20) != nil)
        return world
    }

    // MARK: Other sources

    @Test("a stale onboard fix, heading or navdata holds, then lands", arguments: ["onboard", "heading", "navdata"])
    func otherSourcesStale(source: String) throws {
        var world = try World.following()
        world.run(for: 2)
        let expected: HoldReason
        let timeout: Double
        switch source {
        case "onboard": world.sendsOnboard = false; expected = .onboardFixStale; timeout = FlightStateMachineTests.failsafe.onboardTimeoutSeconds
        case "heading": world.sendsHeading = false; expected = .headingStale; timeout = FlightStateMachineTests.failsafe.headingTimeoutSeconds
        default: world.sendsNavdata = false; expected = .telemetryLost; timeout = FlightStateMachineTests.failsafe.telemetryTimeoutSeconds
        }
        let silencedAt = world.time
        // When that source stays silent
        let heldTime = world.run(until: { $0.kind == .holding })

        let held = try #require(heldTime)
        // Then it holds after (about) its timeout, for that reason, hovering
        #expect(world.state == .holding(expected))
        #expect(held >= silencedAt + timeout - 0.25)
        #expect(held <= silencedAt + timeout + 0.1)
        #expect(world.command == DroneCommand(intent: .fly))
        // And lands landAfterSeconds later
        let landedTime = world.run(until: { $0.kind == .landing })

        let landed = try #require(landedTime)
        #expect(world.state == .landing(.holdExpired(expected)))
        #expect(abs(landed - held - FlightStateMachineTests.failsafe.landAfterSeconds) <= FlightStateMachineTests.tick + 1e-9)
        #expect(world.command == DroneCommand(intent: .land))
        if source == "navdata" {
            // …and with no navdata it cannot know it has landed: it stays "landing"
            world.run(for: 10)
            #expect(world.state.kind == .landing)
            // until navdata returns saying landed
            world.flightState = .landed
            world.sendsNavdata = true
            world.run(for: 0.2)
            #expect(world.state == .landed)
        } else {
            world.run(for: 3)
            #expect(world.state == .landed)
        }
    }

    @Test func telemetryLostOutranksAStaleTarget() throws {
        var world = try World.following()
        world.sendsNavdata = false
        world.sendsTarget = false
        world.run(until: { $0.kind == .holding })
        world.run(for: 3)
        #expect(world.state == .holding(.telemetryLost))
    }

    @Test func aChangeOfHoldReasonDoesNotResetTheLandDeadline() throws {
        var world = try World.following()
        world.sendsTarget = false
        let heldTime = world.run(until: { $0.kind == .holding })

        let held = try #require(heldTime)
        world.run(for: 4)
        world.sendsHeading = false
        world.run(for: 3)
        #expect(world.state == .holding(.headingStale))
        let landedTime = world.run(until: { $0.kind == .landing })

        let landed = try #require(landedTime)
        #expect(abs(landed - held - FlightStateMachineTests.failsafe.landAfterSeconds) <= FlightStateMachineTests.tick + 1e-9)
        #expect(world.state == .landing(.holdExpired(.headingStale)))
    }

    // MARK: Battery, geofence, shutdown

    @Test func lowBatteryLandsOnceItPersists() throws {
        // Given a drone following
        var world = try World.following()
        // When the battery reads under minBatteryPercent and stays there
        world.battery = FlightStateMachineTests.failsafe.minBatteryPercent - 1
        let first = world.time
        let landingTime = world.run(until: { $0.kind != .following }, within: 10)
        let landing = try #require(landingTime)
        // Then it lands once the readings stayed low for lowBatteryConfirmSeconds (15 Hz navdata)
        #expect(world.state == .landing(.lowBattery))
        #expect(world.command?.intent == .land)
        #expect(landing >= first + FlightStateMachineTests.failsafe.lowBatteryConfirmSeconds - 1e-9)
        #expect(landing <= first + FlightStateMachineTests.failsafe.lowBatteryConfirmSeconds + 2 * FlightStateMachineTests.tick + 1e-9)
        world.run(for: 3)
        #expect(world.state == .landed)
    }

    @Test func oneLowBatteryReadingDoesNotLand() throws {
        // Given a drone following
        var world = try World.following()
        // When a few readings sag under minBatteryPercent for a second (a burst of thrust), then recover
        world.battery = FlightStateMachineTests.failsafe.minBatteryPercent - 5
        world.run(for: FlightStateMachineTests.failsafe.lowBatteryConfirmSeconds / 2)
        world.battery = FlightStateMachineTests.failsafe.minBatteryPercent + 5
        world.run(for: 0.2)
        world.battery = FlightStateMachineTests.failsafe.minBatteryPercent - 5
        world.run(for: FlightStateMachineTests.failsafe.lowBatteryConfirmSeconds / 2)
        world.battery = FlightStateMachineTests.failsafe.minBatteryPercent + 5
        world.run(for: 5)
        // Then it keeps following
        #expect(world.state == .following)
        #expect(!world.transitions.contains { $0.to.kind == .landing })
    }

    @Test func aCriticalBatteryLandsAtOnce() throws {
        var world = try World.following()
        // When one reading is under criticalBatteryPercent
        world.battery = FlightStateMachineTests.failsafe.criticalBatteryPercent - 1
        world.run(for: 0.1)
        // Then it lands at once, for a named reason
        #expect(world.state == .landing(.criticalBattery))
        #expect(world.state.name == "landing(critical-battery)")
        #expect(world.command?.intent == .land)
    }

    // MARK: Climbing

    @Test func aClimbThatCannotEndHoldsWhereItGotThenLands() throws {
        // Given a drone whose firmware stops at 2 m (altitude_max below the 3 m follow altitude)
        var world = try World()
        world.altitudeCapMeters = 2
        let climbingTime = world.run(until: { $0 == .climbing }, within: 20)
        let climbing = try #require(climbingTime)
        // When it has climbed for climbTimeoutSeconds (counted from lift-off, before `climbing`)
        let heldTime = world.run(until: { $0 != .climbing }, within: 60)
        let held = try #require(heldTime)
        // Then it holds at the reached altitude, for a named reason
        #expect(world.state == .holding(.altitudeNotReached))
        #expect(world.state.name == "holding(altitude-not-reached)")
        #expect(held - climbing <= FlightStateMachineTests.failsafe.climbTimeoutSeconds + 1e-9)
        #expect(held - climbing >= FlightStateMachineTests.failsafe.climbTimeoutSeconds - 3)
        #expect(world.command?.intent == .fly)
        #expect(abs(world.altitude - 2) < 1e-9)
        // And the hold expires to a landing like any other
        let landingTime = world.run(until: { $0.kind == .landing }, within: 60)
        let landing = try #require(landingTime)
        #expect(world.state == .landing(.holdExpired(.altitudeNotReached)))
        #expect(abs(landing - held - FlightStateMachineTests.failsafe.landAfterSeconds) <= FlightStateMachineTests.tick + 1e-9)
    }

    @Test func leavingTheGeofenceHoldsThenLands() throws {
        // Given a drone following near home, with a 100 m fence; when its onboard fixes put it 101 m
        // from home, then it holds for the geofence
        var world = try Self.worldHeldByTheGeofence()
        // flying back inside: it holds a point within 90 % of the fence, on PCMD
        #expect(world.command?.intent == .fly)
        #expect(world.pilot != nil)
        let holdPoint = try #require(world.machine.holdPoint)
        let home = try #require(world.machine.home)
        #expect((holdPoint - home).length <= 90 + 1e-6)
        // And lands after landAfterSeconds
        world.run(for: FlightStateMachineTests.failsafe.landAfterSeconds + 0.1)
        #expect(world.state == .landing(.holdExpired(.geofence)))
    }

    @Test func followingThatWouldLeaveTheFenceIsANamedHoldNotSilentParking() throws {
        // Given a drone following with a 100 m fence (aim limited to 90 m from home)
        var world = try World(failsafe: FailsafeParameters(geofenceMeters: 100, gpsRelativeErrorMeters: 0))
        world.flyToFollowing()
        let home = try #require(world.machine.home) // on the machine's plane (origin: its first fix)
        // When the person walks out to 100 m from the take-off point (the world's origin), the
        // drone (still inside) behind them
        world.person = PlaneVector(east: 0, north: 100)
        world.drone = PlaneVector(east: 0, north: 91)
        // Then following stops with a named geofence hold (before issue 12 the state stayed
        // `following` while the aim was parked at the fence) and the held point is inside 90 %
        let reached = world.run(until: { $0 == .holding(.geofence) }, within: 20)
        try #require(reached != nil)
        let holdPoint = try #require(world.machine.holdPoint)
        #expect((holdPoint - home).length <= 90 + 1e-6)
    }

    @Test func aPersonBeyondMaxTargetDistanceIsANamedHold() throws {
        // Given a drone following, max target distance 50 m
        var world = try World.following()
        // When the person's fixes put them 60 m from the drone (they ran, the drone fell behind)
        world.person = world.drone + PlaneVector(east: 0, north: 60)
        // Then it holds with its own reason (then lands like any hold)
        let reached = world.run(until: { $0 == .holding(.targetTooFar) }, within: 20)
        try #require(reached != nil)
        world.run(for: FailsafeParameters().landAfterSeconds + 0.2)
        #expect(world.state == .landing(.holdExpired(.targetTooFar)))
    }

    @Test func backInsideTheGeofenceResumes() throws {
        var world = try Self.worldHeldByTheGeofence()
        // When the drone is back inside and the person has come back far enough that their
        // standoff circle fits inside 90 % of the fence with the resume margin
        world.drone = PlaneVector(east: 70, north: 0)
        world.person = PlaneVector(east: 75, north: 0)
        world.run(for: 3)
        // Then it follows again
        #expect(world.state == .following)
    }

    @Test func shutdownWhileFollowingLandsAndWaitsForTelemetry() throws {
        var world = try World.following()
        world.firmwareFollowsIntent = false
        // When SIGTERM arrives
        world.shutdown()
        world.step()
        // Then it lands, and is landed only when navdata says so
        #expect(world.state == .landing(.shutdown))
        #expect(world.command?.intent == .land)
        world.run(for: 10)
        #expect(world.state == .landing(.shutdown))
        world.flightState = .landed
        world.run(for: 0.2)
        #expect(world.state == .landed)
        #expect(world.state.isTerminal)
    }

    @Test func shutdownBeforeTakeOffStaysOnTheGround() throws {
        var world = try World()
        world.sendsTarget = false
        world.run(for: 2)
        world.shutdown()
        world.step()
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .shutdownBeforeTakeOff)
        #expect(world.command == DroneCommand(intent: .stayLanded))
    }
}
