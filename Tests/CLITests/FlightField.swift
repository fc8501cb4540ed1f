import Foundation
import Testing

/// `followme sim` with its control channel, a real gpsd reading both of its NMEA streams, and an
/// optional AT relay in front of the sim's AT port that records every AT datagram `followme run`
/// sends (the sim's own counters give rates; the relay shows each command's fields).
final class FlightField: @unchecked Sendable {
    struct Ports: Decodable {
        let at_port: Int
        let navdata_port: Int
        let nmea_port: Int
        let person_nmea_port: Int?
        let control_port: Int?
    }

    let dir: URL
    let sim: ChildProcess
    let daemon: ChildProcess
    let ports: Ports
    let control: SimControlClient
    let relay: ATRelay?
    let gpsdPort: Int

    static func start(in dir: URL, person: String = "straight-walk", relayAT: Bool = false) async throws -> FlightField {
        let gpsd = try #require(RunEndToEndTests.gpsdPath, "gpsd is not installed (apt-get install gpsd)")
        let sim = try ChildProcess(name: "sim", executable: FollowMeBinary.url.path, arguments: [
            "sim", "--at-port", "0", "--navdata-port", "0", "--nmea-port", "0", "--person-nmea-port", "0",
            "--control-port", "0", "--person", person, "--person-start", "airborne", "--json",
        ])
        let started = await eventually(seconds: 20) { sim.stdoutLines.lines.first?.contains("listening") == true }
        guard started, let first = sim.stdoutLines.lines.first,
              let ports = try? JSONDecoder().decode(Ports.self, from: Data(first.utf8)),
              let personPort = ports.person_nmea_port, let controlPort = ports.control_port
        else {
            await sim.stop()
            Issue.record("sim did not start: \(sim.stderrText.text)")
            throw CancellationError()
        }
        let gpsdPort = freeTCPPort()
        var executable = gpsd
        var arguments = ["-N", "-n", "-S", String(gpsdPort), "-F", dir.appendingPathComponent("ctl.sock").path,
                         "tcp://127.0.0.1:\(personPort)", "tcp://127.0.0.1:\(ports.nmea_port)"]
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            // A root gpsd drops privileges and leaks its SHM segment; run it as nobody.
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", gpsd] + arguments
            executable = "/usr/bin/setpriv"
        }
        do {
            let daemon = try ChildProcess(
                name: "gpsd", executable: executable, arguments: arguments,
                environment: ["TMPDIR": dir.path, "GPSD_SHM_KEY": String(format: "0x4770%04X", gpsdPort)])
            let relay = relayAT ? try ATRelay(forwardingToPort: ports.at_port) : nil
            return FlightField(dir: dir, sim: sim, daemon: daemon, ports: ports,
                               control: try SimControlClient(port: controlPort), relay: relay, gpsdPort: gpsdPort)
        } catch {
            await sim.stop()
            throw error
        }
    }

    private init(dir: URL, sim: ChildProcess, daemon: ChildProcess, ports: Ports, control: SimControlClient,
                 relay: ATRelay?, gpsdPort: Int) {
        self.dir = dir
        self.sim = sim
        self.daemon = daemon
        self.ports = ports
        self.control = control
        self.relay = relay
        self.gpsdPort = gpsdPort
    }

    func stop() async {
        relay?.stop()
        await daemon.stop()
        await sim.stop()
    }

    /// A config for this field: both receivers on the one gpsd, AT through the relay if there is one.
    func configText() -> String {
        """
        [gpsd]
        host = "127.0.0.1"
        port = \(gpsdPort)
        [target]
        device = "tcp://127.0.0.1:\(ports.person_nmea_port ?? 0)"
        [onboard]
        device = "tcp://127.0.0.1:\(ports.nmea_port)"
        mount_offset_deg = 90
        [drone]
        address = "127.0.0.1"
        at_port = \(relay?.localPort ?? ports.at_port)
        navdata_port = \(ports.navdata_port)
        """
    }

    /// The sim's `status` reply.
    func status() throws -> [String: Any] { try control.send(["command": "status"]) }
}

/// A blocking IPv4 UDP socket on 127.0.0.1.
final class TestUDPSocket: @unchecked Sendable {
    let fd: Int32
    let localPort: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var addr = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var local = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        self.fd = fd
        localPort = Int(UInt16(bigEndian: local.sin_port))
    }

    deinit { close(fd) }

    static func loopback(port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return addr
    }

    func send(_ bytes: [UInt8], toPort port: Int) {
        var addr = Self.loopback(port: port)
        _ = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// One datagram, or nil after `timeoutSeconds`.
    func receive(timeoutSeconds: Double) -> [UInt8]? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeoutSeconds * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? Array(buffer[0..<n]) : nil
    }
}

/// The simulator's control channel: one JSON command per datagram, one JSON reply.
final class SimControlClient: @unchecked Sendable {
    let port: Int
    private let socket: TestUDPSocket
    private let lock = NSLock()

    init(port: Int) throws {
        self.port = port
        socket = try TestUDPSocket()
    }

    func send(_ command: [String: Any]) throws -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        let data = try JSONSerialization.data(withJSONObject: command)
        for _ in 0..<3 {
            socket.send(Array(data), toPort: port)
            if let reply = socket.receive(timeoutSeconds: 2),
               let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any] {
                return object
            }
        }
        throw POSIXError(.ETIMEDOUT)
    }
}

/// Forwards every AT datagram to the sim's AT port and keeps each one's PCMD and REF fields.
final class ATRelay: @unchecked Sendable {
    struct Commands {
        /// `AT*PCMD` / `AT*PCMD_MAG` flag fields (bit 0: progressive) with the receive time.
        var pcmdFlags: [(flag: Int, at: Date)] = []
        /// `AT*REF` values with the receive time.
        var refs: [(value: Int, at: Date)] = []
    }

    private let socket: TestUDPSocket
    private let forwardPort: Int
    private let lock = NSLock()
    private var commands = Commands()
    private var running = true
    var localPort: Int { socket.localPort }

    init(forwardingToPort port: Int) throws {
        socket = try TestUDPSocket()
        forwardPort = port
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func stop() { lock.lock(); running = false; lock.unlock() }

    var recorded: Commands { lock.lock(); defer { lock.unlock() }; return commands }

    private func run() {
        while true {
            lock.lock()
            let keepGoing = running
            lock.unlock()
            guard keepGoing else { return }
            guard let datagram = socket.receive(timeoutSeconds: 0.2) else { continue }
            socket.send(datagram, toPort: forwardPort)
            let now = Date()
            let text = String(decoding: datagram, as: UTF8.self)
            lock.lock()
            for command in text.split(separator: "\r") {
                let fields = command.split(separator: "=", maxSplits: 1)
                guard fields.count == 2 else { continue }
                let arguments = fields[1].split(separator: ",")
                switch fields[0] {
                case "AT*PCMD", "AT*PCMD_MAG":
                    if arguments.count > 1, let flag = Int(arguments[1]) { commands.pcmdFlags.append((flag, now)) }
                case "AT*REF":
                    if arguments.count > 1, let value = Int(arguments[1]) { commands.refs.append((value, now)) }
                default:
                    break
                }
            }
            lock.unlock()
        }
    }
}
