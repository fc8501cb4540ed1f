import FollowCore
import Foundation
import Links
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import FlightRecords

/// Options of `followme run` that are not in the config file.
public struct FlightServiceOptions: Sendable {
    /// Dry run: never change what the drone does. REF keeps what the link adopted on connect (so
    /// a flying drone is not landed; once navdata shows it on the ground bit 9 is cleared and never
    /// set again), PCMD is always hover (progressive flag clear), and the commands the follow core
    /// would send are logged (info, at most once a second) and recorded. SIGTERM then ends the run
    /// without landing: exit 0 if the drone is on the ground, 1 if it is still airborne.
    public var noTakeoff = false
    /// After SIGTERM/SIGINT, how long to wait for navdata to confirm "landed", seconds.
    public var landTimeoutSeconds = 30.0
    /// JSONL flight log path, or nil.
    public var flightLogPath: String?
    /// The config file the flight flies with and its effective TOML (`config check`'s rendering),
    /// for the flight log's start record.
    public var configPath: String?
    public var configTOML: String?
    /// Draw a one-line status on the terminal.
    public var statusLine = false
    /// At exit, log the fix-to-datagram latency (`FlightService.fixLatency`; PERFORMANCE.md).
    public var latencyReport = false
    /// The writer thread behind stderr (the status line goes through it; its drop counters are
    /// recorded). Nil: the service makes its own for the status line.
    public var logWriter: LogWriter?
    /// The read-only status socket (`--status-socket`, `[status] socket`): gets a `FlightStatus`
    /// every 0.25 s. The caller creates and stops it. Nil: none.
    public var statusPublisher: StatusPublisher?
    /// Where the flight's status goes for every view (the status socket's and the cockpit's board);
    /// nil: the status publisher's own board, if there is one.
    public var statusBoard: FlightStatusBoard?
    /// Where operator commands come in (the status socket, the cockpit). Nil: none are taken.
    public var commands: OperatorCommandInbox?
    /// systemd's notification socket under `Type=notify` (`SystemdNotifier.fromEnvironment`): READY,
    /// the state as STATUS, WATCHDOG pings from the flight loop, STOPPING. Nil: not under systemd.
    public var systemd: SystemdNotifier?

    public init() {}

    /// The board the flight loop publishes its status to.
    var publishedStatusBoard: FlightStatusBoard? { statusBoard ?? statusPublisher?.board }
}

/// How a flight ended.
public enum FlightOutcome: Sendable, Equatable {
    /// Shut down with the drone confirmed on the ground (or it never left it).
    case landed
    /// Shut down but navdata did not confirm "landed" within the bound.
    case landingUnconfirmed
    /// Shut down while a pilot or the autopilot's own failsafe flies the vehicle
    /// (`FlightState.released`): FollowMe never overrides them, so it did not land it (exit 3).
    case released
}

/// `followme run`: wires the gpsd client, the drone link and the follow core in one loop.
///
/// One loop owns the flight state (`FlightStateMachine`), on the drone link's event loop. A new
/// fix updates the command at once (sent immediately, not at the next tick); the link keeps
/// re-sending the latest command at 30 Hz and runs the control step after each tick.
/// SIGTERM/SIGINT (ServiceLifecycle graceful shutdown) → land, wait for navdata to say "landed"
/// (bounded), then return.
public final class FlightService: Service, Sendable {
    public let flight: FlightConfiguration
    public let options: FlightServiceOptions
    private let logger: Logger
    private let outcomeBox = Mutex<FlightOutcome?>(nil)
    private let latencyBox = Mutex<LatencyHistogram?>(nil)

    public init(flight: FlightConfiguration, options: FlightServiceOptions, logger: Logger) {
        self.flight = flight
        self.options = options
        self.logger = logger
    }

    /// The outcome after `run()` returned.
    public var outcome: FlightOutcome? { outcomeBox.withLock { $0 } }

