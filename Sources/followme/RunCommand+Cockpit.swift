import ArgumentParser
import Cockpit
import FlightService
import Foundation
import Links
import Logging

extension RunCommand {
    /// The phone cockpit `[web] listen` asks for (docs/commands.md §4.8), or nil when it is off.
    ///
    /// A `[web] code_file` that cannot serve (readable by others, empty, missing) stops the run with
    /// exit 2 before anything flies: a cockpit anyone could command must not start, and a cockpit the
    /// operator counts on must not be silently missing. A socket that cannot be bound (the port is taken)
    /// is logged as an error and the flight goes on without it, as without a status socket: a missing
    /// page must not stop a restarted followme from adopting a drone in the air.
    static func startCockpit(config: FollowMeConfiguration, board: FlightStatusBoard, commands: OperatorCommandInbox,
                             logger: Logger) async throws -> CockpitServer? {
        guard !config.web.listen.isEmpty, let endpoint = WebListenAddress(config.web.listen) else { return nil }
        let code: PairingCode
        if let file = config.web.codeFile {
            do {
                code = try PairingCode(contentsOfFile: file)
            } catch {
                logger.error("followme run: no cockpit: \(error)")
                throw ExitCode(2)
            }
        } else {
            code = PairingCode.random()
        }
        var settings = CockpitSettings(host: endpoint.host, port: endpoint.port, code: code,
                                       landWithoutCode: config.web.landWithoutCode)
        settings.codeFile = config.web.codeFile
        // A paired phone downloads the last finished recording from here (GET /video/last).
        settings.videoDirectory = config.video.effectiveDirectory(log: config.log)
        // systemd's StateDirectory= (the unit's /var/lib/followme): paired phones stay paired across a restart.
        settings.tokenFile = ProcessInfo.processInfo.environment["STATE_DIRECTORY"]
            .flatMap { $0.split(separator: ":").first.map(String.init) }.map { $0 + "/cockpit-tokens" }
        do {
            let server = try await CockpitServer.start(settings: settings, board: board, commands: commands, logger: logger,
                                                       clock: SystemClock.now)
            // The journal keeps a generated code (it changes at every start); a fixed one stays in its file.
            let pairing = config.web.codeFile.map { "pairing code in \($0)" } ?? "pairing code \(code.display)"
            logger.notice("cockpit: http://\(config.web.listen)/ \(pairing)", metadata: [
                "open": "\(Self.cockpitAddresses(endpoint).map { "http://\($0)/" }.joined(separator: " "))",
                "land-without-code": "\(config.web.landWithoutCode)",
            ])
            return server
        } catch {
            logger.error("cockpit not available; flying without it", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Where a phone opens the cockpit: for a wildcard `listen` ("0.0.0.0", "::") each IPv4 address
    /// of this computer's interfaces that are up, loopback excepted (what a person types on the
    /// phone); otherwise the address as configured.
    static func cockpitAddresses(_ endpoint: WebListenAddress) -> [String] {
        guard ["0.0.0.0", "::"].contains(endpoint.host) else {
            return [endpoint.host.contains(":") ? "[\(endpoint.host)]:\(endpoint.port)" : "\(endpoint.host):\(endpoint.port)"]
        }
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0?.pointee.ifa_next }) {
            guard let entry, let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_UP) != 0, entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                              NI_NUMERICHOST) == 0 else { continue }
            addresses.append("\(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(endpoint.port)")
        }
        return addresses
    }
}
