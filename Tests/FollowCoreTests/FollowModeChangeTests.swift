@testable import FollowCore
import Testing

/// Issue 26 item 5: the follow mode, angle and orbit direction changed in flight by the operator. The
/// value is checked against the config keys' ranges; the flight takes it while the follower may fly,
/// never once it lands or a pilot took the vehicle; and in closed loop against a plant that is not
/// the controller's model, no change ever brings the drone towards the person.
@Suite("Follow mode changed in flight")
struct FollowModeChangeTests {
    static func change(_ mode: FollowMode, angle: Double? = nil, direction: OrbitDirection? = nil) -> FollowModeChange {
        try! FollowModeChange(mode: mode, angleDegrees: angle, orbitDirection: direction)
    }

    // MARK: The value

    @Test("the angle is checked against angle_deg's range: NaN, infinities and out of range are refused with words", arguments: [
        Double.nan, .infinity, -.infinity, 180.5, -181, 1e9,
    ])
    func refusesBadAngles(angle: Double) {
        let error = #expect(throws: FollowModeChange.Invalid.self) { try FollowModeChange(mode: .angle, angleDegrees: angle) }
        let message = error?.description ?? ""
        #expect(message.contains("angle_deg") && message.contains("-180…180"), "\(message)")
    }

    @Test("the range's ends are taken; names are read case-insensitively; unknown names are refused")
    func parsesNames() throws {
        #expect(try FollowModeChange(mode: .angle, angleDegrees: -180).angleDegrees == -180)
        #expect(try FollowModeChange(mode: .angle, angleDegrees: 180).angleDegrees == 180)
        let orbit = try FollowModeChange(modeName: "Orbit", angleDegrees: nil, directionName: "COUNTERCLOCKWISE")
        #expect(orbit == Self.change(.orbit, direction: .counterclockwise))
        #expect(throws: FollowModeChange.Invalid.unknownMode("circle")) {
            try FollowModeChange(modeName: "circle", angleDegrees: nil, directionName: nil)
        }
        #expect(throws: FollowModeChange.Invalid.unknownDirection("left")) {
            try FollowModeChange(modeName: "orbit", angleDegrees: nil, directionName: "left")
        }
        #expect(FollowModeChange.Invalid.unknownMode("circle").description == #"unknown mode "circle"; one of leash, angle, orbit"#)
    }

    @Test("applied: the mode always, the angle and the direction only when given; nothing else changes")
    func applied() {
        let configured = FollowParameters { ($0.standoffMeters, $0.angleDegrees, $0.orbitDirection) = (9, 90, .counterclockwise) }
        let leash = Self.change(.leash).applied(to: configured)
        #expect(leash.mode == .leash && leash.angleDegrees == 90 && leash.orbitDirection == .counterclockwise)
        let angle = Self.change(.angle, angle: -45, direction: .clockwise).applied(to: configured)
        #expect(angle.mode == .angle && angle.angleDegrees == -45 && angle.orbitDirection == .clockwise)
        #expect(angle.standoffMeters == 9)
        #expect(OperatorRequest.followMode(Self.change(.orbit)).name == "mode")
        #expect(OperatorRequest.command(.land).name == "land")
    }

    // MARK: The flight's rule

    @Test("taken while following and holding, at once, and the controller follows in it; the same again is already so")
    func acceptedInFlight() throws {
        // Given a drone following in the leash
        var world = try World.following()
        // When the operator asks for angle 90
        #expect(world.operatorChanges(Self.change(.angle, angle: 90)) == .accepted)
        // Then the machine and its controller follow in it, and the same change again changes nothing
        #expect(world.flight.machine.followParameters.mode == .angle)
        #expect(world.flight.machine.controller.parameters.mode == .angle)
        #expect(world.flight.machine.controller.parameters.angleDegrees == 90)
        #expect(world.operatorChanges(Self.change(.angle, angle: 90)) == .alreadySo)
        #expect(world.state == .following)
        // And under the operator's HOLD a change is taken too (it shows once following resumes)
        world.operatorSays(.hold)
        #expect(world.operatorChanges(Self.change(.orbit, direction: .counterclockwise)) == .accepted)
        #expect(world.state == .holding(.operatorHold))
        #expect(world.flight.machine.controller.parameters.orbitDirection == .counterclockwise)
    }

    @Test("taken in preflight (the flight then takes off in it)")
    func acceptedInPreflight() throws {
        var world = try World()
        #expect(world.operatorChanges(Self.change(.orbit)) == .accepted)
        #expect(world.flight.machine.followParameters.mode == .orbit)
    }

    @Test("refused from landing on, in an emergency and when released: nothing changes")
    func refused() throws {
        var world = try World.following()
        world.operatorSays(.land)
        #expect(world.operatorChanges(Self.change(.orbit)) == .refused(.landing))
        world.run(for: 4)
        #expect(world.state == .landed)
        #expect(world.operatorChanges(Self.change(.orbit)) == .refused(.landed))
        #expect(world.flight.machine.followParameters.mode == .leash)

        var released = try ReleasedStateTests.releasedWorld()
        #expect(released.operatorChanges(Self.change(.orbit)) == .refused(.released))
        #expect(released.flight.machine.controller.parameters.mode == .leash)

        var emergency = try World.following()
        emergency.emergency = true
        let reached = emergency.run(until: { $0 == .emergency }, within: 2)
        try #require(reached != nil)
        #expect(emergency.operatorChanges(Self.change(.angle, angle: 0)) == .refused(.emergency))
        #expect(OperatorCommand.Outcome.refused(.emergency).name == "refused:emergency")
    }
}

