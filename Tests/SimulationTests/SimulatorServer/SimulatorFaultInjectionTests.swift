#if canImport(Glibc)
import Glibc
#endif
@testable import ARDrone
import Foundation
@testable import Simulation
@testable import Links
@testable import FollowCore
import Testing
import TestSupport

/// The simulator's fault injections for issue 11 (heading glitch and re-mount, a landing of its
/// own, navdata falling back to bootstrap), each checked at the simulator alone: parsing, the pure
/// model, and the wire (UDP control channel, NMEA over TCP, navdata over UDP) with a raw client.
/// Nothing here depends on followme's handling of these faults.
@Suite("Simulator fault injections (issue 11)", .timeLimit(.minutes(1)))
struct SimulatorFaultInjectionTests {
    // MARK: Control commands

    @Test("new control commands parse with their defaults", arguments: [
        (#"{"command":"heading-glitch"}"#, SimulatorControlCommand.headingGlitch(degrees: 180, count: 1)),
        (#"{"command":"heading-glitch","degrees":-90,"count":3}"#, .headingGlitch(degrees: -90, count: 3)),
        (#"{"command":"heading-value","degrees":0}"#, .headingValue(degrees: 0, count: 1)),
        (#"{"command":"heading-value","degrees":359.5,"count":2}"#, .headingValue(degrees: 359.5, count: 2)),
        (#"{"command":"heading-offset","degrees":180}"#, .headingOffset(degrees: 180)),
        (#"{"command":"heading-offset","degrees":0}"#, .headingOffset(degrees: 0)),
        (#"{"command":"land"}"#, .land),
        (#"{"command":"navdata-bootstrap"}"#, .navdataBootstrap(forget: .navdataDemo, restartSequence: false)),
        (#"{"command":"navdata-bootstrap","forget":"all","restart_sequence":true}"#,
         .navdataBootstrap(forget: .all, restartSequence: true)),
    ])
    func parses(json: String, expected: SimulatorControlCommand) throws {
        #expect(try SimulatorControlCommand(json: Array(json.utf8)) == expected)
    }

    @Test("bad fields of the new commands are refused with the field named", arguments: [
        (#"{"command":"heading-glitch","count":0}"#, "count"),
        (#"{"command":"heading-glitch","count":1.5}"#, "count"),
        (#"{"command":"heading-glitch","degrees":720}"#, "degrees"),
        (#"{"command":"heading-value"}"#, "degrees"),
        (#"{"command":"heading-value","degrees":-1}"#, "degrees"),
        (#"{"command":"heading-offset"}"#, "degrees"),
        (#"{"command":"heading-offset","degrees":"half"}"#, "degrees"),
        (#"{"command":"navdata-bootstrap","forget":"everything"}"#, "forget"),
        (#"{"command":"navdata-bootstrap","restart_sequence":1}"#, "restart_sequence"),
    ])
    func refuses(json: String, field: String) {
        let error = #expect(throws: SimulatorControlError.self) { try SimulatorControlCommand(json: Array(json.utf8)) }
        #expect(error.map { "\($0)".contains(field) } == true, "\(String(describing: error))")
    }

    // MARK: The pure model

    @Test("land: an airborne drone lands on its own (reason automatic); a held take-off bit does not lift it again")
    func automaticLandingModel() {
        // Given a drone flying at 1 m.
        var sim = DroneSimulator(start: .zero)
        var t = MonotonicTime.zero
        func hold(_ input: ATCommand, seconds: Double) {
            let end = t.adding(seconds: seconds)
            while t < end {
                sim.apply(input, at: t)
                t = t.adding(seconds: 0.03)
            }
        }
        hold(.ref(REFInput(flying: true, emergencyToggle: false)), seconds: 6)
        #expect(sim.flightPhase == .flying)
        // When it lands on its own while the client keeps REF bit 9 set.
        let started = sim.beginAutomaticLanding(at: t)
        #expect(started)
        #expect(sim.flightPhase == .landing)
        #expect(sim.landingReason == .automatic)
        hold(.ref(REFInput(flying: true, emergencyToggle: false)), seconds: 6)
        // Then it touches down and stays down: the held bit is not a new take-off request.
        #expect(sim.flightPhase == .landed)
        #expect(sim.altitudeMeters == 0)
        let startedWhileLanded = sim.beginAutomaticLanding(at: t)
        #expect(!startedWhileLanded, "a landed drone cannot start a landing")
        // And only a take-off bit after a cleared one lifts it again.
        hold(.ref(REFInput(flying: false, emergencyToggle: false)), seconds: 0.1)
        hold(.ref(REFInput(flying: true, emergencyToggle: false)), seconds: 0.1)
        #expect(sim.flightPhase == .takingOff)
    }

    @Test("forgetting configuration: navdata-demo clears bit 10 and that key only; all returns every default")
    func forgetConfigurationModel() {
        // Given a drone configured for demo navdata and outdoor limits, with a config ACK pending.
        var sim = DroneSimulator(start: .zero)
        for (key, value) in [("control:outdoor", "TRUE"), ("control:euler_angle_max", "0.30"), ("general:navdata_demo", "TRUE")] {
            sim.apply(.config(key: key, value: value), at: .zero)
        }
        #expect(sim.navdata.state.contains(.navdataDemo))
        #expect(sim.navdata.state.contains(.commandAcknowledged))

        // When it forgets navdata_demo only.
        var demoOnly = sim
        demoOnly.forgetConfiguration(.navdataDemo, at: .zero)
        // Then bit 10 and the ACK are gone, the other keys stay.
        #expect(!demoOnly.navdata.state.contains(.navdataDemo))
        #expect(!demoOnly.navdata.state.contains(.commandAcknowledged))
        #expect(demoOnly.configuration.values["general:navdata_demo"] == nil)
        #expect(demoOnly.configuration.isOutdoor)
        #expect(demoOnly.configuration.active.eulerAngleMaxRadians == 0.30)

        // When it forgets everything.
        sim.forgetConfiguration(.all, at: .zero)
        // Then it is back to the factory defaults.
        #expect(sim.configuration == DroneConfiguration())
        #expect(sim.configuration.values.isEmpty)
        #expect(!sim.navdata.state.contains(.navdataDemo))
    }

    @Test("bootstrap fallback in the protocol: bit 11 and no options until navdata_demo is written again")
    func bootstrapFallbackProtocol() throws {
        // Given a drone in demo navdata after the client's bootstrap.
        var proto = SimulatedDroneProtocol()
        var sim = DroneSimulator(start: .zero)
        func receive(_ text: String) {
            for input in proto.receiveATDatagram(Array(text.utf8)) { sim.apply(input, at: .zero) }
        }
        receive("AT*CONFIG=1,\"general:navdata_demo\",\"TRUE\"\r")
        receive("AT*CTRL=2,5,0\r")
        receive("AT*REF=3,290718208\r")
        #expect(proto.navdataMode == .demo)
        let before = proto.nextNavdataPacket(state: sim.droneState, demo: sim.demoOption)
        #expect(before.demo != nil)

        // When navdata falls back to bootstrap (sequence numbers kept) and the drone forgets the key.
        proto.fallBackToBootstrap(restartingSequence: false)
        sim.forgetConfiguration(.navdataDemo, at: .zero)
        // Then the next packets are bootstrap: bit 11, bit 10 clear, no options, numbering goes on.
        let packet = proto.nextNavdataPacket(state: sim.droneState, demo: sim.demoOption)
        #expect(packet.state.contains(.navdataBootstrap))
        #expect(!packet.state.contains(.navdataDemo))
        #expect(packet.options.isEmpty)
        #expect(packet.sequenceNumber == before.sequenceNumber + 1)
        var bytes: [UInt8] = []
        try packet.encode(into: &bytes)
        let decoded = try Navdata(bytes: bytes)
        #expect(decoded.state.contains(.navdataBootstrap) && decoded.demo == nil)

        // When the client redoes the bootstrap.
        receive("AT*CONFIG=4,\"general:navdata_demo\",\"TRUE\"\r")
        receive("AT*CTRL=5,5,0\r")
        // Then demo navdata is back, and the counters show both bootstraps.
        let again = proto.nextNavdataPacket(state: sim.droneState, demo: sim.demoOption)
        #expect(again.demo != nil && again.state.contains(.navdataDemo) && !again.state.contains(.navdataBootstrap))
        #expect(proto.counters[.navdataDemoWrites] == 2)
        #expect(proto.counters[.configWrites] == 2)
        #expect(proto.counters[.configAcknowledgements] == 2)
        #expect(proto.counters[.takeoffBits] == 1)
        #expect(proto.counters[.bootstrapFallbacks] == 1)
    }

    @Test("bootstrap fallback with restart_sequence: navdata from 1 again, any next AT number accepted")
    func bootstrapFallbackRestartsSequence() {
        // Given a drone that accepted AT seq 1000 and sent a few packets.
        var proto = SimulatedDroneProtocol()
        _ = proto.receiveATDatagram(Array("AT*COMWDG=1000\r".utf8))
        let drone = DroneSimulator(start: .zero)
        for _ in 0..<5 { _ = proto.nextNavdataPacket(state: drone.droneState, demo: drone.demoOption) }
        // When it falls back with a sequence restart.
        proto.fallBackToBootstrap(restartingSequence: true)
        // Then navdata is numbered from 1 and AT seq 7 (below 1000, not 1) is accepted.
        #expect(proto.nextNavdataPacket(state: drone.droneState, demo: drone.demoOption).sequenceNumber == 1)
        #expect(proto.accepts(sequenceNumber: 7))
        #expect(!proto.receiveATDatagram(Array("AT*COMWDG=7\r".utf8)).isEmpty)
        #expect(proto.lastAcceptedSequenceNumber == 7)
    }

    // MARK: Over the wire

    @Test("navdata-bootstrap over the control port: bootstrap packets until the client redoes the bootstrap")
    func bootstrapFallbackOverTheWire() async throws {
        // Given a simulator with its control port, and a client in demo navdata with outdoor limits.
        try await withControlledSimulator { server, control in
            let client = try RawDroneClient(ports: server.ports)
            client.sendTrigger()
            try await configure(client, ["general:navdata_demo": "TRUE", "control:outdoor": "TRUE"])
            var status = try await control.send(#"{"command":"status"}"#)
            #expect(status["navdata_mode"] as? String == "demo")
            #expect(status["config_keys"] as? Int == 2)

            // When navdata falls back to bootstrap and the drone forgets every key.
            let reply = try await control.send(#"{"command":"navdata-bootstrap","forget":"all"}"#)
            #expect(reply["ok"] as? Bool == true)
            // (Packets sent before the command are already in the socket: loopback delivers at send.)
            client.poll()
            // Then every later packet is bootstrap: bit 11, no demo option, bit 10 clear.
            let packets = try await client.keepSending(for: 0.5) { [.comwdg] }
            #expect(packets.count >= 5)
            #expect(packets.allSatisfy { $0.state.contains(.navdataBootstrap) && !$0.state.contains(.navdataDemo) && $0.demo == nil })
            status = try await control.send(#"{"command":"status"}"#)
            #expect(status["navdata_mode"] as? String == "bootstrap")
            #expect(status["config_keys"] as? Int == 0)
            #expect((status["faults"] as? [String: Any])?["bootstrap_fallbacks"] as? Int == 1)

            // When the client redoes the bootstrap and its config writes.
            try await configure(client, ["general:navdata_demo": "TRUE", "control:outdoor": "TRUE"])
            // Then demo navdata is back and the simulator counted both bootstraps.
            #expect(client.latest?.demo != nil)
            status = try await control.send(#"{"command":"status"}"#)
            #expect(status["navdata_mode"] as? String == "demo")
            #expect(status["navdata_demo_writes"] as? Int == 2)
            #expect(status["config_writes"] as? Int == 4)
            #expect((status["config_acks"] as? Int ?? 0) >= 4)
            #expect(status["config_keys"] as? Int == 2)
        }
    }

    @Test("heading-glitch rotates exactly the next HDT, heading-value replaces it; heading-offset rotates every later one until 0")
    func headingFaultsOverTheWire() async throws {
        // Given a landed drone, nose 30°, receiver mounted +90°: HDT 300°.
        try await withControlledSimulator({ configuration in
            configuration.initialNoseHeadingDegrees = 30
            configuration.mountOffsetDegrees = 90
        }) { server, control in
            let nmea = try NMEALineReader(port: server.ports.onboardNMEAPort)
            let before = try await nmea.headings(count: 3)
            #expect(before.allSatisfy { abs($0 - 300) < 0.01 }, "\(before)")

            // When one heading report is glitched by 180°.
            _ = try await control.send(#"{"command":"heading-glitch","degrees":180}"#)
            // (One report sent just before the command may still be on its way: it may lead.)
            let glitched = try await nmea.headings(count: 6)
            // Then exactly one HDT reads 120°, the first or second after the command; the rest 300°.
            let rotated = glitched.indices.filter { abs(glitched[$0] - 120) < 0.01 }
            #expect(rotated.count == 1 && rotated[0] <= 1, "\(glitched)")
            #expect(glitched.filter { abs($0 - 300) < 0.01 }.count == 5, "\(glitched)")

            // When the next report reads 0.0 (an invalid compass value).
            _ = try await control.send(#"{"command":"heading-value","degrees":0}"#)
            let zeroed = try await nmea.headings(count: 6)
            // Then exactly one HDT reads 0°, the first or second after the command; the rest 300°.
            let zeros = zeroed.indices.filter { abs(zeroed[$0]) < 0.01 }
            #expect(zeros.count == 1 && zeros[0] <= 1, "\(zeroed)")
            #expect(zeroed.filter { abs($0 - 300) < 0.01 }.count == 5, "\(zeroed)")

            // When the receiver is re-mounted 180° round.
            _ = try await control.send(#"{"command":"heading-offset","degrees":180}"#)
            let remounted = Array(try await nmea.headings(count: 6).drop { abs($0 - 300) < 0.01 })
            // Then every report from the first rotated one on reads 120°.
            #expect(remounted.count >= 5 && remounted.allSatisfy { abs($0 - 120) < 0.01 }, "\(remounted)")
            // When the offset is cleared.
            _ = try await control.send(#"{"command":"heading-offset","degrees":0}"#)
            let restored = Array(try await nmea.headings(count: 4).drop { abs($0 - 120) < 0.01 })
            #expect(restored.count >= 3 && restored.allSatisfy { abs($0 - 300) < 0.01 }, "\(restored)")
            let faults = try await control.send(#"{"command":"status"}"#)["faults"] as? [String: Any]
            #expect(faults?["heading_glitches_sent"] as? Int == 1)
            #expect(faults?["heading_values_sent"] as? Int == 1)
            #expect((faults?["headings_offset_sent"] as? Int ?? 0) >= 5)
        }
    }

    @Test("land over the control port: the drone lands by itself; take-off bits after landed navdata are counted, not obeyed")
    func automaticLandingOverTheWire() async throws {
        try await withControlledSimulator { server, control in
            // Given a landed drone: `land` is refused.
            let refused = try await control.send(#"{"command":"land"}"#)
            #expect(refused["ok"] as? Bool == false)
            #expect((refused["error"] as? String ?? "").contains("landed"))
            // Given a client that took off and keeps REF bit 9 set.
            let client = try RawDroneClient(ports: server.ports)
            client.sendTrigger()
            try await configure(client, ["general:navdata_demo": "TRUE"])
            _ = try #require(try await client.run(timeoutSeconds: 10, sending: { [.ref(.takeoff), .pcmd(.hover)] }) {
                $0.demo?.controlState == .hovering
            })
            let airborne = try await control.send(#"{"command":"status"}"#)
            let bitsBefore = airborne["takeoff_bits_after_landed_announced"] as? Int ?? -1
            #expect(airborne["landed_announced_at"] == nil, "airborne: no landed announcement")

            // When the drone lands on its own.
            let landReply = try await control.send(#"{"command":"land"}"#)
            #expect(landReply["ok"] as? Bool == true)
            // Then navdata shows it landing, then landed, although the client asks to fly.
            let landed = try await client.run(timeoutSeconds: 10, sending: { [.ref(.takeoff), .pcmd(.hover)] }) {
                $0.demo?.controlState == .landed
            }
            #expect(landed != nil)
            try await client.keepSending(for: 0.5) { [.ref(.takeoff), .pcmd(.hover)] }
            let status = try await control.send(#"{"command":"status"}"#)
            #expect(status["state"] as? String == "landed")
            #expect(status["landing_reason"] as? String == "automatic")
            #expect((status["faults"] as? [String: Any])?["automatic_landings"] as? Int == 1)
            // And the take-off bits sent after the landed navdata are counted with their time.
            let announcedAt = try #require(status["landed_announced_at"] as? Double)
            let lastBitAt = try #require(status["last_takeoff_bit_after_landed_announced_at"] as? Double)
            let bits = (status["takeoff_bits_after_landed_announced"] as? Int ?? 0) - bitsBefore
            #expect(bits >= 10, "0.5 s of REF at 30 ms after the landed navdata: \(bits)")
            #expect(lastBitAt > announcedAt + 0.4)
        }
    }

    /// Sends each config write (CONFIG, wait for the ACK bit, CTRL 5, wait for it to clear), the
    /// way a client bootstraps.
    private func configure(_ client: RawDroneClient, _ writes: KeyValuePairs<String, String>) async throws {
        for (key, value) in writes {
            try client.send([.config(key: key, value: value)])
            _ = try #require(try await client.run(timeoutSeconds: 3, sending: { [.comwdg] }) {
                $0.state.contains(.commandAcknowledged)
            }, "no ACK for \(key)")
            _ = try #require(try await client.run(timeoutSeconds: 3, sending: { [.ctrl(.acknowledgeCommand)] }) {
                !$0.state.contains(.commandAcknowledged)
            }, "ACK bit not cleared after \(key)")
        }
        _ = try #require(try await client.run(timeoutSeconds: 3, sending: { [.comwdg] }) { $0.demo != nil })
    }
}

/// Starts a simulator with its control port on an ephemeral loopback port (after `adjust` has
/// changed the rest of the configuration), connects a control client to it, and runs `body`.
private func withControlledSimulator(
    _ adjust: (inout SimulatorConfiguration) -> Void = { _ in },
    _ body: (SimulatorServer, ControlClient) async throws -> Void
) async throws {
    var configuration = SimulatorConfiguration.loopbackAnyPorts()
    configuration.controlPort = 0
    adjust(&configuration)
    try await withSimulator(configuration) { server in
        let control = try ControlClient(port: try #require(server.ports.controlPort))
        try await body(server, control)
    }
}

/// The simulator's UDP control channel from a raw socket: one JSON command, one JSON reply.
private final class ControlClient {
    private let socket: LoopbackUDPSocket
    private let port: Int

    init(port: Int) throws {
        socket = try LoopbackUDPSocket()
        self.port = port
    }

    func send(_ json: String) async throws -> [String: Any] {
        socket.send(Array(json.utf8), toPort: port)
        let deadline = SystemClock.now().adding(seconds: 3)
        while SystemClock.now() < deadline {
            if let reply = socket.receiveAvailable().first {
                return try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any])
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("no reply to \(json)")
        throw CancellationError()
    }
}

/// Reads the onboard NMEA stream over TCP (what gpsd would read) and picks out HDT headings.
private final class NMEALineReader {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LoopbackUDPSocket.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else {
            let e = errno
            if fd >= 0 { close(fd) }
            throw LoopbackUDPSocket.SocketError.call("connect", errno: e)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
    }

    deinit { close(fd) }

    /// The next `count` HDT headings received from now on, degrees (waits up to 10 s).
    func headings(count: Int) async throws -> [Double] {
        var out: [Double] = []
        let deadline = SystemClock.now().adding(seconds: 10)
        while out.count < count, SystemClock.now() < deadline {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { pending.append(contentsOf: buffer[0..<n]) }
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                // $GPHDT,123.45,T*hh
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                if fields.count >= 2, fields[0].hasSuffix("HDT"), let heading = Double(fields[1]) { out.append(heading) }
            }
            if n <= 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        try #require(out.count >= count, "only \(out.count) HDT sentences")
        return Array(out.prefix(count))
    }
}
