import FlightRecords
import Foundation
import FollowCore
import Synchronization

/// The latest `FlightStatus` of the running flight: the flight loop writes it (every 0.25 s and on
/// every state change), every view reads it — the status socket (`StatusPublisher`) and the web
/// cockpit — so they all show the same snapshot (one source). Writing swaps a value under a lock;
/// the flight never waits for a reader.
public final class FlightStatusBoard: Sendable {
    private let latest = Mutex<(status: FlightStatus?, generation: Int)>((nil, 0))

    public init() {}

    /// Hands the latest status to every view; returns at once.
    public func publish(_ status: FlightStatus) {
        latest.withLock { $0 = (status, $0.generation + 1) }
    }

    /// The latest status and how many were published so far (a reader sends a status only when the
    /// generation moved, so a stalled flight shows as an ageing status, not as repeated lines).
    public var current: (status: FlightStatus?, generation: Int) { latest.withLock { $0 } }
}

/// What the flight made of an operator's command: the answer `followme land|hold|resume|start`, a
/// key in `followme watch` and the cockpit's buttons get. One JSON line on the status socket,
/// `{"kind":"reply","command":"land","source":"cli uid=1000","outcome":"accepted","accepted":true,"state":"landing(operator)"}`.
public struct OperatorCommandReply: SortedJSONLine, Sendable, Hashable {
    /// Tells a reply from a status line on the status socket.
    public var kind = "reply"
    public var command: String = ""
    public var source: String = ""
    /// `OperatorCommand.Outcome.name`, or `no-flight` (no flight loop takes commands), `rate-limited`,
    /// `bad-request: …` (the channel refused it before the flight saw it).
    public var outcome: String = ""
    /// Taken, or already so: `followme land` exits 0.
    public var accepted = false
    /// The flight state right after the command (empty when it never reached the flight).
    public var state: String = ""

    public init() {}

    /// A refusal by the channel itself, before the flight saw the command.
    public static func refused(_ command: String, source: String, outcome: String) -> Self {
        var reply = Self()
        (reply.command, reply.source, reply.outcome) = (command, source, outcome)
        return reply
    }

    /// Decodes a reply line of the status socket; nil for a status line or anything else.
    public static func decode(jsonLine: some StringProtocol) -> Self? {
        decodeLine(jsonLine).flatMap { $0.kind == "reply" ? $0 : nil }
    }
}

extension FlightStatus {
    /// This status as a view shows it after the channel refused `reply` before the flight saw it
    /// (`rate-limited`, `no-flight`, a closed socket): the OPERATOR row names that refusal, as of this
    /// status's time. Unchanged for nil or for a reply the flight gave (it shows in the status itself).
    public func showing(channelRefusal reply: OperatorCommandReply?) -> FlightStatus {
        guard let reply, reply.state.isEmpty else { return self }
        var status = self
        status.operatorCommand = FlightStatus.OperatorCommandStatus {
            ($0.t, $0.command, $0.source, $0.outcome) = (t, reply.command, reply.source, reply.outcome)
        }
        return status
    }
}

/// Where an operator's commands enter the running flight, from any thread: the status socket's
/// thread (`followme land`, `watch`'s keys) and the web cockpit's server. The flight attaches itself
/// while its loop runs and hands each command to that loop (one `execute` onto the event loop, the
/// hop a GPS fix takes too); the reply comes back on the loop's thread once the machine has taken
/// it. With no flight attached a command is answered `no-flight` at once.
public final class OperatorCommandInbox: Sendable {
    /// Hands a request (a command or a change of follow mode) to the flight loop; the loop calls
    /// `reply` once it has taken it.
    public typealias Delivery = @Sendable (OperatorRequest, _ source: String, _ reply: @escaping @Sendable (OperatorCommandReply) -> Void) -> Void

    private let delivery = Mutex<Delivery?>(nil)

    public init() {}

    /// Submits one command; `reply` is called exactly once, on some other thread or at once.
    public func submit(_ command: OperatorCommand, source: String, reply: @escaping @Sendable (OperatorCommandReply) -> Void) {
        submit(.command(command), source: source, reply: reply)
    }

    /// Submits one request (a command or a change of follow mode); `reply` as for a command.
    public func submit(_ request: OperatorRequest, source: String, reply: @escaping @Sendable (OperatorCommandReply) -> Void) {
        guard let deliver = delivery.withLock({ $0 }) else {
            reply(.refused(request.name, source: source, outcome: "no-flight"))
            return
        }
        deliver(request, source, reply)
    }

    /// The flight loop starts (a delivery) or stops (nil) taking commands.
    func attach(_ deliver: Delivery?) {
        delivery.withLock { $0 = deliver }
    }
}

/// A bound on how often one client may command: a token bucket (our choice: a burst of
/// `burst` commands, then `perSecond` a second) — a stuck key or a script in a loop cannot flood the
/// flight loop's queue, and a person pressing LAND twice is never refused.
public struct CommandRateLimit: Sendable {
    public static let burst = 4.0
    public static let perSecond = 2.0
    private var tokens = CommandRateLimit.burst
    private var last: MonotonicTime?

    public init() {}

    /// Takes one token at `now`; false when the client must wait.
    public mutating func allow(now: MonotonicTime) -> Bool {
        if let last { tokens = min(Self.burst, tokens + now.seconds(since: last) * Self.perSecond) }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
