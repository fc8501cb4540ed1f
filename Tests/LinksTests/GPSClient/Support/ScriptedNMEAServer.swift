#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
@testable import FollowCore
import TestSupport

/// A fake receiver gpsd can read as `tcp://127.0.0.1:<port>`: listens on 127.0.0.1 port 0
/// and writes one cycle of NMEA sentences to every connected client at a fixed rate.
///
/// Not SimulatorServer's `NMEATCPServer` (which broadcasts whatever the simulator hands it): the
/// tests need a cycle script, the record of what each delivered cycle encoded and when, and a
/// cycle that advances only once a client got it whole.
///
/// The cycle counter only advances when at least one client got the cycle, and continues
/// across reconnects (a restarted gpsd picks up where the old one stopped). Every cycle sent
/// is recorded with what it encoded, so tests can check that received fixes came from here.
final class ScriptedNMEAServer: Sendable {
    /// What one cycle sends.
    struct Cycle: Sendable {
        /// The bytes to write (usually complete sentences with CR LF; may be junk).
        var bytes: [UInt8]
        /// The position the sentences encode, if they encode a valid one.
        var position: NMEAPosition?
        /// The heading an HDT sentence in the cycle carries, degrees.
        var headingDegrees: Double?

        init(text: String, position: NMEAPosition? = nil, headingDegrees: Double? = nil) {
            self.init(bytes: Array(text.utf8), position: position, headingDegrees: headingDegrees)
        }

        init(bytes: [UInt8], position: NMEAPosition? = nil, headingDegrees: Double? = nil) {
            self.bytes = bytes
            self.position = position
            self.headingDegrees = headingDegrees
        }
    }

    /// A cycle that reached at least one client.
    struct SentCycle: Sendable {
        var index: Int
        var sentAt: MonotonicTime
        var position: NMEAPosition?
        var headingDegrees: Double?
    }

    let port: Int
    let periodSeconds: Double
    private let listenFD: Int32
    private let script: @Sendable (Int) -> Cycle
    private let state = Mutex(State())
    private let stopFlag = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)

    private struct State {
        var clients: [Int32] = []
        var sent: [SentCycle] = []
        var connectionsAccepted = 0
    }

    /// - Parameters:
    ///   - rateHz: cycles per second.
    ///   - script: the cycle to send for a cycle index (0, 1, 2, …).
    init(rateHz: Double, script: @escaping @Sendable (Int) -> Cycle) throws {
        let fd = try Self.listeningSocket()
        listenFD = fd
        port = LoopbackPorts.boundPort(fd)
        periodSeconds = 1 / rateHz
        self.script = script
    }

    enum ServerError: Error {
        case socket(Int32)
        case bind(Int32)
    }

    /// A non-blocking TCP socket listening on a free loopback port (`LoopbackPorts.boundPort` reads it).
    static func listeningSocket() throws(ServerError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .socket(errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = LoopbackPorts.loopback(port: 0)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let e = errno
            close(fd)
            throw .bind(e)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// The `tcp://` source URL gpsd is given; `portDigits` pads the port with leading zeros
    /// (gpsd and getaddrinfo accept them) to make a path as long as a test needs.
    func gpsdSource(portDigits: Int = 0) -> String {
        "tcp://127.0.0.1:" + NMEA.pad(port, portDigits)
    }

    /// A started 10 Hz source of someone walking from `start` (`TestSources.walk`); stop it when done.
    static func walking(from start: NMEAPosition, withHeading: Bool) throws -> ScriptedNMEAServer {
        let server = try ScriptedNMEAServer(rateHz: 10, script: TestSources.walk(from: start, withHeading: withHeading))
        server.start()
        return server
    }

    /// Starts the writer thread.
    func start() {
        running.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            self.serve()
            self.running.store(false, ordering: .sequentiallyConsistent)
        }
        thread.name = "nmea-tcp-\(port)"
        thread.start()
    }

    /// Stops writing, closes every socket; returns within about 1 s.
    func stop() {
        stopFlag.store(true, ordering: .sequentiallyConsistent)
        let deadline = TestClock.now().adding(seconds: 1)
        while running.load(ordering: .sequentiallyConsistent), TestClock.now() < deadline { usleep(5_000) }
    }

    /// Every cycle that reached a client, in order.
    var sentCycles: [SentCycle] { state.withLock { $0.sent } }
    var connectionsAccepted: Int { state.withLock { $0.connectionsAccepted } }

    private func serve() {
        var index = 0
        var next = TestClock.now()
        while !stopFlag.load(ordering: .sequentiallyConsistent) {
            acceptPending()
            let cycle = script(index)
            let now = TestClock.now()
            // Record before writing: a reader may see the data (through gpsd) before this
            // thread runs again, and must find the cycle already listed.
            let hasClients = state.withLock { s -> Bool in
                guard !s.clients.isEmpty else { return false }
                s.sent.append(SentCycle(index: index, sentAt: now, position: cycle.position,
                                        headingDegrees: cycle.headingDegrees))
                return true
            }
            if hasClients {
                if sendToAll(cycle.bytes) {
                    index += 1
                } else {
                    state.withLock { _ = $0.sent.popLast() }
                }
            }
            next = next.adding(seconds: periodSeconds)
            if next < now { next = now.adding(seconds: periodSeconds) }
            // Sleep until the next tick in short slices so stop() stays prompt.
            while !stopFlag.load(ordering: .sequentiallyConsistent) {
                let left = next.seconds(since: TestClock.now())
                if left <= 0 { break }
                usleep(UInt32(min(left, 0.02) * 1e6))
            }
        }
        state.withLock { s in
            s.clients.forEach { close($0) }
            s.clients = []
        }
        close(listenFD)
    }

    private func acceptPending() {
        while true {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            // A stalled reader must not stall the source: give up a write after 1 s.
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            state.withLock {
                $0.clients.append(fd)
                $0.connectionsAccepted += 1
            }
        }
    }

    /// Writes to every client; drops the ones that fail. True if at least one got it all.
    private func sendToAll(_ bytes: [UInt8]) -> Bool {
        let clients = state.withLock { $0.clients }
        var delivered = false
        var failed: [Int32] = []
        for fd in clients {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                offset += n
            }
            if offset == bytes.count { delivered = true } else { failed.append(fd) }
        }
        if !failed.isEmpty {
            state.withLock { $0.clients.removeAll { failed.contains($0) } }
            failed.forEach { close($0) }
        }
        return delivered
    }
}
