import FollowCore
import Logging
import MAVLink
import NIOCore
import NIOPosix

/// The running link's mutable state; only touched on the link's event loop.
final class MAVLinkRuntime {
    var session: MAVLinkSession
    /// Replaced when a closed socket is bound again.
    var channel: any Channel
    let remote: SocketAddress
    /// Set while the socket is closed and being bound again.
    var reopen: Reopen?
    var nextReopenDelay = MAVLinkLink.reopenInitialDelay
    var sender: MAVLinkSender
    var output = MAVLinkSessionOutput()
    /// Reused for every datagram.
    var buffer: ByteBuffer
    var fixLatency = LatencyHistogram()
    /// The periodic tick (`MAVLinkLink.tick`).
    let ticks: FixedRateTimer
    /// When the link started; "no HEARTBEAT yet" and what to check are logged while the vehicle stays silent.
    var startedAt = MonotonicTime.zero
    var silenceReminder: WaitingReminder
    /// The flight frame in the file (`configuration.flightRecordPath`), as last written or read.
    var keptRecord: FlightFrameRecord?

    /// A closed socket waiting to be bound again.
    struct Reopen {
        let previousPort: Int
        let closedAt: MonotonicTime
        var attempts = 0
        var scheduled: Scheduled<Void>?
    }

