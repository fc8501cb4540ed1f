import DroneControl
import FollowCore
import MAVLink
import MAVLinkAdapter
import Testing

/// A vehicle whose telemetry is lost may still hear us (a lost downlink). The flight's failsafe for
/// lost telemetry is hold, then land (as with the AR.Drone's lost navdata); the link must then send
/// LAND without telemetry, or the vehicle hovers on in GUIDED/OFFBOARD while followme believes it
/// is landing (docs/mavlink.md §7.5; end to end: MAVLinkFailsafeTests "telemetry-silent").
@Suite("MAVLinkSession: landing a silent vehicle")
struct MAVLinkSessionBlindLandTests {
    @Test("telemetry lost: no command while flying is wanted; flying false → DO_SET_MODE LAND sent blind, re-sent while unanswered",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func landsBlind(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a vehicle flying in our mode that then falls silent for 1.5 s
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.flyingInControl(autopilot, pilot: PilotCommand(roll: 0, pitch: -1, gaz: 0, yaw: 0))
        h.vehicle = nil
        h.clear()
        h.run(1.5)
        #expect(h.events.contains { if case .telemetryLost = $0 { true } else { false } })
        // Then nothing but set-points and heartbeats go to a vehicle we cannot see while flying is wanted
        #expect(h.commands.isEmpty, "\(h.commandIDs)")

        // When the flight lands (still no telemetry)
        h.clear()
        h.fly(false)
        h.run(3)
        // Then LAND goes out at once, in the autopilot's own mode numbers, and again while no ACK comes
        let landMode: [Float] = autopilot == .px4 ? [1, 4, 6, 0, 0, 0, 0] : [1, 9, 0, 0, 0, 0, 0]
        let setModes = h.commands.filter { $0.command.rawValue == MAVCommand.doSetMode.rawValue }
        #expect(setModes.count >= 2, "\(h.commandIDs)")
        #expect(setModes.allSatisfy { $0.params == landMode }, "\(setModes.map(\.params))")
        #expect(h.commands.allSatisfy { $0.command.rawValue == MAVCommand.doSetMode.rawValue }, "\(h.commandIDs)")
    }
}
