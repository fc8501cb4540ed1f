#if canImport(Glibc)
import Glibc
#endif
import Telemetry

/// Appends the flight log: one JSON object per line (JSONL), flushed at least once a second.
///
/// Safe against `kill -9`: lines are only ever written whole, each flush is one `write(2)` of
/// complete lines to a file opened with `O_APPEND`, so a crash loses at most the last second
/// and never corrupts an earlier line. Owned by one task (the flight loop); not thread-safe.
public final class FlightRecorder {
    public enum RecorderError: Error, CustomStringConvertible {
        case cannotOpen(path: String, reason: String)
        public var description: String {
            switch self {
            case .cannotOpen(let path, let reason): return "\(path): cannot open flight log: \(reason)"
            }
        }
    }

    public let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var lastFlush: MonotonicTime
    private let flushIntervalSeconds: Double
    private let flushBytes: Int
    /// Bytes that could not be written (disk full…); counted, never fatal to the flight.
    public private(set) var droppedBytes = 0
    public private(set) var linesWritten = 0

    /// Opens (creating, appending) the log at `path`.
    public init(path: String, now: MonotonicTime, flushIntervalSeconds: Double = 0.5, flushBytes: Int = 64 * 1024) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecorderError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        self.fd = fd
        self.lastFlush = now
        self.flushIntervalSeconds = flushIntervalSeconds
        self.flushBytes = flushBytes
        buffer.reserveCapacity(flushBytes)
    }

    deinit {
        flush()
        close(fd)
    }

    /// Adds one line; flushes when the interval has passed or the buffer is large.
    public func record(_ line: String, now: MonotonicTime) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        linesWritten += 1
        flushIfDue(now: now)
    }

    /// Flushes if the interval has passed (call it from a periodic tick too).
    public func flushIfDue(now: MonotonicTime) {
        if buffer.count >= flushBytes || now.seconds(since: lastFlush) >= flushIntervalSeconds {
            flush()
            lastFlush = now
        }
    }

    /// Writes everything buffered, whole lines only.
    public func flush() {
        guard !buffer.isEmpty else { return }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    droppedBytes += raw.count - offset
                    return
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
