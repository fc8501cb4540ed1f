import FollowCore
import Logging
import MAVLink
import NIOCore
import NIOPosix

/// The UDP link to one MAVLink vehicle (PX4 or ArduPilot): a `DroneControlLink` (docs/mavlink.md §7).
///
/// One UDP socket bound to `localPort` (0 = any) sends to `address:port` and reads the vehicle's
/// replies; datagrams from any other source are dropped and counted. Every decision is
/// `MAVLinkSession`'s (a value, tested without sockets); this class owns the socket, the
/// fixed-rate tick (`tickIntervalSeconds`, 30 Hz) and the clock. All state lives on one NIO event
/// loop, like `DroneLink`'s, so the flight loop can run on the same loop without a thread hop.
///
/// `stop()` only stops sending; it does not land (the owner sends `flying: false` and waits for
/// the landed state first). After `stop()` the autopilot's own failsafes take over (GCS heartbeat
/// loss; PX4 leaves OFFBOARD when set-points stop, docs/mavlink.md §7.5).
public final class MAVLinkLink: DroneControlLink, Sendable {
    public let configuration: MAVLinkLinkConfiguration
    let eventHandler: @Sendable (LinkEvent) -> Void
    /// The loop, lifecycle, logger and tick hook (`LinkLoop`, shared with `DroneLink`).
    let loop: LinkLoop<MAVLinkRuntime>
    var eventLoop: any EventLoop { loop.eventLoop }
    var lifecycle: NIOLoopBoundBox<LinkLifecycle<MAVLinkRuntime>> { loop.lifecycle }
    var logger: Logger { loop.logger }
    var tickHandler: (@Sendable (MonotonicTime) -> Void)? { loop.tickHandler }

    /// Receive buffer: above the longest MAVLink frame (280 bytes), and room for a router that
    /// packs several frames into one datagram.
    static let receiveBufferBytes = 2048
    /// Re-bind back-off after the socket closed under the link: `DroneLink`'s (50 ms doubling to 1 s;
    /// the first retry catches a brief ENOBUFS or route flap, 1 s apart keeps retrying while the
    /// autopilot's GCS failsafe counts).
    static let reopenInitialDelay = TimeAmount.milliseconds(50)
    static let reopenMaximumDelay = TimeAmount.seconds(1)

    /// - Parameters:
    ///   - eventLoopGroup: the link pins its socket and tick to one loop of this group.
    ///   - eventHandler: called on the link's loop with every event, in order. Must not block.
    ///   - tickHandler: called on the loop after every periodic tick with its time. Must not block.
    public init(
        configuration: MAVLinkLinkConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "followme.mavlink"),
        eventHandler: @escaping @Sendable (LinkEvent) -> Void,
        tickHandler: (@Sendable (MonotonicTime) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.eventHandler = eventHandler
        loop = LinkLoop(group: eventLoopGroup, logger: logger, tickHandler: tickHandler)
    }

    public var peerDescription: String { "mavlink \(configuration.address):\(configuration.port)" }

    // MARK: - Lifecycle

    /// Resolves the vehicle's address, binds the socket, sends the first HEARTBEAT and starts the
    /// tick. A link runs once: after `stop()` make a new one.
    public func start() async throws {
        try await startLink()
    }

    func startLink() async throws(MAVLinkLinkError) {
        guard await loop.claimIdle() else { throw MAVLinkLinkError.alreadyStarted }
        let remote: SocketAddress
        let channel: any Channel
        do throws(MAVLinkLinkError) {
            remote = try Self.resolve(configuration.address, port: configuration.port)
            channel = try await bind(host: UDPSocket.bindHost(for: remote), port: configuration.localPort)
        } catch {
            await loop.markStopped()
            throw error
        }
        let configuration = configuration
        // A restart in flight: the frame the FollowMe before kept (docs/mavlink.md §7.2).
        let previousFlight = configuration.flightRecordPath.flatMap { FlightFrameFile(path: $0).read() }
        let started = await loop.run {
            let runtime = MAVLinkRuntime(session: MAVLinkSession(configuration: configuration, previousFlight: previousFlight),
                                         channel: channel, remote: remote, configuration: configuration)
            runtime.keptRecord = previousFlight
            return runtime
        } begin: { [self] runtime in
            watchClose(of: channel, runtime: runtime)
            runtime.output.reset()
            runtime.startedAt = SystemClock.now()
            runtime.session.start(now: runtime.startedAt, output: &runtime.output)
            perform(runtime)
            runtime.ticks.start(on: eventLoop) { [self] lateness in tick(lateness) }
        }
        guard started else {
            try? await channel.close()
            throw MAVLinkLinkError.alreadyStarted
        }
        logger.info("mavlink link started", metadata: [
            "vehicle": "\(configuration.address):\(configuration.port)", "autopilot": "\(configuration.autopilot.rawValue)",
            "local": "\(channel.localAddress.map { "\($0)" } ?? "?")",
        ])
    }

