#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Raw gpsd protocol over a plain socket, for failure diagnostics and readiness checks that
/// must not depend on the client under test.
package enum GPSDProbe {
    /// Sends `command` (e.g. `?DEVICES;`) to 127.0.0.1:`port` and returns what gpsd wrote
    /// within `seconds`, or a description of the failure.
    package static func exchange(port: Int, command: String, seconds: Double = 1,
                         until done: (String) -> Bool = { _ in false }) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "<socket failed: errno \(errno)>" }
        defer { close(fd) }
        var addr = LoopbackPorts.loopback(port: port)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return "<connect to \(port) failed: errno \(errno)>" }
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        let deadline = TestClock.now().adding(seconds: seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while TestClock.now() < deadline, received.count < 1 << 16 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waitMilliseconds = Int32(max(1, deadline.seconds(since: TestClock.now()) * 1000))
            guard poll(&pfd, 1, waitMilliseconds) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// gpsd's `?DEVICES;` answer (one line of JSON) plus anything else it sent.
    package static func devices(port: Int) -> String {
        // gpsd ends lines with CR LF; compare bytes ("\r\n" is one Character in Swift).
        exchange(port: port, command: "?DEVICES;", seconds: 1) {
            $0.contains(#"{"class":"DEVICES""#) && $0.utf8.last == UInt8(ascii: "\n")
        }
    }

    /// The number of devices in gpsd's pool (`?DEVICES;`), or nil if gpsd did not answer.
    package static func deviceCount(port: Int) -> Int? {
        let answer = devices(port: port)
        let lines = answer.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        guard let line = lines.first(where: { $0.hasPrefix(#"{"class":"DEVICES""#) }) else { return nil }
        return line.components(separatedBy: #""path":""#).count - 1
    }
}
