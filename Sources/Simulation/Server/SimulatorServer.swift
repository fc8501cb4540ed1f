#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Links
import FollowCore

/// Why the simulator could not start.
public enum SimulatorServerError: Error, CustomStringConvertible {
    /// Binding `socket` to `host:port` failed (port in use, bad address, …).
    case bindFailed(socket: String, host: String, port: Int, reason: String)
    /// A bound socket reported no local address.
    case noLocalAddress(socket: String)

    public var description: String {
        switch self {
        case .bindFailed(let socket, let host, let port, let reason):
            "cannot bind the \(socket) socket to \(host):\(port): \(reason)"
        case .noLocalAddress(let socket):
            "the \(socket) socket has no local address"
        }
    }
}

/// A simulated AR.Drone 2.0 on the network, speaking the real protocol, plus its onboard GPS
/// receiver (and optionally the person's) as NMEA over TCP — so the unmodified product
/// (`DroneLink`, gpsd, `GPSClient`) can fly it on a bench.
///
/// - UDP AT port (5556): datagrams decoded and filtered by `SimulatedDroneProtocol`, applied to
///   `DroneSimulator` at their arrival time.
/// - UDP navdata port (5554): any datagram registers its source as the navdata client; navdata
///   then goes there at 15 Hz (bootstrap until `general:navdata_demo` is configured).
/// - TCP onboard NMEA: RMC + GGA at 5 Hz and HDT = nose heading − mount offset, from
///   `GPSPairSimulator`; TCP person NMEA likewise from a `PersonScenario`.
/// - UDP control port (only when `controlPort` is set): fault injection and status, one JSON
///   command per datagram (`SimulatorControlCommand`).
///
/// Everything runs on one event loop: the sockets' handlers and a 5 ms timer that advances the
/// simulation in real time (`SystemClock`), so the simulator state has exactly one owner.
public final class SimulatorServer: Sendable {
    public let configuration: SimulatorConfiguration
    /// The ports actually bound.
    public let ports: SimulatorPorts
    /// UTC at `MonotonicTime.zero`, nanoseconds since the Unix epoch, used for the receivers'
    /// timestamps: a fix stamped UTC `u` (ns) was taken at monotonic time `u − utcNanosecondsAtMonotonicZero`.
    /// From the wall clock to the nanosecond, so a fix's time against a synchronised host clock gives
    /// the simulated receiver's latency.
    public let utcNanosecondsAtMonotonicZero: Int64
    /// `utcNanosecondsAtMonotonicZero` in whole seconds, rounded down.
    public var utcEpochSeconds: Int64 { Self.floorSeconds(utcNanosecondsAtMonotonicZero) }

    private let eventLoop: any EventLoop
    private let core: NIOLoopBound<SimulatorCore>
    private let udpChannels: [any Channel]
    private let nmeaServers: [NMEATCPServer]
    private let logger: Logger
    private let stopped = Atomic<Bool>(false)

