import FollowCore
@testable import MAVLink
import Testing

/// Frames heard before the vehicle's first HEARTBEAT: the vehicle's own are not "unexpected" (a real
/// ArduCopter SITL run counted 22 of them per run); anyone else's still are.
@Suite struct MAVLinkSessionFirstHeartbeatTests {
    @Test("the autopilot's position before its first HEARTBEAT is not counted unexpected; a ground station's frame is")
    func beforeTheFirstHeartbeat() {
        var harness = SessionHarness()
        for _ in 0..<22 { harness.receive(GlobalPositionInt(), system: 1, component: 1) }
        #expect(harness.session.statistics.counts[.droppedUnexpectedSource] == 0)
        harness.receive(GlobalPositionInt(), system: 255, component: 190)
        #expect(harness.session.statistics.counts[.droppedUnexpectedSource] == 1)
        // Nothing heard before the HEARTBEAT became the vehicle's state.
        #expect(harness.session.vehicle.position == nil && harness.session.vehicleTarget == nil)
    }
}
