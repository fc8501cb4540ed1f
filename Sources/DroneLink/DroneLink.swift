import ARDroneProtocol
import Logging
import NIOCore
import NIOPosix
import Synchronization
import ShellSupport
import Observations

/// The UDP link to one AR.Drone 2.0: AT commands out (port 5556), navdata in (port 5554).
///
/// Two UDP sockets on ephemeral local ports, like the SDK (`COM_CONFIG_SOCKET_AT(…, 0, …)`,
/// docs/ardrone-protocol.md §1.1): one sends AT datagrams to `address:atPort`, the other sends the navdata trigger
/// to `address:navdataPort` and receives navdata (the drone answers the trigger's source).
///
/// A fixed-rate timer re-sends the *desired* state every `tickIntervalSeconds` in one datagram
/// (REF + PCMD, plus COMWDG / CTRL / CONFIG_IDS+CONFIG / FTRIM when due); the owner only changes
/// what is desired. Every decision is made by `DroneLinkCore` (a value, tested without sockets);
/// this class only owns the sockets, the timer and the clock. All state lives on one NIO event
/// loop, so the 30 Hz path takes no locks and reuses its buffers.
///
/// One owner (the flight service task) calls `setDesired`. `stop()` only stops sending: it does
/// not land. Landing is the owner's job (`setDesired(flying: false, …)` and waiting for navdata);
/// after `stop()` the drone's own com watchdog takes over (2 s, docs/ardrone-protocol.md §2.2).
public final class DroneLink: Sendable {
    public let configuration: DroneLinkConfiguration
    /// Everything the link observes, in order. Finishes after `stop()`. Buffers the newest
    /// `eventBufferCount` events; older ones are dropped (and counted) if nobody reads.
    public let events: AsyncStream<DroneLinkEvent>

    /// Events kept for a slow consumer (about a minute of demo navdata).
    public static let eventBufferCount = 1024
    /// `01 00 00 00`: the int32 1 ("unicast") in host (little-endian) order, what the SDK
    /// (`ardrone_navdata_open_server`), pyardrone, paparazzi and objc.io send to port 5554 (docs/ardrone-protocol.md §1.2).
    public static let navdataTriggerBytes: [UInt8] = [0x01, 0x00, 0x00, 0x00]
    /// Receive buffer for one navdata datagram: above `NAVDATA_MAX_SIZE` (4096) so an oversized
    /// packet is seen whole and rejected, not silently truncated.
    static let navdataReceiveBufferBytes = 8192

    private let continuation: AsyncStream<DroneLinkEvent>.Continuation
    private let eventHandler: (@Sendable (DroneLinkEvent) -> Void)?
    private let tickHandler: (@Sendable (MonotonicTime) -> Void)?
    /// The owner's latest `setDesired`, picked up by the loop at the next tick or immediate send
    /// (so a decision that need not go out at once costs no loop wake-up).
    private let pendingDesired = Mutex(PendingDesired())
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let lifecycle: NIOLoopBoundBox<Lifecycle>

    private enum Lifecycle {
        case idle
        case starting
        case running(LinkRuntime)
        case stopped
    }

    /// - Parameters:
    ///   - eventLoopGroup: the link pins both sockets and its timer to one loop of this group.
    ///   - logger: lost/restored navdata, config results and socket errors are logged with metadata.
    ///   - eventHandler: if given, called on the link's loop with every event *instead of* yielding
    ///     it to `events` (which then only finishes): a consumer merging several sources saves a
    ///     task hop per event. Must not block.
    ///   - tickHandler: if given, called on the loop after every periodic tick (not after immediate
    ///     sends) with the tick's time, e.g. to run the owner's control step at the link's cadence
    ///     without a timer of its own. Must not block.
    public init(
        configuration: DroneLinkConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "followme.dronelink"),
        eventHandler: (@Sendable (DroneLinkEvent) -> Void)? = nil,
        tickHandler: (@Sendable (MonotonicTime) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.eventHandler = eventHandler
        self.tickHandler = tickHandler
        let loop = eventLoopGroup.next()
        eventLoop = loop
        lifecycle = NIOLoopBoundBox.makeBoxSendingValue(Lifecycle.idle, eventLoop: loop)
        (events, continuation) = AsyncStream.makeStream(
            of: DroneLinkEvent.self, bufferingPolicy: .bufferingNewest(Self.eventBufferCount))
    }

