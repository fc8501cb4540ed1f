@testable import ARDrone
@testable import FollowCore
@testable import Simulation
import Testing

/// The simulator speaks ARDroneProtocol: it takes `ATCommand` values and reports `DroneState` and
/// `NavdataDemo` (docs/ardrone-protocol.md §2.3, §3.2, §3.4).
@Suite("DroneSimulator AT commands and navdata values")
struct DroneSimulatorATCommandTests {
    /// A hovering drone after `command` was held for 3 s with REF bit 9 set.
    private func hovering(thenHolding command: ATCommand) -> DroneSimulator {
        var sim = DroneSimulator.hoveringAfterTakeoff()
        sim.pilot(command, seconds: 3)
        return sim
    }

    @Test("PCMD_MAG steers exactly like PCMD (the controller heading is ignored)")
    func pcmdMagIsPCMD() {
        // Given the same progressive command, once as PCMD and once as PCMD_MAG with a heading
        let p = ProgressiveCommand(rollFraction: 0.2, pitchFraction: -0.4, gazFraction: 0.1, yawFraction: 0.3)
        let plain = hovering(thenHolding: .pcmd(p))
        let mag = hovering(thenHolding: .pcmdMag(p, ControllerHeading(psiFraction: 0.5, psiAccuracyFraction: 0.1)))
        // Then the flights are identical
        #expect(plain.positionPlane == mag.positionPlane)
        #expect(plain.noseHeadingDegrees == mag.noseHeadingDegrees)
        #expect(plain.altitudeMeters == mag.altitudeMeters)
        #expect(plain.demoOption == mag.demoOption)
    }

    @Test("a PCMD with flag bit 0 clear hovers whatever its values", arguments: [
        ProgressiveCommand.hover,
        ProgressiveCommand(flags: [], pitchFraction: -1),
        ProgressiveCommand(flags: [.combinedYaw], rollFraction: 1, yawFraction: 1),
    ])
    func flagZeroHovers(command: ProgressiveCommand) {
        let sim = hovering(thenHolding: .pcmd(command))
        #expect(sim.isHovering)
        #expect(sim.demoOption.controlState == .hovering)
        #expect(sim.velocityENU.length < 0.01)
    }

    @Test("CONFIG_IDS, CALIB, COMWDG and CTRL modes other than 5 only feed the com watchdog", arguments: [
        ATCommand.configIDs(sessionID: "00000000", userID: "00000000", applicationID: "00000000"),
        .calib(.magnetometer), .comwdg, .ctrl(.configurationGet), .ctrl(.none),
    ])
    func trafficOnly(command: ATCommand) {
        // Given a landed drone that never heard a client (bit 30 set) with a config ACK pending
        var sim = DroneSimulator()
        sim.apply(.config(key: "control:altitude_max", value: "5000"), at: MonotonicTime(seconds: 0.1))
        sim.advance(to: MonotonicTime(seconds: 5))
        #expect(sim.droneState.contains(.communicationWatchdog))
        // When the command arrives
        sim.apply(command, at: MonotonicTime(seconds: 5))
        // Then the watchdog is reset, the ACK stays pending and nothing else changed
        #expect(!sim.droneState.contains(.communicationWatchdog))
        #expect(sim.droneState.contains(.commandAcknowledged))
        #expect(sim.flightPhase == .landed)
        #expect(sim.flatTrimCount == 0)
    }

    @Test("navdata: what the wire would carry, decoded, equals the simulator's own summary")
    func navdataMatchesTheWire() throws {
        // Given a drone flying forward with a config write pending
        var sim = DroneSimulator.hoveringAfterTakeoff(noseHeadingDegrees: 30)
        sim.apply(.config(key: "general:navdata_demo", value: "TRUE"), at: sim.time)
        sim.pilot(forward(0.5), seconds: 4)
        // When its header state and demo option are encoded as a demo packet and decoded again
        let packet = Navdata.demoPacket(state: sim.droneState, sequenceNumber: 0, demo: sim.demoOption)
        let decoded = try NavdataSummary(bytes: packet.encoded())
        // Then the client reads exactly the simulator's values
        #expect(decoded.state == sim.navdata.state)
        #expect(decoded.demo == sim.navdata.demo)
        #expect(sim.navdata.state == [.flying, .commandAcknowledged, .navdataDemo])
        #expect(sim.demoOption.controlState == .flying)
        #expect(sim.navdata.isAirborne)
    }

    @Test("state bits and control state per flight phase", arguments: [
        (DroneSimulator.FlightPhase.landed, ControlState.landed, false),
        (.flying, .hovering, true),
    ] as [(DroneSimulator.FlightPhase, ControlState, Bool)])
    func phaseReport(phase: DroneSimulator.FlightPhase, control: ControlState, fly: Bool) {
        let sim = phase == .landed ? DroneSimulator() : DroneSimulator(startAirborne: true)
        #expect(sim.flightPhase == phase)
        #expect(sim.demoOption.controlState == control)
        #expect(sim.droneState.contains(.flying) == fly)
        #expect(sim.navdata.isAirborne == fly)
    }
}
