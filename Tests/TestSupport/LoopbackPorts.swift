#if canImport(Glibc)
import Glibc
#endif

/// Loopback TCP port helpers (docs/style.md habit 20: bind port 0, never a fixed port).
package enum LoopbackPorts {
    /// A port the kernel just handed out for 127.0.0.1 and that is free again now.
    ///
    /// Another process may take it before the caller binds it; callers that start a daemon on
    /// it retry with a new port when the daemon fails to come up (see `GPSDProcesses`).
    package static func freeTCPPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket() failed: errno \(errno)")
        defer { close(fd) }
        var addr = loopback(port: 0)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0, "bind(127.0.0.1:0) failed: errno \(errno)")
        return boundPort(fd)
    }

    /// True if something accepts TCP connections on 127.0.0.1:`port` (connects and closes).
    package static func isAccepting(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = loopback(port: port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Polls every `pollSeconds` until `port` accepts, `giveUp()` says stop, or `timeoutSeconds` pass.
    package static func waitUntilAccepting(
        port: Int, timeoutSeconds: Double, pollSeconds: Double = 0.005, giveUp: () -> Bool = { false }
    ) async -> Bool {
        let deadline = TestClock.now().adding(seconds: timeoutSeconds)
        while TestClock.now() < deadline, !Task.isCancelled {
            if isAccepting(port: port) { return true }
            if giveUp() { return false }
            await TestClock.sleep(seconds: pollSeconds)
        }
        return false
    }

    /// `host`:`port` as a socket address (`host` a dotted IPv4 address).
    package static func address(_ host: String, port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr(host)
        return addr
    }

    /// 127.0.0.1:`port`.
    package static func loopback(port: Int) -> sockaddr_in { address("127.0.0.1", port: port) }

    /// The local port `fd` is bound to.
    package static func boundPort(_ fd: Int32) -> Int {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
