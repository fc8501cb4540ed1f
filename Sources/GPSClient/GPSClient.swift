import Foundation
import Logging
import Synchronization
import SystemTime
import Telemetry

/// Reads the target and onboard receivers through gpsd/libgps and streams `GPSEvent`s.
///
/// One connection (and one dedicated thread doing blocking libgps reads) per role, so a role
/// restricted to a device only ever hears that device, and a stalled gpsd never blocks
/// anything else. When gpsd goes away the role reports `.lost(.connectionLost)` at once and
/// reconnects with backoff (250 ms doubling to at most 1 s), resuming in the same process.
public final class GPSClient: Sendable {
    /// Counters for what was read but not turned into events.
    public struct Statistics: Sendable, Hashable {
        public var linesRead = 0
        public var fixes = 0
        public var headings = 0
        public var ignoredOtherDevice = 0
        public var ignoredNoPosition = 0
        public var ignoredBadHeading = 0
        public var ignoredBadMode = 0
        public var connects = 0
        public var connectionLosses = 0
    }

    public let subscriptions: [ReceiverSubscription]
    /// The events, in the order each role produced them. Finishes after `stop()`.
    public let events: AsyncStream<GPSEvent>

    private let continuation: AsyncStream<GPSEvent>.Continuation
    private let eventHandler: (@Sendable (GPSEvent) -> Void)?
    private let logger: Logger
    private let state: Mutex<State>
    private let stopFlag = Atomic<Bool>(false)

    private struct State: ~Copyable {
        var statistics: [ReceiverRole: Statistics] = [:]
        var running = 0
    }

    /// - Parameters:
    ///   - subscriptions: one per role.
    ///   - bufferLimit: newest events kept if the consumer falls behind (oldest dropped).
    ///   - eventHandler: if given, called with every event on the reader thread that produced it,
    ///     *instead of* yielding it to `events` (which then only finishes). Saves a task hop per
    ///     event for a consumer that merges several sources (`FlightService`); must not block.
    public init(subscriptions: [ReceiverSubscription], logger: Logger, bufferLimit: Int = 1024,
                eventHandler: (@Sendable (GPSEvent) -> Void)? = nil) {
        self.subscriptions = subscriptions
        self.logger = logger
        self.eventHandler = eventHandler
        (events, continuation) = AsyncStream.makeStream(of: GPSEvent.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        state = Mutex(State())
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

    private func run(_ sub: ReceiverSubscription) {
        let connection = GPSDConnection()
        let log = logger
        var everConnected = false
        var reportedDown = false
        var backoffSeconds = 0.25
        let meta: Logger.Metadata = ["role": "\(sub.role.rawValue)", "gpsd": "\(sub.endpoint)",
                                     "device": "\(sub.device ?? "any")"]

        while !stopped {
            if let failure = connection.open(sub.endpoint, device: sub.device) {
                if !reportedDown {
                    reportedDown = true
                    count(sub.role) { $0.connectionLosses += 1 }
                    log.warning("cannot reach gpsd", metadata: meta.merging(["reason": "\(failure)"]) { $1 })
                    deliver(.lost(GPSLoss(role: sub.role, device: sub.device,
                                                     reason: .connectionLost(failure), at: SystemClock.now())))
                }
                pause(backoffSeconds)
                backoffSeconds = min(backoffSeconds * 2, 1.0)
                continue
            }
            reportedDown = false
            backoffSeconds = 0.25
            count(sub.role) { $0.connects += 1 }
            log.info("connected to gpsd", metadata: meta)
            deliver(.connected(role: sub.role, endpoint: sub.endpoint.description,
                                          isReconnect: everConnected, at: SystemClock.now()))
            everConnected = true

            readLoop: while !stopped {
                switch connection.read(timeoutMicroseconds: 250_000) {
                case .timeout, .partial:
                    continue
                case .closed(let reason):
                    reportedDown = true
                    count(sub.role) { $0.connectionLosses += 1 }
                    log.warning("gpsd connection lost", metadata: meta.merging(["reason": "\(reason)"]) { $1 })
                    deliver(.lost(GPSLoss(role: sub.role, device: sub.device,
                                                     reason: .connectionLost(reason), at: SystemClock.now())))
                    break readLoop
                case .line(let cls):
                    let now = SystemClock.now()
                    let outcome = connection.map(cls, role: sub.role, device: sub.device, receivedAt: now)
                    count(sub.role) { s in
                        s.linesRead += 1
                        switch outcome {
                        case .event(.fix): s.fixes += 1
                        case .event(.heading): s.headings += 1
                        case .event: break
                        case .ignored(.otherDevice): s.ignoredOtherDevice += 1
                        case .ignored(.noPosition): s.ignoredNoPosition += 1
                        case .ignored(.badHeading): s.ignoredBadHeading += 1
                        case .ignored(.badMode): s.ignoredBadMode += 1
                        case .ignored(.notInteresting): break
                        }
                    }
                    if case .event(let e) = outcome { deliver(e) }
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
