@testable import FollowCore
import ARDrone
@testable import MAVLink
import Testing

/// `[follow] altitude_mode` (issue 26): "takeoff" flies `altitude_m` above take-off as before; "person"
/// flies it above the person's filtered 3-D fix altitude on an autopilot (height above home), capped by
/// `drone.altitude_max_m`, and holds with a named reason when the person's receiver gives no altitude.
@Suite("Altitude mode: above take-off, or above the person")
struct AltitudeModeTests {
    static let autopilot = VehicleModelBuilder.velocityLoop(.arduCopterDefaults)

    /// Following with `altitudeMode`, the person's receiver at 400 m, the drone at 3 m above home; the floor
    /// at 1 m above take-off unless given (the default 3 m would stop the walk down below: PersonAltitudeSafetyTests).
    static func following(_ mode: AltitudeMode, ceiling: Double = 10, floor: Double = 1,
                          vehicle: VehicleModelBuilder = autopilot) throws -> World {
        var follow = FollowParameters.testDefault
        follow.altitudeMode = mode
        (follow.altitudeCeilingMeters, follow.altitudeFloorMeters) = (ceiling, floor)
        var world = try World(follow: follow, vehicle: vehicle)
        world.personAltitude = 400
        world.flyToFollowing()
        world.run(for: 5)
        return world
    }

    @Test("person: the person walks 4 m up, the drone climbs to 3 m above them (7 m above home), and back down with them")
    func climbsWithThePerson() throws {
        // Given a flight following at 3 m above a person at 400 m
        var world = try Self.following(.person)
        #expect(abs(world.altitude - 3) < 0.35 && world.state == .following, "\(world.altitude) \(world.state.name)")
        // When the ground under the person rises 4 m
        world.personAltitude = 404
        world.run(for: 25)
        // Then the drone is 3 m above them (7 m above take-off), still following
        #expect(abs(world.altitude - 7) < 0.35, "altitude \(world.altitude)")
        #expect(world.state == .following && abs(world.machine.followAltitudeMeters() - 7) < 0.05)
        // And when they walk down 5 m it descends with them (below the take-off height)
        world.personAltitude = 399
        world.run(for: 30)
        #expect(abs(world.altitude - 2) < 0.35 && world.state == .following, "\(world.altitude) \(world.state.name)")
    }

    @Test("person: never above drone.altitude_max_m over take-off; ground rising into the drone still holds (person-above-drone)")
    func cappedByTheCeiling() throws {
        var world = try Self.following(.person, ceiling: 5)
        // When the person climbs 6 m (1 m/s for 6 s: a jump that size is a bad fix, PersonAltitudeSafetyTests),
        // more than the 5 m ceiling allows
        var highest = 0.0
        for tick in 0..<(30 * 30) where world.state != .holding(.personAboveDrone) {
            world.personAltitude = 400 + min(Double(tick) / 30, 6)
            world.step()
            highest = max(highest, world.altitude)
        }
        // Then the drone stops at the ceiling, and the rising ground makes it hold, named
        #expect(highest <= 5.05 && highest > 4.5, "highest \(highest)")
        #expect(world.state == .holding(.personAboveDrone), "\(world.state.name)")
    }

    @Test("person: no 3-D fix for 5 s → holding(target-altitude-stale), not before; a 3-D fix again → following")
    func holdsWithoutAltitude() throws {
        var world = try Self.following(.person)
        // When the person's receiver drops to fixes without an altitude
        world.personAltitude = nil
        let lostAt = world.time
        // Then it follows on for the timeout, and holds for it after
        let held = world.run(until: { $0 == .holding(.targetAltitudeStale) }, within: 10)
        let after = try #require(held, "\(world.state.name)") - lostAt
        #expect(after >= FlightStateMachine.personAltitudeTimeoutSeconds - 0.3 && after <= FlightStateMachine.personAltitudeTimeoutSeconds + 0.5,
                "held \(after) s after the last altitude")
        #expect(world.transitions.last?.to.name == "holding(target-altitude-stale)")
        // And the altitude is held meanwhile
        world.run(for: 3)
        #expect(abs(world.altitude - 3) < 0.35)
        // When 3-D fixes return, it follows again
        world.personAltitude = 400
        #expect(world.run(until: { $0 == .following }, within: 5) != nil, "\(world.state.name)")
    }

    @Test("takeoff (the default): the person walks 1.5 m up and the drone stays at 3 m above take-off; no altitude needed")
    func takeoffModeAsBefore() throws {
        var world = try Self.following(.takeoff)
        world.personAltitude = 401.5
        world.run(for: 20)
        #expect(abs(world.altitude - 3) < 0.35 && world.state == .following, "\(world.altitude) \(world.state.name)")
        world.personAltitude = nil
        world.run(for: 10)
        #expect(world.state == .following)
    }

    @Test("person on the AR.Drone: ultrasound height is above the ground already — nothing changes, no altitude needed")
    func arDroneUnchanged() throws {
        var world = try Self.following(.person, vehicle: .tiltLoop)
        world.personAltitude = 404
        world.run(for: 20)
        #expect(abs(world.altitude - 3) < 0.35, "altitude \(world.altitude)")
        world.personAltitude = nil
        world.run(for: 10)
        #expect(world.state == .following, "\(world.state.name)")
    }
}
