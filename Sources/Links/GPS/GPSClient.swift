import Foundation
import Logging
import Synchronization
import FollowCore

/// Reads the target and onboard receivers through gpsd/libgps and streams `GPSEvent`s.
///
/// One connection (and one dedicated thread doing blocking libgps reads) per role, so a role
/// restricted to a device only ever hears that device, and a stalled gpsd never blocks
/// anything else. When gpsd goes away the role reports `.lost(.connectionLost)` at once and
/// reconnects with backoff (250 ms doubling to at most 1 s), resuming in the same process.
///
/// Rate: once gpsd identified a role's device, the client asks gpsd to run it at the
/// subscription's `rate` (`?DEVICE` cycle) and reads the answer; whatever gpsd answers, fixes
/// keep flowing at the receiver's own rate. It also measures the rate each role actually
/// delivers. Both are in ``rateReport(for:)`` (docs/gps-rate.md).
///
/// Age: each role keeps a `FixAgeMeter` fed by gpsd's TOFF reports (watched unless the role's
/// `latencySource` is `.config`) or, until the first TOFF, by each fix's time against the host clock;
/// every fix leaves with its `GPSFix.age` set from it (docs/gps-latency.md §2). ``fixAge(for:)`` is the
/// age the role's next fix would get.
public final class GPSClient: Sendable {
    /// What one role's reader counts: gpsd lines read; reports turned into `fixes` and `headings`;
    /// reports ignored for another device, no position, a bad heading or a bad mode; connections
    /// made and lost.
    public enum Counter: CaseIterable, Sendable, Hashable {
        case linesRead, fixes, headings
        case ignoredOtherDevice, ignoredNoPosition, ignoredBadHeading, ignoredBadMode, ignoredBadTime
        /// gpsd TOFF reports read for this role's device, and ones that could not be read.
        case timeOffsets, badTimeOffsets
        /// Lines dropped unread: libgps' unpacker would have looped on them forever (malformed JSON, e.g. from a
        /// hostile gpsd: `{x"class":"SKY"}`, docs/fuzzing.md), or longer than 20 KB.
        case droppedLines
        case connects, connectionLosses
    }

    /// Counters for what was read but not turned into events (`statistics[.fixes]`).
    public typealias Statistics = Counts<Counter>

    public let subscriptions: [ReceiverSubscription]
    /// The events, in the order each role produced them. Finishes after `stop()`.
    public let events: AsyncStream<GPSEvent>

    private let continuation: AsyncStream<GPSEvent>.Continuation
    private let eventHandler: (@Sendable (GPSEvent) -> Void)?
    private let rateHandler: (@Sendable (ReceiverRole, ReceiverRateReport) -> Void)?
    private let logger: Logger
    private let missingHeadingAfterSeconds: Double
    private let state: Mutex<State>
    private let stopFlag = Atomic<Bool>(false)

    private struct State: ~Copyable {
        var statistics: [ReceiverRole: Statistics] = [:]
        var running = 0
        var rateControls: [ReceiverRole: RateControl] = [:]
        var rateMeters: [ReceiverRole: DeliveredRateMeter] = [:]
        var ageMeters: [ReceiverRole: FixAgeMeter] = [:]
        /// The source of the age each role's last fix got (a change is logged).
        var ageSources: [ReceiverRole: FixAge.Source] = [:]
    }

