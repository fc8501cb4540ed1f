#if canImport(Glibc)
import Glibc
#endif

/// systemd's service notification protocol (sd_notify(3)), without libsystemd: one datagram per
/// message to the AF_UNIX socket systemd names in `$NOTIFY_SOCKET` (a path, or `@name` in the
/// abstract namespace). `followme run` under `Type=notify` says `READY=1` once it is configured and
/// flying its loop, `STATUS=<state line>` on every state change, `WATCHDOG=1` from the flight loop
/// (so a loop that hangs is killed and restarted: `WatchdogSec=` in etc/systemd/followme.service), and
/// `STOPPING=1` when it starts to land for a shutdown.
///
/// Never blocks (`MSG_DONTWAIT`): a full socket buffer drops a message and counts it; the flight loop
/// calls it. Without `$NOTIFY_SOCKET` (a terminal, a test) `fromEnvironment` returns nil.
public final class SystemdNotifier: Sendable {
    /// The socket systemd listens on, as `$NOTIFY_SOCKET` gave it.
    public let socketPath: String
    /// How often systemd wants `WATCHDOG=1` (`$WATCHDOG_USEC`, for this process), nil without a watchdog.
    public let watchdogSeconds: Double?
    private let descriptor: Int32

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` (the watchdog is ours only when the
    /// PID is absent or ours) from `environment`; nil when there is no socket or it cannot be opened.
    public static func fromEnvironment(_ environment: [String: String], pid: Int32 = getpid()) -> SystemdNotifier? {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@"), path.utf8.count > 1
        else { return nil }
        var watchdog: Double?
        if let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0,
           environment["WATCHDOG_PID"].map({ Int32($0) == pid }) ?? true
        {
            watchdog = Double(usec) / 1_000_000
        }
        return SystemdNotifier(socketPath: path, watchdogSeconds: watchdog)
    }

    private init?(socketPath: String, watchdogSeconds: Double?) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.socketPath = socketPath
        self.watchdogSeconds = watchdogSeconds
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Sends `message` (e.g. `"READY=1\nSTATUS=preflight"`); false if it could not be sent now.
    @discardableResult
    public func send(_ message: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.enumerated() { raw[i] = byte }
            if path.first == UInt8(ascii: "@") { raw[0] = 0 }  // the abstract namespace
        }
        // A path is NUL-terminated; an abstract name is exactly its bytes.
        let length = MemoryLayout.offset(of: \sockaddr_un.sun_path)! + path.count + (path.first == UInt8(ascii: "@") ? 0 : 1)
        let sent = message.utf8CString.withUnsafeBufferPointer { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count - 1, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, socklen_t(length))
                }
            }
        }
        return sent == message.utf8.count
    }

    /// The state line for `STATUS=` (what `systemctl status followme` shows): a state name as the
    /// flight log writes it, e.g. `preflight(waiting: heading,navdata)`, reads
    /// `preflight: waiting heading, navdata`; `holding(target-stale)` reads `holding: target-stale`.
    public static func statusLine(stateName name: String) -> String {
        guard let open = name.firstIndex(of: "("), name.hasSuffix(")") else { return name }
        let detail = name[name.index(after: open)..<name.index(before: name.endIndex)]
        return "\(name[..<open]): " + detail.replacing("waiting: ", with: "waiting ").replacing(",", with: ", ")
    }
}
