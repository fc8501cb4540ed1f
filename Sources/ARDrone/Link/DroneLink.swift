import ARDrone
import FollowCore
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The UDP link to one AR.Drone 2.0: AT commands out (port 5556), navdata in (port 5554).
///
/// Two UDP sockets on ephemeral local ports, like the SDK (`COM_CONFIG_SOCKET_AT(…, 0, …)`,
/// docs/ardrone-protocol.md §1.1): one sends AT datagrams to `address:atPort`, the other sends the navdata trigger
/// to `address:navdataPort` and receives navdata (the drone answers the trigger's source).
///
/// A fixed-rate timer re-sends the *desired* state every `tickIntervalSeconds` in one datagram
/// (REF + PCMD, plus COMWDG / CTRL / CONFIG_IDS+CONFIG / FTRIM when due); the owner only changes
/// what is desired. Every decision is made by `ARDroneSession` (a value, tested without sockets);
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

    let continuation: AsyncStream<DroneLinkEvent>.Continuation
    let eventHandler: (@Sendable (DroneLinkEvent) -> Void)?
    /// The owner's latest `setDesired`, picked up by the loop at the next tick or immediate send
    /// (so a decision that need not go out at once costs no loop wake-up).
    let pendingDesired = Mutex(PendingDesired())
    /// The loop, lifecycle, logger and tick hook (`LinkLoop`, shared with `MAVLinkLink`).
    let loop: LinkLoop<LinkRuntime>
    var eventLoop: any EventLoop { loop.eventLoop }
    var lifecycle: NIOLoopBoundBox<LinkLifecycle<LinkRuntime>> { loop.lifecycle }
    var logger: Logger { loop.logger }
    var tickHandler: (@Sendable (MonotonicTime) -> Void)? { loop.tickHandler }

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
        self.eventHandler = eventHandler
        loop = LinkLoop(group: eventLoopGroup, logger: logger, tickHandler: tickHandler)
        (events, continuation) = AsyncStream.makeStream(
            of: DroneLinkEvent.self, bufferingPolicy: .bufferingNewest(Self.eventBufferCount))
    }

    // MARK: - Lifecycle

    /// Resolves the drone address, opens both sockets, sends the first navdata trigger and starts
    /// the tick. AT commands are sent only once the first navdata arrived (see `.connected`).
    /// A link runs once: after `stop()` make a new one.
    public func start() async throws(DroneLinkError) {
        guard await loop.claimIdle() else { throw .alreadyStarted }

        let atAddress: SocketAddress
        let navdataAddress: SocketAddress
        let atChannel: any Channel
        let navdataChannel: any Channel
        do throws(DroneLinkError) {
            atAddress = try Self.resolve(configuration.address, port: configuration.atPort)
            navdataAddress = try Self.resolve(configuration.address, port: configuration.navdataPort)
            let bindHost = UDPSocket.bindHost(for: atAddress)
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
        let started = await loop.run {
            LinkRuntime(
                core: ARDroneSession(configuration: configuration),
                atChannel: atChannel, navdataChannel: navdataChannel,
                atAddress: atAddress, navdataAddress: navdataAddress,
                allocator: atChannel.allocator, tickIntervalSeconds: configuration.tickIntervalSeconds
            )
        } begin: { [self] runtime in
            // Desires expressed before start() are ignored (documented on setDesired).
            runtime.appliedDesiredGeneration = pendingDesired.withLock { $0.generation }
            watchClose(of: atChannel, socket: .at, runtime: runtime)
            watchClose(of: navdataChannel, socket: .navdata, runtime: runtime)
            runtime.effects.reset()
            runtime.core.start(now: SystemClock.now(), effects: &runtime.effects)
            perform(runtime)
            runtime.ticks.start(on: eventLoop) { [self] lateness in tick(lateness) }
        }
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
            runtime.ticks.cancel()
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
}
