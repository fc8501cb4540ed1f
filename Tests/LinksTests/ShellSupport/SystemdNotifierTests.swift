@testable import Links
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `SystemdNotifier`: which environment makes it, the state line, and real datagrams to a path and
/// to an abstract-namespace socket (systemd uses both forms of `NOTIFY_SOCKET`).
@Suite("SystemdNotifier: sd_notify without libsystemd")
struct SystemdNotifierTests {
    @Test("NOTIFY_SOCKET must be an absolute path or @name; the watchdog is ours unless WATCHDOG_PID names another process")
    func environment() throws {
        #expect(SystemdNotifier.fromEnvironment([:]) == nil)
        #expect(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": "relative.sock"]) == nil)
        #expect(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": "@"]) == nil)
        let plain = try #require(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": "/run/systemd/notify"]))
        #expect(plain.watchdogSeconds == nil)
        let ours = try #require(SystemdNotifier.fromEnvironment(
            ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "42"], pid: 42))
        #expect(ours.watchdogSeconds == 3)
        let theirs = try #require(SystemdNotifier.fromEnvironment(
            ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "41"], pid: 42))
        #expect(theirs.watchdogSeconds == nil)
        #expect(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "zero"])?.watchdogSeconds == nil)
    }

    @Test("the STATUS= line: a state name as the log writes it, read by a person")
    func statusLine() {
        #expect(SystemdNotifier.statusLine(stateName: "preflight(waiting: heading,navdata)") == "preflight: waiting heading, navdata")
        #expect(SystemdNotifier.statusLine(stateName: "holding(target-stale)") == "holding: target-stale")
        #expect(SystemdNotifier.statusLine(stateName: "landing(hold-expired:target-stale)") == "landing: hold-expired:target-stale")
        #expect(SystemdNotifier.statusLine(stateName: "following") == "following")
    }

    @Test("datagrams reach a socket named by path and one in the abstract namespace", arguments: [false, true])
    func sends(abstract: Bool) throws {
        let name = "/tmp/followme-notify-\(getpid())-\(abstract)"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd); if !abstract { unlink(name) } }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            // Abstract: a leading NUL, then the name, and the address length ends at the name.
            for (i, b) in bytes.enumerated() { raw[i + (abstract ? 1 : 0)] = b }
        }
        let length = MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count + 1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        #expect(bound == 0)
        let notifier = try #require(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": (abstract ? "@" : "") + name]))
        #expect(notifier.send("READY=1\nSTATUS=preflight: waiting navdata"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(n > 0 && String(decoding: buffer[..<max(n, 0)], as: UTF8.self) == "READY=1\nSTATUS=preflight: waiting navdata")
        // Nobody listening any more: false, no crash, no block.
        let gone = try #require(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": "/tmp/followme-notify-nobody-\(getpid())"]))
        #expect(!gone.send("WATCHDOG=1"))
    }
}
