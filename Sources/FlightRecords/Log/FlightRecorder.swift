#if canImport(Glibc)
import Glibc
#endif
import FollowCore
import Links

/// Appends the flight log: one JSON object per line (JSONL), flushed at least once a second.
///
/// `record` only appends to a buffer; every flush hands the buffered whole lines to a `LogWriter`,
/// whose own thread writes them, so the flight loop never waits for the disk. Safe against
/// `kill -9`: lines are only ever handed over whole, each chunk is written in order to a file
/// opened with `O_APPEND`, so a crash loses at most the last second and never corrupts an earlier
/// line. If the writer falls behind (a stalled disk) whole chunks are dropped and counted
/// (`droppedLines`), never the flight. Owned by one task (the flight loop); not thread-safe.
public final class FlightRecorder {
    public enum RecorderError: Error, CustomStringConvertible {
        case cannotOpen(path: String, reason: String)
        public var description: String {
            switch self {
            case .cannotOpen(let path, let reason): return "\(path): cannot open flight log: \(reason)"
            }
        }
    }

    /// Queue bounds of the flight log's writer: our choice, 256 chunks / 16 MiB — at two flushes a
    /// second, two minutes of a stalled disk before anything is dropped.
    static let writerCapacityEntries = 256
    static let writerCapacityBytes = 16 << 20

    public let path: String
    private let writer: LogWriter
    private var buffer: [UInt8] = []
    private var bufferedLines = 0
    private var lastFlush: MonotonicTime
    private let flushIntervalSeconds: Double
    private let flushBytes: Int
    /// Bytes of lines dropped because the writer's queue was full; counted, never fatal to the flight.
    public private(set) var droppedBytes = 0
    /// Lines dropped because the writer's queue was full.
    public private(set) var droppedLines = 0
    public private(set) var linesWritten = 0
    /// Records `JSONLineEncoder` refused (none expected: the schema has only scalars and objects).
    public private(set) var unencodableRecords = 0
    private let encoder = JSONLineEncoder()

    /// Opens (creating, appending) the log at `path`.
    public init(path: String, now: MonotonicTime, flushIntervalSeconds: Double = 0.5, flushBytes: Int = 64 * 1024) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecorderError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        writer = LogWriter(name: "flight-log", fileDescriptor: fd, closesDescriptor: true,
                           capacityEntries: Self.writerCapacityEntries, capacityBytes: Self.writerCapacityBytes)
        self.lastFlush = now
        self.flushIntervalSeconds = flushIntervalSeconds
        self.flushBytes = flushBytes
        buffer.reserveCapacity(flushBytes)
    }

    deinit {
        close(timeoutSeconds: 2)
    }

    /// The writer's counters (chunks written, dropped, write errors).
    public var writerCounters: LogWriter.Counters { writer.counters }

    /// Adds one line; flushes when the interval has passed or the buffer is large.
    public func record(_ line: String, now: MonotonicTime) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        bufferedLines += 1
        linesWritten += 1
        flushIfDue(now: now)
    }

    /// Adds one record of the flight log's schema (FlightLogRecord.swift) as one line, its keys in
    /// declaration order (`JSONLineEncoder`). A record that cannot be encoded (none of the
    /// schema's can fail) is counted in `unencodableRecords`, never fatal to the flight.
    public func record(_ record: some Encodable, now: MonotonicTime) {
        guard let line = try? encoder.encode(record) else {
            unencodableRecords += 1
            return
        }
        self.record(line, now: now)
    }

    /// Flushes if the interval has passed (call it from a periodic tick too).
    public func flushIfDue(now: MonotonicTime) {
        if buffer.count >= flushBytes || now.seconds(since: lastFlush) >= flushIntervalSeconds {
            flush()
            lastFlush = now
        }
    }

    /// Hands everything buffered (whole lines only) to the writer thread; does not wait for it.
    public func flush() {
        guard !buffer.isEmpty else { return }
        if !writer.enqueue(buffer) {
            droppedLines += bufferedLines
            droppedBytes += buffer.count
        }
        buffer.removeAll(keepingCapacity: true)
        bufferedLines = 0
    }

    /// Flushes and waits (at most `timeoutSeconds`) until the writer wrote everything; returns
    /// whether it did. Further records are dropped. Called at the end of a flight, off the hot path.
    @discardableResult
    public func close(timeoutSeconds: Double) -> Bool {
        flush()
        return writer.shutdown(timeoutSeconds: timeoutSeconds)
    }
}