    /// With `options.latencyReport`, after `run()` returned: from each fix leaving `gps_read` to the
    /// first AT datagram reflecting it leaving the socket (nil if the link never ran).
    public var fixLatency: LatencyHistogram? { latencyBox.withLock { $0 } }

    public func run() async throws {
        // The whole flight runs on the drone link's event loop (an actor using that loop as its
        // executor, and the loop itself confined to it): navdata and the 30 Hz tick reach the loop
        // without a thread hop; only a GPS event crosses threads (its reader thread wakes the
        // loop). PERFORMANCE.md has the figures. The loop body must not block, since it delays the
        // AT datagrams: the recorder buffers lines and writes them to its file with one write(2)
        // at least twice a second; stderr gets log lines only on state changes and failures.
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let flight = FlightOnEventLoop(eventLoop: eventLoop)
        let (outcome, latency) = try await flight.run(flight: self.flight, options: options, logger: logger)
        latencyBox.withLock { $0 = latency }
        outcomeBox.withLock { $0 = outcome }
    }
}

/// Runs one flight with the link's event loop as its executor (see `FlightService.run`).
private actor FlightOnEventLoop {
    private let eventLoop: any EventLoop
    nonisolated let unownedExecutor: UnownedSerialExecutor

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        unownedExecutor = eventLoop.executor.asUnownedSerialExecutor()
    }

    func run(flight: FlightConfiguration, options: FlightServiceOptions, logger: Logger)
        async throws -> (FlightOutcome, LatencyHistogram?)
    {
        // The loop is confined to the event loop and driven by callbacks: the link calls it on the
        // loop (navdata, events, every 30 Hz tick), a GPS reader thread hands it each event with
        // one `execute`, and this task only waits for the outcome. No AsyncStream, no timer of our
        // own, no thread pool in the control path (PERFORMANCE.md).
        let driver = NIOLoopBoundBox<FlightLoopDriver?>.makeEmptyBox(eventLoop: eventLoop)
        let eventLoop = eventLoop
        let gps = GPSClient(subscriptions: flight.subscriptions, logger: logger, eventHandler: { event in
            eventLoop.execute { driver.value?.handle(.gps(event)) }
        })
        let machine = try FlightStateMachine(follow: flight.follow, failsafe: flight.failsafe, vehicle: flight.vehicle,
                                             onboardLatencySeconds: flight.onboardLatencySeconds)
        let link = flight.link.makeLink(
            eventLoop: eventLoop, logger: logger, dryRun: options.noTakeoff,
            eventHandler: { driver.value?.handle(.link($0)) }, tickHandler: { _ in driver.value?.handle(.tick) })
        let recorder = try options.flightLogPath.map { try FlightRecorder(path: $0, now: SystemClock.now()) }
        let outcomePromise = eventLoop.makePromise(of: FlightOutcome.self)
        let loop = FlightLoop(machine: machine, link: link, recorder: recorder, options: options, logger: logger)
        driver.value = FlightLoopDriver(loop: loop, promise: outcomePromise, now: SystemClock.now())

        gps.start()
        do {
            try await link.start()
        } catch {
            gps.stop()
            driver.value = nil
            outcomePromise.fail(error)
            throw error
        }
        // Operator commands reach the loop as a GPS fix does: one `execute` onto the event loop.
        options.commands?.attach { request, source, reply in
            eventLoop.execute {
                guard let flight = driver.value else {
                    return reply(.refused(request.name, source: source, outcome: "no-flight"))
                }
                switch request {
                case .command(let command): flight.handle(.operatorCommand(command, source: source))
                case .followMode(let change): flight.handle(.followModeChange(change, source: source))
                }
                reply(flight.loop.lastOperatorReply ?? .refused(request.name, source: source, outcome: "no-flight"))
            }
        }
        defer { options.commands?.attach(nil) }
        logger.info("flight service started", metadata: [
            "drone": "\(link.peerDescription)",
            "dry-run": "\(options.noTakeoff)",
        ])
        // Configured, the links started, the loop running: systemd may now call the unit started.
        if let systemd = options.systemd {
            let state = driver.value.map { SystemdNotifier.statusLine(stateName: $0.loop.machine.state.name) } ?? "preflight"
            systemd.send("READY=1\nSTATUS=\(state)")
        }

        let outcome = await withGracefulShutdownHandler(isolation: self) {
            // Never fails: only `FlightLoopDriver` completes it, with success.
            (try? await outcomePromise.futureResult.get()) ?? .landingUnconfirmed
        } onGracefulShutdown: { [systemd = options.systemd] in
            systemd?.send("STOPPING=1")
            eventLoop.execute { driver.value?.handle(.shutdown) }
        }
        let finalState = driver.value?.loop.machine.state
        // The loop ticks no more: the state it ended in (landed, released, …) is systemd's last word.
        if let finalState { options.systemd?.send("STATUS=" + SystemdNotifier.statusLine(stateName: finalState.name)) }
        driver.value = nil
        gps.stop()
        if let statistics = await link.linkStatistics() {
            // The link's counters at exit, e.g. telemetry dropped as spoofed, corrupt or stale.
            logger.info("drone link statistics", metadata: [
                "navdata-received": "\(statistics.counts[.telemetryReceived])",
                "navdata-dropped-unexpected-source": "\(statistics.counts[.droppedUnexpectedSource])",
                "navdata-dropped-malformed": "\(statistics.counts[.droppedMalformed])",
                "navdata-dropped-sequence": "\(statistics.counts[.droppedSequence])",
                "datagrams-sent": "\(statistics.counts[.datagramsSent])",
            ])
            let now = SystemClock.now()
            var final = FlightLinkRecord(t: now.seconds, event: "statistics-final")
            final.link = LinkStatisticsRecord(statistics)
            recorder?.record(final, now: now)
        }
        var fixLatency: LatencyHistogram?
        if options.latencyReport, let latency = await link.fixLatency() {
            logger.notice("fix-to-datagram latency", metadata: [
                "count": "\(latency.count)",
                "p50-ms": "\(LatencyHistogram.milliseconds(latency.percentileNanoseconds(0.5) ?? 0))",
                "p99-ms": "\(LatencyHistogram.milliseconds(latency.percentileNanoseconds(0.99) ?? 0))",
                "max-ms": "\(LatencyHistogram.milliseconds(latency.maximumNanoseconds))",
            ])
            fixLatency = latency
        }
        await link.stop()
        let dropped = FlightLoop.droppedLogLines(recorder: recorder, logWriter: options.logWriter)
        if let recorder {
            let now = SystemClock.now()
            recorder.record(FlightLogFinalRecord(t: now.seconds, dropped: dropped), now: now)
            if !recorder.close(timeoutSeconds: 5) {
                logger.error("flight log not completely written before the deadline", metadata: ["path": "\(recorder.path)"])
            }
        }
        logger.info("flight service stopped", metadata: [
            "outcome": "\(outcome)", "state": "\(finalState?.name ?? "?")",
            "log-lines-dropped": "\(dropped.logLines)", "flight-log-lines-dropped": "\(dropped.flightLogLines)",
        ])
        return (outcome, fixLatency)
    }
}

/// Owns the `FlightLoop` on the event loop and completes the flight's promise once it is over.
private final class FlightLoopDriver {
    private(set) var loop: FlightLoop
    private let promise: EventLoopPromise<FlightOutcome>
    private var finished = false

    init(loop: FlightLoop, promise: EventLoopPromise<FlightOutcome>, now: MonotonicTime) {
        self.loop = loop
        self.promise = promise
        self.loop.start(now: now)
    }

    func handle(_ input: FlightLoop.Input) {
        guard !finished, let outcome = loop.handle(input, now: SystemClock.now()) else { return }
        finished = true
        promise.succeed(outcome)
    }
}