    /// Stops the tick and closes the socket. Does not land (see the type doc).
    public func stop() async {
        let channel: (any Channel)? = (try? await eventLoop.submit { [self] () -> (any Channel)? in
            defer { lifecycle.value = .stopped }
            guard case .running(let runtime) = lifecycle.value else { return nil }
            runtime.ticks.cancel()
            runtime.reopen?.scheduled?.cancel()
            return runtime.channel
        }.get()) ?? nil
        if let channel {
            try? await channel.close()
            logger.info("mavlink link stopped")
        }
    }

    // MARK: - Owner API

    /// Sets the command every following tick carries; `immediately` sends the set-point now
    /// (the fix-to-datagram probe records it when `reflecting` is given). Ignored until `start()`
    /// completed. Applied at once when called on the link's loop (the flight runs there), else
    /// through one `execute`, in call order.
    public func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) {
        guard eventLoop.inEventLoop else {
            eventLoop.execute { [self] in apply(command, immediately: immediately, reflecting: fixReceivedAt) }
            return
        }
        apply(command, immediately: immediately, reflecting: fixReceivedAt)
    }

    /// The owner's explicit LAND of whatever vehicle flies (`followme drone land`,
    /// `MAVLinkSession.requestLanding`): unlike `send(.landed, …)`, also a vehicle this run did not
    /// take off. Ignored until `start()` completed.
    public func land() {
        eventLoop.execute { [self] in
            guard let runtime = runningRuntime else { return }
            runtime.session.requestLanding()
        }
    }

    /// On the loop: `send`'s work.
    func apply(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) {
        guard let runtime = runningRuntime else { return }
        runtime.session.setDesired(command)
        // A dry run sends no set-point (`MAVLinkLinkConfiguration.dryRun`).
        guard immediately, !runtime.session.configuration.dryRun else { return }
        runtime.output.reset()
        let sentBefore = runtime.session.statistics.counts[.datagramsSent]
        runtime.session.sendSetpoint(now: SystemClock.now(), output: &runtime.output)
        perform(runtime)
        if let fixReceivedAt, runtime.session.statistics.counts[.datagramsSent] > sentBefore {
            runtime.fixLatency.record(nanoseconds: SystemClock.now().nanoseconds - fixReceivedAt.nanoseconds)
        }
    }

    public func linkStatistics() async -> LinkStatistics? {
        await snapshot { $0.session.statistics }
    }

    public func fixLatency() async -> LatencyHistogram? {
        await snapshot { $0.fixLatency }
    }

    /// The socket's local address (what the vehicle answers to); nil unless running.
    public func localAddress() async -> SocketAddress? {
        await snapshot { $0.channel.localAddress }
    }

    /// What the vehicle last said about itself (mode, armed, landed state, battery, position), for
    /// `followme drone status|takeoff|land`; nil unless running.
    public func vehicleState() async -> VehicleState? {
        await snapshot { $0.session.vehicle }
    }
}

/// Why `MAVLinkLink.start()` failed: what it could not do, and why (the system's words).
public struct MAVLinkLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// "start the MAVLink link twice", "resolve drone.local:14550", "bind local UDP port 14551".
    public let operation: String
    public let reason: String

    public var description: String { "cannot \(operation): \(reason)" }

    /// A link runs once: after `stop()` make a new one.
    static let alreadyStarted = MAVLinkLinkError(operation: "start the MAVLink link", reason: "it was already started")
}

extension LinkHint {
    /// No HEARTBEAT from a multirotor autopilot at `configuration`'s address and port.
    public static func noHeartbeat(_ configuration: MAVLinkLinkConfiguration) -> String {
        noHeartbeat(address: configuration.address, port: configuration.port, localPort: configuration.localPort)
    }
}
