#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FollowCore

/// A first-in first-out queue bounded in entries and bytes: an entry that does not fit is
/// dropped and counted, never waited for.
///
/// The value behind `LogWriter` (the shell adds the lock and the thread), so the dropping rule is
/// tested without threads.
package struct BoundedQueue<Element> {
    package let capacityEntries: Int
    package let capacityBytes: Int
    private var elements: [(element: Element, byteCount: Int)] = []
    private var head = 0
    /// Bytes of the entries queued now.
    package private(set) var queuedBytes = 0
    /// Entries refused because the queue was full.
    package private(set) var droppedEntries = 0
    package private(set) var droppedBytes = 0
    /// Entries accepted.
    package private(set) var acceptedEntries = 0

    package init(capacityEntries: Int, capacityBytes: Int) {
        precondition(capacityEntries > 0 && capacityBytes > 0)
        self.capacityEntries = capacityEntries
        self.capacityBytes = capacityBytes
    }

    package var count: Int { elements.count - head }
    package var isEmpty: Bool { count == 0 }

    /// Appends `element` if it fits (one more entry, `byteCount` more bytes); else counts the drop.
    @discardableResult
    package mutating func push(_ element: Element, byteCount: Int) -> Bool {
        guard count < capacityEntries, queuedBytes + byteCount <= capacityBytes else {
            droppedEntries += 1
            droppedBytes += byteCount
            return false
        }
        elements.append((element, byteCount))
        queuedBytes += byteCount
        acceptedEntries += 1
        return true
    }

    /// Removes and returns every queued entry, oldest first.
    package mutating func popAll() -> [Element] {
        let out = elements[head...].map(\.element)
        elements.removeAll(keepingCapacity: true)
        head = 0
        queuedBytes = 0
        return out
    }
}

/// Writes byte chunks (log lines, flight-log lines) to one file descriptor from its own thread,
/// so that nobody who enqueues ever blocks on a slow terminal, a full pipe or a stalled disk.
///
/// `enqueue` takes a lock for the time of an array append and returns: when the queue is full the
/// chunk is dropped and counted (`counters`). Only chunks are ever dropped, never partially
/// written: each is written whole with `write(2)` (looping on short writes), in order. One writer
/// per destination, so a stalled stderr cannot hold back the flight log.
public final class LogWriter: @unchecked Sendable {
    /// What the writer counts: `enqueued`, chunks accepted into the queue; `dropped`, chunks
    /// refused because the queue was full (the lines they held are lost), and their `droppedBytes`;
    /// `written`, chunks written completely; `writeErrors`, chunks `write(2)` refused (e.g. disk
    /// full, EPIPE; counted, never fatal).
    public enum Counter: CaseIterable, Sendable, Hashable {
        case enqueued, dropped, droppedBytes, written, writeErrors
    }

    /// What the writer did so far (`counters[.dropped]`).
    public typealias Counters = Counts<Counter>

    /// Default bounds: our choice, 4096 chunks / 4 MiB — minutes of log lines at the rates
    /// `followme run` logs (a few lines a second), a few seconds of a stall at worst-case rates.
    public static let defaultCapacityEntries = 4096
    public static let defaultCapacityBytes = 4 << 20

    public let name: String
    private let fileDescriptor: Int32
    private let closesDescriptor: Bool
    /// Guards everything below; the writer thread waits on it.
    private let condition = NSCondition()
    private var queue: BoundedQueue<[UInt8]>
    private var written = 0
    private var writeErrors = 0
    private var stopping = false
    private var finished = false

    /// - Parameters:
    ///   - fileDescriptor: where the chunks go (e.g. `STDERR_FILENO`, or a file opened `O_APPEND`).
    ///   - closesDescriptor: close it when the writer thread ends.
    public init(name: String, fileDescriptor: Int32, closesDescriptor: Bool = false,
                capacityEntries: Int = LogWriter.defaultCapacityEntries,
                capacityBytes: Int = LogWriter.defaultCapacityBytes) {
        self.name = name
        self.fileDescriptor = fileDescriptor
        self.closesDescriptor = closesDescriptor
        queue = BoundedQueue(capacityEntries: capacityEntries, capacityBytes: capacityBytes)
        let thread = Thread { [self] in runWriter() }
        thread.name = "followme.log.\(name)"
        thread.start()
    }

    /// Queues `bytes` for writing; false if the queue was full (dropped and counted) or the writer
    /// is shutting down. Never blocks on the descriptor.
    @discardableResult
    public func enqueue(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        guard queue.push(bytes, byteCount: bytes.count) else { return false }
        condition.signal()
        return true
    }

    /// Queues the UTF-8 of `text`.
    @discardableResult
    public func enqueue(_ text: String) -> Bool { enqueue(Array(text.utf8)) }

    public var counters: Counters {
        condition.lock()
        defer { condition.unlock() }
        return Counters([.enqueued: queue.acceptedEntries, .dropped: queue.droppedEntries,
                          .droppedBytes: queue.droppedBytes, .written: written, .writeErrors: writeErrors])
    }

    /// Waits until everything enqueued so far was written, at most `timeoutSeconds`; returns
    /// whether it was (false: the descriptor is stalled).
    @discardableResult
    public func drain(timeoutSeconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        let target = queue.acceptedEntries
        while written + writeErrors < target && !finished {
            guard condition.wait(until: deadline) else { return written + writeErrors >= target }
        }
        return written + writeErrors >= target
    }

    /// Stops accepting chunks, writes what is queued (waiting at most `timeoutSeconds`, since the
    /// descriptor may be stalled for good) and ends the thread. Returns whether everything was written.
    @discardableResult
    public func shutdown(timeoutSeconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !finished {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    private func runWriter() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            let chunks = queue.popAll()
            let done = stopping && chunks.isEmpty
            if done {
                finished = true
                condition.broadcast()
            }
            condition.unlock()
            if done { break }
            for chunk in chunks {
                let ok = Self.writeAll(chunk, to: fileDescriptor)
                condition.lock()
                if ok { written += 1 } else { writeErrors += 1 }
                condition.broadcast()
                condition.unlock()
            }
        }
        if closesDescriptor { close(fileDescriptor) }
    }

    /// `write(2)` until all of `bytes` is out (retrying EINTR); false on any other error.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
