import ARDroneProtocol
import DroneLink
import FollowCore
import Foundation
import GPSClient
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import ShellSupport
import Observations
import FlightLog

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
    /// Draw a one-line status on the terminal.
    public var statusLine = false
    /// At exit, log the fix-to-datagram latency (`FlightService.fixLatency`; PERFORMANCE.md).
    public var latencyReport = false
    /// The writer thread behind stderr (the status line goes through it; its drop counters are
    /// recorded). Nil: the service makes its own for the status line.
    public var logWriter: LogWriter?

    public init() {}
}

/// How a flight ended.
public enum FlightOutcome: Sendable, Equatable {
    /// Shut down with the drone confirmed on the ground (or it never left it).
    case landed
    /// Shut down but navdata did not confirm "landed" within the bound.
    case landingUnconfirmed
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

    enum LoopInput: Sendable {
        case gps(GPSEvent)
        case link(DroneLinkEvent)
        case tick
        case shutdown
    }

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
        let link = DroneLink(configuration: flight.link, eventLoopGroup: eventLoop, logger: logger,
                             eventHandler: { driver.value?.handle(.link($0)) },
                             tickHandler: { _ in driver.value?.handle(.tick) })
        let machine = try FlightStateMachine(follow: flight.follow, failsafe: flight.failsafe)
        let recorder = try options.flightLogPath.map { try FlightRecorder(path: $0, now: SystemClock.now()) }
        let outcomePromise = eventLoop.makePromise(of: FlightOutcome.self)
        let loop = FlightLoop(machine: machine, link: link, recorder: recorder, options: options, logger: logger)
        driver.value = FlightLoopDriver(loop: loop, promise: outcomePromise)

        gps.start()
        do {
            try await link.start()
        } catch {
            gps.stop()
            driver.value = nil
            outcomePromise.fail(error)
            throw error
        }
        logger.info("flight service started", metadata: [
            "drone": "\(flight.link.address):\(flight.link.atPort)/\(flight.link.navdataPort)",
            "dry-run": "\(options.noTakeoff)",
        ])