    /// Binds every socket and starts the simulation clock.
    ///
    /// - Parameter eventLoopGroup: the server pins all its sockets and its timer to one loop of it.
    public static func start(
        configuration: SimulatorConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "followme.sim")
    ) async throws -> SimulatorServer {
        let loop = eventLoopGroup.next()
        let start = SystemClock.now()
        let utcEpoch = configuration.utcEpochSeconds.map { $0 * 1_000_000_000 } ?? Self.utcNanosecondsAtMonotonicZero(now: start)
        let core = try await loop.submit {
            NIOLoopBound(SimulatorCore(configuration: configuration, start: start, utcNanosecondsAtMonotonicZero: utcEpoch,
                                       logger: logger),
                         eventLoop: loop)
        }.get()

        var opened: [any Channel] = []
        var servers: [NMEATCPServer] = []
        do {
            let host = configuration.bindHost
            let onboard = try await bindNMEA(host: host, port: configuration.onboardNMEAPort, label: "onboard", loop: loop, logger: logger)
            servers.append(onboard)
            let person: NMEATCPServer? = configuration.person == .none ? nil
                : try await bindNMEA(host: host, port: configuration.personNMEAPort, label: "person", loop: loop, logger: logger)
            if let person { servers.append(person) }
            let atChannel = try await bindUDP(host: host, port: configuration.atPort, socket: "AT", loop: loop) { channel in
                try channel.pipeline.syncOperations.addHandler(SimulatorDatagramHandler.at(core: core))
            }
            opened.append(atChannel)
            let navdataChannel = try await bindUDP(host: host, port: configuration.navdataPort, socket: "navdata", loop: loop) { channel in
                try channel.pipeline.syncOperations.addHandler(SimulatorDatagramHandler.navdataTrigger(core: core))
            }
            opened.append(navdataChannel)
            let mavlinkChannel: (any Channel)? = configuration.droneProtocol != .mavlink ? nil
                : try await bindUDP(host: host, port: configuration.mavlinkPort, socket: "MAVLink", loop: loop) { channel in
                    try channel.pipeline.syncOperations.addHandler(SimulatorDatagramHandler.mavlink(core: core))
                }
            if let mavlinkChannel { opened.append(mavlinkChannel) }
            var controlPort: Int?
            if let port = configuration.controlPort {
                let controlChannel = try await bindUDP(host: host, port: port, socket: "control", loop: loop) { channel in
                    try channel.pipeline.syncOperations.addHandler(SimulatorDatagramHandler.control(core: core))
                }
                opened.append(controlChannel)
                controlPort = try localPort(controlChannel, "control")
            }

            let ports = SimulatorPorts(
                atPort: try localPort(atChannel, "AT"), navdataPort: try localPort(navdataChannel, "navdata"),
                onboardNMEAPort: onboard.port, personNMEAPort: person?.port, controlPort: controlPort,
                mavlinkPort: try mavlinkChannel.map { try localPort($0, "MAVLink") })
            let tick = TimeAmount.nanoseconds(Int64((max(configuration.tickIntervalSeconds, 0.001) * 1e9).rounded()))
            try await loop.submit {
                core.value.attach(navdataChannel: navdataChannel, onboardNMEA: onboard, personNMEA: person)
                core.value.mavlinkChannel = mavlinkChannel
                core.value.timer = loop.scheduleRepeatedTask(initialDelay: .zero, delay: tick) { _ in
                    core.value.tick(now: SystemClock.now())
                }
            }.get()
            logger.info("drone simulator running", metadata: [
                "bind": "\(host)", "atPort": "\(ports.atPort)", "navdataPort": "\(ports.navdataPort)",
                "onboardNMEAPort": "\(ports.onboardNMEAPort)",
                "personNMEAPort": "\(ports.personNMEAPort.map(String.init) ?? "-")",
                "controlPort": "\(ports.controlPort.map(String.init) ?? "-")",
                "mavlinkPort": "\(ports.mavlinkPort.map(String.init) ?? "-")",
                "home": "\(configuration.home)", "gpsNoise": "\(configuration.gpsNoise.rawValue)",
                "person": "\(configuration.person.rawValue)",
            ])
            return SimulatorServer(configuration: configuration, ports: ports, utcNanosecondsAtMonotonicZero: utcEpoch, eventLoop: loop, core: core,
                                   udpChannels: opened, nmeaServers: servers, logger: logger)
        } catch {
            for channel in opened { try? await channel.close() }
            for server in servers { await server.stop() }
            try? await loop.submit { core.value.detach() }.get()
            throw error
        }
    }

    /// The simulator's state now, taken on its loop.
    public func snapshot() async throws -> SimulatorSnapshot {
        try await eventLoop.submit { [core] in core.value.snapshot(now: SystemClock.now()) }.get()
    }

    /// Stops the clock and closes every socket (NMEA clients are disconnected). Idempotent.
    public func stop() async {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? await eventLoop.submit { [core] in core.value.detach() }.get()
        for channel in udpChannels { try? await channel.close() }
        for server in nmeaServers { await server.stop() }
        logger.info("drone simulator stopped")
    }

    // MARK: Helpers

    /// UTC of `MonotonicTime.zero`, nanoseconds: wall clock now minus the monotonic clock `now`.
    static func utcNanosecondsAtMonotonicZero(now: MonotonicTime) -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec) - now.nanoseconds
    }

    /// Whole seconds of `nanoseconds`, rounded down.
    static func floorSeconds(_ nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
    }

    private static func bindNMEA(host: String, port: Int, label: String, loop: any EventLoop, logger: Logger) async throws -> NMEATCPServer {
        do {
            return try await NMEATCPServer.start(host: host, port: port, label: label, eventLoop: loop, logger: logger)
        } catch let error as SimulatorServerError {
            throw error
        } catch {
            throw SimulatorServerError.bindFailed(socket: "\(label) NMEA (TCP)", host: host, port: port, reason: "\(error)")
        }
    }

    private static func bindUDP(
        host: String, port: Int, socket: String, loop: any EventLoop,
        _ addHandlers: @escaping @Sendable (any Channel) throws -> Void
    ) async throws -> any Channel {
        do {
            // No SO_REUSEADDR: on Linux it would let two simulators share a UDP port silently.
            return try await DatagramBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try addHandlers(channel) }
                }
                .bind(host: host, port: port)
                .get()
        } catch {
            throw SimulatorServerError.bindFailed(socket: "\(socket) (UDP)", host: host, port: port, reason: "\(error)")
        }
    }

    private static func localPort(_ channel: any Channel, _ socket: String) throws -> Int {
        guard let port = channel.localAddress?.port else { throw SimulatorServerError.noLocalAddress(socket: socket) }
        return port
    }

    init(
        configuration: SimulatorConfiguration,
        ports: SimulatorPorts,
        utcNanosecondsAtMonotonicZero: Int64,
        eventLoop: any EventLoop,
        core: NIOLoopBound<SimulatorCore>,
        udpChannels: [any Channel],
        nmeaServers: [NMEATCPServer],
        logger: Logger
    ) {
        self.configuration = configuration
        self.ports = ports
        self.utcNanosecondsAtMonotonicZero = utcNanosecondsAtMonotonicZero
        self.eventLoop = eventLoop
        self.core = core
        self.udpChannels = udpChannels
        self.nmeaServers = nmeaServers
        self.logger = logger
    }
}
