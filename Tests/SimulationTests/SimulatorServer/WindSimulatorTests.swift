@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import TestSupport
import Testing

/// `SimulatorConfiguration.wind` (`followme sim --wind-mps`) blows on the MAVLink Copter too: its
/// velocity loop rejects a wind within its lean authority (17.5·sin 30° = 8.75 m/s) and is blown
/// downwind by a stronger one (docs/mavlink.md §9: it sees the true wind).
@Suite("Simulator wind on the MAVLink Copter (UDP)", .serialized, .timeLimit(.minutes(2)))
struct WindSimulatorTests {
    @Test("GUIDED, airborne, no set-points: calm and 3 m/s hold the spot; 15 m/s (over the authority) blows it east",
          arguments: [(0.0, false), (3.0, false), (15.0, true)])
    func copterInWind(windMetersPerSecond: Double, blownAway: Bool) async throws {
        // Given the in-process simulator as a Copter in a steady wind blowing towards the east
        var configuration = SimulatorConfiguration.mavlinkAnyPorts()
        configuration.wind = .steady(speedMetersPerSecond: windMetersPerSecond, towardsDegrees: 90)
        try await withSimulator(configuration) { server in
            let gcs = try CodecGroundStation(port: try #require(server.ports.mavlinkPort))
            gcs.send(Heartbeat { $0.type = .init(.gcs); $0.autopilot = .init(.invalid); $0.mavlinkVersion = 3 })
            // When a ground station takes it off to 2 m in GUIDED and sends nothing more
            #expect(try gcs.command(.doSetMode, [1, 4]) == .accepted)
            #expect(try gcs.command(.componentArmDisarm, [1]) == .accepted)
            #expect(try gcs.command(.navTakeoff, [0, 0, 0, .nan, .nan, .nan, 2]) == .accepted)
            let airborne = await eventually(timeoutSeconds: 10) {
                (try? await server.snapshot())?.mavlinkState?.landed == "in-air"
            }
            try #require(airborne)
            let before = try await server.snapshot()
            _ = try gcs.collect(seconds: 2)
            let after = try await server.snapshot()
            // Then it holds its spot unless the wind is over its authority, when it drifts downwind
            let moved = after.positionPlane - before.positionPlane
            if blownAway {
                #expect(moved.east > 3, "moved \(moved) in 2 s in a \(windMetersPerSecond) m/s wind")
            } else {
                #expect(moved.length < 0.5, "moved \(moved) in 2 s in a \(windMetersPerSecond) m/s wind")
            }
        }
    }
}
