#if canImport(Glibc)
import Glibc
#endif
import FlightRecords
import Foundation
import Logging
import FollowCore
import Links
import Synchronization

/// The status socket of `followme run` (`--status-socket PATH`, `[status] socket`): a Unix stream
/// socket any number of watchers (`followme watch`, `followme land`) connect to; each gets the
/// latest `FlightStatus` as one JSON line about 4 times a second, and may send operator commands.
///
/// The flight never waits for it: the flight loop only swaps a value on the `FlightStatusBoard`. Its
/// own thread accepts watchers and writes to them without blocking (`MSG_DONTWAIT`): a watcher whose
/// socket buffer is full is skipped for that line (counted), and one that stays full for
/// `dropAfterSkippedLines` lines in a row is disconnected (counted). A line is never torn: a
/// partial write is finished before the next line goes to that watcher.
///
/// Commands (docs/commands.md §4.7): a watcher may write `{"command":"land"}` lines (`hold`,
/// `resume`, `land`, `start`; an optional `"via"` label such as `"watch"`); each is answered with one
/// `OperatorCommandReply` line. Who may send them is who may connect: the socket file is 0660, so the
/// service's user and group `followme`. The source logged with each command is the via label and the
/// sender's uid (SO_PEERCRED), never what the sender claims. Bounded: a line over `maxCommandBytes`
/// is answered `bad-request` and discarded, a sender over `CommandRateLimit` is answered
/// `rate-limited`; nothing a watcher writes can block the thread or the flight.
public final class StatusPublisher: @unchecked Sendable {
    /// What the publisher counts (`counters[.linesSent]`):
    /// - `accepted`: watchers that connected; `linesSent`: lines written whole to a watcher;
    /// - `linesSkipped`: lines a watcher did not get because its socket buffer was full;
    /// - `watchersDropped`: watchers disconnected because they did not read (`dropAfterSkippedLines`
    ///   skipped in a row); `watchersGone`: watchers that went away by themselves (closed, reset).
    public enum Counter: CaseIterable, Sendable, Hashable {
        case accepted, linesSent, linesSkipped, watchersDropped, watchersGone
        /// Command lines handed to the flight; refused before it (bad request, too long, rate-limited).
        case commandsReceived, commandsRefused
    }

