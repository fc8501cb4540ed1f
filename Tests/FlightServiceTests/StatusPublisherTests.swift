#if canImport(Glibc)
import Glibc
#endif
@testable import FlightRecords
@testable import FlightService
import Foundation
@testable import Links
import Testing

/// The read-only status socket of `followme run`, over real Unix sockets: watchers get JSON lines,
/// and a slow, absent or vanishing watcher never holds up the flight loop's `publish`.
@Suite("StatusPublisher: the read-only status socket", .serialized)
struct StatusPublisherTests {
    @Test("watchers get the latest status as one JSON line ~4 Hz; the socket file is 0660 and removed at stop")
    func watchersGetLines() throws {
        // Given a publisher at a fresh path and two watchers
        let (dir, publisher) = try Self.publisher(intervalSeconds: StatusPublisher.defaultIntervalSeconds)
        defer { _ = dir }
        let path = publisher.path
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o660)
        let a = try Watcher(path: path), b = try Watcher(path: path)

        // When the loop publishes a new status every 50 ms for 2 s
        let n = Self.publish(to: publisher, forSeconds: 2, everyMicroseconds: 50_000) { Self.status($0) }

        // Then each watcher got whole JSON lines at about 4 Hz (8 in 2 s; 5…10 allowed for scheduling), newest last
        for watcher in [a, b] {
            let statuses = watcher.readAvailable().compactMap { FlightStatus.decode(jsonLine: $0) }
            #expect((5...10).contains(statuses.count), "\(statuses.count) lines")
            #expect(statuses.map(\.flightSeconds) == statuses.map(\.flightSeconds).sorted())
            #expect((statuses.last?.flightSeconds ?? 0) >= Double(n - 6))
        }
        #expect(publisher.counters[.accepted] == 2)

