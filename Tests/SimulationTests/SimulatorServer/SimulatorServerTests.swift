@testable import ARDrone
@testable import Simulation
@testable import FollowCore
@testable import Links
import Testing

/// The simulator over real loopback UDP, driven by a raw client built on the protocol codec.
@Suite("Simulator server (UDP)", .timeLimit(.minutes(1)))
struct SimulatorServerTests {
    @Test("bootstrap until navdata_demo TRUE, then demo packets with ACK until CTRL 5; 15 Hz")
    func bootstrapHandshake() async throws {
        // Given a fresh simulator and a client that sent the navdata trigger.
        try await withSimulator(.loopbackAnyPorts()) { server in
            #expect(server.ports.atPort > 0 && server.ports.navdataPort > 0 && server.ports.onboardNMEAPort > 0)
            #expect(server.ports.personNMEAPort == nil)
            let client = try RawDroneClient(ports: server.ports)
            client.sendTrigger()

            // Then bootstrap packets arrive: bit 11, no options, numbered from 1.
            let bootstrap = try #require(try await client.run(timeoutSeconds: 5) { _ in true })
            #expect(bootstrap.sequenceNumber == 1)
            #expect(bootstrap.state.contains(.navdataBootstrap))
            #expect(!bootstrap.state.contains(.navdataDemo))
            #expect(bootstrap.options.isEmpty)
            #expect(bootstrap.state.contains(.communicationWatchdog), "no AT command yet: com watchdog bit 30")

            // When the client configures demo navdata (and keeps the link alive with COMWDG).
            try client.send([.config(key: "general:navdata_demo", boolValue: true)])
            let acked = try #require(try await client.run(timeoutSeconds: 3, sending: { [.comwdg] }) {
                $0.demo != nil && $0.state.contains(.commandAcknowledged)
            })
            // Then demo packets carry bit 10, the ACK bit 6 and a landed demo option.
            #expect(acked.state.contains(.navdataDemo))
            #expect(!acked.state.contains(.navdataBootstrap))
            #expect(!acked.state.contains(.communicationWatchdog))
            #expect(acked.demo?.controlState == .landed)
            #expect(acked.demo?.batteryPercent ?? 0 > 90)

