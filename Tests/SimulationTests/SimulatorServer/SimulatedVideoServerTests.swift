import ARDrone
import Foundation  // test-only: sockets through Glibc, dates
import Logging
@testable import Simulation
import Testing

/// The simulated drone's video port (loopback TCP): a reader that never reads costs the server nothing,
/// and the other readers keep getting 30 frames a second.
@Suite("Simulated video server (loopback TCP)")
struct SimulatedVideoServerTests {
    /// A blocking TCP client on 127.0.0.1 with a small receive buffer.
    final class Client {
        let fd: Int32
        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var size: Int32 = 16 * 1024
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        /// Reads for `seconds`, returns the frames' numbers.
        func read(for seconds: Double) -> [UInt32] {
            var reader = PaVEReader()
            var numbers: [UInt32] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { numbers += reader.read(buffer[0..<n]).map(\.header.frameNumber) }
            }
            return numbers
        }
        deinit { close(fd) }
    }

    @Test("a client that never reads: its frames are skipped once its buffer is full, another client still gets 30 frames a second")
    func stalledReader() async throws {
        // Given frames of 100 kB (a busy 720p picture), one IDR every 30
        let units = (0..<30).map { i in
            H264AccessUnits.Unit(bytes: [0, 0, 0, 1, i == 0 ? 0x65 : 0x41] + [UInt8](repeating: UInt8(i), count: 100_000), isIDR: i == 0)
        }
        var logger = Logger(label: "test.video.sim")
        logger.logLevel = .critical
        let server = try await SimulatedVideoServer.start(port: 0, units: units, logger: logger)
        // When one client connects and never reads, and another reads for 2 s
        let stalled = try Client(port: server.port)
        let reading = try Client(port: server.port)
        let frames = reading.read(for: 2)
        let statistics = server.statistics
        await server.stop()
        _ = stalled
        // Then the reader got every frame from its first, at the server's rate, in order
        #expect(frames.count >= 50, "\(frames.count) frames in 2 s")
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0 == $1 + 1 }, "\(frames)")
        // And the stalled client's frames were skipped, not queued without bound
        #expect(statistics.framesSkippedUnwritable > 10, "\(statistics.framesSkippedUnwritable)")
    }
}
