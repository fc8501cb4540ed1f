@testable import ARDrone
@testable import Simulation
@testable import Links
@testable import FollowCore
import TestSupport

/// A minimal AR.Drone client on raw UDP sockets and the ARDroneProtocol codec: one socket sends AT
/// commands to the AT port, another sends the navdata trigger and receives navdata (like the
/// SDK, docs/ardrone-protocol.md §1.1). Used from one test task only.
final class RawDroneClient {
    /// `01 00 00 00`, the SDK's unicast navdata request (docs/ardrone-protocol.md §1.2).
    static let trigger: [UInt8] = [1, 0, 0, 0]
    /// Seconds between command datagrams: node-ar-drone's and go-ardrone's 30 ms (docs/ardrone-protocol.md §2.1).
    static let tickSeconds = 0.03

    let ports: SimulatorPorts
    private let atSocket: LoopbackUDPSocket
    private let navdataSocket: LoopbackUDPSocket
    private var encoder = ATEncoder()
    /// Every navdata packet received, in order, with its receive time.
    private(set) var received: [(packet: Navdata, at: MonotonicTime)] = []
    /// Datagrams on the navdata socket that did not decode.
    private(set) var undecodable = 0

    init(ports: SimulatorPorts) throws {
        self.ports = ports
        atSocket = try LoopbackUDPSocket()
        navdataSocket = try LoopbackUDPSocket()
    }

    /// The last packet received.
    var latest: Navdata? { received.last?.packet }

    func sendTrigger() {
        navdataSocket.send(Self.trigger, toPort: ports.navdataPort)
    }

    /// Encodes `commands` into one datagram (numbered from 1, +1 per command) and sends it.
    func send(_ commands: [ATCommand]) throws {
        atSocket.send(try encoder.encodeDatagram(commands), toPort: ports.atPort)
    }

    /// Sends bytes as they are (for malformed or hand-numbered commands).
    func sendRaw(_ text: String) {
        atSocket.send(Array(text.utf8), toPort: ports.atPort)
    }

    /// Reads and decodes every navdata datagram waiting now.
    @discardableResult
    func poll() -> [Navdata] {
        let now = SystemClock.now()
        var fresh: [Navdata] = []
        for datagram in navdataSocket.receiveAvailable() {
            if let packet = try? Navdata(bytes: datagram) {
                fresh.append(packet)
                received.append((packet, now))
            } else {
                undecodable += 1
            }
        }
        return fresh
    }

    /// Every 30 ms sends `commands()` (when not empty) and reads navdata, re-sending the trigger
    /// while none arrived for 0.5 s, until a packet satisfies `condition` (returned) or
    /// `timeoutSeconds` pass (nil).
    func run(
        timeoutSeconds: Double,
        sending commands: () -> [ATCommand] = { [] },
        until condition: (Navdata) -> Bool
    ) async throws -> Navdata? {
        let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
        var lastPacketAt = SystemClock.now()
        while SystemClock.now() < deadline {
            let batch = commands()
            if !batch.isEmpty { try send(batch) }
            let fresh = poll()
            if let hit = fresh.first(where: condition) { return hit }
            if !fresh.isEmpty { lastPacketAt = SystemClock.now() }
            if SystemClock.now().seconds(since: lastPacketAt) > 0.5 {
                sendTrigger()
                lastPacketAt = SystemClock.now()
            }
            try await Task.sleep(for: .milliseconds(Int(Self.tickSeconds * 1000)))
        }
        return nil
    }

    /// Sends `commands()` every 30 ms for `seconds`, reading navdata; returns the packets received.
    @discardableResult
    func keepSending(for seconds: Double, _ commands: () -> [ATCommand]) async throws -> [Navdata] {
        let before = received.count
        _ = try await run(timeoutSeconds: seconds, sending: commands) { _ in false }
        return received[before...].map(\.packet)
    }
}

extension SimulatorServer {
    /// Polls `snapshot()` every 10 ms until `condition` holds or `timeoutSeconds` pass; returns the
    /// last snapshot taken.
    func waitForSnapshot(timeoutSeconds: Double, _ condition: (SimulatorSnapshot) -> Bool) async throws -> SimulatorSnapshot {
        let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
        while true {
            let snapshot = try await self.snapshot()
            if condition(snapshot) || SystemClock.now() >= deadline { return snapshot }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension SimulatorConfiguration {
    /// Every port 0 (kernel's choice), everything else default.
    static func loopbackAnyPorts() -> SimulatorConfiguration {
        var c = SimulatorConfiguration()
        c.atPort = 0
        c.navdataPort = 0
        c.onboardNMEAPort = 0
        c.personNMEAPort = 0
        return c
    }
}

/// Prints a measured figure so it shows in the test log (collected for the report).
func reportMeasurement(_ what: String, _ value: String) {
    print("[measured] \(what): \(value)")
}