    /// Errors creating the socket.
    public struct SetupError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "status socket \(path): \(reason)" }
    }

    /// Seconds between two lines to each watcher: our choice, 4 Hz like the terminal status line
    /// (a person reads no faster; cgps refreshes at 1 Hz).
    public static let defaultIntervalSeconds = 0.25
    /// Lines skipped in a row before a watcher that does not read is disconnected: our choice, 2 s
    /// at 4 Hz. Its socket buffer (`sendBufferBytes`) already holds several seconds of lines.
    public static let dropAfterSkippedLines = 8
    /// The longest the thread sleeps before it looks whether `stop()` was called, seconds: our choice,
    /// short beside `followme run`'s shutdown (a landing takes seconds).
    static let stopLatencySeconds = 0.1
    /// Kernel send buffer per watcher, bytes: our choice, ~30 lines of ~1 KB, so a stalled watcher
    /// holds little memory and is noticed within seconds.
    public static let sendBufferBytes: Int32 = 32 * 1024
    /// Permissions of the socket file: owner and group may connect (`followme watch` as a member of
    /// the service's group), others not.
    public static let socketFileMode: mode_t = 0o660

    /// The longest command line read, bytes (our choice: `{"command":"resume","via":"watch"}` is 35).
    public static let maxCommandBytes = 256
    /// The most bytes of answers and torn lines kept for one watcher: our choice, a few status lines.
    static let maxPendingBytes = 16 * 1024

    public let path: String
    /// Where the flight's status comes from (shared with the web cockpit).
    public let board: FlightStatusBoard
    /// Where commands go; nil: command lines are answered `no-flight`.
    private let commands: OperatorCommandInbox?
    private let intervalSeconds: Double
    /// Notes each watcher dropped for not reading (nil: silent).
    private let logger: Logger?
    private let listenFD: Int32
    /// Replies to deliver, by watcher id (filled from the flight loop's thread).
    private let replies = Mutex<[(watcher: Int, line: [UInt8])]>([])
    /// A pipe that wakes the thread when a reply is queued (read end, write end).
    private let wakeFD: Int32, wakeWriteFD: Int32
    private let state = Mutex<(counts: Counts<Counter>, connected: Int)>((Counts(), 0))
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Only the thread touches it.
    private nonisolated(unsafe) var nextWatcherID = 0

    /// Creates the socket at `path` (replacing a stale socket file left by a killed flight, never a
    /// file of another kind), mode 0660, and starts the thread that serves watchers.
    public init(path: String, intervalSeconds: Double = StatusPublisher.defaultIntervalSeconds, logger: Logger? = nil,
                board: FlightStatusBoard = FlightStatusBoard(), commands: OperatorCommandInbox? = nil)
        throws(SetupError)
    {
        self.path = path
        self.board = board
        self.commands = commands
        self.intervalSeconds = intervalSeconds
        self.logger = logger
        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFSOCK else {
                throw SetupError(path: path, reason: "exists and is not a socket; not replacing it")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SetupError(path: path, reason: UnixSocketAddress.Failure.errno("socket").description) }
        do throws(UnixSocketAddress.Failure) {
            guard try UnixSocketAddress.with(path: path, { bind(fd, $0, $1) }) == 0 else { throw UnixSocketAddress.Failure.errno("bind") }
            guard chmod(path, Self.socketFileMode) == 0 else { throw UnixSocketAddress.Failure.errno("chmod") }
            guard listen(fd, 16) == 0 else { throw UnixSocketAddress.Failure.errno("listen") }
        } catch {
            close(fd)
            throw SetupError(path: path, reason: error.description)
        }
        listenFD = fd
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            close(fd)
            throw SetupError(path: path, reason: UnixSocketAddress.Failure.errno("pipe").description)
        }
        for end in pipeFDs {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeFD, wakeWriteFD) = (pipeFDs[0], pipeFDs[1])
        let thread = Thread { [self] in serve() }
        thread.name = "status-socket"
        thread.start()
    }

    /// Hands the latest status to the publisher; returns at once (the flight loop calls it).
    public func publish(_ status: FlightStatus) {
        board.publish(status)
    }

    /// What it did so far.
    public var counters: Counts<Counter> { state.withLock { $0.counts } }
    /// Watchers connected now.
    public var connectedWatchers: Int { state.withLock { $0.connected } }

    /// Stops serving, disconnects every watcher and removes the socket file (waits up to 2 s for the
    /// thread, which never blocks longer than one interval).
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = finished.wait(timeout: .now() + 2)
    }

    // MARK: The thread

    private struct Watcher {
        let fd: Int32
        let id: Int
        /// Who is on the other end (SO_PEERCRED), for the command's source.
        let uid: UInt32?
        /// The rest of a line the socket took only part of, and replies queued behind it.
        var pending: [UInt8] = []
        var skippedInARow = 0
        /// Bytes of an unfinished command line; whether the watcher closed its sending side.
        var incoming: [UInt8] = []
        var discardingLongLine = false
        var readClosed = false
        var rate = CommandRateLimit()
        /// After a line over the rate limit, what it sends is not read until then (monotonic seconds):
        /// a client that floods the socket costs the thread one read per pause, not a busy loop.
        var quietUntil = 0.0
    }

    private func serve() {
        var watchers: [Watcher] = []
        var sentGeneration = 0
        /// Sends the latest status to every watcher if it is news (a stalled flight loop then shows
        /// up as an ageing status in the watcher, not as repeated lines).
        func sendLatest() {
            let (status, generation) = board.current
            guard let status, generation != sentGeneration else { return }
            sentGeneration = generation
            let line = Array((status.jsonLine() + "\n").utf8)
            watchers = watchers.compactMap { send(line, to: $0) }
            state.withLock { $0.connected = watchers.count }
        }
        var nextSend = SystemClock.now().seconds
        while !stopping.load(ordering: .acquiring) {
            // Sleep until the next line is due, a watcher connects or writes, or a reply is queued (at
            // most `stopLatencySeconds`, so that `stop()` is noticed whatever the interval).
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let polled = SystemClock.now().seconds
            fds += watchers.map { pollfd(fd: $0.readClosed || $0.quietUntil > polled ? -1 : $0.fd, events: Int16(POLLIN), revents: 0) }
            let waitMs = Int32(max(0, min(nextSend - SystemClock.now().seconds, Self.stopLatencySeconds)) * 1000)
            _ = poll(&fds, nfds_t(fds.count), waitMs)
            for (index, pfd) in fds.enumerated().dropFirst(2) where pfd.revents != 0 {
                readCommands(from: &watchers[index - 2])
            }
            if fds[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = read(wakeFD, &drain, drain.count)
            }
            deliverReplies(to: &watchers)
            acceptAll(into: &watchers)
            let now = SystemClock.now().seconds
            guard now >= nextSend else { continue }
            nextSend = max(nextSend + intervalSeconds, now)
            sendLatest()
        }
        // The flight's last status (e.g. "landed") still goes out, once, without waiting.
        sendLatest()
        deliverReplies(to: &watchers)
        for w in watchers { close(w.fd) }
        close(listenFD)
        close(wakeFD)
        close(wakeWriteFD)
        unlink(path)
        state.withLock { $0.connected = 0 }
        finished.signal()
    }

    // MARK: Commands

    /// Reads what a watcher wrote (never blocking) and submits each complete command line.
    private func readCommands(from watcher: inout Watcher) {
        var chunk = [UInt8](repeating: 0, count: 512)
        let n = chunk.withUnsafeMutableBytes { recv(watcher.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n < 0 { if errno != EAGAIN && errno != EINTR { watcher.readClosed = true }; return }
        if n == 0 { watcher.readClosed = true; return }
        for byte in chunk[..<n] {
            guard byte == UInt8(ascii: "\n") else {
                if watcher.incoming.count >= Self.maxCommandBytes {
                    if !watcher.discardingLongLine { refuse(&watcher, command: "", outcome: "bad-request: line longer than \(Self.maxCommandBytes) bytes") }
                    watcher.discardingLongLine = true
                    watcher.incoming.removeAll(keepingCapacity: true)
                }
                if !watcher.discardingLongLine { watcher.incoming.append(byte) }
                continue
            }
            let line = watcher.incoming
            watcher.incoming.removeAll(keepingCapacity: true)
            if watcher.discardingLongLine { watcher.discardingLongLine = false; continue }
            handleCommandLine(line, from: &watcher)
        }
    }

    private func handleCommandLine(_ line: [UInt8], from watcher: inout Watcher) {
        let request = CommandRequest.parse(line)
        let via = request.via ?? "socket"
        let source = watcher.uid.map { "\(via) uid=\($0)" } ?? via
        // Every line counts against the rate (garbage too), and a line over it pauses reading.
        let now = SystemClock.now()
        guard watcher.rate.allow(now: now) else {
            watcher.quietUntil = now.seconds + 1 / CommandRateLimit.perSecond
            return refuse(&watcher, command: request.name ?? "", source: source, outcome: "rate-limited")
        }
        guard let taken = request.request else {
            return refuse(&watcher, command: request.name ?? "", source: source, outcome: "bad-request: \(request.problem ?? "?")")
        }
        guard let commands else {
            return refuse(&watcher, command: taken.name, source: source, outcome: "no-flight")
        }
        state.withLock { $0.counts[.commandsReceived] += 1 }
        let id = watcher.id
        commands.submit(taken, source: source) { [self] reply in queueReply(reply, to: id) }
    }

    /// Answers a line the flight never sees; a client that does not read its answers gets no more
    /// once `maxPendingBytes` wait for it (the status lines then drop it, as any watcher that stops reading).
    private func refuse(_ watcher: inout Watcher, command: String, source: String = "", outcome: String) {
        state.withLock { $0.counts[.commandsRefused] += 1 }
        guard watcher.pending.count < Self.maxPendingBytes else { return }
        watcher.pending += Array((OperatorCommandReply.refused(command, source: source, outcome: outcome).jsonLine() + "\n").utf8)
    }

    /// Called from any thread: the thread writes it at its next wake-up.
    private func queueReply(_ reply: OperatorCommandReply, to watcher: Int) {
        replies.withLock { $0.append((watcher, Array((reply.jsonLine() + "\n").utf8))) }
        var one: UInt8 = 1
        _ = Glibc.write(wakeWriteFD, &one, 1)   // a full pipe already wakes it
    }

    /// Queues each reply behind what its watcher has pending and writes what the sockets take.
    private func deliverReplies(to watchers: inout [Watcher]) {
        let queued = replies.withLock { r in defer { r.removeAll() }; return r }
        for (id, line) in queued {
            if let index = watchers.firstIndex(where: { $0.id == id }) { watchers[index].pending += line }
        }
        watchers = watchers.compactMap { w in w.pending.isEmpty ? w : flushPending(w) }
    }

    /// Writes as much of a watcher's pending bytes as its socket takes; nil when the watcher is gone.
    private func flushPending(_ watcher: Watcher) -> Watcher? {
        var w = watcher
        switch write(w.pending, to: w.fd) {
        case .gone: return disconnect(w, dropped: false)
        case .wrote(let n): w.pending.removeFirst(n)
        }
        return w
    }

    private func acceptAll(into watchers: inout [Watcher]) {
        while true {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var size = Self.sendBufferBytes
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (socket(7); Glibc hides it without _GNU_SOURCE).
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            let uid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 ? credentials.uid : nil
            nextWatcherID += 1
            watchers.append(Watcher(fd: fd, id: nextWatcherID, uid: uid))
            state.withLock { $0.counts[.accepted] += 1; $0.connected = watchers.count }
        }
    }

    /// Writes `line` to one watcher without blocking; nil when the watcher is closed.
    private func send(_ line: [UInt8], to watcher: Watcher) -> Watcher? {
        var w = watcher
        // Finish a torn line first; a new line only goes out whole after it.
        if !w.pending.isEmpty {
            switch write(w.pending, to: w.fd) {
            case .gone: return disconnect(w, dropped: false)
            case .wrote(let n): w.pending.removeFirst(n)
            }
        }
        if w.pending.isEmpty {
            switch write(line, to: w.fd) {
            case .gone: return disconnect(w, dropped: false)
            case .wrote(let n) where n == line.count:
                w.skippedInARow = 0
                state.withLock { $0.counts[.linesSent] += 1 }
                return w
            case .wrote(let n) where n > 0:
                w.pending = Array(line[n...])
                w.skippedInARow = 0
                state.withLock { $0.counts[.linesSent] += 1 }
                return w
            case .wrote:
                break
            }
        }
        w.skippedInARow += 1
        state.withLock { $0.counts[.linesSkipped] += 1 }
        return w.skippedInARow >= Self.dropAfterSkippedLines ? disconnect(w, dropped: true) : w
    }

    private enum WriteResult { case wrote(Int), gone }

    private func write(_ bytes: [UInt8], to fd: Int32) -> WriteResult {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
        if n >= 0 { return .wrote(n) }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wrote(0) : .gone
    }

    private func disconnect(_ w: Watcher, dropped: Bool) -> Watcher? {
        Glibc.close(w.fd)
        let counts = state.withLock {
            $0.counts[dropped ? .watchersDropped : .watchersGone] += 1
            return $0.counts
        }
        if dropped {
            logger?.notice("status watcher disconnected: it stopped reading", metadata: [
                "path": "\(path)", "lines-skipped": "\(counts[.linesSkipped])", "watchers-dropped": "\(counts[.watchersDropped])",
            ])
        }
        return nil
    }
}

/// One command line of the status socket: `{"command":"land","via":"watch"}`, or a change of follow
/// mode `{"command":"mode","mode":"angle","angle_deg":90,"orbit_direction":"clockwise"}` (the angle and
/// the direction optional).
struct CommandRequest {
    var name: String?
    var via: String?
    var request: OperatorRequest?
    var problem: String?

    /// Every word `command` takes: the operator commands and `mode`.
    static var knownNames: String { OperatorRequest.names.joined(separator: ", ") }

    /// A JSON object with a known `command`; anything else names what is wrong.
    static func parse(_ line: [UInt8]) -> CommandRequest {
        var request = CommandRequest()
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            request.problem = "not a JSON object; send {\"command\":\"land\"}"
            return request
        }
        request.name = object["command"] as? String
        // A label only: letters and dashes, short (it goes into the log).
        if let via = object["via"] as? String, !via.isEmpty, via.count <= 16,
           via.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || $0 == "-" }) {
            request.via = via
        }
        guard let name = request.name else {
            request.problem = "no \"command\"; one of " + knownNames
            return request
        }
        if name == "mode" {
            do throws(FollowModeChange.Invalid) {
                request.request = .followMode(try parseModeChange(object))
            } catch {
                request.problem = error.description
            }
            return request
        }
        guard let command = OperatorCommand(rawValue: name) else {
            request.problem = "unknown command \"\(name.prefix(32))\"; one of " + knownNames
            return request
        }
        request.request = .command(command)
        return request
    }

    /// `mode` (a string, required), `angle_deg` (a number) and `orbit_direction` (a string) of a mode line.
    static func parseModeChange(_ object: [String: Any]) throws(FollowModeChange.Invalid) -> FollowModeChange {
        guard let mode = object["mode"] as? String else { throw .unknownMode(object["mode"].map { "\($0)" } ?? "") }
        var angle: Double?
        if let raw = object["angle_deg"] {
            guard !(raw is Bool), let number = raw as? Double else { throw .angleOutOfRange(.nan) }
            angle = number
        }
        var direction: String?
        if let raw = object["orbit_direction"] {
            guard let named = raw as? String else { throw .unknownDirection("\(raw)") }
            direction = named
        }
        return try FollowModeChange(modeName: mode, angleDegrees: angle, directionName: direction)
    }
}
