#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain stream socket's address (`sockaddr_un`) for a file path: the one place FollowMe
/// builds one (the status socket `followme run` publishes on, `followme watch`, their tests).
public enum UnixSocketAddress {
    /// Why a socket could not be made or reached; `description` is what a person reads
    /// (`connect: No such file or directory`).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
        /// `step: strerror(errno)`.
        public static func errno(_ step: String) -> Failure { Failure("\(step): \(String(cString: strerror(Glibc.errno)))") }
    }

    /// Calls `body` with `path` as a `sockaddr` and its length (for `bind`, `connect`).
    public static func with<R>(path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(Failure) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw Failure("socket path longer than \(capacity - 1) bytes: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A new stream socket (close-on-exec) connected to `path`: its descriptor, which the caller closes.
    public static func connectStream(path: String) throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .errno("socket") }
        do throws(Failure) {
            guard try with(path: path, { connect(fd, $0, $1) }) == 0 else { throw Failure.errno("connect") }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }
}