    /// - Parameters:
    ///   - subscriptions: one per role.
    ///   - bufferLimit: newest events kept if the consumer falls behind (oldest dropped).
    ///   - eventHandler: if given, called with every event on the reader thread that produced it,
    ///     *instead of* yielding it to `events` (which then only finishes). Saves a task hop per
    ///     event for a consumer that merges several sources (`FlightService`); must not block.
    ///   - rateHandler: if given, called on the reader thread whenever a role's rate control changes
    ///     state (requested, accepted, refused, …) and when its delivered rate is first measured
    ///     after a (re)connection; must not block.
    ///   - missingHeadingAfterSeconds: a role that `expectsHeading` and delivers fixes this long
    ///     without a heading gets the hint `GPSDHint.noHeading` logged, once.
    public init(subscriptions: [ReceiverSubscription], logger: Logger, bufferLimit: Int = 1024,
                eventHandler: (@Sendable (GPSEvent) -> Void)? = nil,
                rateHandler: (@Sendable (ReceiverRole, ReceiverRateReport) -> Void)? = nil,
                missingHeadingAfterSeconds: Double = MissingHeadingWatch.defaultAfterSeconds) {
        self.subscriptions = subscriptions
        self.logger = logger
        self.missingHeadingAfterSeconds = missingHeadingAfterSeconds
        self.eventHandler = eventHandler
        self.rateHandler = rateHandler
        (events, continuation) = AsyncStream.makeStream(of: GPSEvent.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        var initial = State()
        for sub in subscriptions {
            initial.rateControls[sub.role] = RateControl(request: sub.rate, watchedDevice: sub.device)
            initial.rateMeters[sub.role] = DeliveredRateMeter()
            initial.ageMeters[sub.role] = FixAgeMeter(policy: sub.latencySource, configuredSeconds: sub.latencySeconds)
        }
        state = Mutex(initial)
    }

    deinit { stopFlag.store(true, ordering: .relaxed) }

    /// Starts one reader thread per subscription. Call once.
    public func start() {
        for sub in subscriptions {
            let thread = Thread { [self] in self.run(sub) }
            thread.name = "gpsd-\(sub.role.rawValue)"
            thread.stackSize = 256 * 1024
            state.withLock { $0.running += 1 }
            thread.start()
        }
    }

    /// Asks the reader threads to stop (within ~250 ms) and finishes `events` when they have.
    public func stop() {
        stopFlag.store(true, ordering: .relaxed)
    }

    private func deliver(_ event: GPSEvent) {
        if let eventHandler { eventHandler(event) } else { continuation.yield(event) }
    }

    /// A snapshot of the per-role counters.
    public func statistics(for role: ReceiverRole) -> Statistics {
        state.withLock { $0.statistics[role] ?? Statistics() }
    }

    /// What was asked of gpsd for `role`'s rate, what gpsd answered, and the rate delivered.
    public func rateReport(for role: ReceiverRole) -> ReceiverRateReport {
        state.withLock { s in
            ReceiverRateReport(control: s.rateControls[role] ?? RateControl(request: .receiverDefault, watchedDevice: nil),
                               meter: s.rateMeters[role] ?? DeliveredRateMeter())
        }
    }

    /// The age `role`'s next fix would be given now: measured, or configured and why; the configured
    /// default for a role this client does not read.
    public func fixAge(for role: ReceiverRole) -> FixAge {
        let meter = state.withLock { $0.ageMeters[role] }
            ?? FixAgeMeter(policy: .config, configuredSeconds: FollowParameters.Spec.assumedGPSLatencySeconds.defaultValue)
        return meter.age(hostClockSynchronised: HostClock.isSynchronised())
    }

    /// The samples `role`'s age meter was fed, by kind.
    public func fixAgeSamples(for role: ReceiverRole) -> Counts<FixAgeMeter.Counter> {
        state.withLock { $0.ageMeters[role]?.counts ?? Counts() }
    }

    /// Feeds one TOFF line to `sub`'s age meter (reports about another device are left alone).
    private func recordTimeOffset(line: String, _ sub: ReceiverSubscription) {
        guard let report = GPSDTimeOffsetReport.parse(line: line) else {
            count(sub.role) { $0[.badTimeOffsets] += 1 }
            return
        }
        if let device = sub.device, !report.device.isEmpty, report.device != device { return }
        count(sub.role) { $0[.timeOffsets] += 1 }
        state.withLock { $0.ageMeters[sub.role]?.record(sampleSeconds: report.delaySeconds, origin: .toff) }
    }

    /// `fix` with its age: its own time against the host clock `hostNow` goes to the meter first (until
    /// gpsd sends TOFF); a change of the age's source is logged.
    private func aged(_ fix: GPSFix, hostNow: FixTime, meta: Logger.Metadata) -> GPSFix {
        let synchronised = HostClock.isSynchronised()
        let (age, previous) = state.withLock { s -> (FixAge?, FixAge.Source?) in
            guard var meter = s.ageMeters[fix.role] else { return (nil, nil) }
            if let time = fix.fixTime {
                meter.record(sampleSeconds: HostClock.seconds(from: time, to: hostNow), origin: .fixTime)
            }
            s.ageMeters[fix.role] = meter
            let age = meter.age(hostClockSynchronised: synchronised)
            defer { s.ageSources[fix.role] = age.source }
            return (age, s.ageSources[fix.role])
        }
        guard let age else { return fix }
        if age.source != previous {
            var m = meta
            m["latency-ms"] = "\(Int((age.seconds * 1000).rounded()))"
            m["latency-source"] = "\(age.source.name)"
            m["latency-reason"] = "\(age.source.reason)"
            logger.info("fix age", metadata: m)
        }
        var stamped = fix
        stamped.age = age
        return stamped
    }

    /// Applies `update` to `role`'s rate control and meter; logs and reports a change of state
    /// or a first measured rate. Returns the command the control wants sent, if any.
    private func updateRate(
        _ role: ReceiverRole, meta: Logger.Metadata,
        _ update: (inout RateControl, inout DeliveredRateMeter) -> RateControl.Command?
    ) -> RateControl.Command? {
        let (command, before, after) = state.withLock { s in
            var control = s.rateControls[role] ?? RateControl(request: .receiverDefault, watchedDevice: nil)
            var meter = s.rateMeters[role] ?? DeliveredRateMeter()
            let before = ReceiverRateReport(control: control, meter: meter)
            let command = update(&control, &meter)
            s.rateControls[role] = control
            s.rateMeters[role] = meter
            return (command, before, ReceiverRateReport(control: control, meter: meter))
        }
        let firstRate = before.deliveredHertz == nil && after.deliveredHertz != nil
        guard before.control != after.control || firstRate else { return command }
        var m = meta
        m["rate-requested"] = "\(after.requested)"
        m["rate-control"] = "\(after.control.name)"
        if let hz = after.deliveredHertz { m["delivered-hz"] = "\(String(format: "%.2f", hz))" }
        if let driver = after.driver { m["driver"] = "\(driver)" }
        if before.control != after.control {
            switch after.control {
            case .refused, .notSupported, .unconfirmed:
                logger.notice("receiver rate: \(after.control.detail)", metadata: m)
            default:
                logger.info("receiver rate: \(after.control.detail)", metadata: m)
            }
        } else {
            logger.info("receiver rate measured", metadata: m)
        }
        rateHandler?(role, after)
        return command
    }

    private var stopped: Bool { stopFlag.load(ordering: .relaxed) }

    private func count(_ role: ReceiverRole, _ update: (inout Statistics) -> Void) {
        state.withLock { update(&$0.statistics[role, default: Statistics()]) }
    }

    /// Sleeps up to `seconds` in short slices so `stop()` stays prompt.
    private func pause(_ seconds: Double) {
        var left = seconds
        while left > 0, !stopped {
            let slice = min(left, 0.05)
            usleep(UInt32(slice * 1_000_000))
            left -= slice
        }
    }

    /// Feeds one report to the role's rate control and meter; sends the `?DEVICE` request it asks for.
    private func handleRate(_ cls: GPSDMessageClass, outcome: GPSDataMapper.Outcome,
                            connection: GPSDConnection, role: ReceiverRole, meta: Logger.Metadata) {
        switch (cls, outcome) {
        case (.device, _), (.devices, _):
            let reports = GPSDDeviceReport.parse(line: connection.lastLine)
            guard !reports.isEmpty else { return }
            let command = updateRate(role, meta: meta) { control, meter in
                if reports.contains(where: { !$0.activated && (control.device ?? control.watchedDevice) == $0.path }) {
                    meter.reset()
                }
                return control.handle(reports)
            }
            if let command, !connection.sendDeviceCycle(path: command.path, cycleSeconds: command.cycleSeconds) {
                _ = updateRate(role, meta: meta) { control, _ in
                    control.couldNotSend("the ?DEVICE request could not be sent for \(command.path)")
                    return nil
                }
            }
        case (_, .event(.gpsdError(_, let message, _))):
            var metadata = meta
            metadata["message"] = "\(message)"
            if let fix = GPSDHint.forError(message) { metadata["fix"] = "\(fix)" }
            logger.warning("gpsd error", metadata: metadata)
            _ = updateRate(role, meta: meta) { control, _ in
                control.gpsdError(message)
                return nil
            }
        case (_, .event(.fix(let fix))):
            _ = updateRate(role, meta: meta) { _, meter in
                meter.record(receivedAt: fix.receivedAt, fixTime: fix.fixTime)
                return nil
            }
        default:
            break
        }
    }

    private func run(_ sub: ReceiverSubscription) {
        let connection = GPSDConnection()
        let log = logger
        var everConnected = false
        var reportedDown = false
        var backoffSeconds = 0.25
        var headingWatch = sub.expectsHeading ? MissingHeadingWatch(afterSeconds: missingHeadingAfterSeconds) : nil
        let meta: Logger.Metadata = ["role": "\(sub.role.rawValue)", "gpsd": "\(sub.endpoint)",
                                     "device": "\(sub.device ?? "any")"]

        while !stopped {
            if let failure = connection.open(sub.endpoint, device: sub.device, timeOffsets: sub.latencySource != .config) {
                if !reportedDown {
                    reportedDown = true
                    count(sub.role) { $0[.connectionLosses] += 1 }
                    log.warning("cannot reach gpsd", metadata: meta.merging(
                        ["reason": "\(failure)", "fix": "\(GPSDHint.unreachable(sub.endpoint))"]) { $1 })
                    deliver(.lost(GPSLoss(role: sub.role, device: sub.device,
                                                     reason: .connectionLost(failure), at: SystemClock.now())))
                }
                pause(backoffSeconds)
                backoffSeconds = min(backoffSeconds * 2, 1.0)
                continue
            }
            reportedDown = false
            backoffSeconds = 0.25
            count(sub.role) { $0[.connects] += 1 }
            _ = updateRate(sub.role, meta: meta) { control, meter in
                control.connected()
                meter.reset()
                return nil
            }
            log.info("connected to gpsd", metadata: meta)
            deliver(.connected(role: sub.role, endpoint: sub.endpoint.description,
                                          isReconnect: everConnected, at: SystemClock.now()))
            everConnected = true

            readLoop: while !stopped {
                switch connection.read(timeoutMicroseconds: 250_000) {
                case .timeout, .partial:
                    continue
                case .dropped:
                    count(sub.role) { $0[.droppedLines] += 1 }
                case .closed(let reason):
                    reportedDown = true
                    count(sub.role) { $0[.connectionLosses] += 1 }
                    _ = updateRate(sub.role, meta: meta) { _, meter in
                        meter.reset()
                        return nil
                    }
                    log.warning("gpsd connection lost", metadata: meta.merging(["reason": "\(reason)"]) { $1 })
                    deliver(.lost(GPSLoss(role: sub.role, device: sub.device,
                                                     reason: .connectionLost(reason), at: SystemClock.now())))
                    break readLoop
                case .line(let cls):
                    let now = SystemClock.now(), hostNow = HostClock.now()
                    var outcome = connection.map(cls, role: sub.role, device: sub.device, receivedAt: now)
                    if cls == .toff { recordTimeOffset(line: connection.lastLine, sub) }
                    if case .event(.fix(let fix)) = outcome { outcome = .event(.fix(aged(fix, hostNow: hostNow, meta: meta))) }
                    count(sub.role) { s in
                        s[.linesRead] += 1
                        switch outcome {
                        case .event(.fix): s[.fixes] += 1
                        case .event(.heading): s[.headings] += 1
                        case .event: break
                        case .ignored(.otherDevice): s[.ignoredOtherDevice] += 1
                        case .ignored(.noPosition): s[.ignoredNoPosition] += 1
                        case .ignored(.badHeading): s[.ignoredBadHeading] += 1
                        case .ignored(.badMode): s[.ignoredBadMode] += 1
                        case .ignored(.badTime): s[.ignoredBadTime] += 1
                        case .ignored(.notInteresting): break
                        }
                    }
                    if case .event(let e) = outcome {
                        deliver(e)
                        if let hint = headingWatch?.observe(e) {
                            log.warning("no heading from the receiver", metadata: meta.merging(["fix": "\(hint)"]) { $1 })
                        }
                    }
                    // After delivering: the flight loop gets the fix first; rate bookkeeping can wait.
                    handleRate(cls, outcome: outcome, connection: connection, role: sub.role, meta: meta)
                }
            }
            if !stopped { pause(backoffSeconds) }
        }
        connection.close()
        let last = state.withLock { s -> Bool in
            s.running -= 1
            return s.running == 0
        }
        if last { continuation.finish() }
    }
}
