import FollowCore
import FlightRecords
import Foundation
import Logging
import Links

/// The loop body of a flight: the flight's rules (`FlightLoopCore`, DroneControl) with the shell
/// around them — the commands to the link, the log, the flight log, the status.
///
/// Values in (`Input` with its time), commands out (`DroneControlLink.send`), lines to the flight
/// log. It reads no clock: every input carries `now`, so a test drives it in-process with a fake
/// link, scripted telemetry and invented times (Tests/FlightServiceTests), while `FlightService`
/// drives it from the link's event loop with `SystemClock` (FlightService.swift). What the flight
/// does lives in `core`, which `followme bench` drives too; this type only performs and records it.
struct FlightLoop {
    /// One thing that happened, handed to `handle(_:now:)` in order.
    typealias Input = FlightLoopCore.Input

    /// The rules: the state machine, when it decides, what the link is handed.
    private(set) var core: FlightLoopCore
    let link: any DroneControlLink
    let recorder: FlightRecorder?
    let options: FlightServiceOptions
    let logger: Logger

    private var shutdownDeadline: MonotonicTime?
    private var lastCommandLog = MonotonicTime.zero
    var lastNavdataLog = MonotonicTime.zero
    private var lastStatus = MonotonicTime.zero
    /// The last `STATUS=` and `WATCHDOG=1` sent to systemd (`options.systemd`).
    private var systemdState: FlightState?
    private var lastWatchdog = MonotonicTime.zero
    private var lastIntent: FlightIntent?
    /// What the status snapshot needs beyond the machine (fixes, transitions, link rates).
    var statusTracker = FlightStatusTracker()
    private var startedAt = MonotonicTime.zero
    private var lastDryRunLog = MonotonicTime.zero
    /// Where the status line goes (never written from the loop itself).
    private let statusWriter: LogWriter?
    /// The answer to the latest operator command (`OperatorCommandInbox` hands it back to the sender).
    private(set) var lastOperatorReply: OperatorCommandReply?

    /// The flight's state machine (only the core changes it).
    var machine: FlightStateMachine { core.machine }
    /// Airborne (or landing) by the latest telemetry or the link's connect.
    var droneAirborne: Bool { core.droneAirborne }

    init(machine: FlightStateMachine, link: any DroneControlLink, recorder: FlightRecorder?,
         options: FlightServiceOptions, logger: Logger)
    {
        core = FlightLoopCore(machine: machine, dryRun: options.noTakeoff)
        self.link = link
        self.recorder = recorder
        self.options = options
        self.logger = logger
        statusWriter = options.statusLine
            ? (options.logWriter ?? LogWriter(name: "status", fileDescriptor: STDERR_FILENO, capacityEntries: 16))
            : nil
    }

    /// Records the flight's parameters; call once before the first input.
    mutating func start(now: MonotonicTime) {
        startedAt = now
        let follow = machine.followParameters, failsafe = machine.failsafeParameters
        record(FlightStartRecord {
            $0.t = now.seconds
            ($0.standoffMeters, $0.altitudeMeters) = (follow.standoffMeters, follow.altitudeMeters)
            ($0.minSeparationMeters, $0.mountOffsetDegrees) = (failsafe.minSeparationMeters, follow.mountOffsetDegrees)
            ($0.dryRun, $0.softwareVersion) = (options.noTakeoff, FollowMeVersion.current)
            ($0.configPath, $0.config) = (options.configPath, options.configTOML)
        }, now)
        core.start(now: now)
    }

    /// One input; returns the outcome once the flight is over (after a shutdown request: landed,
    /// or the landing deadline passed), nil while it goes on.
    mutating func handle(_ input: Input, now: MonotonicTime) -> FlightOutcome? {
        let outcome = handleInput(input, now: now)
        if outcome != nil {
            // The flight's last state (landed, released) reaches every view, however soon after the
            // previous status it came: the loop ends here, and no tick publishes it later.
            lastStatus = .zero
            publishStatus(now: now)
        }
        return outcome
    }

