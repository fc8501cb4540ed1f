#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Thread-safe accumulation of a child's output, split into lines.
package final class LineCollector: Sendable {
    private let buffer = Mutex(Data())
    private let reachedEOF = Atomic<Bool>(false)

    package init() {}

    package func append(_ d: Data) { buffer.withLock { $0.append(d) } }

    package var text: String { String(decoding: buffer.withLock { $0 }, as: UTF8.self) }
    package var lines: [String] { text.split(separator: "\n").map(String.init) }

    /// True once the pipe being drained reached end of file (the writer and all its copies closed).
    package var isComplete: Bool { reachedEOF.load(ordering: .sequentiallyConsistent) }

    /// Reads `fd` on a thread of its own until end of file, appending everything, then closes it.
    func drain(_ fd: Int32, label: String) {
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                append(Data(chunk[0..<n]))
            }
            close(fd)
            reachedEOF.store(true, ordering: .sequentiallyConsistent)
        }
        thread.name = label
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Waits (blocking) up to `seconds` for end of file; returns whether it came.
    @discardableResult
    package func waitForEOF(seconds: Double) -> Bool {
        let deadline = TestClock.now().adding(seconds: seconds)
        while !isComplete, TestClock.now() < deadline { usleep(2_000) }
        return isComplete
    }
}