/// The safety goal of issue 26 in closed loop: the flight `followme run` flies (`runClosedLoop`) against
/// the nominal plant and the off-model one (`PlantModel.offModel`: c1 ×0.8, c2 ×1.15, 180 ms, a 3 m/s
/// wind), the operator changing the mode in flight: leash → angle 180 → angle 0 (the far side) → orbit →
/// leash, with a standing and a walking person. A change only turns the standoff direction round the
/// circle: the drone is never nearer the person than the standoff less `toleranceMeters`, never inside
/// min_separation_m.
@Suite("Follow mode changed in flight: closed loop")
struct FollowModeChangeClosedLoopTests {
    /// How far inside the standoff the drone may be while it goes round: our bound, above what the
    /// runs below show (worst 0.59 m, off-model with a standing person; 0.49 m nominal with a walker),
    /// far under the 3.5 m between the standoff and min_separation_m. A change that jumped the aim
    /// across the circle fails this test (checked by flipping the standoff direction on every change:
    /// closest 2.89 m standing and 4.31 m walking, nominal; 2.93 m and 4.66 m off-model — inside
    /// min_separation_m standing).
    static let toleranceMeters = 1.0

    /// The operator's changes, at these times.
    static let changes: [(at: Double, change: FollowModeChange)] = [
        (12, FollowModeChangeTests.change(.angle, angle: 180)),
        (24, FollowModeChangeTests.change(.angle, angle: 0)),
        (44, FollowModeChangeTests.change(.orbit, direction: .clockwise)),
        (64, FollowModeChangeTests.change(.leash)),
    ]

