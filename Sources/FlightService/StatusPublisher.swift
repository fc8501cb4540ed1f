#if canImport(Glibc)
import Glibc
#endif
import FlightRecords
import Foundation
import Logging
import FollowCore
import Links
import Synchronization

/// The read-only status socket of `followme run` (`--status-socket PATH`, `[status] socket`): a
/// Unix stream socket any number of watchers (`followme watch`) connect to; each gets the latest
/// `FlightStatus` as one JSON line about 4 times a second.
///
/// The flight never waits for it: `publish(_:)` only swaps a value under a lock. Its own thread
/// accepts watchers and writes to them without blocking (`MSG_DONTWAIT`): a watcher whose socket
/// buffer is full is skipped for that line (counted), and one that stays full for
/// `dropAfterSkippedLines` lines in a row is disconnected (counted). A line is never torn: a
/// partial write is finished before the next line goes to that watcher. Nothing is ever read
/// from a watcher (its receiving direction is shut down).
public final class StatusPublisher: @unchecked Sendable {
    /// What the publisher counts (`counters[.linesSent]`):
    /// - `accepted`: watchers that connected; `linesSent`: lines written whole to a watcher;
    /// - `linesSkipped`: lines a watcher did not get because its socket buffer was full;
    /// - `watchersDropped`: watchers disconnected because they did not read (`dropAfterSkippedLines`
    ///   skipped in a row); `watchersGone`: watchers that went away by themselves (closed, reset).
    public enum Counter: CaseIterable, Sendable, Hashable {
        case accepted, linesSent, linesSkipped, watchersDropped, watchersGone
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

    public let path: String
    private let intervalSeconds: Double
    /// Notes each watcher dropped for not reading (nil: silent).
    private let logger: Logger?
    private let listenFD: Int32
    private let latest = Mutex<(status: FlightStatus?, generation: Int)>((nil, 0))
    private let state = Mutex<(counts: Counts<Counter>, connected: Int)>((Counts(), 0))
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Creates the socket at `path` (replacing a stale socket file left by a killed flight, never a
    /// file of another kind), mode 0660, and starts the thread that serves watchers.
    public init(path: String, intervalSeconds: Double = StatusPublisher.defaultIntervalSeconds, logger: Logger? = nil)
        throws(SetupError)
    {
        self.path = path
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
        let thread = Thread { [self] in serve() }
        thread.name = "status-socket"
        thread.start()
    }

    /// Hands the latest status to the publisher; returns at once (the flight loop calls it).
    public func publish(_ status: FlightStatus) {
        latest.withLock { $0 = (status, $0.generation + 1) }
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
        /// The rest of a line the socket took only part of.
        var pending: [UInt8] = []
        var skippedInARow = 0
    }

    private func serve() {
        var watchers: [Watcher] = []
        var sentGeneration = 0
        /// Sends the latest status to every watcher if it is news (a stalled flight loop then shows
        /// up as an ageing status in the watcher, not as repeated lines).
        func sendLatest() {
            let (status, generation) = latest.withLock { $0 }
            guard let status, generation != sentGeneration else { return }
            sentGeneration = generation
            let line = Array((status.jsonLine() + "\n").utf8)
            watchers = watchers.compactMap { send(line, to: $0) }
            state.withLock { $0.connected = watchers.count }
        }
        var nextSend = SystemClock.now().seconds
        while !stopping.load(ordering: .acquiring) {
            // Sleep until the next line is due or a watcher connects (at most `stopLatencySeconds`, so
            // that `stop()` is noticed whatever the interval).
            var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            let waitMs = Int32(max(0, min(nextSend - SystemClock.now().seconds, Self.stopLatencySeconds)) * 1000)
            _ = poll(&pfd, 1, waitMs)
            acceptAll(into: &watchers)
            let now = SystemClock.now().seconds
            guard now >= nextSend else { continue }
            nextSend = max(nextSend + intervalSeconds, now)
            sendLatest()
        }
        // The flight's last status (e.g. "landed") still goes out, once, without waiting.
        sendLatest()
        for w in watchers { close(w.fd) }
        close(listenFD)
        unlink(path)
        state.withLock { $0.connected = 0 }
        finished.signal()
    }

    private func acceptAll(into watchers: inout [Watcher]) {
        while true {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // Read-only: whatever a watcher sends is discarded by the kernel, never read.
            shutdown(fd, Int32(SHUT_RD))
            var size = Self.sendBufferBytes
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            watchers.append(Watcher(fd: fd))
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
