import Logging
import NIOCore
import NIOPosix

/// A TCP server that plays a GPS receiver: every connected client (typically gpsd, reading it as
/// `tcp://HOST:PORT`) gets every NMEA sentence broadcast, from the moment it connects.
///
/// Bytes from clients are read and discarded (gpsd may write probe strings to a device). A client
/// that does not keep up (its socket buffer and NIO's write buffer full, so the channel is not
/// writable) misses sentences rather than growing memory; the misses are counted. All state lives
/// on one event loop.
public final class NMEATCPServer: Sendable {
    /// The port the server bound (the kernel's choice when 0 was asked).
    public let port: Int
    /// The name used in logs ("onboard", "person").
    public let label: String
    let eventLoop: any EventLoop
    private let serverChannel: any Channel
    private let registry: NIOLoopBound<NMEAClientRegistry>

    /// Binds `host:port` (port 0 = any free port) on `eventLoop`; accepted clients live on the
    /// same loop.
    public static func start(
        host: String, port: Int, label: String, eventLoop: any EventLoop, logger: Logger
    ) async throws -> NMEATCPServer {
        let registry = try await eventLoop.submit {
            NIOLoopBound(NMEAClientRegistry(label: label, logger: logger), eventLoop: eventLoop)
        }.get()
        let channel = try await ServerBootstrap(group: eventLoop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NMEAClientHandler(registry: registry))
                }
            }
            .bind(host: host, port: port)
            .get()
        guard let boundPort = channel.localAddress?.port else {
            try? await channel.close()
            throw SimulatorServerError.noLocalAddress(socket: "\(label) NMEA")
        }
        logger.info("NMEA server listening", metadata: ["stream": "\(label)", "address": "\(host):\(boundPort)"])
        return NMEATCPServer(port: boundPort, label: label, eventLoop: eventLoop, serverChannel: channel, registry: registry)
    }

    /// Sends `text` to every connected client. Cheap on the server's loop; from elsewhere it hops.
    public func broadcast(_ text: String) {
        if eventLoop.inEventLoop {
            registry.value.broadcast(text)
        } else {
            eventLoop.execute { [registry] in registry.value.broadcast(text) }
        }
    }

    /// Clients connected now.
    public func clientCount() async -> Int {
        (try? await eventLoop.submit { [registry] in registry.value.count }.get()) ?? 0
    }

    /// Clients connected now; call on the server's loop only.
    var clientCountOnLoop: Int { registry.value.count }

    /// Stops listening and disconnects every client.
    public func stop() async {
        try? await serverChannel.close()
        let clients = (try? await eventLoop.submit { [registry] in registry.value.removeAll() }.get()) ?? []
        for client in clients { try? await client.close() }
    }

    init(
        port: Int,
        label: String,
        eventLoop: any EventLoop,
        serverChannel: any Channel,
        registry: NIOLoopBound<NMEAClientRegistry>
    ) {
        self.port = port
        self.label = label
        self.eventLoop = eventLoop
        self.serverChannel = serverChannel
        self.registry = registry
    }
}

/// The clients of one NMEA stream; confined to the server's event loop.
final class NMEAClientRegistry {
    private var clients: [ObjectIdentifier: any Channel] = [:]
    private let label: String
    private let logger: Logger
    /// Sentence batches skipped because a client was not writable.
    private(set) var skippedWrites = 0

    init(label: String, logger: Logger) {
        self.label = label
        self.logger = logger
    }

    var count: Int { clients.count }

    func add(_ channel: any Channel) {
        clients[ObjectIdentifier(channel)] = channel
        logger.info("NMEA client connected", metadata: [
            "stream": "\(label)", "client": "\(channel.remoteAddress.map { "\($0)" } ?? "?")",
        ])
    }

    func remove(_ channel: any Channel) {
        guard clients.removeValue(forKey: ObjectIdentifier(channel)) != nil else { return }
        logger.info("NMEA client disconnected", metadata: [
            "stream": "\(label)", "client": "\(channel.remoteAddress.map { "\($0)" } ?? "?")",
        ])
    }

    func removeAll() -> [any Channel] {
        defer { clients.removeAll() }
        return Array(clients.values)
    }

    func broadcast(_ text: String) {
        guard !clients.isEmpty else { return }
        for channel in clients.values {
            guard channel.isWritable else {
                skippedWrites += 1
                continue
            }
            channel.writeAndFlush(channel.allocator.buffer(string: text), promise: nil)
        }
    }
}

/// Registers its channel with the registry while active; discards whatever the client sends.
final class NMEAClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: NIOLoopBound<NMEAClientRegistry>

    init(registry: NIOLoopBound<NMEAClientRegistry>) {
        self.registry = registry
    }

    func channelActive(context: ChannelHandlerContext) {
        registry.value.add(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.value.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Input from the reader (gpsd probes) is ignored.
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