    @Test("leash → angle 180 → angle 0 → orbit → leash: never towards the person", arguments: [
        (name: "walking", speed: 1.4), (name: "standing", speed: 0.0),
    ], PlantModel.both)
    func changesInFlight(_ person: (name: String, speed: Double), plant: PlantModel) throws {
        // Given a drone following a person (walking east at 1.4 m/s, or standing) in the leash
        var config = ClosedLoopConfig(plant: plant, person: .straight(speed: person.speed), durationSeconds: 84, gpsRateHz: 5)
        config.reportsVelocity = true
        // When the operator changes the mode four times in flight
        config.operatorInputs = Self.changes.map { ($0.at, .followModeChange($0.change, source: "test")) }
        let result = try runClosedLoop(config)
        // Then every change is taken, the flight follows throughout, and from the first change on the
        // drone is never nearer than the standoff less the tolerance, never inside min_separation_m
        #expect(result.operatorOutcomes == Array(repeating: .accepted, count: Self.changes.count))
        #expect(result.machine.followParameters.mode == .leash)
        let standoff = config.follow.standoffMeters
        let during = result.samples.filter { $0.time >= Self.changes[0].at }
        #expect(during.allSatisfy { $0.state == .following })
        let closest = during.map(\.distanceMeters).min()!
        print("[\(plant)] \(person.name): closest \(FollowModeTests.f(closest)) m from the first change (standoff \(standoff) m), min separation \(FollowModeTests.f(result.minSeparationMeters)) m")
        #expect(closest >= standoff - Self.toleranceMeters)
        #expect(result.minSeparationMeters > config.failsafe.minSeparationMeters)
        // And the changes took effect: walking, the drone was in front of the person (east) before the
        // orbit began; in the orbit it went round (clockwise: the bearing from the person rises)
        if person.speed > 0 {
            let front = result.samples.filter { $0.time >= 40 && $0.time < 44 }
                .map { abs(wrappedDegrees180(FollowModeTests.bearing($0) - 90)) }.max()!
            #expect(front < 15, "in front at angle 0: bearing off by \(front)°")
        }
        let orbit = result.samples.filter { $0.time >= 46 && $0.time < 64 }
        var turned = 0.0
        for (a, b) in zip(orbit, orbit.dropFirst()) { turned += wrappedDegrees180(FollowModeTests.bearing(b) - FollowModeTests.bearing(a)) }
        #expect(turned > 90, "went round \(turned)° clockwise in the orbit")
    }

    /// (Checked: without the bound, a quarter round takes 6.2 s and this test fails.)
    @Test("into the leash from the far side: the swing behind goes round at most at the orbit speed, not the leash's 15°/s",
          arguments: PlantModel.both)
    func leashSwingBounded(plant: PlantModel) throws {
        // Given a walker (east, 1.4 m/s) with the drone in front of them (angle 0), orbit speed 1 m/s
        var config = ClosedLoopConfig(plant: plant, person: .straight(), durationSeconds: 60, gpsRateHz: 5)
        config.reportsVelocity = true
        (config.follow.mode, config.follow.angleDegrees, config.follow.orbitSpeedMetersPerSecond) = (.angle, 0, 1)
        // When the operator changes to the leash at 25 s
        config.operatorInputs = [(25, .followModeChange(FollowModeChangeTests.change(.leash), source: "test"))]
        let result = try runClosedLoop(config)
        // Then its standoff direction goes round no faster than 1 m/s along the circle: the drone takes at
        // least 85 % of 90° / (1 m/s ÷ standoff) = 10.2 s to get a quarter of the way round (the leash's own
        // 15°/s would take 6 s: the person walks on meanwhile, so the drone's bearing from them is
        // timed, not its rate), never nearer than the standoff less the tolerance, and ends behind
        let swing = result.samples.filter { $0.time >= 25 }
        let quarter = try #require(swing.first { abs(wrappedDegrees180(FollowModeTests.bearing($0) - 90)) >= 90 })
        let cap = 1.0 / config.follow.standoffMeters * 180 / .pi
        let closest = swing.map(\.distanceMeters).min()!
        let end = abs(wrappedDegrees180(FollowModeTests.bearing(result.samples.last!) - 270))
        print("[\(plant)] angle 0 → leash: a quarter round in \(FollowModeTests.f(quarter.time - 25)) s (at the cap \(FollowModeTests.f(90 / cap)) s), closest \(FollowModeTests.f(closest)) m, behind within \(FollowModeTests.f(end))°")
        #expect(quarter.time - 25 >= 0.85 * 90 / cap)
        #expect(closest >= config.follow.standoffMeters - Self.toleranceMeters)
        #expect(end < 10)
    }
}
