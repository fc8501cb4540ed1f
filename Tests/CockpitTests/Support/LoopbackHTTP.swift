import Foundation

/// A minimal HTTP/1.1 client over a blocking loopback TCP socket, for the cockpit's tests: a request
/// with `Connection: close` read to the end, or a Server-Sent Events stream read line by line. Each
/// call runs on its own thread (`offPool`), so a test that waits on a socket never takes one of the
/// few cooperative threads the server's handlers run on.
struct LoopbackHTTP {
    let port: Int
    /// The client's own address (any of 127.0.0.0/8: many "phones" on one machine); nil: 127.0.0.1.
    var source: String? = nil

    /// What came back.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// One request; `timeoutSeconds` bounds each read.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "",
                 host: String? = nil, timeoutSeconds: Double = 5) async throws -> Reply {
        try await offPool {
            let socket = try LoopbackSocket(port: port, timeoutSeconds: timeoutSeconds, source: source)
            defer { socket.close() }
            var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
            try socket.send(head + "\r\n" + body)
            return try Self.parse(socket.readToEnd())
        }
    }

    /// One GET whose body is bytes (a download): the status, the headers (lower-cased names) and the body
    /// as it came, after the header block.
    func download(_ path: String, headers: [String: String] = [:], timeoutSeconds: Double = 30) async throws
        -> (status: Int, headers: [String: String], body: [UInt8]) {
        try await offPool {
            let socket = try LoopbackSocket(port: port, timeoutSeconds: timeoutSeconds, source: source)
            defer { socket.close() }
            var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            try socket.send(head + "\r\n")
            let raw = socket.readAllBytes()
            let separator: [UInt8] = [13, 10, 13, 10]
            guard let end = (0...max(0, raw.count - 4)).first(where: { raw[$0..<min($0 + 4, raw.count)].elementsEqual(separator) }) else {
                throw LoopbackSocket.Failure("no header end in \(raw.count) bytes")
            }
            let reply = try Self.parse(String(decoding: raw[..<(end + 4)], as: UTF8.self))
            return (reply.status, reply.headers, Array(raw[(end + 4)...]))
        }
    }

    /// POST /command with a JSON body (and a paired phone's token).
    func command(_ json: String, token: String? = nil) async throws -> Reply {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["X-FollowMe-Token"] = token }
        return try await request("POST", "/command", headers: headers, body: json)
    }

    /// POST /pair with `secret`: the reply, and the token when it was right.
    func pair(_ secret: String) async throws -> (reply: Reply, token: String?) {
        let reply = try await request("POST", "/pair", headers: ["Content-Type": "application/json"], body: #"{"secret":"\#(secret)"}"#)
        let token = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])?["token"] as? String
        return (reply, reply.status == 200 ? token : nil)
    }

    static func parse(_ raw: String) throws -> Reply {
        guard let split = raw.range(of: "\r\n\r\n") else { throw LoopbackSocket.Failure("no header end in \(raw.prefix(200))") }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw LoopbackSocket.Failure("no status line in \(raw.prefix(200))")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: String(raw[split.upperBound...]))
    }
}

/// Runs blocking work on a new thread and hands back its result.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// A blocking TCP socket to 127.0.0.1, with a receive timeout.
final class LoopbackSocket: @unchecked Sendable {  // one thread at a time uses it (the test's, then `offPool`'s)
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let fd: Int32
    private var buffered: [UInt8] = []

    init(port: Int, timeoutSeconds: Double, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { Glibc.close(fd); throw Failure("bind \(source): errno \(errno)") }
        }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds.truncatingRemainder(dividingBy: 1)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); throw Failure("connect to 127.0.0.1:\(port): errno \(errno)") }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure("send: errno \(errno)") }
            sent += n
        }
    }

    /// Everything until the peer closes (or a read times out: then what came so far).
    func readToEnd() throws -> String {
        var all = buffered
        buffered = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            all += chunk[..<n]
        }
        return String(decoding: all, as: UTF8.self)
    }

    /// Every byte until the peer closes (or a read times out).
    func readAllBytes() -> [UInt8] {
        var all = buffered
        buffered = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            all += chunk[..<n]
        }
        return all
    }

    /// The next line (without CR LF), nil at the end or on timeout.
    func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffered[..<newline])
                buffered.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffered += chunk[..<n]
        }
    }

    func close() { Glibc.close(fd) }
}

/// An open `GET /events` stream: its status and headers, then its `data:` lines as they come.
final class EventStreamClient: Sendable {
    let socket: LoopbackSocket
    let status: Int

    private init(socket: LoopbackSocket, status: Int) { (self.socket, self.status) = (socket, status) }

    static func open(port: Int, timeoutSeconds: Double = 5, source: String? = nil, token: String? = nil) async throws -> EventStreamClient {
        try await offPool {
            let socket = try LoopbackSocket(port: port, timeoutSeconds: timeoutSeconds, source: source)
            let cookie = token.map { "Cookie: followme_token=\($0)\r\n" } ?? ""
            try socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\(cookie)\r\n")
            guard let statusLine = socket.readLine(), let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
                socket.close()
                throw LoopbackSocket.Failure("no status line from /events")
            }
            while let line = socket.readLine(), !line.isEmpty {}  // the headers
            return EventStreamClient(socket: socket, status: status)
        }
    }

    /// The next `event: NAME` message's data (other lines skipped), nil on timeout or at the end.
    func nextEvent(named name: String) async throws -> String? {
        try await offPool { [socket] in
            var inEvent = false
            while let line = socket.readLine() {
                if line == "event: \(name)" { inEvent = true } else if inEvent, line.hasPrefix("data: ") { return String(line.dropFirst(6)) }
            }
            return nil
        }
    }

    /// The next `data:` payload (a chunked body's size lines and comments skipped), nil on timeout.
    func nextData() async throws -> String? {
        try await offPool { [socket] in
            while let line = socket.readLine() {
                if line.hasPrefix("data: ") { return String(line.dropFirst(6)) }
            }
            return nil
        }
    }

    func close() { socket.close() }
}