    init(
        session: MAVLinkSession,
        channel: any Channel,
        remote: SocketAddress,
        configuration: MAVLinkLinkConfiguration
    ) {
        self.session = session
        self.channel = channel
        self.remote = remote
        sender = MAVLinkSender(systemID: configuration.systemID, componentID: configuration.componentID)
        buffer = channel.allocator.buffer(capacity: MAVLinkFrame.maximumLength)
        ticks = FixedRateTimer(intervalSeconds: configuration.timing.tickIntervalSeconds)
        silenceReminder = .firstPacket(silenceSeconds: configuration.timing.telemetrySilenceSeconds)
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

    /// The periodic tick (`runtime.ticks`, fixed rate); false once the link is no longer running.
    func tick(_ latenessSeconds: Double) -> Bool {
        guard let runtime = runningRuntime else { return false }
        runtime.session.recordTickLateness(seconds: latenessSeconds)
        runtime.output.reset()
        runtime.session.tick(now: SystemClock.now(), output: &runtime.output)
        perform(runtime)
        remindIfSilent(runtime)
        tickHandler?(SystemClock.now())
        return true
    }

    /// While no vehicle HEARTBEAT has come since start: what to check, logged after five silence
    /// periods, then every 30 s.
    func remindIfSilent(_ runtime: MAVLinkRuntime) {
        guard let waited = runtime.silenceReminder.due(now: SystemClock.now(), since: runtime.startedAt,
                                                       arrived: runtime.session.vehicleTarget != nil) else { return }
        logger.warning("no HEARTBEAT from the autopilot yet", metadata: [
            "vehicle": "\(configuration.address):\(configuration.port)", "waitedSeconds": "\(Int(waited))",
            "datagramsRead": "\(runtime.session.statistics.counts[.telemetryDatagramsRead])",
            "fix": "\(LinkHint.noHeartbeat(configuration))",
        ])
    }

    /// Sends the session's messages (one datagram each) and publishes its events.
    func perform(_ runtime: MAVLinkRuntime) {
        for outgoing in runtime.output.messages {
            guard runtime.reopen == nil else {
                // The socket is being bound again: nothing can go out (the autopilot's GCS failsafe counts).
                runtime.session.countSendFailure()
                continue
            }
            // Encoded straight into the reused buffer: no array per message (PERFORMANCE.md, `mavlink-tick`).
            runtime.buffer.clear()
            runtime.buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: MAVLinkFrame.maximumLength) {
                runtime.sender.encode(outgoing, into: $0)
            }
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
        keepFlightFrame(runtime)
    }

    /// Writes the session's flight frame when it changed; removes the file when the flight of ours
    /// that had one ended (a record read at start stays until this run's flight replaces or ends it).
    func keepFlightFrame(_ runtime: MAVLinkRuntime) {
        guard let path = configuration.flightRecordPath else { return }
        let record = runtime.session.flightFrameRecord
        guard record != runtime.keptRecord else { return }
        // A record read at start stays until the vehicle is heard, and while it is armed in our mode
        // waiting for the flight to fly it; disarmed, or someone else's, the flight it was of is over.
        if record == nil, runtime.session.vehicle.heartbeat == nil || runtime.session.owner == .foundInOurMode { return }
        if FlightFrameFile(path: path).write(record) {
            runtime.keptRecord = record
        } else {
            logger.warning("mavlink: cannot keep the flight's frame for a restart", metadata: ["file": "\(path)"])
            runtime.keptRecord = record
        }
    }

    /// Called on the loop for every datagram (`UDPSocket.bind`).
    func receive(_ envelope: AddressedEnvelope<ByteBuffer>) {
        guard let runtime = runningRuntime else { return }
        runtime.output.reset()
        runtime.session.receive(datagram: envelope.data.readableBytesView, fromExpectedSource: envelope.remoteAddress == runtime.remote,
                                now: SystemClock.now(), output: &runtime.output)
        perform(runtime)
    }

    /// Reports the socket closing under a running link (`.socketClosed`; SwiftNIO closes a UDP
    /// channel on send errors such as ENETUNREACH, see `DroneLinkEvent.socketClosed`) and binds it
    /// again, on the same local port first (docs/mavlink.md §7.5).
    func watchClose(of channel: any Channel, runtime: MAVLinkRuntime) {
        let id = ObjectIdentifier(runtime)
        // Read now: a closed channel may no longer report its local address.
        let localPort = channel.localAddress?.port ?? 0
        channel.closeFuture.whenComplete { [self] _ in
            guard let current = currentRuntime(id), current.channel === channel, current.reopen == nil else { return }
            let now = SystemClock.now()
            current.reopen = MAVLinkRuntime.Reopen(previousPort: localPort, closedAt: now)
            current.output.reset()
            current.session.socketClosed(error: nil, now: now, output: &current.output)
            perform(current)
            scheduleReopen(current)
        }
    }

    /// On the loop: the running runtime if it is still the one identified by `id`.
    func currentRuntime(_ id: ObjectIdentifier) -> MAVLinkRuntime? {
        guard let runtime = runningRuntime, ObjectIdentifier(runtime) == id else { return nil }
        return runtime
    }

    /// One bind attempt after the back-off (as `DroneLink`'s: 50 ms doubling to 1 s).
    func scheduleReopen(_ runtime: MAVLinkRuntime) {
        let id = ObjectIdentifier(runtime)
        let delay = runtime.nextReopenDelay
        runtime.nextReopenDelay = min(delay * 2, Self.reopenMaximumDelay)
        runtime.reopen?.scheduled = eventLoop.scheduleTask(in: delay) { [self] in
            guard let runtime = currentRuntime(id), var reopen = runtime.reopen else { return }
            reopen.attempts += 1
            runtime.reopen = reopen
            let host = UDPSocket.bindHost(for: runtime.remote)
            bindFuture(host: host, port: reopen.previousPort)
                .flatMapError { [self] _ in bindFuture(host: host, port: 0) }
                .whenComplete { [self] result in
                    guard let runtime = currentRuntime(id), let reopen = runtime.reopen else {
                        if case .success(let channel) = result { channel.close(promise: nil) }
                        return
                    }
                    guard case .success(let channel) = result else {
                        scheduleReopen(runtime)
                        return
                    }
                    runtime.channel = channel
                    runtime.reopen = nil
                    runtime.nextReopenDelay = Self.reopenInitialDelay
                    watchClose(of: channel, runtime: runtime)
                    let now = SystemClock.now()
                    let port = channel.localAddress?.port ?? 0
                    runtime.output.reset()
                    runtime.session.socketReopened(localPort: port, samePort: port == reopen.previousPort && port != 0,
                                                   attempts: reopen.attempts, downSeconds: now.seconds(since: reopen.closedAt),
                                                   now: now, output: &runtime.output)
                    perform(runtime)
                }
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
        do {
            return try await bindFuture(host: host, port: port).get()
        } catch {
            throw MAVLinkLinkError(operation: "bind local UDP port \(port)", reason: "\(error)")
        }
    }

    /// Binds the link's socket on its loop (`UDPSocket.bind`: the start and every re-bind).
    func bindFuture(host: String, port: Int) -> EventLoopFuture<any Channel> {
        UDPSocket.bind(on: eventLoop, host: host, port: port, receiveBufferBytes: Self.receiveBufferBytes,
                       onDatagram: { [self] in receive($0) },
                       onError: { [self] in logger.warning("mavlink socket error", metadata: ["error": "\($0)"]) })
    }
}