    private mutating func handleInput(_ input: Input, now: MonotonicTime) -> FlightOutcome? {
        var released = false
        if case .shutdown = input {
            if case .released(let reason) = machine.state {
                // A pilot or the autopilot flies it: SIGTERM never overrides them (docs/mavlink.md §7.11).
                logger.warning("shutdown requested: the vehicle is released (\(reason.name)); FollowMe does not land it")
                released = true
            } else {
                logger.notice("shutdown requested: landing")
                shutdownDeadline = now.adding(seconds: options.landTimeoutSeconds)
            }
            record(FlightShutdownRecord { $0.t = now.seconds }, now)
        }
        let step = core.handle(input, now: now)
        switch input {
        case .gps(let event):
            noteGPS(event, step: step, now: now)
        case .link(let event):
            noteLink(event, step: step, now: now)
        case .operatorCommand(let command, let source):
            noteOperator(.command(command), source: source, outcome: step.operatorOutcome, now: now)
        case .followModeChange(let change, let source):
            noteOperator(.followMode(change), source: source, outcome: step.operatorOutcome, now: now)
        case .tick, .shutdown:
            break
        }
        perform(step, now: now)
        switch input {
        case .tick:
            recorder?.flushIfDue(now: now)
            publishStatus(now: now)
            notifySystemd(now: now)
        case .shutdown:
            if released { return .released }
            if options.noTakeoff {
                // A dry run never lands (nor moves) the drone: it ends here.
                if droneAirborne {
                    logger.error("dry run: the drone is still airborne; a dry run does not land it")
                    return .landingUnconfirmed
                }
                return .landed
            }
        case .gps, .link, .operatorCommand, .followModeChange:
            break
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

    /// On the ground by telemetry, or never left it.
    private var isSafelyDown: Bool {
        switch machine.state {
        case .landed, .preflight: return !droneAirborne
        case .emergency: return true
        case .takingOff: return options.noTakeoff && !droneAirborne
        default: return false
        }
    }

    /// The log and the flight log of a GPS event the core has handled.
    mutating func noteGPS(_ event: GPSEvent, step: FlightLoopCore.Step, now: MonotonicTime) {
        statusTracker.note(event)
        if case .lost(let loss) = event {
            logger.warning("receiver lost", metadata: ["role": "\(loss.role.rawValue)", "reason": "\(loss.reason)"])
        }
        // With what the estimator made of a fix (a jump or an out-of-order fix is dropped).
        var verdict: String?
        if case .fix(_, let v)? = step.fixOutcome { verdict = v.name }
        record(FlightGPSRecord { ($0.t, $0.event, $0.verdict) = (now.seconds, GPSEventRecord(event), verdict) }, now)
    }

    /// Hands the core's command to the link, and logs and records the decision.
    private mutating func perform(_ step: FlightLoopCore.Step, now: MonotonicTime) {
        guard let decision = step.decision, let command = step.command else { return }
        if let t = decision.transition {
            logger.log(level: t.to.transitionLogLevel, "flight state",
                       metadata: ["from": "\(t.from.name)", "to": "\(t.to.name)", "reason": "\(t.reason.name)"])
            statusTracker.note(t, now: now)
            lastStatus = .zero   // show a new state at once (the landing that ends the flight included)
            record(FlightTransitionRecord {
                ($0.t, $0.from, $0.to, $0.reason) = (now.seconds, t.from.name, t.to.name, t.reason.name)
            }, now)
        }
        let wouldFly = decision.command.intent.wantsAirborne
        if options.noTakeoff, now.seconds(since: lastDryRunLog) >= 1 {
            // Dry run: REF stays as adopted, PCMD hovers; what the core wants is only logged.
            lastDryRunLog = now
            logDryRun(decision, wouldFly: wouldFly, sentFlying: command.flying)
        }
        if step.sendsCommand { link.send(command, immediately: step.immediately, reflecting: step.fixReceivedAt) }
        // The family's set-point as sent (the AR.Drone's PCMD: roll, pitch, gaz, yaw fractions); zero without one.
        let setpoint = step.sendsCommand ? command.setpoint?.values : nil
        let values = setpoint ?? .zero, motion = command.motion ?? .stop
        logger.trace("command", metadata: [
            "state": "\(decision.state.name)", "flying": "\(command.flying)", "roll": "\(values[0])",
            "pitch": "\(values[1])", "gaz": "\(values[2])", "yaw": "\(values[3])",
            "ve": "\(motion.velocity.east)", "vn": "\(motion.velocity.north)", "climb": "\(motion.climbMetersPerSecond)",
            "yaw-rate": "\(motion.yawRateDegreesPerSecond)",
        ])

        if decision.command.intent != lastIntent || now.seconds(since: lastCommandLog) >= 0.1 {
            lastIntent = decision.command.intent
            lastCommandLog = now
            var r = FlightCommandRecord {
                ($0.t, $0.state, $0.intent) = (now.seconds, decision.state.name, decision.command.intent.name)
                $0.sentFlying = command.flying
            }
            if let p = setpoint {   // the set-point the link actually sent
                (r.roll, r.pitch, r.gaz, r.yaw) = (p[0], p[1], p[2], p[3])
            }
            if let m = decision.command.motion {
                (r.velocityEast, r.velocityNorth) = (m.velocity.east, m.velocity.north)
                (r.climb, r.yawRate) = (m.climbMetersPerSecond, m.yawRateDegreesPerSecond)
            } else {
                r.hover = true
            }
            if let f = decision.follow { (r.dist, r.relBearing) = (f.distanceToTargetMeters, f.relativeBearingDegrees) }
            if options.noTakeoff { (r.dryRun, r.wouldFly) = (true, wouldFly) }
            if let w = machine.airborneWind {
                (r.windMetersPerSecond, r.windTowardsDegrees, r.windAuthority) = (w.windMetersPerSecond, w.windTowardsDegrees, w.windAuthority)
            }
            record(r, now)
        }
    }

    private func logDryRun(_ decision: FlightDecision, wouldFly: Bool, sentFlying: Bool) {
        var metadata: Logger.Metadata = [
            "state": "\(decision.state.name)", "intent": "\(decision.command.intent.name)",
            "would-fly": "\(wouldFly)", "sent-flying": "\(sentFlying)",
        ]
        if let m = decision.command.motion {
            metadata["ve"] = "\(m.velocity.east)"; metadata["vn"] = "\(m.velocity.north)"
            metadata["climb"] = "\(m.climbMetersPerSecond)"; metadata["yaw-rate"] = "\(m.yawRateDegreesPerSecond)"
        }
        logger.info("dry run: would send", metadata: metadata)
    }

    /// One flight-log line (FlightLogRecord.swift); the record is only made when there is a log.
    func record<Record: Encodable>(_ make: @autoclosure () -> Record, _ now: MonotonicTime) {
        recorder?.record(make(), now: now)
    }

    /// An operator's command or change of follow mode: logged (notice; a refusal as a warning) and
    /// recorded with its source and what the machine made of it, so every view can show it.
    private mutating func noteOperator(_ request: OperatorRequest, source: String, outcome: OperatorCommand.Outcome?,
                                       now: MonotonicTime) {
        let verdict = outcome?.name ?? "?", command = request.name
        var metadata: Logger.Metadata = [
            "command": "\(command)", "source": "\(source)", "outcome": "\(verdict)", "state": "\(machine.state.name)",
        ]
        var entry = FlightOperatorRecord { ($0.t, $0.command, $0.source, $0.outcome) = (now.seconds, command, source, verdict) }
        if case .followMode(let change) = request {
            (entry.mode, entry.angleDegrees, entry.orbitDirection) = (change.mode.rawValue, change.angleDegrees, change.orbitDirection?.rawValue)
            metadata["mode"] = "\(change.mode.rawValue)"
            if let angle = change.angleDegrees { metadata["angle-deg"] = "\(angle)" }
            if let direction = change.orbitDirection { metadata["orbit-direction"] = "\(direction.rawValue)" }
        }
        logger.log(level: verdict.hasPrefix("refused") ? .warning : .notice, "operator command", metadata: metadata)
        record(entry, now)
        // Every view shows it, at once.
        statusTracker.operatorCommand = FlightStatus.OperatorCommandStatus {
            ($0.t, $0.command, $0.source, $0.outcome) = (now.seconds, command, source, verdict)
        }
        var reply = OperatorCommandReply()
        (reply.command, reply.source, reply.outcome) = (command, source, verdict)
        (reply.accepted, reply.state) = (outcome?.isAccepted ?? false, machine.state.name)
        lastOperatorReply = reply
        lastStatus = .zero
    }

    /// Under systemd: the state line whenever it changes, and the watchdog ping at a third of
    /// `WatchdogSec=` — from the loop's own tick, so a loop that stops ticking is restarted.
    private mutating func notifySystemd(now: MonotonicTime) {
        guard let systemd = options.systemd else { return }
        var message: [String] = []
        let state = machine.state
        if state != systemdState { message.append("STATUS=" + SystemdNotifier.statusLine(stateName: state.name)) }
        if let watchdog = systemd.watchdogSeconds, now.seconds(since: lastWatchdog) >= watchdog / 3 {
            message.append("WATCHDOG=1")
        }
        guard !message.isEmpty else { return }
        // A full socket buffer drops the message; the next tick tries again.
        guard systemd.send(message.joined(separator: "\n")) else { return }
        systemdState = state
        if message.last == "WATCHDOG=1" { lastWatchdog = now }
    }

    /// Every 0.25 s: one `FlightStatus` for the terminal status line and the status socket
    /// (neither blocks: a writer thread, a swap under a lock). Built only when someone shows it.
    private mutating func publishStatus(now: MonotonicTime) {
        let board = options.publishedStatusBoard
        guard options.statusLine || board != nil, now.seconds(since: lastStatus) >= 0.25 else { return }
        lastStatus = now
        let status = statusTracker.status(machine: machine, decision: core.lastDecision, dryRun: options.noTakeoff,
                                          startedAt: startedAt, now: now)
        board?.publish(status)
        // Through the writer thread: a stalled terminal must not stop the loop.
        if options.statusLine { statusWriter?.enqueue("\r\u{1B}[2K" + status.statusLine) }
    }
}
