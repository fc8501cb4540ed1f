@testable import FlightRecords
import Foundation  // test-only: files
import Links
import Testing

/// Which recording is the last finished one (what the cockpit offers): the newest that no recorder holds.
@Suite("Video: the last finished recording")
struct LastRecordingTests {
    @Test("the newest closed one, in recording order (-2 after its second, -10 after -9); open ones skipped; none → nil",
          arguments: [
              (["2026-12-07T150102Z", "2026-12-07T160102Z"], Set<String>(), "2026-12-07T160102Z"),
              (["2026-12-07T150102Z", "2026-12-07T160102Z"], ["2026-12-07T160102Z"], "2026-12-07T150102Z"),
              (["2026-12-07T150102Z-2", "2026-12-07T150102Z", "2026-12-07T150102Z-10", "2026-12-07T150102Z-9"], [], "2026-12-07T150102Z-10"),
              (["2026-12-07T150102Z"], ["2026-12-07T150102Z"], nil),
              ([], [], nil),
          ] as [([String], Set<String>, String?)])
    func newestClosed(ids: [String], open: Set<String>, expected: String?) {
        var asked: [String] = []
        let last = LastRecording.newestClosed(ids, isOpen: { asked.append($0); return open.contains($0) })
        #expect(last == expected)
        // Only the newest ones are looked at, up to the first closed one
        #expect(asked.count == min(ids.count, open.count + 1), "\(asked)")
    }

    @Test("on disk: a recording whose raw file a recorder locks is skipped; the MP4, sizes and span of the one before; a partial MP4 is nobody's")
    func onDisk() throws {
        let directory = NSTemporaryDirectory() + "followme-last-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (a, b, c) = ("2026-12-07T150102Z", "2026-12-07T160102Z", "2026-12-07T170102Z")
        // Given a with raw, a long index and an MP4; b being muxed (only its partial MP4 and raw); c being recorded
        _ = FileManager.default.createFile(atPath: "\(directory)/\(a).h264", contents: Data(count: 1234))
        var index = #"{"video":"ardrone-pave","t":10}"# + "\n"
        for n in 0..<2000 { index += #"{"frame":\#(n),"drone_ms":\#(n * 33),"t":\#(12.0 + Double(n) / 30),"offset":0,"size":1,"type":"p"}"# + "\n" }
        _ = FileManager.default.createFile(atPath: "\(directory)/\(a).video.jsonl", contents: Data(index.utf8))
        _ = FileManager.default.createFile(atPath: "\(directory)/\(a).mp4", contents: Data(count: 999))
        _ = FileManager.default.createFile(atPath: "\(directory)/\(b).h264", contents: Data(count: 10))
        _ = FileManager.default.createFile(atPath: "\(directory)/\(b).muxing.mp4", contents: Data(count: 5))
        _ = FileManager.default.createFile(atPath: "\(directory)/\(c).h264", contents: Data(count: 10))
        let held = open("\(directory)/\(c).h264", O_WRONLY | O_CLOEXEC)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        #expect(VideoRecordingFiles.isBeingWritten("\(directory)/\(c).h264") && !VideoRecordingFiles.isBeingWritten("\(directory)/\(b).h264"))

        // Then b is the last (c is open), with no MP4 yet (its partial file is not one)
        let last = try #require(LastRecording.find(in: directory))
        #expect(last.id == b && last.mp4Bytes == nil && last.rawBytes == 10 && last.recording?.rawPath == "\(directory)/\(b).h264")
        // And with b gone, a: its MP4's size and the index's span, from the file's ends
        try FileManager.default.removeItem(atPath: "\(directory)/\(b).h264")
        let older = try #require(LastRecording.find(in: directory))
        #expect(older.id == a && older.mp4Bytes == 999 && older.rawBytes == 1234 && older.mp4Path == "\(directory)/\(a).mp4")
        #expect(abs((older.seconds ?? 0) - 1999.0 / 30) < 1e-6, "\(older.seconds ?? -1)")
        #expect(LastRecording.find(in: directory + "/nowhere") == nil)
    }
}
