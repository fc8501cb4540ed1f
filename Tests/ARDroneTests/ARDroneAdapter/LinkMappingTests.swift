@testable import ARDrone
@testable import FollowCore
import Testing

/// `followme bench` drives the simulated drone through the link's own mappings (ARDroneAdapter): a
/// decision becomes REF + PCMD as `followme run` sends it, and navdata becomes `DroneTelemetry` as
/// on a real drone (docs/ardrone-protocol.md §2.3, §3.4).
@Suite("ARDroneAdapter: the one navdata → telemetry and command → REF/PCMD mapping (link, bench, benchmark)")
struct LinkMappingTests {
    @Test("DroneCommand → AT*REF bit 9", arguments: [
        (DroneCommand(intent: .stayLanded), REFInput.land),
        (DroneCommand(intent: .takeOff), .takeoff),
        (DroneCommand(intent: .land), .land),
        (DroneCommand(intent: .emergency), .land),
        (DroneCommand(intent: .fly), .takeoff),
    ] as [(DroneCommand, REFInput)])
    func refMapping(command: DroneCommand, ref: REFInput) {
        #expect(command.refInput == ref)
    }

    @Test("the link's PCMD → AT*PCMD", arguments: [
        (nil, ProgressiveCommand.hover),
        (PilotCommand(roll: 0.25, pitch: -0.5, gaz: 0.125, yaw: -1),
         ProgressiveCommand(flags: [.progressive], rollFraction: 0.25, pitchFraction: -0.5, gazFraction: 0.125,
                            yawFraction: -1)),
        // Out of range: clamped; not finite: the whole command hovers (ProgressiveCommand's rules).
        (PilotCommand(roll: 2, pitch: -3, gaz: 0, yaw: 0), ProgressiveCommand(rollFraction: 1, pitchFraction: -1)),
        (PilotCommand(roll: .nan, pitch: -0.5, gaz: 0, yaw: 0), .hover),
    ] as [(PilotCommand?, ProgressiveCommand)])
    func pcmdMapping(pilot: PilotCommand?, pcmd: ProgressiveCommand) {
        #expect(ProgressiveCommand(pilot: pilot) == pcmd)
    }

    @Test("telemetry's isAirborne follows the navdata rule for every control state", arguments: ControlState.allCases)
    func airborneAgrees(state: ControlState) throws {
        // Given a demo packet with this control state and the FLY bit clear
        let navdata = NavdataSummary(state: [], sequenceNumber: 1,
                                     demo: NavdataDemo(controlState: state, batteryPercent: 50), optionCount: 1)
        // When the link maps it to telemetry
        let telemetry = try #require(DroneTelemetry(navdata: navdata, receivedAt: .zero))
        // Then the follower's "airborne" is the navdata side's control-state rule
        #expect(telemetry.flightState.isAirborne == state.isAirborne)
        #expect(telemetry.flightState.isAirborne == navdata.isAirborne)
    }
}
