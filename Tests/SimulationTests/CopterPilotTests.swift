@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// The pilot of the control port's `pilot-takeoff` and `pilot-land` (docs/mavlink.md §8.5), on the pure
/// Copter: time is an argument, 0.1 s steps.
@Suite("CopterPilot: a pilot's own take-off, mode switch and landing from system 255")
struct CopterPilotTests {
    static func copter() -> MAVLinkCopter {
        MAVLinkCopter(plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!))
    }

    /// Steps pilot and copter in 0.1 s steps for `seconds`; returns the modes the pilot switched to.
    static func run(_ pilot: inout CopterPilot, _ copter: inout MAVLinkCopter, seconds: Double) -> [ArduCopterMode] {
        var switched: [ArduCopterMode] = []
        let end = copter.time.adding(seconds: seconds)
        while copter.time < end {
            if let mode = pilot.step(copter: &copter, at: copter.time.adding(seconds: 0.1)).switched { switched.append(mode) }
        }
        return switched
    }

    @Test("pilot-takeoff: GUIDED, ARM, NAV_TAKEOFF from system 255, LOITER on the switch once at the height; pilot-land lands and disarms")
    func takeOffSwitchAndLand() throws {
        // Given a disarmed copter on the ground
        var copter = Self.copter()
        var pilot = CopterPilot()
        // When the pilot takes off to 3 m, LOITER after
        let takeOff = pilot.takeOff(to: 3, then: .loiter, copter: &copter, at: copter.time)
        // Then the three commands were taken (counted under the pilot's system id) and it climbs in GUIDED
        #expect(takeOff.refusal == nil)
        #expect(copter.commandsBySystem == [255: 3] && copter.setpointsBySystem.isEmpty)
        #expect(copter.isArmed && copter.mode == .guided && copter.landedState == .takeoff)
        #expect(pilot.pending == CopterPilot.PendingSwitch(meters: 3, mode: .loiter))
        // And the switch waits for the height: not at 1 s, LOITER by 6 s, once
        #expect(Self.run(&pilot, &copter, seconds: 1).isEmpty && copter.mode == .guided)
        let switched = Self.run(&pilot, &copter, seconds: 5)
        #expect(switched == [.loiter], "\(switched) at \(copter.altitudeMeters) m")
        #expect(copter.mode == .loiter && copter.altitudeMeters > 2.85 && copter.counters[.pilotModeChanges] == 1)
        #expect(pilot.pending == nil)

        // When the pilot lands
        let land = pilot.land(copter: &copter, at: copter.time)
        // Then LAND from 255, and it comes down (3 m at 0.5 m/s) and disarms
        #expect(land.refusal == nil)
        #expect(copter.mode == .land && copter.commandsBySystem == [255: 4])
        _ = Self.run(&pilot, &copter, seconds: 9)
        #expect(!copter.isArmed && copter.landedState == .onGround, "\(copter.altitudeMeters) m")
    }

    @Test("refused: a take-off unless disarmed on the ground, STABILIZE or AUTO after it, a landing unless flying")
    func refusals() {
        var copter = Self.copter()
        var pilot = CopterPilot()
        #expect(pilot.land(copter: &copter, at: copter.time).refusal != nil)
        #expect(pilot.takeOff(to: 3, then: .stabilize, copter: &copter, at: copter.time).refusal != nil)
        #expect(copter.commandsBySystem.isEmpty && !copter.isArmed)
        #expect(pilot.takeOff(to: 3, then: .loiter, copter: &copter, at: copter.time).refusal == nil)
        let again = pilot.takeOff(to: 3, then: .loiter, copter: &copter, at: copter.time)
        #expect(again.refusal?.contains("armed") == true || again.refusal?.contains("flying") == true, "\(again.refusal ?? "-")")
        #expect(copter.commandsBySystem == [255: 3])
    }

    @Test("another station changing the mode during the take-off ends the pending switch unmade; its commands count under its own id")
    func takenDuringTakeOff() {
        var copter = Self.copter()
        var pilot = CopterPilot()
        _ = pilot.takeOff(to: 5, then: .loiter, copter: &copter, at: copter.time)
        _ = Self.run(&pilot, &copter, seconds: 1)
        // When system 245 sends DO_SET_MODE BRAKE
        let brake = CommandLong {
            $0.params = CopterPilot.setModeParameters(.brake) + [0, 0, 0, 0, 0]
            $0.command = .init(.doSetMode)
            $0.target = MAVLinkTarget(system: 1, component: 1)
        }
        _ = copter.receive(brake.frame(sequence: 0, systemID: 245, componentID: 190), at: copter.time)
        // Then the pilot makes no switch of their own later
        #expect(Self.run(&pilot, &copter, seconds: 6).isEmpty)
        #expect(copter.mode == .brake && pilot.pending == nil)
        #expect(copter.commandsBySystem == [245: 1, 255: 3])
    }
}
