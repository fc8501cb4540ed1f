import Foundation
import TestSupport

/// The simulated field (`SimField`: `followme sim` with its control channel and a real gpsd) with
/// an optional AT relay in front of the sim's AT port that records every AT datagram
/// `followme run` sends (the sim's own counters give rates; the relay shows each command's fields).
final class FlightField: @unchecked Sendable {
    let field: SimField
    let relay: ATRelay?

    var control: SimControl { field.control! }

    static func start(in dir: URL, person: String = "straight-walk", relayAT: Bool = false) async throws -> FlightField {
        let field = try await SimField.start(in: dir, person: person, control: true)
        do {
            return FlightField(field: field, relay: relayAT ? try ATRelay(forwardingToPort: field.ports.at_port) : nil)
        } catch {
            await field.stop()
            throw error
        }
    }

    private init(field: SimField, relay: ATRelay?) {
        self.field = field
        self.relay = relay
    }

    func stop() async {
        relay?.stop()
        await field.stop()
    }

    /// A config for this field: both receivers on the one gpsd, AT through the relay if there is one.
    func configText() -> String { field.configText(atPort: relay?.localPort) }

    /// Starts `followme run` on this field (AT through the relay if there is one).
    func startRun(flightLog: URL, _ extra: [String] = [], name: String = "run") throws -> ChildProcess {
        try field.startRun(flightLog: flightLog, extra, atPort: relay?.localPort, name: name)
    }

    /// The sim's `status` reply.
    func status() throws -> [String: Any] { try control.exchange(["command": "status"]) }
}

/// Forwards every AT datagram to the sim's AT port and keeps each one's PCMD and REF fields.
final class ATRelay: @unchecked Sendable {
    struct Commands {
        /// `AT*PCMD` / `AT*PCMD_MAG` flag fields (bit 0: progressive) with the receive time.
        var pcmdFlags: [(flag: Int, at: Date)] = []
        /// `AT*REF` values with the receive time.
        var refs: [(value: Int, at: Date)] = []
    }

    private let socket: LoopbackUDPSocket
    private let forwardPort: Int
    private let lock = NSLock()
    private var commands = Commands()
    private var running = true
    var localPort: Int { socket.localPort }

    init(forwardingToPort port: Int) throws {
        socket = try LoopbackUDPSocket()
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
            guard let datagram = try? socket.receive(timeoutSeconds: 0.2) else { continue }
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