    // MARK: - Lifecycle

    /// Resolves the drone address, opens both sockets, sends the first navdata trigger and starts
    /// the tick. AT commands are sent only once the first navdata arrived (see `.connected`).
    /// A link runs once: after `stop()` make a new one.
    public func start() async throws(DroneLinkError) {
        let claimed = await claimIdle()
        guard claimed else { throw .alreadyStarted }

        let atAddress: SocketAddress
        let navdataAddress: SocketAddress
        let atChannel: any Channel
        let navdataChannel: any Channel
        do throws(DroneLinkError) {
            atAddress = try Self.resolve(configuration.address, port: configuration.atPort)
            navdataAddress = try Self.resolve(configuration.address, port: configuration.navdataPort)
            let bindHost = Self.bindHost(for: atAddress)
            atChannel = try await bindFuture(.at, host: bindHost, port: 0).getDroneLinkResult(socket: "AT")
            do throws(DroneLinkError) {
                navdataChannel = try await bindFuture(.navdata, host: bindHost, port: 0)
                    .getDroneLinkResult(socket: "navdata")
            } catch {
                try? await atChannel.close()
                throw error
            }
        } catch {
            await markStopped()
            throw error
        }

        let configuration = configuration
        let started: Bool = (try? await eventLoop.submit { [self] () -> Bool in
            guard case .starting = lifecycle.value else { return false }
            let runtime = LinkRuntime(
                core: DroneLinkCore(configuration: configuration, expectedNavdataSource: navdataAddress),
                atChannel: atChannel, navdataChannel: navdataChannel,
                atAddress: atAddress, navdataAddress: navdataAddress,
                allocator: atChannel.allocator,
                tickInterval: .nanoseconds(Int64((configuration.tickIntervalSeconds * 1e9).rounded()))
            )
            // Desires expressed before start() are ignored (documented on setDesired).
            runtime.appliedDesiredGeneration = pendingDesired.withLock { $0.generation }
            lifecycle.value = .running(runtime)
            watchClose(of: atChannel, socket: .at, runtime: runtime)
            watchClose(of: navdataChannel, socket: .navdata, runtime: runtime)
            runtime.effects.reset()
            runtime.core.start(now: SystemClock.now(), effects: &runtime.effects)
            perform(runtime)
            runtime.nextTickDeadline = .now() + runtime.tickInterval
            scheduleTick(runtime)
            return true
        }.get()) ?? false
        guard started else {
            try? await atChannel.close()
            try? await navdataChannel.close()
            throw .alreadyStarted
        }
        logger.info("drone link started", metadata: [
            "drone": "\(configuration.address)", "atPort": "\(configuration.atPort)",
            "navdataPort": "\(configuration.navdataPort)",
            "localAT": "\(atChannel.localAddress.map { "\($0)" } ?? "?")",
            "localNavdata": "\(navdataChannel.localAddress.map { "\($0)" } ?? "?")",
        ])
    }

    /// Stops the tick, closes both sockets and finishes `events`. Does not land (see the type doc).
    public func stop() async {
        let channels: [any Channel] = (try? await eventLoop.submit { [self] () -> [any Channel] in
            defer { lifecycle.value = .stopped }
            guard case .running(let runtime) = lifecycle.value else { return [] }
            runtime.scheduledTick?.cancel()
            runtime.scheduledTick = nil
            runtime.at.reopen?.scheduled?.cancel()
            runtime.navdata.reopen?.scheduled?.cancel()
            return [runtime.atChannel, runtime.navdataChannel]
        }.get()) ?? []
        for channel in channels { try? await channel.close() }
        continuation.finish()
        if !channels.isEmpty { logger.info("drone link stopped") }
    }

    // MARK: - Owner API

