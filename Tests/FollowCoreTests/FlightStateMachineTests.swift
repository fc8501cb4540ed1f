import FollowCore
import Geometry
import Observations
import Testing

@Suite("FlightStateMachine: states, telemetry-confirmed transitions, every failsafe")
struct FlightStateMachineTests {
    static let failsafe = FailsafeParameters()
    static let tick = 1.0 / 30

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
        #expect(world.command?.pilot != nil)
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
        ("target", Prerequisites.targetFix), ("navdata", .navdata), ("heading", .heading),
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
        default: world.machine.handle(.droneConfiguration(.failed(key: "control:altitude_max")), now: world.now)
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
        let pilot = try #require(world.command?.pilot)
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
        world.machine.handle(.droneConfiguration(status), now: world.now)
        // When 10 s pass
        world.run(for: 10)
        // Then it stays on the ground, waiting for exactly that
        #expect(world.state == .preflight(waitingFor: .droneConfigured))
        #expect(world.state.name == "preflight(waiting: drone-configuration)")
        #expect(world.command == DroneCommand(intent: .stayLanded))
        // And when the link reports the writes done, it takes off
        world.machine.handle(.droneConfiguration(.done), now: world.now)
        world.run(for: 1)
        #expect(world.state == .takingOff)
    }

    @Test func noNavdataMeansWaitingForAllOfIt() throws {
        var world = try World()
        world.sendsNavdata = false
        world.run(for: 5)
        #expect(world.state == .preflight(waitingFor: [.navdata, .battery, .droneReady]))
    }

    // MARK: Target stale

    @Test func targetStaleHoldsAtTheTimeoutThenLandsAfterLandAfter() throws {
        // Given a drone following
        var world = try World()
        world.flyToFollowing()
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
        #expect(world.command?.pilot != nil)
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
        var world = try World()
        world.flyToFollowing()
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
        var world = try World()
        world.flyToFollowing()
        world.sendsTarget = false
        world.run(until: { $0 == .holding(.targetStale) })
        // When fixes return 5 s later
        world.run(for: 5)
        world.sendsTarget = true
        world.run(for: 0.5)
        // Then it follows again, and never landed
        #expect(world.state == .following)
        #expect(world.transitions.last?.reason == .dataFresh)
        #expect(world.command?.pilot != nil)
        #expect(!world.transitions.contains { $0.to.kind == .landing })
        // And a later stale spell gets a fresh land deadline
        world.sendsTarget = false
        let tTime = world.run(until: { $0.kind == .holding })

        let t = try #require(tTime)
        world.run(until: t + Self.failsafe.landAfterSeconds - 0.1)
        #expect(world.state == .holding(.targetStale))
    }

    // MARK: Other sources

    @Test("a stale onboard fix, heading or navdata holds, then lands", arguments: ["onboard", "heading", "navdata"])
    func otherSourcesStale(source: String) throws {
        var world = try World()
        world.flyToFollowing()
        world.run(for: 2)
        let expected: HoldReason
        let timeout: Double
        switch source {
        case "onboard": world.sendsOnboard = false; expected = .onboardFixStale; timeout = Self.failsafe.onboardTimeoutSeconds
        case "heading": world.sendsHeading = false; expected = .headingStale; timeout = Self.failsafe.headingTimeoutSeconds
        default: world.sendsNavdata = false; expected = .navdataLost; timeout = Self.failsafe.navdataTimeoutSeconds
        }
        let silencedAt = world.time
        // When that source stays silent
        let heldTime = world.run(until: { $0.kind == .holding })

        let held = try #require(heldTime)
        // Then it holds after (about) its timeout, for that reason, hovering
        #expect(world.state == .holding(expected))
        #expect(held >= silencedAt + timeout - 0.25)
        #expect(held <= silencedAt + timeout + 0.1)
        #expect(world.command == DroneCommand(intent: .fly, pilot: nil))
        // And lands landAfterSeconds later
        let landedTime = world.run(until: { $0.kind == .landing })

        let landed = try #require(landedTime)
        #expect(world.state == .landing(.holdExpired(expected)))
        #expect(abs(landed - held - Self.failsafe.landAfterSeconds) <= Self.tick + 1e-9)
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

    @Test func navdataLostOutranksAStaleTarget() throws {
        var world = try World()
        world.flyToFollowing()
        world.sendsNavdata = false
        world.sendsTarget = false
        world.run(until: { $0.kind == .holding })
        world.run(for: 3)
        #expect(world.state == .holding(.navdataLost))
    }

    @Test func aChangeOfHoldReasonDoesNotResetTheLandDeadline() throws {
        var world = try World()
        world.flyToFollowing()
        world.sendsTarget = false
        let heldTime = world.run(until: { $0.kind == .holding })

        let held = try #require(heldTime)
        world.run(for: 4)
        world.sendsHeading = false
        world.run(for: 3)
        #expect(world.state == .holding(.headingStale))
        let landedTime = world.run(until: { $0.kind == .landing })

        let landed = try #require(landedTime)
        #expect(abs(landed - held - Self.failsafe.landAfterSeconds) <= Self.tick + 1e-9)
        #expect(world.state == .landing(.holdExpired(.headingStale)))
    }

    // MARK: Battery, geofence, shutdown

    @Test func lowBatteryLandsOnceItPersists() throws {
        // Given a drone following
        var world = try World()
        world.flyToFollowing()
        // When the battery reads under minBatteryPercent and stays there
        world.battery = Self.failsafe.minBatteryPercent - 1
        let first = world.time
        let landingTime = world.run(until: { $0.kind != .following }, within: 10)
        let landing = try #require(landingTime)
        // Then it lands once the readings stayed low for lowBatteryConfirmSeconds (15 Hz navdata)
        #expect(world.state == .landing(.lowBattery))
        #expect(world.command?.intent == .land)
        #expect(landing >= first + Self.failsafe.lowBatteryConfirmSeconds - 1e-9)
        #expect(landing <= first + Self.failsafe.lowBatteryConfirmSeconds + 2 * Self.tick + 1e-9)
        world.run(for: 3)
        #expect(world.state == .landed)
    }

    @Test func oneLowBatteryReadingDoesNotLand() throws {
        // Given a drone following
        var world = try World()
        world.flyToFollowing()
        // When a few readings sag under minBatteryPercent for a second (a burst of thrust), then recover
        world.battery = Self.failsafe.minBatteryPercent - 5
        world.run(for: Self.failsafe.lowBatteryConfirmSeconds / 2)
        world.battery = Self.failsafe.minBatteryPercent + 5
        world.run(for: 0.2)
        world.battery = Self.failsafe.minBatteryPercent - 5
        world.run(for: Self.failsafe.lowBatteryConfirmSeconds / 2)
        world.battery = Self.failsafe.minBatteryPercent + 5
        world.run(for: 5)
        // Then it keeps following
        #expect(world.state == .following)
        #expect(!world.transitions.contains { $0.to.kind == .landing })
    }

    @Test func aCriticalBatteryLandsAtOnce() throws {
        var world = try World()
        world.flyToFollowing()
        // When one reading is under criticalBatteryPercent
        world.battery = Self.failsafe.criticalBatteryPercent - 1
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
        #expect(held - climbing <= Self.failsafe.climbTimeoutSeconds + 1e-9)
        #expect(held - climbing >= Self.failsafe.climbTimeoutSeconds - 3)
        #expect(world.command?.intent == .fly)
        #expect(abs(world.altitude - 2) < 1e-9)
        // And the hold expires to a landing like any other
        let landingTime = world.run(until: { $0.kind == .landing }, within: 60)
        let landing = try #require(landingTime)
        #expect(world.state == .landing(.holdExpired(.altitudeNotReached)))
        #expect(abs(landing - held - Self.failsafe.landAfterSeconds) <= Self.tick + 1e-9)
    }

    @Test func leavingTheGeofenceHoldsThenLands() throws {
        // Given a drone following near home, with a 100 m fence
        var world = try World(failsafe: FailsafeParameters(geofenceMeters: 100))
        world.flyToFollowing()
        // When its onboard fixes put it 101 m from home (beyond geofenceMeters 100)
        world.person = PlaneVector(east: 105, north: 0)
        world.drone = PlaneVector(east: 101, north: 0)
        // Then it holds for the geofence (fix screening and estimate need a few fixes to get there)
        let reached = world.run(until: { $0 == .holding(.geofence) }, within: 20)

        try #require(reached != nil)
        // flying back inside: it holds a point within 90 % of the fence, on PCMD
        #expect(world.command?.intent == .fly)
        #expect(world.command?.pilot != nil)
        let holdPoint = try #require(world.machine.holdPoint)
        let home = try #require(world.machine.home)
        #expect((holdPoint - home).length <= 90 + 1e-6)
        // And lands after landAfterSeconds
        world.run(for: Self.failsafe.landAfterSeconds + 0.1)
        #expect(world.state == .landing(.holdExpired(.geofence)))
    }

    @Test func followingThatWouldLeaveTheFenceIsANamedHoldNotSilentParking() throws {
        // Given a drone following with a 100 m fence (aim limited to 90 m from home)
        var world = try World(failsafe: FailsafeParameters(geofenceMeters: 100))
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
        var world = try World()
        world.flyToFollowing()
        // When the person's fixes put them 60 m from the drone (they ran, the drone fell behind)
        world.person = world.drone + PlaneVector(east: 0, north: 60)
        // Then it holds with its own reason (then lands like any hold)
        let reached = world.run(until: { $0 == .holding(.targetTooFar) }, within: 20)
        try #require(reached != nil)
        world.run(for: FailsafeParameters().landAfterSeconds + 0.2)
        #expect(world.state == .landing(.holdExpired(.targetTooFar)))
    }

    @Test func backInsideTheGeofenceResumes() throws {
        var world = try World(failsafe: FailsafeParameters(geofenceMeters: 100))
        world.flyToFollowing()
        world.person = PlaneVector(east: 105, north: 0)
        world.drone = PlaneVector(east: 101, north: 0)
        let reached = world.run(until: { $0 == .holding(.geofence) }, within: 20)

        try #require(reached != nil)
        // When the drone is back inside and the person has come back far enough that their
        // standoff circle fits inside 90 % of the fence with the resume margin
        world.drone = PlaneVector(east: 70, north: 0)
        world.person = PlaneVector(east: 75, north: 0)
        world.run(for: 3)
        // Then it follows again
        #expect(world.state == .following)
    }

    @Test func shutdownWhileFollowingLandsAndWaitsForTelemetry() throws {
        var world = try World()
        world.flyToFollowing()
        world.firmwareFollowsIntent = false
        // When SIGTERM arrives
        world.machine.handle(.shutdownRequested, now: world.now)
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
        world.machine.handle(.shutdownRequested, now: world.now)
        world.step()
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .shutdownBeforeTakeOff)
        #expect(world.command == DroneCommand(intent: .stayLanded))
    }

    // MARK: Adoption, emergency, the drone's own landings

    @Test func aDroneAlreadyFlyingIsAdoptedNotLanded() throws {
        // Given navdata that says "flying" before we ever commanded take-off
        var world = try World()
        world.flightState = .flying
        world.altitude = 3
        // When the machine starts and runs
        world.run(for: 5)
        // Then it never commanded land or stay-landed, and follows
        #expect(world.transitions.first?.reason == .adoptedInFlight)
        #expect(world.state == .following)
        #expect(world.command?.intent == .fly)
        #expect(!world.transitions.contains { $0.to.kind == .landing || $0.to.kind == .landed })
    }

    @Test func aDroneAlreadyFlyingWithoutDataHolds() throws {
        var world = try World()
        world.flightState = .hovering
        world.altitude = 2
        world.sendsTarget = false
        world.run(for: 1)
        // Then it holds (REF flying, holding its point) rather than landing
        #expect(world.state == .holding(.targetStale))
        #expect(world.transitions.first?.reason == .adoptedInFlight)
        #expect(world.transitions.first?.to.kind == .holding)
        #expect(world.command?.intent == .fly)
        // And when the target appears it climbs to the altitude, then follows
        world.sendsTarget = true
        world.run(until: { $0 == .following }, within: 10)
        #expect(world.state == .following)
        #expect(world.transitions.suffix(2).map(\.to.kind) == [.climbing, .following])
        #expect(world.transitions.suffix(2).map(\.reason) == [.dataFresh, .altitudeReached])
    }

    @Test func emergencyBitWinsAndIsLeftOnlyWhenClearedAndLanded() throws {
        var world = try World()
        world.flyToFollowing()
        world.firmwareFollowsIntent = false
        world.emergency = true
        world.run(for: 0.2)
        #expect(world.state == .emergency)
        #expect(world.command == DroneCommand(intent: .emergency))
        #expect(world.transitions.last?.reason == .emergencyReported)
        world.flightState = .landed
        world.run(for: 2)
        #expect(world.state == .emergency)
        world.emergency = false
        world.run(for: 0.2)
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .emergencyCleared)
    }

    @Test func theDroneLandingByItselfIsFollowedNotFought() throws {
        var world = try World()
        world.flyToFollowing()
        world.firmwareFollowsIntent = false
        world.flightState = .landing
        world.run(for: 0.2)
        #expect(world.state == .landing(.droneInitiated))
        #expect(world.command?.intent == .land)
    }

    @Test("a drone that landed during a navdata gap is never told to take off again", arguments: [false, true])
    func landedDuringANavdataGapStaysLanded(targetAlsoStale: Bool) throws {
        // Given a drone following
        var world = try World()
        world.flyToFollowing()
        // When the link drops both ways (navdata stops → holding) and the drone lands by itself meanwhile
        world.sendsNavdata = false
        world.firmwareFollowsIntent = false
        if targetAlsoStale { world.sendsTarget = false }
        let reached3 = world.run(until: { $0 == .holding(.navdataLost) }, within: 5)
        try #require(reached3 != nil)
        world.flightState = .landed
        world.altitude = 0
        world.run(for: 0.5)
        // And the link comes back, navdata saying "landed" (the firmware obeys REF again)
        world.sendsNavdata = true
        world.firmwareFollowsIntent = true
        var wantedAirborne = false
        for _ in 0..<90 {
            world.step()
            if world.command?.intent.wantsAirborne == true { wantedAirborne = true }
        }
        // Then it is landed (unexpectedly), never asked to take off — full stop
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .landedUnexpectedly)
        #expect(!wantedAirborne)
        #expect(!world.transitions.contains { $0.to == .takingOff && $0.from.kind == .holding })
        #expect(world.flightState == .landed)
    }

    @Test func oneLandedPacketIsNotALanding() throws {
        var world = try World()
        world.flyToFollowing()
        world.firmwareFollowsIntent = false
        // One stray "landed" packet…
        world.flightState = .landed
        world.run(for: 0.1)
        world.flightState = .flying
        world.run(for: 2)
        #expect(world.state == .following)
        // …but "landed" for landedConfirmSeconds is
        world.flightState = .landed
        world.run(for: Self.failsafe.landedConfirmSeconds + 0.2)
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .landedUnexpectedly)
    }

    // MARK: Parameters and statistics

    @Test func parametersAreValidated() {
        #expect(throws: ParameterError.outOfRange(parameter: "maxTiltDegrees", value: 45, allowed: 1...30)) {
            _ = try FlightStateMachine(follow: FollowParameters(maxTiltDegrees: 45))
        }
        #expect(throws: ParameterError.self) {
            _ = try FlightStateMachine(failsafe: FailsafeParameters(targetTimeoutSeconds: .nan))
        }
        #expect(throws: ParameterError.self) {
            // standoff 3.4 m with a 3 m minimum separation leaves no room for the 0.5 m aim margin
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 3.4))
        }
        // The shortest standoff: protected radius + 0.5 + the reserve for a walker at the drone
        // (2.84 m at 1 Hz target fixes, 1.72 m at 5 Hz, 20° tilt; docs/stopping-model.md §4)
        let atOneHertz = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: 6, follow: FollowParameters(), tuning: ControllerTuning())
        #expect(abs(atOneHertz - (6 + 0.5 + 2.84)) < 0.01)
        #expect(throws: ParameterError.self) {
            // 6.5 m would do for 3 m + 3 m of GPS relative error standing still, not for a walker
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 6.5),
                                       failsafe: FailsafeParameters(gpsRelativeErrorMeters: 3))
        }
        #expect(throws: Never.self) {
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 9.35),
                                       failsafe: FailsafeParameters(gpsRelativeErrorMeters: 3))
        }
        #expect(throws: Never.self) {
            // faster target fixes shorten the reserve: 6 + 0.5 + 1.72
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 8.25, targetFixRateHz: 5),
                                       failsafe: FailsafeParameters(gpsRelativeErrorMeters: 3))
        }
        #expect(throws: ParameterError.self) {
            _ = try FlightStateMachine(failsafe: FailsafeParameters(gpsRelativeErrorMeters: -1))
        }
        #expect(throws: Never.self) { _ = try FlightStateMachine() }
        // A landing threshold above the default take-off threshold is not an error: the higher applies
        #expect(throws: Never.self) { _ = try FlightStateMachine(failsafe: FailsafeParameters(minBatteryPercent: 40)) }
    }

    @Test func takeOffNeedsTheHigherOfTheTwoBatteryThresholds() throws {
        var world = try World(failsafe: FailsafeParameters(minBatteryPercent: 40, minTakeoffBatteryPercent: 35))
        world.battery = 38
        world.run(for: 3)
        #expect(world.state == .preflight(waitingFor: .battery))
        world.battery = 41
        world.run(for: 1)
        #expect(world.state.kind != .preflight)
    }

    @Test func outliersAndOutOfOrderFixesAreCounted() throws {
        var world = try World()
        world.flyToFollowing()
        let c = world.plane.unproject(PlaneVector(east: 0, north: 500))!
        let bad = GPSFix(role: .target, device: "/dev/world-target", mode: .threeD,
                         latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                         // stamped on the stream's clock (a fix stamped years ahead is now refused for its time)
                         fixTime: FixTime(seconds: 1_700_000_000 + Int64(world.time), nanoseconds: 850_000_000),
                         receivedAt: world.now)!
        let outcome = world.machine.handle(.fix(bad), now: world.now)
        guard case .fix(.target, .rejectedOutlier) = outcome else {
            Issue.record("expected a rejected outlier, got \(outcome)")
            return
        }
        #expect(world.machine.target.statistics.rejectedOutliers == 1)
        world.run(for: 1)
        #expect(world.state == .following)
    }
}

