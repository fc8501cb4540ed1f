@testable import FollowCore
@testable import MAVLink
import Testing

/// A ground station fixes the failsafe parameters one at a time (docs/mavlink.md §7.8): an in-between
/// combination passes, the take-off begins, the next change fails it again before the vehicle armed.
/// The flight waits and then flies (§10), never ends the run in `landed`.
@Suite("A take-off aborted on the ground: back to preflight, then flies")
struct TakeOffAbortedOnGroundTests {
    @Test("configuration passes, take-off starts, fails 0.33 s later without arming, passes again → takes off and follows")
    func parametersFixedOneAtATime() throws {
        // Given an autopilot whose parameters fail (COM_OBL_RC_ACT 0) and which does not arm yet
        var world = try World(vehicle: .velocityLoop(.arduCopterDefaults))
        world.droneConfiguration = .failed(key: "COM_OBL_RC_ACT")
        world.firmwareFollowsIntent = false
        world.run(for: 10)
        #expect(world.state == .preflight(waitingFor: .droneConfigured), "\(world.state.name)")

        // When the first parameter is set and the in-between combination passes: take-off begins
        world.droneConfiguration = .done
        #expect(world.run(until: { $0 == .takingOff }, within: 1) != nil, "\(world.state.name)")
        // and 0.33 s later the second change fails it again, the vehicle still disarmed on the ground
        world.run(for: 0.33)
        world.droneConfiguration = .failed(key: "COM_OF_LOSS_T")
        #expect(world.run(until: { if case .landing(.takeOffAborted) = $0 { true } else { false } }, within: 1) != nil,
                "\(world.state.name)")
        world.run(for: 2)

        // Then the flight waits in preflight for the configuration (the old core: landed for the run)
        #expect(world.transitions.last?.reason == .takeOffAbortedOnGround, "\(world.transitions.map(\.reason.name))")
        #expect(world.state == .preflight(waitingFor: .droneConfigured), "\(world.state.name)")

        // And once both parameters are right it takes off and follows
        world.droneConfiguration = .done
        world.firmwareFollowsIntent = true
        #expect(world.run(until: { $0 == .following }, within: 60) != nil, "\(world.state.name)")
    }

    @Test("an autopilot that would not arm while the person walked out of range: the hold expires, back to preflight (not landed for the run); flies once the person is back")
    func holdExpiredBeforeLiftOff() throws {
        // Given an autopilot that refuses to arm (e.g. an RC throttle check), the flight taking off
        var world = try World(vehicle: .velocityLoop(.arduCopterDefaults))
        world.firmwareFollowsIntent = false
        #expect(world.run(until: { $0 == .takingOff }, within: 10) != nil, "\(world.state.name)")
        // When the person walks 80 m away, long enough for a hold to expire
        world.person = PlaneVector(east: 0, north: 80)
        world.run(for: 60)
        // Then the flight never ended the run in `landed`: each expired hold went back to preflight (the old
        // core: landed for the run, as on a real ArduCopter SITL refusing ARM for its RC throttle)
        #expect(!world.transitions.contains { $0.to == .landed }, "\(world.transitions.map(\.reason.name))")
        #expect(world.transitions.contains { $0.reason == .takeOffAbortedOnGround && $0.from == .landing(.holdExpired(.targetTooFar)) },
                "\(world.transitions.map(\.reason.name))")
        // And flies once the person is back and the vehicle arms
        world.person = PlaneVector(east: 0, north: 10)
        world.firmwareFollowsIntent = true
        #expect(world.run(until: { $0 == .following }, within: 60) != nil, "\(world.state.name)")
    }

    @Test("the AR.Drone, whose motors did start, is not retried: landed after an aborted take-off")
    func arDroneStaysLanded() throws {
        // Given an AR.Drone taking off
        var world = try World()
        #expect(world.run(until: { $0 == .takingOff }, within: 10) != nil)
        // When its configuration fails during the take-off
        world.droneConfiguration = .failed(key: "control:altitude_max")
        world.run(for: 15)
        // Then it lands and the run's flight is over
        #expect(world.state == .landed, "\(world.state.name)")
    }
}