            // When the client acknowledges with CTRL 5.
            let cleared = try #require(try await client.run(timeoutSeconds: 3, sending: { [.ctrl(.acknowledgeCommand)] }) {
                $0.demo != nil && !$0.state.contains(.commandAcknowledged)
            })
            // Then the ACK bit is clear and demo packets continue.
            #expect(cleared.state.contains(.navdataDemo))

            // And packets are numbered one by one, and come at 15 Hz.
            let sequence = client.received.map(\.packet.sequenceNumber)
            #expect(zip(sequence, sequence.dropFirst()).allSatisfy { $1 > $0 })
            let window = 2.0
            let packets = try await client.keepSending(for: window) { [.comwdg] }
            let rate = Double(packets.count) / window
            reportMeasurement("navdata rate (demo, 2 s window)", NMEASentence.decimal(rate, fractionDigits: 2) + " Hz")
            #expect(rate > 13 && rate < 17, "navdata at \(rate) Hz")
            #expect(client.undecodable == 0)
        }
    }

    @Test("takeoff, forward flight along the nose, landing and emergency through the real protocol")
    func flight() async throws {
        // Given a drone whose nose points east, in demo navdata.
        var configuration = SimulatorConfiguration.loopbackAnyPorts()
        configuration.initialNoseHeadingDegrees = 90
        try await withSimulator(configuration) { server in
            let client = try RawDroneClient(ports: server.ports)
            client.sendTrigger()
            try client.send([.config(key: "general:navdata_demo", boolValue: true)])
            _ = try #require(try await client.run(timeoutSeconds: 5, sending: { [.ctrl(.acknowledgeCommand)] }) {
                $0.demo != nil && !$0.state.contains(.commandAcknowledged)
            })

            // When the client sends REF with bit 9 (and hover PCMDs) every 30 ms.
            let takeoffStart = SystemClock.now()
            let hovering = try #require(try await client.run(timeoutSeconds: 10, sending: { [.ref(.takeoff), .pcmd(.hover)] }) {
                $0.state.contains(.flying) && $0.demo?.controlState == .hovering
            }, "no hovering navdata within 10 s of REF takeoff")
            // Then navdata shows it flying, hovering at about 1 m.
            reportMeasurement("REF takeoff to hovering navdata", NMEASentence.decimal(SystemClock.now().seconds(since: takeoffStart), fractionDigits: 2) + " s")
            #expect((hovering.demo?.altitudeMeters ?? 0) > 0.8)
            let beforeForward = try await server.snapshot()
            #expect(beforeForward.flightPhase == .flying)

            // When it pitches forward (negative pitch) for 2.5 s.
            let forward = ProgressiveCommand(pitchFraction: -0.5)
            let flown = try await client.keepSending(for: 2.5) { [.ref(.takeoff), .pcmd(forward)] }
            let afterForward = try await server.snapshot()
            // Then navdata reports flying with positive body-frame vx (forward) and nose-down pitch…
            let last = try #require(flown.last?.demo)
            #expect(last.controlState == .flying)
            #expect(last.bodyVelocityMetersPerSecond.x > 0.5, "vx \(last.bodyVelocityMetersPerSecond.x) m/s")
            #expect(abs(last.bodyVelocityMetersPerSecond.y) < 0.1)
            #expect(last.thetaDegrees < 0)
            // …and the ground truth moved along the nose (east), not sideways.
            let moved = afterForward.positionPlane - beforeForward.positionPlane
            #expect(moved.east > 1, "moved \(moved)")
            #expect(abs(moved.north) < 0.1 * moved.east, "moved \(moved)")

            // When REF bit 9 is cleared.
            let landed = try #require(try await client.run(timeoutSeconds: 15, sending: { [.ref(.land), .pcmd(.hover)] }) {
                $0.demo?.controlState == .landed && !$0.state.contains(.flying)
            }, "no landed navdata within 15 s of REF land")
            // Then it lands.
            #expect(landed.demo?.altitudeMillimeters == 0)
            #expect(try await server.snapshot().flightPhase == .landed)

            // When the client toggles emergency (REF bit 8).
            let emergency = try #require(try await client.run(timeoutSeconds: 3, sending: { [.ref(.emergencyToggle)] }) {
                $0.state.contains(.emergency)
            })
            // Then navdata shows the emergency bit 31.
            #expect(emergency.state.rawValue & (1 << 31) != 0)
            #expect(try await server.snapshot().flightPhase == .emergency)
        }
    }

    @Test("malformed AT datagrams are counted and ignored; stale sequence numbers are ignored; 1 resets")
    func malformedAndStale() async throws {
        // Given a client receiving bootstrap navdata.
        try await withSimulator(.loopbackAnyPorts()) { server in
            let client = try RawDroneClient(ports: server.ports)
            client.sendTrigger()
            _ = try #require(try await client.run(timeoutSeconds: 5) { _ in true })

            // When it sends two malformed datagrams.
            client.sendRaw("AT*REF=1,notanumber\r")
            client.sendRaw("\u{1}\u{2}garbage")
            // Then both are counted, nothing is accepted, and navdata keeps flowing.
            var snapshot = try await server.waitForSnapshot(timeoutSeconds: 3) { $0.counters[.malformedDatagrams] == 2 }
            #expect(snapshot.counters[.malformedDatagrams] == 2)
            #expect(snapshot.counters[.acceptedCommands] == 0)
            #expect(snapshot.lastAcceptedSequenceNumber == nil)

            // When it sends seq 50, then the demo CONFIG with the stale seq 10.
            client.sendRaw("AT*COMWDG=50\r")
            client.sendRaw("AT*CONFIG=10,\"general:navdata_demo\",\"TRUE\"\r")
            snapshot = try await server.waitForSnapshot(timeoutSeconds: 3) { $0.counters[.staleCommands] == 1 }
            // Then the CONFIG is ignored: counted as stale, navdata stays in bootstrap.
            #expect(snapshot.counters[.staleCommands] == 1)
            #expect(snapshot.lastAcceptedSequenceNumber == 50)
            #expect(snapshot.navdataMode == .bootstrap)
            let packets = try await client.keepSending(for: 0.4) { [] }
            #expect(!packets.isEmpty)
            #expect(packets.allSatisfy { $0.state.contains(.navdataBootstrap) && $0.demo == nil })

            // When the same CONFIG comes with seq 1 (a restarted client).
            client.sendRaw("AT*CONFIG=1,\"general:navdata_demo\",\"TRUE\"\r")
            // Then the counter resets, the CONFIG applies and demo navdata follows.
            let demo = try #require(try await client.run(timeoutSeconds: 3) { $0.demo != nil })
            #expect(demo.state.contains(.navdataDemo))
            snapshot = try await server.snapshot()
            #expect(snapshot.lastAcceptedSequenceNumber == 1)
            #expect(snapshot.counters[.acceptedCommands] == 2)
            #expect(snapshot.counters[.malformedDatagrams] == 2)
            #expect(client.undecodable == 0)
        }
    }

    @Test("a second server on a taken UDP port fails with bindFailed; the first keeps serving")
    func portInUse() async throws {
        try await withSimulator(.loopbackAnyPorts()) { first in
            var clash = SimulatorConfiguration.loopbackAnyPorts()
            clash.atPort = first.ports.atPort
            await #expect(throws: SimulatorServerError.self) {
                let second = try await SimulatorServer.start(configuration: clash)
                await second.stop()
            }
            // The first server still serves.
            let client = try RawDroneClient(ports: first.ports)
            client.sendTrigger()
            #expect(try await client.run(timeoutSeconds: 3) { _ in true } != nil)
        }
    }
}

/// Starts a simulator, runs `body`, and always stops the simulator (also when `body` throws).
func withSimulator<T>(
    _ configuration: SimulatorConfiguration, _ body: (SimulatorServer) async throws -> T
) async throws -> T {
    let server = try await SimulatorServer.start(configuration: configuration)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