@Suite("FlightStateMachine: no take-off next to the person")
struct TakeOffSeparationTests {
    @Test func waitsUntilThePersonStandsClear() throws {
        // Given everything fresh but the person 1.5 m from the landed drone (min separation 3 m)
        var world = try World()
        world.person = PlaneVector(east: 1, north: 1.1)
        // When ten seconds pass
        world.run(for: 10)
        // Then it has not taken off and says why
        guard case .preflight(let waiting) = world.state else {
            Issue.record("left preflight: \(world.state)")
            return
        }
        #expect(waiting == .targetClear)
        #expect(world.command?.intent == .stayLanded)
        // When the person steps back to 8 m
        world.person = PlaneVector(east: 0, north: 8)
        // Then take-off follows, on fresh fixes
        #expect(world.run(until: { $0 == .takingOff }, within: 10) != nil)
    }

    @Test("the standoff rule's target fix rate must be delivered before take-off",
          arguments: [(configuredHz: 10.0, takesOff: false), (configuredHz: 5.0, takesOff: true), (configuredHz: 1.0, takesOff: true)])
    func targetRateIsCheckedBeforeTakeOff(configuredHz: Double, takesOff: Bool) throws {
        // Given the world's puck delivering 5 Hz, and a standoff sized for `configuredHz`
        var world = try World(follow: FollowParameters(targetFixRateHz: configuredHz))
        world.run(for: 5)
        // Then a 10 Hz promise keeps it on the ground, listing target-rate; 5 Hz (or the 1 Hz any
        // puck delivers) flies
        #expect((world.state.kind != .preflight) == takesOff, "\(world.state)")
        if !takesOff {
            #expect(world.state == .preflight(waitingFor: .targetRate))
            #expect(world.state.name == "preflight(waiting: target-rate)")
        }
        let interval = try #require(world.machine.targetFixIntervalSeconds)
        #expect(abs(interval - 0.2) < 0.01)
    }

    @Test func theGPSAllowanceCountsBeforeTakeOff() throws {
        // Given min separation 3 m plus a 4 m GPS allowance (standoff 8), and the person 5 m away:
        // outside min_separation_m, inside the protected radius of 7 m
        var world = try World(follow: FollowParameters(standoffMeters: 10.5),
                              failsafe: FailsafeParameters(gpsRelativeErrorMeters: 4))
        world.person = PlaneVector(east: 0, north: 5)
        world.run(for: 10)
        // Then it waits for the person to stand clear
        guard case .preflight(let waiting) = world.state else {
            Issue.record("took off with the person inside the protected radius: \(world.state)")
            return
        }
        #expect(waiting == .targetClear)
        // When they step back to 7.5 m, take-off follows
        world.person = PlaneVector(east: 0, north: 7.5)
        #expect(world.run(until: { $0 == .takingOff }, within: 10) != nil)
    }
}
