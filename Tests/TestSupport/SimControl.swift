import Foundation

/// The simulator's control channel (`followme sim --control-port`): one JSON command per datagram.
package final class SimControl: @unchecked Sendable {
    package struct Refused: Error, CustomStringConvertible {
        package var command: String
        package var reply: String
        package var description: String { "sim refused \(command): \(reply)" }
    }

    package let port: Int
    private let socket: LoopbackUDPSocket
    private let lock = NSLock()

    package init(port: Int) throws {
        self.port = port
        socket = try LoopbackUDPSocket()
    }

    /// Sends `command` and returns the reply object; throws if the sim says `"ok":false`.
    @discardableResult
    package func send(_ command: [String: Any]) throws -> [String: Any] {
        let object = try exchange(command)
        guard object["ok"] as? Bool == true else {
            let reply = (try? JSONSerialization.data(withJSONObject: object)).map { String(decoding: $0, as: UTF8.self) }
            throw Refused(command: "\(command)", reply: reply ?? "\(object)")
        }
        return object
    }

    /// Sends `command` and returns whatever JSON object the sim replies, `"ok":false` included.
    package func exchange(_ command: [String: Any]) throws -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        let data = try JSONSerialization.data(withJSONObject: command)
        var lastError: any Error = LoopbackUDPSocket.SocketError.timeout(seconds: 0)
        for _ in 0..<3 {  // loopback UDP does not lose datagrams, but a stalled sim may be slow
            try socket.send(Array(data), to: "127.0.0.1", port: port)
            do {
                let reply = try socket.receive(timeoutSeconds: 2)
                guard let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any] else {
                    throw Refused(command: "\(command)", reply: String(decoding: reply, as: UTF8.self))
                }
                return object
            } catch let error as LoopbackUDPSocket.SocketError {
                lastError = error
            }
        }
        throw lastError
    }

    /// The simulator's status (see `SimulatorSnapshot.controlStatusJSON`).
    package func status() throws -> SimStatus { SimStatus(try send(["command": "status"])) }

    /// Starts or stops silencing one output stream; returns the simulator time it took effect.
    @discardableResult
    package func silence(_ stream: String, _ on: Bool) throws -> Double {
        try send(["command": "silence", "stream": stream, "on": on])["t"] as? Double ?? monotonicSeconds()
    }
}

/// One `status` reply.
package struct SimStatus {
    package let raw: [String: Any]
    package init(_ raw: [String: Any]) { self.raw = raw }

    package var t: Double { raw["t"] as? Double ?? .nan }
    package var state: String { raw["state"] as? String ?? "?" }
    package var landingReason: String? { raw["landing_reason"] as? String }
    package var altitudeMeters: Double { raw["alt"] as? Double ?? .nan }
    package var batteryPercent: Double { raw["battery"] as? Double ?? .nan }
    package var east: Double { raw["east"] as? Double ?? .nan }
    package var north: Double { raw["north"] as? Double ?? .nan }
    package var personEast: Double? { raw["person_east"] as? Double }
    package var personNorth: Double? { raw["person_north"] as? Double }
    package var atDatagrams: Int { raw["at_datagrams"] as? Int ?? -1 }
    package var navdataClient: String? { raw["navdata_client"] as? String }
    package var maxCommandGapSeconds: Double { raw["max_command_gap_s"] as? Double ?? .nan }
    package var comWatchdog: Bool { raw["com_watchdog"] as? Bool ?? false }
    package var faults: [String: Any] { raw["faults"] as? [String: Any] ?? [:] }
    package var navdataMode: String { raw["navdata_mode"] as? String ?? "?" }
    /// Accepted AT*CONFIG commands / those for general:navdata_demo / AT*CTRL=…,5,0 so far.
    package var configWrites: Int { raw["config_writes"] as? Int ?? -1 }
    package var navdataDemoWrites: Int { raw["navdata_demo_writes"] as? Int ?? -1 }
    package var configAcks: Int { raw["config_acks"] as? Int ?? -1 }
    /// Config keys the drone holds now.
    package var configKeys: Int { raw["config_keys"] as? Int ?? -1 }
    /// When the first navdata packet saying "landed" went out after the last touchdown.
    package var landedAnnouncedAt: Double? { raw["landed_announced_at"] as? Double }
    /// REF take-off bits received while landed after that announcement (cumulative), and the last one's time.
    package var takeoffBitsAfterLandedAnnounced: Int { raw["takeoff_bits_after_landed_announced"] as? Int ?? -1 }
    package var lastTakeoffBitAfterLandedAnnouncedAt: Double? { raw["last_takeoff_bit_after_landed_announced_at"] as? Double }

    /// Drone minus person, metres east/north (ground truth).
    package var droneMinusPerson: (east: Double, north: Double)? {
        guard let pe = personEast, let pn = personNorth else { return nil }
        return (east - pe, north - pn)
    }

    /// The navdata client's UDP port (followme's navdata socket), from "[IPv4]127.0.0.1/127.0.0.1:40000".
    package var navdataClientPort: Int? { navdataClient?.split(separator: ":").last.flatMap { Int($0) } }

    /// Horizontal distance between drone and person, metres (ground truth).
    package var droneToPersonMeters: Double? {
        guard let pe = personEast, let pn = personNorth else { return nil }
        return ((east - pe) * (east - pe) + (north - pn) * (north - pn)).squareRoot()
    }

    package var summary: String {
        "state=\(state) landing_reason=\(landingReason ?? "-") alt=\(altitudeMeters) battery=\(batteryPercent) "
            + "en=(\(east),\(north)) at=\(atDatagrams) gap=\(maxCommandGapSeconds)"
    }
}
