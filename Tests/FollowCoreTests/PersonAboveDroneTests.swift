@testable import FollowCore
import ARDrone
@testable import MAVLink
import Testing


/// An autopilot's altitude is above home, not above the ground (issue 22, defect 9).
@Suite("Person above the drone: an autopilot's height above home meets rising ground")
struct PersonAboveDroneTests {
    static let autopilot = VehicleModelBuilder.velocityLoop(.arduCopterDefaults)

    /// Following at 3 m above home (the fake firmware flies at the altitude the core asks for).
    static func following(_ vehicle: VehicleModelBuilder) throws -> World {
        var world = try World(vehicle: vehicle)
        world.personAltitude = 400
        world.flyToFollowing()
        return world
    }

    @Test("the person walks up 2.5 m (3 m above home, 1 m margin): hold(person-above-drone) within seconds; back down: following")
    func holdsOnRisingGround() throws {
        var world = try Self.following(Self.autopilot)
        world.altitude = 3
        // When the ground under the person rises 2.5 m (a 10 % grade over 25 m)
        world.personAltitude = 402.5
        // Then the drone holds, named
        let held = world.run(until: { $0 == .holding(.personAboveDrone) }, within: 20)
        #expect(held != nil, "\(world.state.name)")
        // And when the person comes back down, it follows again
        world.personAltitude = 400
        #expect(world.run(until: { $0 == .following }, within: 30) != nil, "\(world.state.name)")
    }

    @Test("one wild altitude fix does not hold (the filter and the 1 s confirmation)")
    func noiseDoesNotHold() throws {
        var world = try Self.following(Self.autopilot)
        world.altitude = 3
        world.personAltitude = 430
        world.step()
        world.personAltitude = 400
        world.run(for: 10)
        #expect(!world.transitions.contains { $0.to == .holding(.personAboveDrone) },
                "\(world.transitions.map { "\($0.to.name)@\($0.at.seconds) alt \(world.altitude)" })")
    }

    @Test("the AR.Drone never holds for it: its altitude is ultrasound height above the ground")
    func arDroneIgnores() throws {
        var world = try Self.following(.tiltLoop)
        world.altitude = 3
        world.personAltitude = 410
        world.run(for: 15)
        #expect(!world.transitions.contains { $0.to == .holding(.personAboveDrone) })
    }
}