    /// Sets what every following tick sends: REF bit 9 = `flying`, and `pilot` as PCMD (or
    /// PCMD_MAG when `controllerHeading` is given). Use `ProgressiveCommand.hover` to hold position.
    ///
    /// `sendImmediately` sends a datagram now instead of at the next tick (a new GPS fix must not
    /// wait up to 30 ms). Otherwise the value is only stored and the loop picks it up at its next
    /// tick (or any other call that reaches the loop first); calls in between replace each other.
    /// Ignored until `start()` completed. While navdata shows EMERGENCY the link sends bit 9 clear
    /// whatever is desired.
    ///
    /// `reflecting`: when this decision was made because of a GPS fix, the fix's `receivedAt`. The
    /// immediate datagram's send time minus it goes into `fixLatency()` (latency probe, PERFORMANCE.md).
    public func setDesired(
        flying: Bool,
        pilot: ProgressiveCommand,
        controllerHeading: ControllerHeading? = nil,
        sendImmediately: Bool = false,
        reflecting fixReceivedAt: MonotonicTime? = nil
    ) {
        pendingDesired.withLock { desired in
            desired.generation &+= 1
            desired.flying = flying
            desired.pilot = pilot
            desired.heading = controllerHeading
        }
        guard sendImmediately else { return }
        eventLoop.execute { [self] in
            guard let runtime = runningRuntime else { return }
            performTick(runtime, immediate: true, reflecting: fixReceivedAt)
        }
    }

    /// Sends the desired state now, outside the tick cadence.
    public func sendNow() {
        eventLoop.execute { [self] in
            guard let runtime = runningRuntime else { return }
            performTick(runtime, immediate: true)
        }
    }

    /// Asks the drone to leave EMERGENCY: REF bit 8 while navdata shows bit 31, then released.
    /// Refused unless the latest navdata shows bit 31, because bit 8 *toggles*: sent to a
    /// healthy drone it cuts the motors (docs/ardrone-protocol.md §2.3, §7.4). Also clears `desiredFlying`.
    public func requestEmergencyToggle() async throws(DroneLinkRefusal) {
        let result = await onLoop { runtime in runtime.core.requestEmergencyReset() }
        guard let result else { throw .notRunning }
        try result.get()
        sendNow()
    }

    /// Cuts the motors now (REF bit 8 while bit 31 is clear); the drone falls. Clears
    /// `desiredFlying`. Refused without navdata (a blind toggle could *reset* an emergency instead).
    public func requestEmergencyCutoff() async throws(DroneLinkRefusal) {
        let result = await onLoop { [self] runtime -> Result<Void, DroneLinkRefusal> in
            runtime.effects.reset()
            let result = runtime.core.requestEmergencyCutoff(now: SystemClock.now(), effects: &runtime.effects)
            perform(runtime)
            if case .success = result { performTick(runtime, immediate: true) }
            return result
        }
        guard let result else { throw .notRunning }
        try result.get()
    }

    /// Flat trim (`AT*FTRIM`, repeated on 10 ticks): only while navdata says landed.
    public func requestFlatTrim() async throws(DroneLinkRefusal) {
        let result = await onLoop { runtime in runtime.core.requestFlatTrim() }
        guard let result else { throw .notRunning }
        try result.get()
    }

    /// Queues one more `AT*CONFIG` write, sent after the start-up writes with the same ACK
    /// handshake; the outcome arrives as `.configurationAcknowledged` / `.configurationFailed`.
    public func writeConfiguration(_ write: ConfigurationWrite) async throws(DroneLinkRefusal) {
        let result = await onLoop { runtime in runtime.core.enqueueConfiguration(write) }
        guard let result else { throw .notRunning }
        try result.get()
    }

    /// Fix-to-datagram latency: for each `setDesired(…, sendImmediately: true, reflecting: t)` that sent
    /// a datagram, the time from `t` (the fix leaving `gps_read`) until the datagram's write was issued.
    /// A copy of the histogram; nil before `start()` or after `stop()`.
    public func fixLatency() async -> LatencyHistogram? {
        await onLoop { runtime in runtime.fixLatency }
    }

    /// A snapshot of the counters; nil before `start()` or after `stop()`.
    public func statistics() async -> DroneLinkStatistics? {
        await onLoop { runtime in runtime.core.statistics }
    }

    /// The local address of the navdata socket (what the drone sends navdata to); nil unless running.
    public func localNavdataAddress() async -> SocketAddress? {
        await onLoop { runtime in runtime.navdataChannel.localAddress } ?? nil
    }

    // MARK: - Loop-confined internals

    /// On the loop: the running runtime with the owner's latest `setDesired` applied, or nil if
    /// not running. Every loop entry point goes through here, so owner calls keep their order.
    private var runningRuntime: LinkRuntime? {
        guard case .running(let runtime) = lifecycle.value else { return nil }
        let desired = pendingDesired.withLock { $0 }
        if desired.generation != runtime.appliedDesiredGeneration {
            runtime.appliedDesiredGeneration = desired.generation
            runtime.core.setDesired(flying: desired.flying, pilot: desired.pilot, heading: desired.heading)
        }
        return runtime
    }

