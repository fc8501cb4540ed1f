#if canImport(Glibc)
import Glibc
#endif
import Hummingbird

/// DNS rebinding guard: a request is served only when its `Host` names this unit the way a phone in
/// the field does — an IP address (`192.168.1.20:8080`, `[fe80::1]:8080`), `localhost`, a `.local`
/// (mDNS) name, or the unit's own bare host name. A page elsewhere whose DNS name was
/// pointed at this unit (rebinding) reaches it under *its* name and is answered 421, so its script
/// can neither read the person's position from `/status` nor send a code-free LAND.
struct CockpitHostCheck: RouterMiddleware {
    typealias Context = CockpitRequestContext

    /// This machine's host name, lower-cased, without a domain ("groundunit").
    let hostName: String

    init(hostName: String = Self.localHostName()) {
        self.hostName = hostName.lowercased().split(separator: ".").first.map(String.init) ?? ""
    }

    /// gethostname(2): no name lookup.
    static func localHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1.1 allows one Host (RFC 9112 §3.2): the first became the authority, any other is left
        // among the fields. Two of them is a request crafted to pass one name and mean another: 400.
        guard request.headers[values: .init("Host")!].isEmpty else {
            throw HTTPError(.badRequest, message: "more than one Host header\n")
        }
        guard Self.allows(authority: request.head.authority, hostName: hostName) else {
            throw HTTPError(.misdirectedRequest, message: "this cockpit answers to its IP address or host name, "
                            + "not to \(request.head.authority ?? "a request without Host"): open http://<the unit's address>:<port>/\n")
        }
        return try await next(request, context)
    }

    /// Whether `authority` (the Host header: host, optional port) names this unit.
    static func allows(authority: String?, hostName: String) -> Bool {
        guard let authority, !authority.isEmpty else { return false }
        let host: Substring
        if authority.hasPrefix("[") {  // [IPv6]:port
            guard let close = authority.firstIndex(of: "]") else { return false }
            return isAddress(String(authority[authority.index(after: authority.startIndex)..<close]), family: AF_INET6)
        } else {
            host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        }
        let name = host.lowercased()
        if isAddress(name, family: AF_INET) { return true }
        if name == "localhost" || name.hasSuffix(".local") { return true }
        // The bare host name only: a domain after it could be anyone's ("raspberrypi.attacker.example").
        return !hostName.isEmpty && name == hostName
    }

    private static func isAddress(_ text: String, family: Int32) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &bytes) == 1
    }
}