        // And stop removes the socket file
        publisher.stop()
        #expect(lstat(path, &info) != 0)
    }

    @Test("a watcher that never reads: publish never waits, the watcher is skipped then dropped, counted; others keep getting lines")
    func slowWatcherNeverBlocks() throws {
        // Given a publisher sending every 10 ms, a watcher that never reads and one that does
        let (dir, publisher) = try Self.publisher(intervalSeconds: 0.01)
        defer { publisher.stop(); _ = dir }
        let path = publisher.path
        let stalled = try Watcher(path: path)
        let reader = try Watcher(path: path)
        _ = stalled

        // When big statuses (~2 KB each) are published for 3 s
        var worstPublishSeconds = 0.0
        var received = 0
        Self.publish(to: publisher, forSeconds: 3, everyMicroseconds: 2_000) { n in
            var s = Self.status(n)
            s.state = String(repeating: "x", count: 2000)
            return s
        } after: { seconds in
            worstPublishSeconds = max(worstPublishSeconds, seconds)
            received += reader.readAvailable().count
        }

        print("status publisher, one watcher stalled: worst publish \(Int(worstPublishSeconds * 1e6)) µs, "
              + "reader got \(received) lines, \(publisher.counters)")
        // Then publishing never waited (a lock swap: well under a millisecond even on a busy machine)
        #expect(worstPublishSeconds < 0.005, "worst publish \(worstPublishSeconds) s")
        // And the stalled watcher filled its buffer, was skipped and then dropped; the reader was not
        let c = publisher.counters
        #expect(c[.linesSkipped] >= StatusPublisher.dropAfterSkippedLines, "\(c)")
        #expect(c[.watchersDropped] == 1, "\(c)")
        #expect(publisher.connectedWatchers == 1, "\(c)")
        #expect(received > 100, "the reading watcher got \(received) lines in 3 s at 100 Hz")
    }

    @Test("watchers that vanish (closed at once, or mid-stream) are counted as gone, and the publisher goes on")
    func vanishingWatcher() throws {
        // Given a publisher and watchers that connect and close again
        let (dir, publisher) = try Self.publisher(intervalSeconds: 0.01)
        defer { publisher.stop(); _ = dir }
        let path = publisher.path
        for i in 0..<5 {
            let w = try Watcher(path: path)
            publisher.publish(Self.status(i))
            usleep(30_000)
            _ = w.readAvailable()
            w.close()
        }
        // When more statuses go out
        for i in 5..<20 {
            publisher.publish(Self.status(i))
            usleep(20_000)
        }
        // Then the five are gone (no SIGPIPE, no crash) and a new watcher is still served
        #expect(publisher.counters[.watchersGone] == 5, "\(publisher.counters)")
        let late = try Watcher(path: path)
        for i in 20..<30 {
            publisher.publish(Self.status(i))
            usleep(20_000)
        }
        #expect(late.readAvailable().compactMap { FlightStatus.decode(jsonLine: $0) }.count >= 3)
        #expect(publisher.connectedWatchers == 1)
    }

    @Test("stop still sends the last status once (the flight's landing), without waiting for the next interval")
    func lastStatusAtStop() throws {
        // Given a publisher whose next line is a minute away, and a watcher
        let (dir, publisher) = try Self.publisher(intervalSeconds: 60)
        defer { _ = dir }
        let watcher = try Watcher(path: publisher.path)
        usleep(300_000)
        // When the flight publishes its last status and stops
        var landed = Self.status(7)
        landed.state = "landed"
        publisher.publish(landed)
        publisher.stop()
        // Then the watcher got exactly that status
        #expect(watcher.readAvailable().compactMap { FlightStatus.decode(jsonLine: $0) }.map(\.state) == ["landed"])
    }

    @Test("a stale socket file from a killed flight is replaced; a regular file is never")
    func staleSocketReplaced() throws {
        // Given a socket file nobody listens on any more (a publisher's, whose process died)
        let dir = try TemporaryDirectory()
        let path = dir.path + "/status.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(try UnixSocketAddress.with(path: path) { bind(fd, $0, $1) } == 0)
        close(fd)
        // When a new publisher starts there, then it serves watchers
        let publisher = try StatusPublisher(path: path, intervalSeconds: 0.01)
        let w = try Watcher(path: path)
        publisher.publish(Self.status(1))
        usleep(100_000)
        #expect(w.readAvailable().count == 1)
        publisher.stop()

        // Given a regular file at the path, when a publisher starts there, then it refuses
        FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
        #expect(throws: StatusPublisher.SetupError.self) { _ = try StatusPublisher(path: path) }
        #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
    }

    /// Publishes `make(1)`, `make(2)`, … every `everyMicroseconds` for `seconds`, calling `after` with how
    /// long each `publish` took; returns how many were published.
    @discardableResult
    static func publish(to publisher: StatusPublisher, forSeconds seconds: Double, everyMicroseconds: UInt32,
                        _ make: (Int) -> FlightStatus, after: (Double) -> Void = { _ in }) -> Int {
        let start = Date()
        var n = 0
        while Date().timeIntervalSince(start) < seconds {
            n += 1
            let status = make(n)
            let before = Date()
            publisher.publish(status)
            after(Date().timeIntervalSince(before))
            usleep(everyMicroseconds)
        }
        return n
    }

    /// A publisher at `status.sock` in a fresh directory (which goes when the returned value does).
    static func publisher(intervalSeconds: Double) throws -> (TemporaryDirectory, StatusPublisher) {
        let dir = try TemporaryDirectory()
        return (dir, try StatusPublisher(path: dir.path + "/status.sock", intervalSeconds: intervalSeconds))
    }

    static func status(_ n: Int) -> FlightStatus {
        var s = FlightStatus()
        s.t = 100 + Double(n)
        s.flightSeconds = Double(n)
        s.state = "following"
        return s
    }
}

/// A scratch directory, removed when the value goes away.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "statuspub-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A `followme watch` stand-in: a Unix stream socket connected to the publisher, read without blocking.
final class Watcher {
    private var fd: Int32
    private var lines = LineSplitter()

    init(path: String) throws {
        fd = try UnixSocketAddress.connectStream(path: path)
    }

    deinit { close() }

    var descriptor: Int32 { fd }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// The complete lines waiting in the socket now.
    func readAvailable() -> [String] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var complete: [String] = []
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return complete }
            complete += lines.append(chunk[..<n])
        }
    }
}
