#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
@testable import FollowCore
@testable import Simulation
import TestSupport

/// A fake receiver with a known output delay, for gpsd to read as `tcp://127.0.0.1:<port>`: every
/// `1/rateHz` s of UTC (on the host's wall clock) it writes GGA + RMC stamped with that epoch,
/// `delaySeconds` after it, to every connected client.
///
/// Not `ScriptedNMEAServer`, whose cycles are paced by the monotonic clock and carry a fixed date:
/// here the sentence times are the real UTC epochs, so a fix's age against the host clock is the delay.
final class EpochNMEAServer: Sendable {
    let port: Int
    let delaySeconds: Double
    let rateHz: Double
    private let listenFD: Int32
    private let position: NMEAPosition
    private let clients = Mutex<[Int32]>([])
    private let written = Atomic<Int>(0)
    private let stopFlag = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)

    init(rateHz: Double, delaySeconds: Double, position: NMEAPosition) throws {
        let fd = try ScriptedNMEAServer.listeningSocket()
        (listenFD, port, self.rateHz, self.delaySeconds, self.position) = (fd, LoopbackPorts.boundPort(fd), rateHz, delaySeconds, position)
    }

    /// `tcp://127.0.0.1:<port>`, the source gpsd is given.
    var gpsdSource: String { "tcp://127.0.0.1:\(port)" }

    /// Epochs written to at least one client so far.
    var epochsWritten: Int { written.load(ordering: .relaxed) }

    func start() {
        running.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            serve()
            running.store(false, ordering: .sequentiallyConsistent)
        }
        thread.name = "nmea-epoch-\(port)"
        thread.start()
    }

    /// Stops writing and closes every socket; returns within about 1 s.
    func stop() {
        stopFlag.store(true, ordering: .sequentiallyConsistent)
        let deadline = TestClock.now().adding(seconds: 1)
        while running.load(ordering: .sequentiallyConsistent), TestClock.now() < deadline { usleep(5_000) }
    }

    /// CLOCK_REALTIME, nanoseconds.
    private static func realtimeNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    private func serve() {
        let period = Int64((1e9 / rateHz).rounded())
        let delay = Int64((delaySeconds * 1e9).rounded())
        var epoch = (Self.realtimeNanoseconds() / period + 1) * period
        while !stopFlag.load(ordering: .sequentiallyConsistent) {
            acceptPending()
            // Sleep until epoch + delay on the wall clock, in short slices so stop() stays prompt.
            while !stopFlag.load(ordering: .sequentiallyConsistent) {
                let left = epoch + delay - Self.realtimeNanoseconds()
                if left <= 0 { break }
                usleep(UInt32(min(left / 1000, 20_000)))
            }
            if sendToAll(Array(sentences(epochNanoseconds: epoch).utf8)) { written.add(1, ordering: .relaxed) }
            epoch += period
            // A stall (a loaded machine) skips epochs rather than writing them late.
            let now = Self.realtimeNanoseconds()
            if epoch + delay < now { epoch = (now / period + 1) * period }
        }
        clients.withLock { fds in
            fds.forEach { close($0) }
            fds = []
        }
        close(listenFD)
    }

    private func sentences(epochNanoseconds: Int64) -> String {
        let time = NMEAUTCTime(unixSeconds: epochNanoseconds / 1_000_000_000,
                               nanoseconds: Int32(epochNanoseconds % 1_000_000_000))
        let coordinate = GeoCoordinate(latitudeDegrees: position.latitudeDegrees, longitudeDegrees: position.longitudeDegrees)!
        return NMEASentence.gga(time: time, coordinate: coordinate, altitudeMSLMeters: 100, satellitesInUse: 8, hdop: 0.9,
                                geoidSeparationMeters: 47)
            + NMEASentence.rmc(time: time, coordinate: coordinate, speedMetersPerSecond: 0, trackDegrees: 0)
    }

    private func acceptPending() {
        while true {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            clients.withLock { $0.append(fd) }
        }
    }

    /// Writes to every client, dropping the ones that fail; true if at least one got it all.
    private func sendToAll(_ bytes: [UInt8]) -> Bool {
        let fds = clients.withLock { $0 }
        var delivered = false
        var failed: [Int32] = []
        for fd in fds {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress!, bytes.count, Int32(MSG_NOSIGNAL)) }
            if n == bytes.count { delivered = true } else { failed.append(fd) }
        }
        if !failed.isEmpty {
            clients.withLock { $0.removeAll { failed.contains($0) } }
            failed.forEach { close($0) }
        }
        return delivered
    }
}
