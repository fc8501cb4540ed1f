@testable import FollowCore
import Testing

/// `AltitudeMode.person`'s two guards against a bad vertical fix (GPS vertical error is 1.5–3× the
/// horizontal one; a multipath spike can be tens of metres): the rate gate ignores (and counts) a jump
/// no one on foot makes (`PersonAltitudeFilter`), and `altitudeFloorMeters` is the lowest the drone
/// flies above take-off whatever the person's altitude says.
@Suite("Person altitude: spike rejection and the floor")
struct PersonAltitudeSafetyTests {
    /// Following in person mode with the ceiling at 20 m, the person's receiver at 400 m.
    static func following(floor: Double = FollowParameters.Spec.altitudeFloorMeters.defaultValue) throws -> World {
        try AltitudeModeTests.following(.person, ceiling: 20, floor: floor)
    }

    @Test("the person 6 m up the hill, two fixes 40 m low (multipath): ignored and counted; the drone holds its height")
    func spikeIgnored() throws {
        // Given a drone following 3 m above a person who has walked 6 m up (9 m above take-off)
        var world = try Self.following()
        for step in 1...12 { world.personAltitude = 400 + Double(step) * 0.5; world.run(for: 1) }
        world.run(for: 10)
        #expect(abs(world.machine.followAltitudeMeters() - 9) < 0.1 && abs(world.altitude - 9) < 0.35, "\(world.altitude)")
        // When two fixes (0.4 s at 5 Hz) put the person 40 m lower
        world.personAltitude = 366
        var lowest = Double.infinity
        for _ in 0..<12 { world.step(); lowest = min(lowest, world.machine.followAltitudeMeters()) }
        world.personAltitude = 406
        for _ in 0..<(5 * 30) { world.step(); lowest = min(lowest, world.machine.followAltitudeMeters()) }
        // Then the altitude asked for never dropped, the two fixes are counted, and it still follows
        #expect(lowest > 8.9, "lowest altitude asked for \(lowest) m (9 m before the spike)")
        #expect(world.machine.personAltitude.spikesRejected == 2)
        #expect(world.state == .following, "\(world.state.name)")
    }

    @Test("a walk 5 m downhill: the default floor keeps the drone at 3 m above take-off; a floor of 1 m lets it follow to 1 m")
    func floorHolds() throws {
        for (floor, expected) in [(FollowParameters.Spec.altitudeFloorMeters.defaultValue, 3.0), (1.0, 1.0)] {
            var world = try Self.following(floor: floor)
            for step in 1...10 { world.personAltitude = 400 - Double(step) * 0.5; world.run(for: 1) }
            world.run(for: 30)
            #expect(abs(world.machine.followAltitudeMeters() - expected) < 0.05 && abs(world.altitude - expected) < 0.35,
                    "floor \(floor): asked \(world.machine.followAltitudeMeters()), flies \(world.altitude)")
            #expect(world.state == .following && world.machine.personAltitude.spikesRejected == 0)
        }
    }

    @Test("a lasting 12 m jump (the receiver re-converging) is re-seeded after 1 s of agreeing fixes, never below the floor")
    func lastingJumpTaken() throws {
        var world = try Self.following()
        world.personAltitude = 388
        world.run(for: 20)
        // At 5 Hz the sixth agreeing fix spans 1 s: five ignored, then one re-seed (the gate alone took 3.3 s,
        // 15–18 fixes); the floor keeps the drone at 3 m
        #expect(world.machine.personAltitude.spikesRejected == 5 && world.machine.personAltitude.reseeds == 1,
                "\(world.machine.personAltitude.spikesRejected) ignored, \(world.machine.personAltitude.reseeds) re-seeds")
        #expect(abs(world.machine.followAltitudeMeters() - 3) < 0.05 && world.state == .following, "\(world.state.name)")
    }

    @Test("the rate gate: 3 m/s since the last used fix plus 2 m of jitter; a NaN is not used")
    func gate() {
        var filter = PersonAltitudeFilter()
        // Seeded by three agreeing fixes over 1 s (PersonAltitudeSeedTests), then the gate
        let used = [(100.0, 0.0), (100.5, 0.5), (100, 1), (102.7, 1.2), (102.5, 1.2), (80, 2.2), (107.4, 2.2), (.nan, 2.4)].map {
            filter.note($0.0, at: MonotonicTime(seconds: $0.1))
        }
        // 2.7 m in 0.2 s is over the 2.6 m gate at 5 Hz; 22.5 m in 1 s is a spike; 4.9 m in 1 s is inside 3 + 2
        #expect(used == [false, false, true, false, true, false, true, false])
        #expect(filter.spikesRejected == 2 && filter.lastUsedRawMeters == 107.4)
    }
}
