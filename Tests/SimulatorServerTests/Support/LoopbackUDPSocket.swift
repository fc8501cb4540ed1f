#if canImport(Glibc)
import Glibc
#endif

/// A plain BSD UDP socket on 127.0.0.1 (kernel-chosen port), non-blocking: the smallest possible
/// independent client for the simulator, so these tests do not depend on DroneLink.
final class LoopbackUDPSocket {
    enum SocketError: Error, CustomStringConvertible {
        case call(String, errno: Int32)

        var description: String {
            switch self {
            case .call(let name, let e): "\(name) failed: \(String(cString: strerror(e)))"
            }
        }
    }

    let fd: Int32
    /// The local port the kernel picked.
    let localPort: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError.call("socket", errno: errno) }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw SocketError.call("bind", errno: e)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        localPort = Int(UInt16(bigEndian: local.sin_port))
    }

    deinit { close(fd) }

    /// Sends one datagram to 127.0.0.1:`port`.
    func send(_ bytes: [UInt8], toPort port: Int) {
        var address = Self.loopback(port: port)
        _ = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Every datagram waiting now (never blocks).
    func receiveAvailable() -> [[UInt8]] {
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 { break }
            datagrams.append(Array(buffer[0..<n]))
        }
        return datagrams
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}
