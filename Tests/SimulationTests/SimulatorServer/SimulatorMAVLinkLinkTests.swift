@testable import FollowCore
@testable import MAVLink
@testable import Links
@testable import Simulation
import TestSupport
import Testing

/// The product's MAVLink link (`MAVLinkLink`, issue 16 item 2) against the simulator's MAVLink
/// Copter over loopback UDP: the two halves written separately meet here.
@Suite("MAVLinkLink against the simulated Copter (UDP)", .serialized, .timeLimit(.minutes(2)))
struct SimulatorMAVLinkLinkTests {
    @Test("MAVLinkLink takes the Copter off to [follow] altitude, flies it along its nose, lands and disarms it")
    func linkFliesTheCopter() async throws {
        // Given the simulated Copter, nose east, and a MAVLinkLink pointed at it (ArduPilot, 3 m take-off)
        try await withSimulator(.mavlinkAnyPorts(noseHeadingDegrees: 90)) { server in
            let events = EventRecorder<LinkEvent>()
            let link = MAVLinkLink(
                configuration: try MAVLinkLinkConfiguration(
                    address: "127.0.0.1", port: try #require(server.ports.mavlinkPort), autopilot: .ardupilot,
                    setpoints: VelocitySetpointLimits(follow: FollowParameters()), takeoffAltitudeMeters: 3),
                eventHandler: { events.append($0) })
            try await link.start()
            do {
                try await fly(link, events, server)
            } catch {
                await link.stop()
                throw error
            }
            await link.stop()
        }
    }

    /// Take-off, forward flight and landing through `link`; see the test's name.
    private func fly(_ link: MAVLinkLink, _ events: EventRecorder<LinkEvent>, _ server: SimulatorServer) async throws {
        // When the link is configured (message rates) and the owner wants to fly, holding
        let configured = await eventually(timeoutSeconds: 10) {
            events.events.contains { if case .configurationComplete(let failed, _) = $0 { failed.isEmpty } else { false } }
        }
        #expect(configured, "events: \(events.events.suffix(10))")
        link.send(LinkCommand(flying: true), immediately: false, reflecting: nil)
        // Then the Copter takes off to 3 m and the link reports it flying
        let airborne = await eventually(timeoutSeconds: 20) {
            (try? await server.snapshot()).map { $0.flightPhase == .flying && $0.altitudeMeters > 2.8 } ?? false
        }
        let afterTakeoff = try? await server.snapshot()
        #expect(airborne, "copter: \(afterTakeoff?.mavlinkJSON ?? "nil") at \(afterTakeoff?.altitudeMeters ?? -1) m")
        let reportsFlying = await eventually(timeoutSeconds: 3) {
            events.events.contains { if case .telemetry(let t, _) = $0 { t.flightState == .flying } else { false } }
        }
        #expect(reportsFlying)

        // When the owner asks for 1.5 m/s east (along the nose) for 3 s
        let before = try await server.snapshot()
        link.send(LinkCommand(flying: true, motion: MotionCommand(velocity: PlaneVector(east: 1.5, north: 0), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)),
                  immediately: true, reflecting: nil)
        try await Task.sleep(for: .seconds(3))
        let after = try await server.snapshot()
        // Then the Copter moved along its nose (east), not sideways, and kept its height
        let moved = after.positionPlane - before.positionPlane
        #expect(moved.east > 3 && abs(moved.north) < 0.3 * moved.east, "moved \(moved)")
        #expect(abs(after.altitudeMeters - 3) < 0.5)

        // When the owner wants it down
        link.send(.landed, immediately: true, reflecting: nil)
        // Then it lands in LAND and disarms, and the link says landed
        let landed = await eventually(timeoutSeconds: 20) {
            (try? await server.snapshot())?.mavlinkJSON?.contains("\"mode\":\"LAND\",\"armed\":false") == true
        }
        let afterLanding = try? await server.snapshot()
        #expect(landed, "copter: \(afterLanding?.mavlinkJSON ?? "nil")")
        let reportsLanded = await eventually(timeoutSeconds: 3) {
            if case .telemetry(let t, _)? = events.events.last(where: { if case .telemetry = $0 { true } else { false } }) {
                return t.flightState == .landed
            }
            return false
        }
        #expect(reportsLanded)
    }
}
