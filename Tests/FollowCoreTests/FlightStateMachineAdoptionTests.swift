@testable import FollowCore
import ARDrone
import Testing

@Suite("FlightStateMachine: adoption, emergency, the drone's own landings, parameters")
struct FlightStateMachineAdoptionTests {
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
        var world = try World.following()
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
        var world = try World.following()
        world.firmwareFollowsIntent = false
        world.flightState = .landing
        world.run(for: 0.2)
        #expect(world.state == .landing(.droneInitiated))
        #expect(world.command?.intent == .land)
    }

    @Test("a drone that landed during a navdata gap is never told to take off again", arguments: [false, true])
    func landedDuringANavdataGapStaysLanded(targetAlsoStale: Bool) throws {
        // Given a drone following
        var world = try World.following()
        // When the link drops both ways (navdata stops → holding) and the drone lands by itself meanwhile
        world.sendsNavdata = false
        world.firmwareFollowsIntent = false
        if targetAlsoStale { world.sendsTarget = false }
        let reached3 = world.run(until: { $0 == .holding(.telemetryLost) }, within: 5)
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
        var world = try World.following()
        world.firmwareFollowsIntent = false
        // One stray "landed" packet…
        world.flightState = .landed
        world.run(for: 0.1)
        world.flightState = .flying
        world.run(for: 2)
        #expect(world.state == .following)
        // …but "landed" for landedConfirmSeconds is
        world.flightState = .landed
        world.run(for: FlightStateMachineTests.failsafe.landedConfirmSeconds + 0.2)
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .landedUnexpectedly)
    }

    // MARK: Parameters and statistics

    @Test func parametersAreValidated() {
        #expect(throws: ParameterError.outOfRange(parameter: "maxTiltDegrees", value: 45, allowed: 3...30)) {
            _ = try FlightStateMachine(follow: FollowParameters(maxTiltDegrees: 45), vehicle: .tiltLoop)
        }
        #expect(throws: ParameterError.self) {
            _ = try FlightStateMachine(failsafe: FailsafeParameters(targetTimeoutSeconds: .nan), vehicle: .tiltLoop)
        }
        #expect(throws: ParameterError.self) {
            // standoff 3.4 m with a 3 m minimum separation leaves no room for the 0.5 m aim margin
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 3.4), vehicle: .tiltLoop)
        }
        // The shortest standoff: protected radius + 0.5 + the reserve for a walker at the drone
        // (2.84 m at 1 Hz target fixes, 1.72 m at 5 Hz, 20° tilt; docs/stopping-model.md §4)
        let atOneHertz = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: 6, follow: FollowParameters(), tuning: ControllerTuning(), vehicle: .tiltLoop)
        #expect(abs(atOneHertz - (6 + 0.5 + 2.84)) < 0.01)
        #expect(throws: ParameterError.self) {
            // 6.5 m would do for 3 m + 3 m of GPS relative error standing still, not for a walker
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 6.5),
                                       failsafe: FailsafeParameters(gpsRelativeErrorMeters: 3), vehicle: .tiltLoop)
        }
        #expect(throws: Never.self) {
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 9.35),
                                       failsafe: FailsafeParameters(gpsRelativeErrorMeters: 3), vehicle: .tiltLoop)
        }
        #expect(throws: Never.self) {
            // faster target fixes shorten the reserve: 6 + 0.5 + 1.72
            _ = try FlightStateMachine(follow: FollowParameters(standoffMeters: 8.25, targetFixRateHz: 5),
                                       failsafe: FailsafeParameters(gpsRelativeErrorMeters: 3), vehicle: .tiltLoop)
        }
        #expect(throws: ParameterError.self) {
            _ = try FlightStateMachine(failsafe: FailsafeParameters(gpsRelativeErrorMeters: -1), vehicle: .tiltLoop)
        }
        #expect(throws: Never.self) { _ = try FlightStateMachine(vehicle: .tiltLoop) }
        // A landing threshold above the default take-off threshold is not an error: the higher applies
        #expect(throws: Never.self) { _ = try FlightStateMachine(failsafe: FailsafeParameters(minBatteryPercent: 40), vehicle: .tiltLoop) }
    }

    @Test func takeOffNeedsTheHigherOfTheTwoBatteryThresholds() throws {
        var world = try World(failsafe: FailsafeParameters(minBatteryPercent: 40, minTakeoffBatteryPercent: 35, gpsRelativeErrorMeters: 0))
        world.battery = 38
        world.run(for: 3)
        #expect(world.state == .preflight(waitingFor: .battery))
        world.battery = 41
        world.run(for: 1)
        #expect(world.state.kind != .preflight)
    }

    @Test func outliersAndOutOfOrderFixesAreCounted() throws {
        var world = try World.following()
        let c = world.plane.unproject(PlaneVector(east: 0, north: 500))!
        let bad = GPSFix(role: .target, device: "/dev/world-target", mode: .threeD,
                         latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                         // stamped on the stream's clock (a fix stamped years ahead is now refused for its time)
                         fixTime: FixTime(seconds: 1_700_000_000 + Int64(world.time), nanoseconds: 850_000_000),
                         receivedAt: world.now)!
        let outcome = world.deliver(.fix(bad))
        guard case .fix(.target, .rejectedOutlier) = outcome else {
            Issue.record("expected a rejected outlier, got \(String(describing: outcome))")
            return
        }
        #expect(world.machine.target.statistics[.rejectedOutliers] == 1)
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
        try #require(world.state == .preflight(waitingFor: .targetClear), "\(world.state)")
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
        var world = try World(follow: FollowParameters(standoffMeters: 8, targetFixRateHz: configuredHz))
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
        // Then it waits for the person to stand clear (it did not take off with them inside the protected radius)
        try #require(world.state == .preflight(waitingFor: .targetClear), "\(world.state)")
        // When they step back to 7.5 m, take-off follows
        world.person = PlaneVector(east: 0, north: 7.5)
        #expect(world.run(until: { $0 == .takingOff }, within: 10) != nil)
    }
}
