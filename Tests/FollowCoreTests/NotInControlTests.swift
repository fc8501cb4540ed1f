import Geometry
import Observations
import Testing

import FollowCore

/// The link reports whether it controls the vehicle (issue 22, defect 5).
@Suite("Not in control: the flight holds, then lands, instead of 'following' a vehicle that ignores it")
struct NotInControlTests {
    @Test("following → not in control → holding(not-in-control), hover (no motion) → landing after the hold clock")
    func holdsThenLands() throws {
        var world = try World.following()
        world.machine.handle(.vehicleControl(inControl: false), now: world.now)
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
        world.machine.handle(.vehicleControl(inControl: false), now: world.now)
        world.run(for: 2)
        #expect(world.state == .holding(.notInControl))
        world.machine.handle(.vehicleControl(inControl: true), now: world.now)
        #expect(world.run(until: { $0 == .following }, within: 5) != nil, "\(world.state.name)")
    }
}
