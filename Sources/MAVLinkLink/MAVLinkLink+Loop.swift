import DroneControl
import Logging
import MAVLink
import MAVLinkAdapter
import NIOCore
import NIOPosix
import Observations
import ShellSupport

/// The running link's mutable state; only touched on the link's event loop.
final class MAVLinkRuntime {
    var session: MAVLinkSession
    let channel: any Channel
    let remote: SocketAddress
    var sender: MAVLinkSender
    var output = MAVLinkSessionOutput()
    /// Reused for every datagram.
    var buffer: ByteBuffer
    var fixLatency = LatencyHistogram()
    let tickInterval: TimeAmount
    var nextTickDeadline = NIODeadline.now()
    var scheduledTick: Scheduled<Void>?

    init(session: MAVLinkSession, channel: any Channel, remote: SocketAddress, configuration: MAVLinkLinkConfiguration) {
        self.session = session
        self.channel = channel
        self.remote = remote
        sender = MAVLinkSender(systemID: configuration.systemID, componentID: configuration.componentID)
        buffer = channel.allocator.buffer(capacity: MAVLinkFrame.maximumLength)
        tickInterval = .nanoseconds(Int64((configuration.timing.tickIntervalSeconds * 1e9).rounded()))
        output.messages.reserveCapacity(4)
        output.events.reserveCapacity(8)
    }
}

/// The loop-confined internals: ticks, sends, datagrams in, the socket.
extension MAVLinkLink {
    /// On the loop: the running runtime; nil if not running.
    var runningRuntime: MAVLinkRuntime? {
        guard case .running(let runtime) = lifecycle.value else { return nil }
        return runtime
    }

    /// `read` of the running runtime, on the loop; nil when not running.
    func snapshot<T: Sendable>(_ read: @escaping @Sendable (MAVLinkRuntime) -> T?) async -> T? {
        (try? await eventLoop.submit { [self] in runningRuntime.flatMap(read) }.get()) ?? nil
    }

    func scheduleTick(_ runtime: MAVLinkRuntime) {
        runtime.scheduledTick = eventLoop.scheduleTask(deadline: runtime.nextTickDeadline) { [self] in
            guard let runtime = runningRuntime else { return }
            let now = NIODeadline.now()
            runtime.session.recordTickLateness(seconds: Double((now - runtime.nextTickDeadline).nanoseconds) / 1e9)
            runtime.output.reset()
            runtime.session.tick(now: SystemClock.now(), output: &runtime.output)
            perform(runtime)
            // Fixed rate; after a stall of more than one interval, restart from now (no burst).
            runtime.nextTickDeadline = runtime.nextTickDeadline + runtime.tickInterval
            if runtime.nextTickDeadline < now { runtime.nextTickDeadline = now + runtime.tickInterval }
            scheduleTick(runtime)
            tickHandler?(SystemClock.now())
        }
    }

    /// Sends the session's messages (one datagram each) and publishes its events.
    func perform(_ runtime: MAVLinkRuntime) {
        for outgoing in runtime.output.messages {
            let bytes = runtime.sender.encode(outgoing)
            runtime.buffer.clear()
            runtime.buffer.writeBytes(bytes)
            let promise = eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenFailure { [self] error in
                guard case .running(let runtime) = lifecycle.value else { return }
                runtime.session.countSendFailure()
                logger.debug("mavlink datagram not sent", metadata: ["error": "\(error)"])
            }
            runtime.channel.writeAndFlush(AddressedEnvelope(remoteAddress: runtime.remote, data: runtime.buffer), promise: promise)
        }
        for event in runtime.output.events {
            log(event)
            eventHandler(event)
        }
        runtime.output.reset()
    }

    /// Called by `MAVLinkInboundHandler` on the loop for every datagram.
    func receive(_ envelope: AddressedEnvelope<ByteBuffer>) {
        guard let runtime = runningRuntime else { return }
        runtime.output.reset()
        runtime.session.receive(datagram: envelope.data.readableBytesView, fromExpectedSource: envelope.remoteAddress == runtime.remote,
                                now: SystemClock.now(), output: &runtime.output)
        perform(runtime)
    }

    /// Reports the socket closing under a running link (`.socketClosed`). Not re-bound: the
    /// autopilot's GCS failsafe takes over (docs/mavlink.md §7.5).
    func watchClose(of channel: any Channel, runtime: MAVLinkRuntime) {
        let id = ObjectIdentifier(runtime)
        channel.closeFuture.whenComplete { [self] _ in
            guard case .running(let current) = lifecycle.value, ObjectIdentifier(current) == id else { return }
            current.output.reset()
            current.session.socketClosed(error: nil, now: SystemClock.now(), output: &current.output)
            perform(current)
        }
    }

    func log(_ event: LinkEvent) {
        switch event {
        case .telemetry, .onboard, .statistics, .configurationAcknowledged:
            break
        case .connected(let wasFlying, let desired, _):
            logger.info("mavlink vehicle connected", metadata: ["wasFlying": "\(wasFlying)", "desiredFlying": "\(desired)"])
        case .notice(let text, let severity, _):
            logger.notice("mavlink: \(text)", metadata: ["severity": "\(severity.map(String.init) ?? "-")"])
        default:
            logger.info("mavlink link event", metadata: ["event": "\(event)"])
        }
    }

    /// An IP literal or a host name (getaddrinfo takes both).
    static func resolve(_ host: String, port: Int) throws(MAVLinkLinkError) -> SocketAddress {
        do {
            return try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw MAVLinkLinkError(operation: "resolve \(host):\(port)", reason: "\(error)")
        }
    }

    func bind(host: String, port: Int) async throws(MAVLinkLinkError) -> any Channel {
        let future = eventLoop.flatSubmit { [self] in
            DatagramBootstrap(group: eventLoop)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: Self.receiveBufferBytes))
                .channelInitializer { [self] channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(MAVLinkInboundHandler(link: self))
                    }
                }
                .bind(host: host, port: port)
        }
        do {
            return try await future.get()
        } catch {
            throw MAVLinkLinkError(operation: "bind local UDP port \(port)", reason: "\(error)")
        }
    }
}

/// Hands every datagram to the link (on the loop) and logs socket errors.
final class MAVLinkInboundHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    private let link: MAVLinkLink

    init(link: MAVLinkLink) { self.link = link }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        link.receive(Self.unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        link.logger.warning("mavlink socket error", metadata: ["error": "\(error)"])
    }
}
