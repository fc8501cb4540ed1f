import Foundation  // test-only: JSON of the status reply
@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import TestSupport
import Testing

/// The control port's `pilot-takeoff` and `pilot-land` (a pilot flying the MAVLink Copter from their own
/// ground station, system 255; docs/mavlink.md §8.5) and the status's per-sender counts: parsing, then
/// over loopback UDP against the in-process simulator.
@Suite("Simulator control: a pilot's take-off and landing, commands counted by sender", .serialized, .timeLimit(.minutes(1)))
struct SimulatorControlPilotTests {
    @Test("pilot-takeoff and pilot-land parse, with their defaults", arguments: [
        (#"{"command":"pilot-takeoff"}"#, SimulatorControlCommand.pilotTakeoff(meters: 5, mode: .loiter)),
        (#"{"command":"pilot-takeoff","meters":3}"#, .pilotTakeoff(meters: 3, mode: .loiter)),
        (#"{"command":"pilot-takeoff","meters":2.5,"mode":"brake"}"#, .pilotTakeoff(meters: 2.5, mode: .brake)),
        (#"{"command":"pilot-takeoff","mode":"GUIDED"}"#, .pilotTakeoff(meters: 5, mode: .guided)),
        (#"{"command":"pilot-land"}"#, .pilotLand),
    ])
    func parses(json: String, expected: SimulatorControlCommand) throws {
        let command = try SimulatorControlCommand(json: Array(json.utf8))
        #expect(command == expected)
        #expect(SimulatorControlCommand.names.contains(command.name))
    }

    @Test("bad fields of pilot-takeoff are refused with the field named", arguments: [
        (#"{"command":"pilot-takeoff","meters":0}"#, "meters"),
        (#"{"command":"pilot-takeoff","meters":-3}"#, "meters"),
        (#"{"command":"pilot-takeoff","meters":101}"#, "meters"),
        (#"{"command":"pilot-takeoff","meters":"high"}"#, "meters"),
        (#"{"command":"pilot-takeoff","mode":"STABILIZE"}"#, "mode"),
        (#"{"command":"pilot-takeoff","mode":"AUTO"}"#, "mode"),
        (#"{"command":"pilot-takeoff","mode":"CIRCLE"}"#, "mode"),
    ])
    func refuses(json: String, field: String) {
        let error = #expect(throws: SimulatorControlError.self) { try SimulatorControlCommand(json: Array(json.utf8)) }
        #expect(error.map { "\($0)".contains(field) } == true, "\(String(describing: error))")
    }

    /// The status's `mavlink` object.
    static func copter(_ control: SimControl) throws -> [String: Any] {
        try control.status().raw["mavlink"] as? [String: Any] ?? [:]
    }

    @Test("over UDP: pilot-takeoff 2 m → GUIDED, armed, then LOITER at the height, its 3 commands under \"255\"; refused again in the air; pilot-land → landed, disarmed; FollowMe's station's commands under \"245\"")
    func overTheControlPort() async throws {
        try await withSimulator(.mavlinkAnyPorts(controlPort: 0)) { server in
            let control = try SimControl(port: try #require(server.ports.controlPort))
            let station = try CodecGroundStation(port: try #require(server.ports.mavlinkPort), systemID: 245)
            // (no HEARTBEAT from it: the Copter's GCS failsafe, which watches 245, stays out of this test)
            #expect(try station.command(.setMessageInterval, [Float(Heartbeat.messageID), 1_000_000]) == .accepted)
            // Given a disarmed Copter on the ground; pilot-land is refused there
            #expect(try control.exchange(["command": "pilot-land"])["ok"] as? Bool == false)

            // When the pilot takes off to 2 m
            let reply = try control.send(["command": "pilot-takeoff", "meters": 2])
            #expect(reply["command"] as? String == "pilot-takeoff")
            // Then the Copter is armed in GUIDED, and the commands are counted by sender
            var copter = try Self.copter(control)
            #expect(copter["armed"] as? Bool == true && copter["mode"] as? String == "GUIDED", "\(copter)")
            #expect(copter["commands_by_system"] as? [String: Int] == ["245": 1, "255": 3], "\(copter)")
            #expect(copter["setpoints_by_system"] as? [String: Int] == [:], "\(copter)")
            #expect(copter["pilot_switch_pending"] as? String == "LOITER", "\(copter)")
            // And at the height, LOITER on the switch
            let loiter = await eventually(timeoutSeconds: 8) { (try? Self.copter(control))?["mode"] as? String == "LOITER" }
            #expect(loiter, "\((try? Self.copter(control)) ?? [:])")
            copter = try Self.copter(control)
            #expect(copter["landed_state"] as? String == "in-air" && copter["pilot_switch_pending"] == nil, "\(copter)")
            // And a second take-off is refused (ok:false, saying why)
            let again = try control.exchange(["command": "pilot-takeoff"])
            #expect(again["ok"] as? Bool == false && (again["error"] as? String ?? "").contains("flying"), "\(again)")

            // When the pilot lands
            try control.send(["command": "pilot-land"])
            // Then it lands and disarms (2 m at 0.5 m/s), the LAND counted under 255 too
            let down = await eventually(timeoutSeconds: 10) {
                let c = try? Self.copter(control)
                return c?["armed"] as? Bool == false && c?["landed_state"] as? String == "on-ground"
            }
            #expect(down, "\((try? Self.copter(control)) ?? [:])")
            #expect(try Self.copter(control)["commands_by_system"] as? [String: Int] == ["245": 1, "255": 4])
        }
    }
}
