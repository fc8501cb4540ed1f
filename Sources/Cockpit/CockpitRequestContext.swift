import Hummingbird
import Logging
import NIOCore

/// A request's context: Hummingbird's core storage plus who sent it (the peer's IP address), which
/// the rate limit, the log and the command's source (`web 192.0.2.7`) need.
struct CockpitRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address as text (`192.0.2.7`, `fe80::1`; an IPv4 peer on an IPv6 socket as IPv4).
    let client: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = Self.clientName(source.channel.remoteAddress)
    }

    /// Every body the cockpit decodes is a command (`CockpitRoutes.maxBodyBytes`).
    var maxUploadSize: Int { CockpitRoutes.maxBodyBytes }

    /// `192.0.2.7` for `[::ffff:192.0.2.7]:51234` and `192.0.2.7:51234`; `unknown` without an IP peer.
    static func clientName(_ address: SocketAddress?) -> String {
        guard let ip = address?.ipAddress else { return "unknown" }
        let mapped = "::ffff:"
        if ip.lowercased().hasPrefix(mapped), ip.contains(".") { return String(ip.dropFirst(mapped.count)) }
        return ip
    }
}