    /// Runs `body` on the loop with the running runtime; nil if not running.
    private func onLoop<T: Sendable>(_ body: @escaping @Sendable (LinkRuntime) -> T) async -> T? {
        try? await eventLoop.submit { [self] () -> T? in
            guard let runtime = runningRuntime else { return nil }
            return body(runtime)
        }.get()
    }

    private func claimIdle() async -> Bool {
        (try? await eventLoop.submit { [self] () -> Bool in
            guard case .idle = lifecycle.value else { return false }
            lifecycle.value = .starting
            return true
        }.get()) ?? false
    }

    private func markStopped() async {
        _ = try? await eventLoop.submit { [self] in lifecycle.value = .stopped }.get()
        continuation.finish()
    }

    private func scheduleTick(_ runtime: LinkRuntime) {
        runtime.scheduledTick = eventLoop.scheduleTask(deadline: runtime.nextTickDeadline) { [self] in
            guard let runtime = runningRuntime else { return }
            let now = NIODeadline.now()
            runtime.core.recordTickLateness(seconds: Double((now - runtime.nextTickDeadline).nanoseconds) / 1e9)
            performTick(runtime, immediate: false)
            // Fixed rate: the next deadline follows the previous one, not "now"; after a stall of
            // more than one interval, restart from now instead of bursting to catch up.
            runtime.nextTickDeadline = runtime.nextTickDeadline + runtime.tickInterval
            if runtime.nextTickDeadline < now { runtime.nextTickDeadline = now + runtime.tickInterval }
            scheduleTick(runtime)
            tickHandler?(SystemClock.now())
        }
    }

    private func performTick(_ runtime: LinkRuntime, immediate: Bool, reflecting fixReceivedAt: MonotonicTime? = nil) {
        runtime.effects.reset()
        let hasDatagram = runtime.core.tick(now: SystemClock.now(), datagram: &runtime.datagram,
                                            effects: &runtime.effects)
        if hasDatagram {
            if immediate { runtime.core.countImmediateSend() }
            sendATDatagram(runtime)
            if let fixReceivedAt {
                runtime.fixLatency.record(nanoseconds: SystemClock.now().nanoseconds - fixReceivedAt.nanoseconds)
            }
        }
        perform(runtime)
    }

