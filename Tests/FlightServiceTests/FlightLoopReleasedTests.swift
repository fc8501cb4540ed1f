@testable import FollowCore
@testable import MAVLink
@testable import FlightService
import Testing

/// The flight loop with a released vehicle (issue 22, defect 1): the link's `.released` event, the
/// command it sends from then on, and SIGTERM.
@Suite("FlightLoop: a released vehicle is never commanded, SIGTERM included")
struct FlightLoopReleasedTests {
    /// A following rig whose vehicle a pilot just switched to LOITER.
    static func released() throws -> FlightRig {
        var rig = try FlightRig()
        rig.start()
        try #require(rig.run(within: 30) { $0.state == .following })
        rig.firmwareFollowsCommands = false
        rig.send(.link(.released(mode: "LOITER", reason: "the vehicle left GUIDED for LOITER", at: rig.now)))
        rig.run(for: 0.2)
        return rig
    }

    @Test("the link's .released → state released(mode:LOITER), every command after it says released")
    func releasedCommands() throws {
        var rig = try Self.released()
        #expect(rig.state == .released(.vehicleLeftControl(mode: "LOITER")))
        let before = rig.link.sent.count
        // When the person walks far off and goes silent (target-too-far, then target-stale, in the old core: then LAND)
        rig.person = PlaneVector(east: 0, north: 300)
        rig.run(for: 5)
        rig.sendsTarget = false
        rig.run(for: 40)
        // Then every command still releases the vehicle: nothing flies, nothing lands it
        let after = rig.link.sent.dropFirst(before)
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0.command.released && $0.command.motion == nil && $0.made == nil },
                "\(after.last.map { "\($0)" } ?? "")")
        #expect(!rig.states.contains { $0.hasPrefix("landing") }, "\(rig.states)")
    }

    @Test("an autopilot a pilot flies while the flight waits for START: released(watching), and SIGTERM neither lands it nor waits: .released (exit 3)")
    func pilotsFlightWhileWaiting() throws {
        // Given a MAVLink-like flight (the vehicle closes its own velocity loop) waiting on the ground for START
        var failsafe = FailsafeParameters()
        failsafe.takeOffOnStart = true
        var rig = try FlightRig(failsafe: failsafe, vehicle: .velocityLoop(.arduCopterDefaults))
        rig.start()
        rig.run(for: 5)
        #expect(rig.state == .preflight(waitingFor: .operatorStart), "\(rig.state.name)")
        // When a pilot takes off and flies (the firmware obeys the pilot, not us)
        rig.firmwareFollowsCommands = false
        (rig.flightState, rig.altitude) = (.flying, 5)
        rig.run(for: 20)
        // Then the flight watches it (the old core adopted it, and SIGTERM landed the pilot's vehicle)
        #expect(rig.state.name == "released(watching)", "\(rig.states)")
        #expect(rig.link.latest?.released == true)
        #expect(!rig.states.contains { $0.hasPrefix("landing") || $0.hasPrefix("climbing") || $0.hasPrefix("holding") }, "\(rig.states)")
        rig.send(.shutdown)
        #expect(rig.outcome == .released)
    }

    @Test("SIGTERM while released: no landing, the outcome is .released at once (followme run exits 3)")
    func shutdownWhileReleased() throws {
        var rig = try Self.released()
        rig.send(.shutdown)
        #expect(rig.outcome == .released)
        #expect(rig.link.latest?.released == true)
        #expect(!rig.states.contains { $0.hasPrefix("landing") })
    }
}
