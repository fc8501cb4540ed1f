#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Links
import Logging
import Testing

/// The bounded queue behind every log line and flight-log record of `followme run`, its writer
/// thread, and the swift-log handler that feeds it: nothing that enqueues may ever block.
@Suite("Log writer: bounded queue, writer thread, queued log handler")
struct LogWriterTests {
    /// A writer appending to a new temporary file (`<label>-<uuid>.log`); the caller unlinks `path`.
    static func fileWriter(_ label: String) throws -> (writer: LogWriter, path: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString).log").path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        return (LogWriter(name: "file", fileDescriptor: fd, closesDescriptor: true), path)
    }

    @Test("a full queue drops and counts what does not fit, and keeps the order of what it took",
          arguments: [(entries: 3, bytes: 1000), (entries: 100, bytes: 25)])
    func boundedQueueDropsAndCounts(capacity: (entries: Int, bytes: Int)) {
        // Given a queue bounded to 3 entries (or to 25 bytes, i.e. 2½ ten-byte entries)
        var queue = BoundedQueue<Int>(capacityEntries: capacity.entries, capacityBytes: capacity.bytes)

        // When five ten-byte entries are pushed
        let accepted = (1...5).map { queue.push($0, byteCount: 10) }

        // Then the first ones fit, the rest are dropped and counted, and the kept ones come out in order
        let fitting = min(capacity.entries, capacity.bytes / 10)
        #expect(accepted == (1...5).map { $0 <= fitting })
        #expect(queue.droppedEntries == 5 - fitting)
        #expect(queue.droppedBytes == 10 * (5 - fitting))
        let kept = queue.popAll()
        #expect(kept == Array(1...fitting))
        // and once emptied it takes entries again
        #expect(queue.isEmpty && queue.queuedBytes == 0)
        let pushedAgain = queue.push(6, byteCount: 10)
        let again = queue.popAll()
        #expect(pushedAgain)
        #expect(again == [6])
    }

    @Test("enqueueing to a pipe nobody reads never blocks: lines beyond the queue are dropped and counted")
    func stalledPipeNeverBlocks() throws {
        // Given a writer with a 64-entry queue on a full pipe whose reading end nobody reads
        let pipe = try RawPipe.make()
        defer { pipe.closeBoth() }
        try pipe.fill()
        let writer = LogWriter(name: "test", fileDescriptor: pipe.write, capacityEntries: 64)

        // When 20 000 lines of 100 bytes (2 MB, 30× a 64 KiB pipe) are enqueued
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [0x0A]
        let started = SystemClock.now()
        var accepted = 0
        for _ in 0..<20_000 where writer.enqueue(line) { accepted += 1 }
        let elapsed = SystemClock.now().seconds(since: started)

        // Then every call returned at once (the whole loop well under a second) and what did not fit
        // was dropped and counted
        #expect(elapsed < 1, "enqueueing took \(elapsed) s")
        let counters = writer.counters
        #expect(counters[.enqueued] == accepted)
        #expect(counters[.written] == 0)
        // (the writer holds at most one batch it took out of the queue, blocked in write(2))
        #expect(accepted >= 64 && accepted <= 128, "accepted \(accepted)")
        #expect(counters[.dropped] == 20_000 - accepted)
        #expect(counters[.droppedBytes] == 100 * (20_000 - accepted))
        // and shutting down is bounded even though the pipe stays full
        let shutdownStarted = SystemClock.now()
        #expect(!writer.shutdown(timeoutSeconds: 0.3))
        #expect(SystemClock.now().seconds(since: shutdownStarted) < 1)
        // (Cleanup: read the pipe until the writer thread has written its queue and ended, so it is
        // not left blocked on a pipe that is about to close.)
        _ = fcntl(pipe.read, F_SETFL, O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !writer.shutdown(timeoutSeconds: 0.01) { _ = Glibc.read(pipe.read, &buffer, buffer.count) }
    }

    @Test("shutdown writes everything queued, whole lines in order")
    func shutdownFlushesInOrder() throws {
        // Given a writer on a file
        let (writer, path) = try Self.fileWriter("logwriter")
        defer { unlink(path) }

        // When 1000 numbered lines are enqueued and the writer is shut down
        for i in 0..<1000 { writer.enqueue("line \(i)\n") }
        #expect(writer.shutdown(timeoutSeconds: 5))

        // Then the file holds all of them, in order, nothing dropped
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines == (0..<1000).map { "line \($0)"[...] })
        let counters = writer.counters
        #expect(counters[.enqueued] == 1000 && counters[.written] == 1000)
        #expect(counters[.dropped] == 0 && counters[.droppedBytes] == 0 && counters[.writeErrors] == 0)
        // and it refuses lines after shutdown
        #expect(!writer.enqueue("late\n"))
    }

    @Test("drain waits for lines to be written while the reader keeps up")
    func drainWithReader() throws {
        // Given a writer on a pipe whose reader is slow but alive
        let pipe = try RawPipe.make()
        let writer = LogWriter(name: "pipe", fileDescriptor: pipe.write, capacityEntries: 10_000)
        let received = ReceivedBytes()
        let reader = Thread { [read = pipe.read] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = Glibc.read(read, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }   // other tests' child processes send SIGCHLD
                if n <= 0 { break }
                received.append(buffer[0..<n])
                usleep(1000)
            }
        }
        reader.start()

        // When 5000 lines (~60 KB, more than the pipe holds at once) are enqueued and drained
        for i in 0..<5000 { writer.enqueue("message \(i)\n") }
        let drained = writer.drain(timeoutSeconds: 10)
        writer.shutdown(timeoutSeconds: 5)
        Glibc.close(pipe.write)
        let deadline = SystemClock.now().adding(seconds: 10)
        while !received.text.hasSuffix("message 4999\n") && SystemClock.now() < deadline { usleep(1000) }
        Glibc.close(pipe.read)

        // Then nothing was dropped and everything arrived, in order
        #expect(drained)
        #expect(writer.counters[.dropped] == 0)
        #expect(received.text.split(separator: "\n") == (0..<5000).map { "message \($0)"[...] })
    }

    @Test("the queued log handler writes StreamLogHandler-style lines with every metadata source")
    func queuedLogHandlerKeepsMetadata() throws {
        // Given a logger whose handler queues to a file, with handler metadata and a provider
        let (writer, path) = try Self.fileWriter("handler")
        defer { unlink(path) }
        let provider = Logger.MetadataProvider { ["flight": "42"] }
        var logger = Logger(label: "followme.test") { QueuedLogHandler(label: $0, writer: writer, metadataProvider: provider) }
        logger[metadataKey: "role"] = "target"
        logger.logLevel = .debug

        // When it logs at warning with metadata, and below its level
        logger.warning("receiver lost", metadata: ["reason": "no-fix"])
        logger.trace("not written")
        writer.shutdown(timeoutSeconds: 5)

        // Then one line arrived: timestamp, level, label, sorted metadata from all three, source, message
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        let line = String(try #require(lines.first))
        #expect(line.contains(" warning followme.test : flight=42 reason=no-fix role=target [LinksTests] receiver lost"),
                "\(line)")
        #expect(line.first?.isNumber == true)
    }
}

/// Both ends of a `pipe(2)`.
struct RawPipe {
    let read: Int32
    let write: Int32

    static func make() throws -> RawPipe {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        return RawPipe(read: fds[0], write: fds[1])
    }

    /// Writes to the pipe until it is full (non-blocking), then makes it blocking again.
    func fill() throws {
        let flags = fcntl(write, F_GETFL)
        _ = fcntl(write, F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0, count: 4096)
        while Glibc.write(write, chunk, chunk.count) > 0 {}
        var one: UInt8 = 0
        while Glibc.write(write, &one, 1) > 0 {}
        _ = fcntl(write, F_SETFL, flags)
    }

    func closeBoth() {
        Glibc.close(read)
        Glibc.close(write)
    }
}

final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func append(_ more: ArraySlice<UInt8>) { lock.lock(); bytes += more; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return bytes.count }
    var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: bytes, as: UTF8.self) }
}
