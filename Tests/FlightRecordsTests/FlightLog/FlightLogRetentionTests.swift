@testable import FlightRecords
import Foundation
import Testing

/// `[log] directory`: one file per flight named by its UTC start time, and retention by count and
/// total size (oldest first, never the current flight, never a file it did not name).
@Suite("Flight-log directory: file names and retention")
struct FlightLogRetentionTests {
    typealias Entry = FlightLogRetention.Entry

    @Test("a flight's file is named by its UTC start second; the same second gets -2, -3, …")
    func names() {
        // 2026-11-23 10:15:00 UTC
        let name = FlightLogFileName(startUnixSeconds: 1_795_428_900)
        #expect(name.fileName == "2026-11-23T101500Z.jsonl")
        #expect(name.next.fileName == "2026-11-23T101500Z-2.jsonl")
        #expect(name.next.next.fileName == "2026-11-23T101500Z-3.jsonl")
        #expect(FlightLogFileName(fileName: "2026-11-23T101500Z-2.jsonl") == name.next)
        #expect(FlightLogFileName(fileName: name.fileName) == name)
    }

    @Test("only names it writes parse", arguments: [
        "flight.jsonl", "2026-11-23T101500Z.json", "2026-11-23T10:15:00Z.jsonl", "2026-11-23T101500Z-1.jsonl",
        "2026-11-23T101500Z-02.jsonl", "2026-11-23T101500Z-x.jsonl", "2026-11-23T1015Z.jsonl", "notes.txt",
    ])
    func foreignNames(_ fileName: String) {
        #expect(FlightLogFileName(fileName: fileName) == nil)
    }

    @Test("oldest first: by time, then by sequence (-10 after -9, the unsuffixed one first)")
    func order() {
        let names = ["2026-11-23T101500Z-10.jsonl", "2026-11-23T101501Z.jsonl", "2026-11-23T101500Z-9.jsonl",
                     "2026-11-23T101500Z.jsonl", "2025-12-31T235959Z.jsonl"]
        let sorted = names.compactMap(FlightLogFileName.init(fileName:)).sorted().map(\.fileName)
        #expect(sorted == ["2025-12-31T235959Z.jsonl", "2026-11-23T101500Z.jsonl", "2026-11-23T101500Z-9.jsonl",
                           "2026-11-23T101500Z-10.jsonl", "2026-11-23T101501Z.jsonl"])
    }

    /// Five flights a minute apart, the last one the current flight.
    static let five: [Entry] = (0..<5).map { i in
        Entry(fileName: FlightLogFileName(startUnixSeconds: 1_795_428_900 + Int64(60 * i)).fileName, sizeBytes: Int64(10 * i))
    }
    static var current: String { five[4].fileName }

    @Test("by count: the oldest go until the limit holds, the current one counted", arguments: [
        (0, 0), (5, 0), (6, 0), (4, 1), (2, 3), (1, 4),
    ])
    func byCount(_ maxFlights: Int, _ removedCount: Int) {
        let removed = FlightLogRetention(maxFlights: maxFlights, maxTotalBytes: 0).filesToRemove(in: Self.five, current: Self.current)
        #expect(removed == Self.five.prefix(removedCount).map(\.fileName))
    }

    @Test("by total size: the oldest go until the rest fit", arguments: [
        (Int64(0), 0), (105, 0), (104, 1), (65, 1), (64, 2), (35, 2), (34, 3), (15, 3), (14, 4), (1, 4),
    ])
    func bySize(_ maxBytes: Int64, _ removedCount: Int) {
        // Sizes 40 (oldest), 30, 20, 10, 5 (current): 105 bytes in all.
        let entries = zip(Self.five, [40, 30, 20, 10, 5] as [Int64]).map { Entry(fileName: $0.fileName, sizeBytes: $1) }
        let removed = FlightLogRetention(maxFlights: 0, maxTotalBytes: maxBytes).filesToRemove(in: entries, current: Self.current)
        #expect(removed == entries.prefix(removedCount).map(\.fileName))
    }

    @Test("never the current flight, never a foreign file; an unlisted current one still counts")
    func neverCurrentNorForeign() {
        let foreign = [Entry(fileName: "flight.jsonl", sizeBytes: 1_000_000), Entry(fileName: "README", sizeBytes: 5)]
        // Given the current flight is the OLDEST name (a clock set back) and a limit of one
        let oldestCurrent = Self.five[0].fileName
        let removed = FlightLogRetention(maxFlights: 1, maxTotalBytes: 1).filesToRemove(in: foreign + Self.five, current: oldestCurrent)
        #expect(removed == Self.five.dropFirst().map(\.fileName))
        // Given the current file is not listed (not created yet): it still takes one of the places
        let unlisted = FlightLogRetention(maxFlights: 4, maxTotalBytes: 0)
            .filesToRemove(in: Array(Self.five.prefix(4)), current: Self.current)
        #expect(unlisted == [Self.five[0].fileName])
    }

    @Test("startFlight: creates the directory and a new file per flight, removes the oldest past the limit")
    func startFlightOnDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flights-\(UUID().uuidString)/nested").path
        defer { try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent) }
        let retention = FlightLogRetention(maxFlights: 3, maxTotalBytes: 0)

        // When two flights start in the same second, then a third and a fourth later
        let a = try FlightLogDirectory.startFlight(directory: dir, startUnixSeconds: 1_795_428_900, retention: retention)
        try "{\"t\":1}\n".write(toFile: "\(dir)/notes.jsonl", atomically: true, encoding: .utf8)
        let b = try FlightLogDirectory.startFlight(directory: dir, startUnixSeconds: 1_795_428_900, retention: retention)
        let c = try FlightLogDirectory.startFlight(directory: dir, startUnixSeconds: 1_795_428_960, retention: retention)
        let d = try FlightLogDirectory.startFlight(directory: dir, startUnixSeconds: 1_795_429_020, retention: retention)

        // Then each got its own file, the same-second one with -2
        #expect((a.path as NSString).lastPathComponent == "2026-11-23T101500Z.jsonl")
        #expect((b.path as NSString).lastPathComponent == "2026-11-23T101500Z-2.jsonl")
        #expect(a.removed.isEmpty && b.removed.isEmpty && c.removed.isEmpty)
        // And the fourth removed the oldest, leaving three flights and the foreign file
        #expect(d.removed == ["2026-11-23T101500Z.jsonl"])
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["2026-11-23T101500Z-2.jsonl", "2026-11-23T101600Z.jsonl", "2026-11-23T101700Z.jsonl", "notes.jsonl"])
    }
}