        let outcome = await withGracefulShutdownHandler(isolation: self) {
            // Never fails: only `FlightLoopDriver` completes it, with success.
            (try? await outcomePromise.futureResult.get()) ?? .landingUnconfirmed
        } onGracefulShutdown: {
            eventLoop.execute { driver.value?.handle(.shutdown) }
        }
        let finalState = driver.value?.loop.machine.state
        driver.value = nil
        gps.stop()
        if let statistics = await link.statistics() {
            // The link's counters at exit, e.g. navdata dropped as spoofed, corrupt or stale.
            logger.info("drone link statistics", metadata: [
                "navdata-received": "\(statistics.navdataReceived)",
                "navdata-dropped-unexpected-source": "\(statistics.droppedUnexpectedSource)",
                "navdata-dropped-malformed": "\(statistics.droppedMalformed)",
                "navdata-dropped-sequence": "\(statistics.droppedSequenceNotIncreasing)",
                "datagrams-sent": "\(statistics.datagramsSent)",
            ])
            let now = SystemClock.now()
            var j = JSONLine()
            j.add("t", now.seconds)
            j.add("kind", "link")
            j.add("event", "statistics-final")
            FlightLoop.addStatistics(statistics, to: &j)
            recorder?.record(j.string, now: now)
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
        let dropped = FlightLoop.droppedLogCounts(recorder: recorder, logWriter: options.logWriter)
        if let recorder {
            let now = SystemClock.now()
            var j = JSONLine()
            j.add("t", now.seconds)
            j.add("kind", "log")
            j.add("event", "final")
            FlightLoop.addDroppedLogCounts(dropped, to: &j)
            recorder.record(j.string, now: now)
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

    init(loop: FlightLoop, promise: EventLoopPromise<FlightOutcome>) {
        self.loop = loop
        self.promise = promise
        self.loop.start()
    }

    func handle(_ input: FlightService.LoopInput) {
        guard !finished, let outcome = loop.handle(input, now: SystemClock.now()) else { return }
        finished = true
        promise.succeed(outcome)
    }
}

/// The loop body: the only code that mutates flight state.
struct FlightLoop {
    var machine: FlightStateMachine
    let link: DroneLink
    let recorder: FlightRecorder?
    let options: FlightServiceOptions
    let logger: Logger

    private var shutdownDeadline: MonotonicTime?
    private var lastCommandLog = MonotonicTime.zero
    private var lastNavdataLog = MonotonicTime.zero
    private var lastStatus = MonotonicTime.zero
    private var lastIntent: FlightIntent?
    private var droneAirborne = false
    private var lastDecision: FlightDecision?
    private var lastTargetFixAt: MonotonicTime?
    private var lastOnboardFixAt: MonotonicTime?
    /// Dry run: REF bit 9 as the link adopted it on connect; cleared for good once navdata shows
    /// the drone on the ground.
    private var dryRunFlying = false
    private var lastDryRunLog = MonotonicTime.zero
    /// Where the status line goes (never written from the loop itself).
    private let statusWriter: LogWriter?

    init(machine: FlightStateMachine, link: DroneLink, recorder: FlightRecorder?, options: FlightServiceOptions,
         logger: Logger)
    {
        self.machine = machine
        self.link = link
        self.recorder = recorder
        self.options = options
        self.logger = logger
        statusWriter = options.statusLine
            ? (options.logWriter ?? LogWriter(name: "status", fileDescriptor: STDERR_FILENO, capacityEntries: 16))
            : nil
    }

    /// Records the flight's parameters; call once before the first input.
    mutating func start() {
        let follow = machine.followParameters, failsafe = machine.failsafeParameters
        record(SystemClock.now()) { j in
            j.add("kind", "start")
            j.add("standoff_m", follow.standoffMeters)
            j.add("altitude_m", follow.altitudeMeters)
            j.add("min_separation_m", failsafe.minSeparationMeters)
            j.add("mount_offset_deg", follow.mountOffsetDegrees)
            j.add("dry_run", options.noTakeoff)
        }
        // The link writes its configuration once navdata flows: take-off waits for it.
        machine.handle(.droneConfiguration(.pending), now: SystemClock.now())
    }

    /// One input; returns the outcome once the flight is over (after a shutdown request: landed,
    /// or the landing deadline passed), nil while it goes on.
    mutating func handle(_ input: FlightService.LoopInput, now: MonotonicTime) -> FlightOutcome? {
        switch input {
        case .gps(let event):
            var outcome: InputOutcome?
            switch event {
            case .fix(let fix):
                if fix.role == .target { lastTargetFixAt = fix.receivedAt } else { lastOnboardFixAt = fix.receivedAt }
                outcome = machine.handle(.fix(fix), now: now)
            case .heading(let h):
                machine.handle(.heading(h), now: now)
            case .lost(let loss):
                logger.warning("receiver lost", metadata: ["role": "\(loss.role.rawValue)", "reason": "\(loss.reason)"])
            case .connected, .gpsdError:
                break
            }
            record(now) { j in
                j.add("kind", "gps"); j.addRaw("event", event.jsonLine())
                // What the estimator made of a fix (a jump or an out-of-order fix is dropped).
                if case .fix(_, let verdict)? = outcome { j.add("verdict", verdict.name) }
            }
            if case .fix(let fix) = event { decide(now: now, immediately: true, reflecting: fix.receivedAt) }
        case .link(let event):
            handleLink(event, now: now)
        case .tick:
            decide(now: now, immediately: false)
            recorder?.flushIfDue(now: now)
            if options.statusLine { drawStatus(now: now) }
        case .shutdown:
            logger.notice("shutdown requested: landing")
            record(now) { j in j.add("kind", "shutdown") }
            machine.handle(.shutdownRequested, now: now)
            shutdownDeadline = now.adding(seconds: options.landTimeoutSeconds)
            decide(now: now, immediately: true)
            if options.noTakeoff {
                // A dry run never lands (nor moves) the drone: it ends here.
                if droneAirborne {
                    logger.error("dry run: the drone is still airborne; a dry run does not land it")
                    return .landingUnconfirmed
                }
                return .landed
            }
        }
        if let deadline = shutdownDeadline {
            if isSafelyDown { return .landed }
            if now >= deadline {
                logger.error("landing not confirmed by navdata before the deadline",
                             metadata: ["state": "\(machine.state.name)"])
                return .landingUnconfirmed
            }
        }
        return nil
    }

    /// On the ground by navdata, or never left it.
    private var isSafelyDown: Bool {
        switch machine.state {
        case .landed, .preflight: return !droneAirborne
        case .emergency: return true
        case .takingOff: return options.noTakeoff && !droneAirborne
        default: return false
        }
    }

    private mutating func handleLink(_ event: DroneLinkEvent, now: MonotonicTime) {
        switch event {
        case .navdata(let received):
            guard let telemetry = DroneTelemetry(navdata: received.navdata, receivedAt: received.receivedAt) else { return }
            droneAirborne = telemetry.flightState.isAirborne || telemetry.flightState == .landing
            if !droneAirborne { dryRunFlying = false }
            machine.handle(.telemetry(telemetry), now: now)
            if now.seconds(since: lastNavdataLog) >= 0.5 {
                lastNavdataLog = now
                record(now) { j in
                    j.add("kind", "navdata")
                    j.add("seq", Int(received.navdata.sequenceNumber))
                    j.add("flight", "\(telemetry.flightState)")
                    j.add("battery", telemetry.batteryPercent)
                    j.add("alt", telemetry.altitudeMeters)
                    j.add("yaw", telemetry.yawDegrees)
                    j.add("vx", telemetry.velocityBody?.forwardMetersPerSecond)
                    j.add("vy", telemetry.velocityBody?.rightMetersPerSecond)
                    j.add("emergency", telemetry.emergency)
                }
            }
        case .connected(let wasFlying, let desiredFlying, _):
            droneAirborne = wasFlying
            dryRunFlying = desiredFlying
            logger.info("drone link connected", metadata: ["was-flying": "\(wasFlying)", "desired-flying": "\(desiredFlying)"])
            record(now) { j in j.add("kind", "link"); j.add("event", "connected"); j.add("was_flying", wasFlying) }
        case .navdataLost:
            logger.warning("navdata lost")
            record(now) { j in j.add("kind", "link"); j.add("event", "navdata-lost") }
        case .navdataRestored(let silence, _):
            logger.notice("navdata restored", metadata: ["silence-s": "\(silence)"])
            record(now) { j in j.add("kind", "link"); j.add("event", "navdata-restored"); j.add("silence_s", silence) }
        case .configurationAcknowledged(let write, let attempts, _):
            record(now) { j in
                j.add("kind", "link"); j.add("event", "config-ack"); j.add("key", write.key); j.add("value", write.value)
                j.add("attempts", attempts)
            }
        case .configurationFailed(let write, let reason, _):
            machine.handle(.droneConfiguration(.failed(key: write.key)), now: now)
            logger.error("drone config write failed", metadata: ["key": "\(write.key)", "reason": "\(reason)"])
            record(now) { j in
                j.add("kind", "link"); j.add("event", "config-failed"); j.add("key", write.key); j.add("reason", "\(reason)")
            }
        case .desiredFlyingCleared(let reason, _):
            record(now) { j in j.add("kind", "link"); j.add("event", "flying-cleared"); j.add("reason", "\(reason)") }
        case .socketClosed(let socket, let error, _):
            record(now) { j in
                j.add("kind", "link"); j.add("event", "socket-closed"); j.add("socket", socket.rawValue)
                j.add("error", error)
            }
        case .socketReopened(let socket, let port, let samePort, let attempts, let down, _):
            record(now) { j in
                j.add("kind", "link"); j.add("event", "socket-reopened"); j.add("socket", socket.rawValue)
                j.add("local_port", port); j.add("same_port", samePort); j.add("attempts", attempts); j.add("down_s", down)
            }
        case .bootstrapFallback(let reason, _):
            machine.handle(.droneConfiguration(.pending), now: now)
            logger.warning("drone fell back to bootstrap navdata; configuring it again", metadata: ["reason": "\(reason.rawValue)"])
            record(now) { j in j.add("kind", "link"); j.add("event", "bootstrap-fallback"); j.add("reason", reason.rawValue) }
        case .configurationComplete(let failedKeys, _):
            machine.handle(.droneConfiguration(failedKeys.first.map { .failed(key: $0) } ?? .done), now: now)
            record(now) { j in
                j.add("kind", "link"); j.add("event", "config-complete"); j.add("failed", failedKeys.joined(separator: ","))
            }
        case .statistics(let statistics):
            let dropped = Self.droppedLogCounts(recorder: recorder, logWriter: options.logWriter)
            let navigator = machine.navigator
            let target = machine.target.statistics, onboard = machine.drone.statistics
            record(now) { j in
                j.add("kind", "link"); j.add("event", "statistics")
                Self.addStatistics(statistics, to: &j)
                Self.addDroppedLogCounts(dropped, to: &j)
                j.add("heading_reports_rejected", navigator.rejectedHeadingReports)
                j.add("heading_reanchored", navigator.reanchoredHeadings)
                Self.addFixStatistics(target, prefix: "target", to: &j)
                Self.addFixStatistics(onboard, prefix: "onboard", to: &j)
            }
        }
    }

    /// The link counters a flight log reader needs (what was sent, what navdata was dropped and why).
    static func addStatistics(_ s: DroneLinkStatistics, to j: inout JSONLine) {
        j.add("datagrams_sent", s.datagramsSent)
        j.add("commands_sent", s.commandsSent)
        j.add("navdata_read", s.navdataDatagramsRead)
        j.add("navdata_received", s.navdataReceived)
        j.add("dropped_unexpected_source", s.droppedUnexpectedSource)
        j.add("dropped_malformed", s.droppedMalformed)
        j.add("dropped_sequence", s.droppedSequenceNotIncreasing)
        j.add("sequence_restarts", s.sequenceRestarts)
        j.add("navdata_losses", s.navdataLosses)
        j.add("navdata_rate_hz", s.navdataRateHz)
        j.add("ticks_late", s.ticksLate)
        j.add("max_tick_lateness_s", s.maxTickLatenessSeconds)
        j.add("send_failures", s.sendFailures)
        j.add("events_dropped", s.eventsDropped)
        j.add("sockets_closed", s.socketsClosed)
        j.add("sockets_reopened", s.socketsReopened)
        j.add("bootstrap_redos", s.bootstrapRedos)
    }

    /// What the fix screen refused so far, per receiver (`<prefix>_fixes_…`).
    static func addFixStatistics(_ s: FixStatistics, prefix: String, to j: inout JSONLine) {
        j.add(prefix + "_fixes_accepted", s.accepted)
        j.add(prefix + "_fixes_outliers", s.rejectedOutliers)
        j.add(prefix + "_fixes_future_time", s.rejectedFutureTimes)
        j.add(prefix + "_fixes_stale", s.ignoredStale)
        j.add(prefix + "_fixes_refused_eph", s.refusedInaccurate)
        j.add(prefix + "_clock_reanchors", s.clockReanchors)
    }

    /// Log lines (stderr) and flight-log lines dropped because their writer could not keep up,
    /// and log lines still waiting for a stalled stderr.
    struct DroppedLogCounts {
        var logLines = 0
        var logLinesWaiting = 0
        var flightLogLines = 0
    }

    static func droppedLogCounts(recorder: FlightRecorder?, logWriter: LogWriter?) -> DroppedLogCounts {
        let log = logWriter?.counters
        return DroppedLogCounts(
            logLines: log?.dropped ?? 0,
            logLinesWaiting: log.map { $0.enqueued - $0.written - $0.writeErrors } ?? 0,
            flightLogLines: recorder?.droppedLines ?? 0)
    }

    static func addDroppedLogCounts(_ counts: DroppedLogCounts, to j: inout JSONLine) {
        j.add("log_lines_dropped", counts.logLines)
        j.add("log_lines_waiting", counts.logLinesWaiting)
        j.add("flight_log_lines_dropped", counts.flightLogLines)
    }

    /// Runs the state machine and hands its command to the link.
    /// `reflecting`: the `receivedAt` of the fix this decision answers (for the latency probe).
    private mutating func decide(now: MonotonicTime, immediately: Bool, reflecting fixReceivedAt: MonotonicTime? = nil) {
        let decision = machine.tick(now: now)
        lastDecision = decision
        if let t = decision.transition {
            logger.notice("flight state", metadata: ["from": "\(t.from.name)", "to": "\(t.to.name)", "reason": "\(t.reason.name)"])
            record(now) { j in
                j.add("kind", "transition"); j.add("from", t.from.name); j.add("to", t.to.name); j.add("reason", t.reason.name)
            }
        }
        var flying = decision.command.intent.wantsAirborne
        var pilot = decision.command.pilot.map {
            ProgressiveCommand(flags: [.progressive], rollFraction: Float($0.roll), pitchFraction: Float($0.pitch),
                               gazFraction: Float($0.gaz), yawFraction: Float($0.yaw))
        } ?? .hover
        let wouldFly = flying
        if options.noTakeoff {
            // Dry run: REF stays as adopted, PCMD hovers; what the core wants is only logged.
            flying = dryRunFlying
            pilot = .hover
            if now.seconds(since: lastDryRunLog) >= 1 {
                lastDryRunLog = now
                var metadata: Logger.Metadata = [
                    "state": "\(decision.state.name)", "intent": "\(decision.command.intent.name)",
                    "would-fly": "\(wouldFly)", "sent-flying": "\(flying)",
                ]
                if let p = decision.command.pilot {
                    metadata["roll"] = "\(p.roll)"; metadata["pitch"] = "\(p.pitch)"
                    metadata["gaz"] = "\(p.gaz)"; metadata["yaw"] = "\(p.yaw)"
                }
                logger.info("dry run: would send", metadata: metadata)
            }
        }
        // Until this loop has seen navdata it cannot know whether the drone flies: a preflight
        // "stay landed" must not overwrite the link's adopt-on-connect REF bit 9 (docs/ardrone-protocol.md §7.3).
        // Found by FaultInjectionTests (SIGKILL + restart landed a flying drone ~2.6 % of restarts).
        if machine.telemetry != nil {
            link.setDesired(flying: flying, pilot: pilot, sendImmediately: immediately, reflecting: fixReceivedAt)
        }
        logger.trace("command", metadata: [
            "state": "\(decision.state.name)", "flying": "\(flying)", "roll": "\(pilot.rollFraction)",
            "pitch": "\(pilot.pitchFraction)", "gaz": "\(pilot.gazFraction)", "yaw": "\(pilot.yawFraction)",
        ])

        if decision.command.intent != lastIntent || now.seconds(since: lastCommandLog) >= 0.1 {
            lastIntent = decision.command.intent
            lastCommandLog = now
            record(now) { j in
                j.add("kind", "command")
                j.add("state", decision.state.name)
                j.add("intent", decision.command.intent.name)
                j.add("sent_flying", flying)
                if let p = decision.command.pilot {
                    j.add("roll", p.roll); j.add("pitch", p.pitch); j.add("gaz", p.gaz); j.add("yaw", p.yaw)
                } else {
                    j.add("hover", true)
                }
                if let f = decision.follow {
                    j.add("dist", f.distanceToTargetMeters)
                    j.add("rel_bearing", f.relativeBearingDegrees)
                }
                if options.noTakeoff { j.add("dry_run", true); j.add("would_fly", wouldFly) }
            }
        }
    }

    private func record(_ now: MonotonicTime, _ fill: (inout JSONLine) -> Void) {
        guard let recorder else { return }
        var j = JSONLine()
        j.add("t", now.seconds)
        fill(&j)
        recorder.record(j.string, now: now)
    }

    private mutating func drawStatus(now: MonotonicTime) {
        guard now.seconds(since: lastStatus) >= 0.25 else { return }
        lastStatus = now
        func age(_ t: MonotonicTime?) -> String { t.map { String(format: "%.1fs", now.seconds(since: $0)) } ?? "-" }
        var s = "\r\u{1B}[2K" + machine.state.name
        if let f = lastDecision?.follow { s += String(format: " | dist %.1fm", f.distanceToTargetMeters) }
        s += " | target \(age(lastTargetFixAt)) | onboard \(age(lastOnboardFixAt))"
        if let t = machine.telemetry { s += String(format: " | batt %.0f%% alt %.1fm", t.batteryPercent, t.altitudeMeters) }
        // Through the writer thread: a stalled terminal must not stop the loop.
        statusWriter?.enqueue(s)
    }
}
