#if canImport(Glibc)
import Glibc
#endif

/// A plain BSD IPv4 UDP socket (127.0.0.1 and port 0 unless told): the smallest independent peer
/// for the simulator and for `followme run`, so tests need neither DroneLink nor NIO to talk UDP.
package final class LoopbackUDPSocket: @unchecked Sendable {
    package enum SocketError: Error, CustomStringConvertible {
        case call(String, errno: Int32)
        case timeout(seconds: Double)

        package var description: String {
            switch self {
            case .call(let name, let e): "\(name) failed: \(String(cString: strerror(e)))"
            case .timeout(let s): "no reply within \(s) s"
            }
        }
    }

    package let fd: Int32
    /// The bound local port (the kernel's choice when 0 was asked).
    package let localPort: Int

    /// Binds `host:port` (port 0 = any free port).
    package init(bindHost host: String = "127.0.0.1", port: Int = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError.call("socket", errno: errno) }
        var address = LoopbackPorts.address(host, port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw SocketError.call("bind \(host):\(port)", errno: e)
        }
        self.fd = fd
        localPort = LoopbackPorts.boundPort(fd)
    }

    deinit { close(fd) }

    /// 127.0.0.1:`port`.
    package static func loopback(port: Int) -> sockaddr_in { LoopbackPorts.loopback(port: port) }

    /// Sends one datagram to `host:port`; throws unless all of it went.
    package func send(_ bytes: [UInt8], to host: String, port: Int) throws {
        guard sendDatagram(bytes, to: LoopbackPorts.address(host, port: port)) == bytes.count else {
            throw SocketError.call("sendto", errno: errno)
        }
    }

    /// Sends one datagram to 127.0.0.1:`port` (errors ignored: loopback, and tests check replies).
    package func send(_ bytes: [UInt8], toPort port: Int) {
        _ = sendDatagram(bytes, to: LoopbackPorts.loopback(port: port))
    }

    private func sendDatagram(_ bytes: [UInt8], to address: sockaddr_in) -> Int {
        var address = address
        return bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Receives one datagram, waiting at most `seconds`.
    package func receive(timeoutSeconds seconds: Double) throws -> [UInt8] {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&pfd, 1, Int32(seconds * 1000)) > 0 else { throw SocketError.timeout(seconds: seconds) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { throw SocketError.call("recv", errno: errno) }
        return Array(buffer[0..<n])
    }

    /// Every datagram waiting now (never blocks).
    package func receiveAvailable() -> [[UInt8]] {
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 { break }
            datagrams.append(Array(buffer[0..<n]))
        }
        return datagrams
    }
}
