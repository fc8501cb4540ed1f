@testable import FollowCore
@testable import MAVLink
import Testing


/// What the review of issue 35 found lower down: a lost ACK for our LAND, GUIDED refused on the ground,
/// and a link that kept talking after it gave up landing a silent vehicle.
@Suite("Session: our LAND without its ACK, GUIDED refused on the ground, silence after the blind LANDs")
struct MAVLinkSessionLowerItemsTests {
    @Test("our LAND's ACK lost, the HEARTBEAT shows LAND: our landing, not a release; LAND not asked again")
    func lostLandAck() {
        // Given our flight, LAND sent and its ACK lost
        var h = SessionHarness.landSent()
        #expect(h.commandIDs.last == 176)
        // When the vehicle lands as asked
        h.vehicleSays(mode: ArduCopterMode.land.rawValue)
        h.run(3)
        // Then nothing reads it as a pilot's take-over (the old session: .released, and the flight stopped landing it)
        #expect(!h.events.contains { if case .released = $0 { true } else { false } })
        #expect(h.session.flight.landAccepted)
        #expect(!h.session.flight.released)
        #expect(h.commandIDs.filter { $0 == 176 }.count == 1, "\(h.commandIDs)")
    }

    @Test("GUIDED refused three times on the ground (no position yet): asked again after the back-off, the take-off not blocked for the run")
    func guidedRefusedOnTheGround() {
        // Given a vehicle on the ground in STABILIZE and a flight that wants to fly
        var h = SessionHarness()
        h.connectAndConfigure(mode: ArduCopterMode.stabilize.rawValue)
        h.clear()
        h.fly(true)
        // When GUIDED is refused three times
        for _ in 0..<3 {
            h.run(SessionHarness.tick)
            #expect(h.commandIDs.last == 176)
            h.ack(.denied)
            h.run(2.1)
        }
        let refused = h.commandIDs.filter { $0 == 176 }.count
        // Then it is still asked (the old session: never again in this run), and once accepted the take-off goes on
        h.run(3)
        #expect(h.commandIDs.filter { $0 == 176 }.count > refused, "\(h.commandIDs)")
        h.ack()
        h.vehicleSays(mode: ArduCopterMode.guided.rawValue)
        h.run(2)
        #expect(h.commandIDs.contains(400), "\(h.commandIDs)")
    }

    @Test("after the ten blind LANDs, no HEARTBEAT and no set-point while the vehicle stays silent; its telemetry back → HEARTBEATs again")
    func silentAfterBlindLands() {
        // Given a silent vehicle the flight wants down, and the ten blind LANDs spent
        var h = SessionHarness()
        h.flyingInControl(motion: MotionCommand.stop)
        let vehicle = h.vehicle
        h.vehicle = nil
        h.run(1.5)
        h.fly(false)
        h.run(60)
        #expect(h.commandIDs.filter { $0 == 176 }.count == 10)
        // When another minute of silence passes
        h.clear()
        h.run(60)
        // Then nothing at all goes out: the vehicle's own GCS-loss failsafe hears silence (the old link: HEARTBEATs and hold set-points forever)
        #expect(h.heartbeats.isEmpty, "\(h.heartbeats.count) HEARTBEATs")
        #expect(h.setpoints.isEmpty, "\(h.setpoints.count) set-points")
        #expect(h.commands.isEmpty)
        // And when the vehicle is heard again, the HEARTBEATs resume
        h.vehicle = vehicle
        h.run(2)
        #expect(!h.heartbeats.isEmpty)
    }
}
