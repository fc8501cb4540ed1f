@testable import ARDrone
@testable import Links
@testable import Simulation
@testable import FollowCore
import Synchronization
import Testing
import TestSupport

/// The product's own UDP link (DroneLink) against the simulator: the bench setup of `followme sim`.
@Suite("DroneLink against the simulator", .timeLimit(.minutes(1)))
struct SimulatorDroneLinkTests {
    @Test("DroneLink connects, gets every config write acknowledged, takes off, flies forward and lands")
    func droneLinkFlight() async throws {
        try await withSimulator(.loopbackAnyPorts()) { server in
            // Given a DroneLink pointed at the simulator's ports, writing outdoor limits at start.
            let limits = try FlightLimits(outdoor: true, flightWithoutShell: true, eulerAngleMaxRadians: 0.35,
                                          controlVzMaxMillimetersPerSecond: 1000, controlYawRadiansPerSecond: 3.0,
                                          altitudeMaxMillimeters: 5000)
            let configuration = try DroneLinkConfiguration(address: "127.0.0.1", atPort: server.ports.atPort,
                                                           navdataPort: server.ports.navdataPort, limits: limits)
            let link = DroneLink(configuration: configuration)
            let recorder = EventRecorder(link.events)
            try await link.start()

            // When it has connected and written its configuration.
            let configured = await recorder.waitUntil(timeoutSeconds: 10) { events in
                events.acknowledged.count >= limits.configurationWrites.count + 1
            }
            // Then the drone acknowledged navdata_demo and every limit, and none failed.
            #expect(configured, "acknowledged: \(recorder.events.acknowledged.map(\.key))")
            #expect(recorder.events.failedWrites.isEmpty, "failed: \(recorder.events.failedWrites)")
            var snapshot = try await server.snapshot()
            #expect(snapshot.navdataMode == .demo)
            #expect(snapshot.counters[.malformedDatagrams] == 0)
            #expect(snapshot.counters[.staleCommands] == 0)

            // When the owner asks to fly (hovering).
            link.setDesired(flying: true, pilot: .hover)
            let hovering = await recorder.waitUntil(timeoutSeconds: 10) { events in
                events.lastNavdata?.demo?.controlState == .hovering
            }
            #expect(hovering)

            // And then to pitch forward for 2 s.
            let before = try await server.snapshot()
            link.setDesired(flying: true, pilot: ProgressiveCommand(pitchFraction: -0.5))
            try await Task.sleep(for: .seconds(2))
            snapshot = try await server.snapshot()
            // Then the simulated drone flew along its nose (north) under the 0.35 rad limit it wrote.
            let moved = snapshot.positionPlane - before.positionPlane
            #expect(moved.north > 1, "moved \(moved)")
            #expect(abs(moved.east) < 0.1 * moved.north)

            // When it asks to land.
            link.setDesired(flying: false, pilot: .hover)
            let landed = await recorder.waitUntil(timeoutSeconds: 15) { events in
                events.lastNavdata?.demo?.controlState == .landed
            }
            #expect(landed)
            await link.stop()
            snapshot = try await server.snapshot()
            #expect(snapshot.flightPhase == .landed)
            #expect(snapshot.counters[.malformedDatagrams] == 0)
            reportMeasurement("DroneLink commands accepted by the simulator", "\(snapshot.counters[.acceptedCommands])")
        }
    }
}

extension Array where Element == DroneLinkEvent {
    var acknowledged: [ConfigurationWrite] {
        compactMap { if case .configurationAcknowledged(let write, _, _) = $0 { write } else { nil } }
    }

    var failedWrites: [ConfigurationWrite] {
        compactMap { if case .configurationFailed(let write, _, _) = $0 { write } else { nil } }
    }

    var lastNavdata: NavdataSummary? {
        for case .navdata(let received) in reversed() { return received.navdata }
        return nil
    }
}