    /// Copies the encoded datagram into the reused `ByteBuffer` (no allocation once the previous
    /// write has completed, which for UDP is almost always synchronous) and writes it.
    private func sendATDatagram(_ runtime: LinkRuntime) {
        guard runtime.at.reopen == nil else {
            // The AT socket is being re-bound: nothing can go out (the drone's com watchdog holds it).
            runtime.core.countSendFailure()
            return
        }
        runtime.atBuffer.clear()
        runtime.atBuffer.writeBytes(runtime.datagram)
        let promise = eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [self] result in
            guard case .running(let runtime) = lifecycle.value else { return }
            switch result {
            case .success:
                runtime.at.worked()
            case .failure(let error):
                runtime.core.countSendFailure()
                runtime.at.lastError = "\(error)"
                logger.debug("AT datagram not sent", metadata: ["error": "\(error)"])
            }
        }
        runtime.atChannel.writeAndFlush(
            AddressedEnvelope(remoteAddress: runtime.atAddress, data: runtime.atBuffer), promise: promise)
    }

    /// Carries out the core's effects: the navdata trigger and the events.
    private func perform(_ runtime: LinkRuntime) {
        if runtime.effects.sendNavdataTrigger, runtime.navdata.reopen == nil {
            runtime.navdataChannel.writeAndFlush(
                AddressedEnvelope(remoteAddress: runtime.navdataAddress, data: runtime.triggerBuffer), promise: nil)
        }
        for event in runtime.effects.events {
            log(event)
            if let eventHandler {
                eventHandler(event)
            } else if case .dropped = continuation.yield(event) {
                runtime.core.countDroppedEvent()
            }
        }
        runtime.effects.reset()
    }

    /// Called by `NavdataInboundHandler` on the loop for every datagram.
    func receiveNavdata(_ envelope: AddressedEnvelope<ByteBuffer>) {
        guard let runtime = runningRuntime else { return }
        let now = SystemClock.now()
        runtime.navdata.worked()
        runtime.effects.reset()
        let dropped = envelope.data.withUnsafeReadableBytes { bytes in
            runtime.core.receiveNavdata(bytes, from: envelope.remoteAddress, now: now, effects: &runtime.effects)
        }
        if let dropped {
            logger.debug("navdata dropped", metadata: [
                "reason": "\(dropped)", "source": "\(envelope.remoteAddress)", "bytes": "\(envelope.data.readableBytes)",
            ])
        }
        perform(runtime)
    }

    /// Called by the channel handlers on the loop (e.g. ICMP port unreachable surfaced by the kernel).
    func socketError(_ error: any Error, socket: DroneLinkSocket) {
        logger.warning("drone link socket error", metadata: ["socket": "\(socket.rawValue)", "error": "\(error)"])
        if case .running(let runtime) = lifecycle.value { runtime[socket].lastError = "\(error)" }
    }

    // MARK: - Socket recovery

    /// Backoff before a re-bind: doubles from `reopenInitialDelay` up to `reopenMaximumDelay` with
    /// every failed bind and every re-bound socket that closes again before it carried a datagram
    /// (a route that stays down), and starts over once one went through. Our choice: the first retry
    /// after 50 ms (an ENOBUFS or a flapping route is usually gone by then), at most 1 s apart so a
    /// retry falls inside every 2 s com-watchdog period (docs/ardrone-protocol.md §2.2).
    static let reopenInitialDelay = TimeAmount.milliseconds(50)
    static let reopenMaximumDelay = TimeAmount.seconds(1)

    /// On the loop: reports it when `channel` closes while it is still the running link's socket
    /// (not after `stop()`), and starts re-binding it.
    private func watchClose(of channel: any Channel, socket: DroneLinkSocket, runtime: LinkRuntime) {
        let id = ObjectIdentifier(runtime)
        // Read now: a closed channel may no longer report its local address.
        let localPort = channel.localAddress?.port ?? 0
        channel.closeFuture.whenComplete { [self] _ in
            guard let runtime = currentRuntime(id), runtime.channel(socket) === channel,
                  runtime[socket].reopen == nil else { return }
            let now = SystemClock.now()
            runtime[socket].reopen = LinkRuntime.Reopen(previousPort: localPort, closedAt: now)
            runtime.effects.reset()
            runtime.core.socketClosed(socket, error: runtime[socket].lastError, now: now, effects: &runtime.effects)
            runtime[socket].lastError = nil
            perform(runtime)
            scheduleReopen(socket, runtime: runtime)
        }
    }

    private func scheduleReopen(_ socket: DroneLinkSocket, runtime: LinkRuntime) {
        let id = ObjectIdentifier(runtime)
        let delay = runtime[socket].nextReopenDelay
        runtime[socket].nextReopenDelay = min(delay * 2, Self.reopenMaximumDelay)
        runtime[socket].reopen?.scheduled = eventLoop.scheduleTask(in: delay) { [self] in
            guard let runtime = currentRuntime(id), var reopen = runtime[socket].reopen else { return }
            reopen.attempts += 1
            runtime[socket].reopen = reopen
            let host = Self.bindHost(for: runtime.atAddress)
            // The same local port first (a drone or firewall that learnt it keeps working), else any.
            let previousPort = reopen.previousPort
            bindFuture(socket, host: host, port: previousPort)
                .flatMapError { [self] error in
                    logger.warning("drone link socket: its previous local port is taken; binding a new one", metadata: [
                        "socket": "\(socket.rawValue)", "port": "\(previousPort)", "error": "\(error)",
                    ])
                    return bindFuture(socket, host: host, port: 0)
                }
                .whenComplete { [self] result in
                    guard let runtime = currentRuntime(id), let reopen = runtime[socket].reopen else {
                        if case .success(let channel) = result { channel.close(promise: nil) }
                        return
                    }
                    switch result {
                    case .success(let channel):
                        reopened(socket, channel: channel, reopen: reopen, runtime: runtime)
                    case .failure(let error):
                        logger.warning("drone link socket re-bind failed", metadata: [
                            "socket": "\(socket.rawValue)", "attempt": "\(reopen.attempts)", "error": "\(error)",
                        ])
                        scheduleReopen(socket, runtime: runtime)
                    }
                }
        }
    }

    /// On the loop: the running runtime if it is still the one identified by `id`.
    private func currentRuntime(_ id: ObjectIdentifier) -> LinkRuntime? {
        guard case .running(let runtime) = lifecycle.value, ObjectIdentifier(runtime) == id else { return nil }
        return runtime
    }

    private func reopened(_ socket: DroneLinkSocket, channel: any Channel, reopen: LinkRuntime.Reopen,
                          runtime: LinkRuntime) {
        switch socket {
        case .at: runtime.atChannel = channel
        case .navdata: runtime.navdataChannel = channel
        }
        runtime[socket].reopen = nil
        watchClose(of: channel, socket: socket, runtime: runtime)
        let now = SystemClock.now()
        let port = channel.localAddress?.port ?? 0
        runtime.effects.reset()
        runtime.core.socketReopened(socket, localPort: port, samePort: port == reopen.previousPort && port != 0,
                                    attempts: reopen.attempts, downSeconds: now.seconds(since: reopen.closedAt),
                                    now: now, effects: &runtime.effects)
        perform(runtime)
    }

    private func log(_ event: DroneLinkEvent) {
        switch event {
        case .navdata, .statistics:
            break
        case .connected(let wasFlying, let desiredFlying, _):
            logger.info("first navdata", metadata: ["droneWasFlying": "\(wasFlying)", "desiredFlying": "\(desiredFlying)"])
        case .navdataLost(let last, let at):
            logger.warning("navdata lost; re-sending trigger", metadata: ["silenceSeconds": "\(at.seconds(since: last))"])
        case .navdataRestored(let silence, _):
            logger.notice("navdata restored", metadata: ["silenceSeconds": "\(silence)"])
        case .configurationAcknowledged(let write, let attempts, _):
            logger.info("configuration acknowledged", metadata: ["key": "\(write.key)", "value": "\(write.value)", "attempts": "\(attempts)"])
        case .configurationFailed(let write, let reason, _):
            logger.error("configuration failed", metadata: ["key": "\(write.key)", "value": "\(write.value)", "reason": "\(reason)"])
        case .desiredFlyingCleared(let reason, _):
            logger.warning("desired flying cleared", metadata: ["reason": "\(reason)"])
        case .socketClosed(let socket, let error, _):
            logger.error("drone link socket closed; re-binding", metadata: [
                "socket": "\(socket.rawValue)", "error": "\(error ?? "?")",
            ])
        case .socketReopened(let socket, let port, let samePort, let attempts, let down, _):
            logger.notice("drone link socket re-bound", metadata: [
                "socket": "\(socket.rawValue)", "localPort": "\(port)", "samePort": "\(samePort)",
                "attempts": "\(attempts)", "downSeconds": "\(down)",
            ])
        case .bootstrapFallback(let reason, _):
            logger.warning("navdata fell back to bootstrap; redoing bootstrap and config writes",
                           metadata: ["reason": "\(reason.rawValue)"])
        case .configurationComplete(let failedKeys, _):
            if failedKeys.isEmpty {
                logger.info("configuration complete")
            } else {
                logger.error("configuration incomplete", metadata: ["failedKeys": "\(failedKeys.joined(separator: ","))"])
            }
        }
    }

    // MARK: - Socket setup

    private static func resolve(_ host: String, port: Int) throws(DroneLinkError) -> SocketAddress {
        if let literal = try? SocketAddress(ipAddress: host, port: port) { return literal }
        do {
            return try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw .addressResolution(address: host, port: port, reason: "\(error)")
        }
    }

    private static func bindHost(for address: SocketAddress) -> String {
        address.protocol == .inet6 ? "::" : "0.0.0.0"
    }

    /// Binds one socket of the link. The socket is created on the link's loop (so a test can put
    /// that thread in a private network namespace, and a re-bind happens where the start did).
    private func bindFuture(_ socket: DroneLinkSocket, host: String, port: Int) -> EventLoopFuture<any Channel> {
        eventLoop.flatSubmit { [self] in
            DatagramBootstrap(group: eventLoop)
                // Lets a re-bind take the port of the socket that just closed even if the kernel
                // has not released it yet (UDP has no TIME_WAIT; only our own sockets use the port).
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelOption(.recvAllocator,
                               value: FixedSizeRecvByteBufferAllocator(capacity: Self.navdataReceiveBufferBytes))
                .channelInitializer { [self] channel in
                    channel.eventLoop.makeCompletedFuture {
                        switch socket {
                        case .at:
                            try channel.pipeline.syncOperations.addHandler(SocketErrorHandler(link: self, socket: .at))
                        case .navdata:
                            try channel.pipeline.syncOperations.addHandler(NavdataInboundHandler(link: self))
                        }
                    }
                }
                .bind(host: host, port: port)
        }
    }
}

