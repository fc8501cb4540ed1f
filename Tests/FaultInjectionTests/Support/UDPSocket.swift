import Foundation

/// A blocking IPv4 UDP socket for tests (control commands to the simulator, forged navdata).
final class UDPSocket: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case system(call: String, errno: Int32)
        case timeout(seconds: Double)
        var description: String {
            switch self {
            case .system(let call, let e): "\(call) failed: \(String(cString: strerror(e)))"
            case .timeout(let s): "no reply within \(s) s"
            }
        }
    }

    private let fd: Int32
    /// The bound local port.
    let localPort: Int

    /// Binds `host:port` (port 0 = any free port).
    init(bindHost: String = "127.0.0.1", port: Int = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.system(call: "socket", errno: errno) }
        var addr = Self.address(bindHost, port)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw Failure.system(call: "bind \(bindHost):\(port)", errno: e)
        }
        var local = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        self.fd = fd
        localPort = Int(UInt16(bigEndian: local.sin_port))
    }

    deinit { close(fd) }

    static func address(_ host: String, _ port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr(host)
        addr.sin_port = UInt16(port).bigEndian
        return addr
    }

    /// Sends one datagram to `host:port`.
    func send(_ bytes: [UInt8], to host: String, port: Int) throws {
        var addr = Self.address(host, port)
        let n = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard n == bytes.count else { throw Failure.system(call: "sendto", errno: errno) }
    }

    /// Receives one datagram, waiting at most `seconds`.
    func receive(timeoutSeconds seconds: Double) throws -> [UInt8] {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&pfd, 1, Int32(seconds * 1000))
        guard ready > 0 else { throw Failure.timeout(seconds: seconds) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { throw Failure.system(call: "recv", errno: errno) }
        return Array(buffer[0..<n])
    }
}

/// The simulator's control channel (`followme sim --control-port`): one JSON command per datagram.
final class SimControl: @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var command: String
        var reply: String
        var description: String { "sim refused \(command): \(reply)" }
    }

    let port: Int
    private let socket: UDPSocket
    private let lock = NSLock()

    init(port: Int) throws {
        self.port = port
        socket = try UDPSocket()
    }

    /// Sends `command` and returns the reply object; throws if the sim says `"ok":false`.
    @discardableResult
    func send(_ command: [String: Any]) throws -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        let data = try JSONSerialization.data(withJSONObject: command)
        var lastError: any Error = UDPSocket.Failure.timeout(seconds: 0)
        for _ in 0..<3 {  // loopback UDP does not lose datagrams, but a stalled sim may be slow
            try socket.send(Array(data), to: "127.0.0.1", port: port)
            do {
                let reply = try socket.receive(timeoutSeconds: 2)
                guard let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any] else {
                    throw Refused(command: "\(command)", reply: String(decoding: reply, as: UTF8.self))
                }
                guard object["ok"] as? Bool == true else {
                    throw Refused(command: "\(command)", reply: String(decoding: reply, as: UTF8.self))
                }
                return object
            } catch let error as UDPSocket.Failure {
                lastError = error
            }
        }
        throw lastError
    }

    /// The simulator's status (see `SimulatorSnapshot.controlStatusJSON`).
    func status() throws -> SimStatus { SimStatus(try send(["command": "status"])) }

    /// Starts or stops silencing one output stream; returns the simulator time it took effect.
    @discardableResult
    func silence(_ stream: String, _ on: Bool) throws -> Double {
        try send(["command": "silence", "stream": stream, "on": on])["t"] as? Double ?? monotonicSeconds()
    }
}

/// One `status` reply.
struct SimStatus {
    let raw: [String: Any]
    init(_ raw: [String: Any]) { self.raw = raw }

    var t: Double { raw["t"] as? Double ?? .nan }
    var state: String { raw["state"] as? String ?? "?" }
    var landingReason: String? { raw["landing_reason"] as? String }
    var altitudeMeters: Double { raw["alt"] as? Double ?? .nan }
    var batteryPercent: Double { raw["battery"] as? Double ?? .nan }
    var east: Double { raw["east"] as? Double ?? .nan }
    var north: Double { raw["north"] as? Double ?? .nan }
    var personEast: Double? { raw["person_east"] as? Double }
    var personNorth: Double? { raw["person_north"] as? Double }
    var atDatagrams: Int { raw["at_datagrams"] as? Int ?? -1 }
    var navdataClient: String? { raw["navdata_client"] as? String }
    var maxCommandGapSeconds: Double { raw["max_command_gap_s"] as? Double ?? .nan }
    var comWatchdog: Bool { raw["com_watchdog"] as? Bool ?? false }
    var faults: [String: Any] { raw["faults"] as? [String: Any] ?? [:] }
    var navdataMode: String { raw["navdata_mode"] as? String ?? "?" }
    /// Accepted AT*CONFIG commands / those for general:navdata_demo / AT*CTRL=…,5,0 so far.
    var configWrites: Int { raw["config_writes"] as? Int ?? -1 }
    var navdataDemoWrites: Int { raw["navdata_demo_writes"] as? Int ?? -1 }
    var configAcks: Int { raw["config_acks"] as? Int ?? -1 }
    /// Config keys the drone holds now.
    var configKeys: Int { raw["config_keys"] as? Int ?? -1 }
    /// When the first navdata packet saying "landed" went out after the last touchdown.
    var landedAnnouncedAt: Double? { raw["landed_announced_at"] as? Double }
    /// REF take-off bits received while landed after that announcement (cumulative), and the last one's time.
    var takeoffBitsAfterLandedAnnounced: Int { raw["takeoff_bits_after_landed_announced"] as? Int ?? -1 }
    var lastTakeoffBitAfterLandedAnnouncedAt: Double? { raw["last_takeoff_bit_after_landed_announced_at"] as? Double }

    /// Drone minus person, metres east/north (ground truth).
    var droneMinusPerson: (east: Double, north: Double)? {
        guard let pe = personEast, let pn = personNorth else { return nil }
        return (east - pe, north - pn)
    }

    /// The navdata client's UDP port (followme's navdata socket), from "[IPv4]127.0.0.1/127.0.0.1:40000".
    var navdataClientPort: Int? { navdataClient?.split(separator: ":").last.flatMap { Int($0) } }

    /// Horizontal distance between drone and person, metres (ground truth).
    var droneToPersonMeters: Double? {
        guard let pe = personEast, let pn = personNorth else { return nil }
        return ((east - pe) * (east - pe) + (north - pn) * (north - pn)).squareRoot()
    }

    var summary: String {
        "state=\(state) landing_reason=\(landingReason ?? "-") alt=\(altitudeMeters) battery=\(batteryPercent) "
            + "en=(\(east),\(north)) at=\(atDatagrams) gap=\(maxCommandGapSeconds)"
    }
}
