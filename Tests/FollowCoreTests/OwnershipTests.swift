@testable import FollowCore
@testable import MAVLink
import Testing


/// The core flies only its own flight (docs/mavlink.md §7.14): an autopilot seen on the ground in this
/// run and airborne without our take-off is someone else's — watched, never adopted, flown or landed.
@Suite("Ownership: someone else's flight is watched, not adopted")
struct OwnershipTests {
    static func autopilotWorld(takeOffOnStart: Bool = true) throws -> World {
        var failsafe = FailsafeParameters.testDefault
        failsafe.takeOffOnStart = takeOffOnStart
        return try World(failsafe: failsafe, vehicle: .velocityLoop(.arduCopterDefaults))
    }

    static func landed(_ world: World) -> Bool {
        world.transitions.contains { if case .land = $0.reason { true } else { false } }
    }

    @Test("waiting for START, a pilot takes off: released(watching), command release, no hold or land clock; down again → preflight, START still needed")
    func pilotFliesInPreflight() throws {
        // Given a flight waiting on the ground for START
        var world = try Self.autopilotWorld()
        world.run(for: 5)
        #expect(world.state == .preflight(waitingFor: .operatorStart), "\(world.state.name)")
        // When a pilot takes off (the fake firmware obeys the pilot, not us) and flies for a minute
        world.firmwareFollowsIntent = false
        world.flightState = .flying
        world.altitude = 5
        world.run(for: 60)
        // Then the flight watches: never adopted, never held, never landed (the old core adopted it, held
        // "not in control" and landed it)
        #expect(world.state == .released(.someoneElsesFlight), "\(world.state.name)")
        #expect(world.state.name == "released(watching)")
        #expect(world.transitions.last?.reason == .someoneElsesFlight)
        #expect(!world.transitions.contains { $0.reason == .adoptedInFlight })
        #expect(!Self.landed(world))
        #expect(world.command == DroneCommand(intent: .release))
        // When the pilot lands
        world.flightState = .landed
        world.altitude = 0
        world.run(for: 2)
        // Then it waits in preflight for a START again, and flies after one
        #expect(world.state == .preflight(waitingFor: .operatorStart), "\(world.state.name)")
        world.firmwareFollowsIntent = true
        #expect(world.operatorSays(.start) == .accepted)
        #expect(world.run(until: { $0 == .following }, within: 60) != nil, "\(world.state.name)")
    }

    @Test("after FollowMe's own flight landed, a pilot's flight: released(watching), then landed again when it is down")
    func pilotFliesAfterOurFlight() throws {
        // Given our flight, landed on the operator's LAND
        var world = try Self.autopilotWorld(takeOffOnStart: false)
        world.flyToFollowing()
        #expect(world.operatorSays(.land) == .accepted)
        #expect(world.run(until: { $0 == .landed }, within: 30) != nil, "\(world.state.name)")
        world.run(for: 2)
        // When a pilot takes off
        world.firmwareFollowsIntent = false
        (world.flightState, world.altitude) = (.flying, 4)
        world.run(for: 30)
        // Then it is watched (the old core stayed `landed`, its stay-landed read as LAND by the old link)
        #expect(world.state == .released(.someoneElsesFlight), "\(world.state.name)")
        #expect(world.command == DroneCommand(intent: .release))
        (world.flightState, world.altitude) = (.landed, 0)
        world.run(for: 1)
        #expect(world.state == .landed)
    }

    @Test("the AR.Drone (one controller) still adopts a drone that lifts while it waits")
    func arDroneAdopts() throws {
        var world = try World()
        world.sendsTarget = false
        world.run(for: 2)
        world.firmwareFollowsIntent = false
        (world.flightState, world.altitude) = (.flying, 1)
        world.run(for: 1)
        #expect(world.transitions.contains { $0.reason == .adoptedInFlight })
    }

    @Test("adopted in flight before any battery value (position at 10 Hz, SYS_STATUS at 2 Hz): holding(battery-unknown), not landing(critical-battery); a value → flies on")
    func adoptedBeforeTheBattery() throws {
        // Given a vehicle airborne when first heard, whose telemetry has no battery value yet
        var world = try Self.autopilotWorld(takeOffOnStart: false)
        (world.flightState, world.altitude) = (.flying, 3)
        (world.battery, world.batteryUnknown) = (0, true)
        world.run(for: 1)
        // Then it holds for the unknown battery (the old core landed for a "critical" 0 % 33 ms after adoption)
        #expect(!Self.landed(world), "\(world.transitions.map(\.reason))")
        #expect(world.state == .holding(.batteryUnknown), "\(world.state.name)")
        // When the first SYS_STATUS arrives
        (world.battery, world.batteryUnknown) = (80, false)
        // Then it follows
        #expect(world.run(until: { $0 == .following }, within: 10) != nil, "\(world.state.name)")
        #expect(!Self.landed(world))
    }
}