extension EventLoopFuture where Value == any Channel {
    fileprivate func getDroneLinkResult(socket: String) async throws(DroneLinkError) -> any Channel {
        do {
            return try await get()
        } catch {
            throw .bind(socket: socket, reason: "\(error)")
        }
    }
}

/// The owner's latest `setDesired` (`generation` counts the calls).
private struct PendingDesired: Sendable {
    var generation: UInt64 = 0
    var flying = false
    var pilot = ProgressiveCommand.hover
    var heading: ControllerHeading?
}

/// The running link's mutable state; only touched on the link's event loop.
private final class LinkRuntime {
    var core: DroneLinkCore
    /// Replaced when a closed socket is re-bound.
    var atChannel: any Channel
    var navdataChannel: any Channel
    /// Recovery state of each socket.
    var at = SocketRecovery()
    var navdata = SocketRecovery()
    let atAddress: SocketAddress
    let navdataAddress: SocketAddress
    let tickInterval: TimeAmount
    /// Reused for every AT datagram.
    var atBuffer: ByteBuffer
    /// The 4 trigger bytes, written once (sending it never mutates it).
    let triggerBuffer: ByteBuffer
    /// Reused encoder output.
    var datagram: [UInt8]
    var effects = DroneLinkEffects()
    /// Fix-to-datagram latency samples (fixed size: recording never allocates).
    var fixLatency = LatencyHistogram()
    /// `PendingDesired.generation` last applied to `core`.
    var appliedDesiredGeneration: UInt64 = 0
    var nextTickDeadline = NIODeadline.now()
    var scheduledTick: Scheduled<Void>?

    /// One socket's closing and re-binding.
    struct SocketRecovery {
        /// Set while the socket is closed and being re-bound.
        var reopen: Reopen?
        /// The last error seen on it (reported with `.socketClosed`).
        var lastError: String?
        var nextReopenDelay = DroneLink.reopenInitialDelay

        /// A datagram went through: the next closure starts the backoff over.
        mutating func worked() {
            if nextReopenDelay != DroneLink.reopenInitialDelay { nextReopenDelay = DroneLink.reopenInitialDelay }
        }
    }

    subscript(socket: DroneLinkSocket) -> SocketRecovery {
        get { socket == .at ? at : navdata }
        set { if socket == .at { at = newValue } else { navdata = newValue } }
    }

    /// A closed socket waiting to be bound again.
    struct Reopen {
        let previousPort: Int
        let closedAt: MonotonicTime
        var attempts = 0
        var scheduled: Scheduled<Void>?
    }

    func channel(_ socket: DroneLinkSocket) -> any Channel {
        switch socket {
        case .at: atChannel
        case .navdata: navdataChannel
        }
    }

    init(core: DroneLinkCore, atChannel: any Channel, navdataChannel: any Channel,
         atAddress: SocketAddress, navdataAddress: SocketAddress, allocator: ByteBufferAllocator,
         tickInterval: TimeAmount) {
        self.core = core
        self.atChannel = atChannel
        self.navdataChannel = navdataChannel
        self.atAddress = atAddress
        self.navdataAddress = navdataAddress
        self.tickInterval = tickInterval
        atBuffer = allocator.buffer(capacity: ATEncoder.maximumDatagramByteCount)
        triggerBuffer = allocator.buffer(bytes: DroneLink.navdataTriggerBytes)
        datagram = []
        datagram.reserveCapacity(ATEncoder.maximumDatagramByteCount)
        effects.events.reserveCapacity(8)
    }
}

/// Hands every navdata datagram to the link (on the loop).
private final class NavdataInboundHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    private let link: DroneLink

    init(link: DroneLink) { self.link = link }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        link.receiveNavdata(Self.unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        link.socketError(error, socket: .navdata)
    }
}

/// Logs socket errors on the AT socket instead of letting them reach the pipeline's tail.
private final class SocketErrorHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    private let link: DroneLink
    private let socket: DroneLinkSocket

    init(link: DroneLink, socket: DroneLinkSocket) {
        self.link = link
        self.socket = socket
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        link.socketError(error, socket: socket)
    }
}
