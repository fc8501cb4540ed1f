import Foundation  // test-only: files
@testable import Links
import Testing
import TestSupport

/// The recordings' directory: names, the budget, and that the flight logs' retention never touches a recording.
@Suite("Video recording files")
struct VideoRecordingFilesTests {
    @Test("recording ids are the UTC start second, with -N for another in the same second")
    func names() {
        #expect(VideoRecordingFiles.stamp(unixSeconds: 1_796_655_662) == "2026-12-07T150102Z")
        #expect(VideoRecordingFiles.recordingID(ofFile: "2026-12-07T151422Z.h264") == "2026-12-07T151422Z")
        #expect(VideoRecordingFiles.recordingID(ofFile: "2026-12-07T151422Z-2.video.jsonl") == "2026-12-07T151422Z-2")
        #expect(VideoRecordingFiles.recordingID(ofFile: "2026-12-07T151422Z.mp4") == "2026-12-07T151422Z")
        #expect(VideoRecordingFiles.recordingID(ofFile: "holiday.mp4") == nil)
        #expect(VideoRecordingFiles.recordingID(ofFile: "2026-12-07T151422Z.jsonl") == nil)
        #expect(VideoRecordingFiles.isOlder("2026-12-07T151422Z-9", "2026-12-07T151422Z-10"))
        #expect(VideoRecordingFiles.isOlder("2026-12-07T151422Z", "2026-12-07T151422Z-2"))
    }

    @Test("the budget deletes the oldest recordings first, never the current one", arguments: [
        (Int64(0), [String]()),  // no limit
        (Int64(1000), ["2026-01-01T000000Z"]),
        (Int64(700), ["2026-01-01T000000Z", "2026-01-02T000000Z", "2026-01-03T000000Z"]),
        (Int64(10), ["2026-01-01T000000Z", "2026-01-02T000000Z", "2026-01-03T000000Z"]),  // the current one alone is over
    ])
    func budget(maxTotalBytes: Int64, removed: [String]) {
        let sizes: [String: Int64] = ["2026-01-03T000000Z": 300, "2026-01-01T000000Z": 400, "2026-01-02T000000Z": 200,
                                      "2026-01-04T000000Z": 500]
        #expect(VideoRecordingFiles.recordingsToRemove(sizes: sizes, current: "2026-01-04T000000Z", maxTotalBytes: maxTotalBytes)
            == removed)
    }

    @Test("free space is read from the file system")
    func freeSpace() {
        let free = VideoRecordingFiles.freeBytes(at: NSTemporaryDirectory())
        #expect((free ?? 0) > 0)
        #expect(VideoRecordingFiles.freeBytes(at: "/nonexistent/followme") == nil)
    }
}

/// The recorder's own use of the directory, without a stream (the port refuses: it keeps retrying).
@Suite("Video recorder: naming and the budget on disk")
struct VideoRecorderDirectoryTests {
    @Test("two recordings in the same second get id and id-2; the budget deletes the oldest recording's files, each logged")
    func namingAndBudget() async throws {
        let directory = NSTemporaryDirectory() + "followme-video-dir-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Given an old recording of 3 MB and a budget of 2 MB
        FileManager.default.createFile(atPath: directory + "/2020-01-01T000000Z.h264", contents: Data(count: 3_000_000))
        FileManager.default.createFile(atPath: directory + "/2020-01-01T000000Z.video.jsonl", contents: Data(count: 10))
        FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data(count: 5_000_000))
        var settings = VideoRecorderSettings()
        (settings.host, settings.port, settings.directory, settings.maxTotalBytes) = ("127.0.0.1", 1, directory, 2_000_000)
        let log = CapturedLog()
        let recorder = VideoRecorder(settings: settings, logger: log.logger(label: "test.video.dir"), unixSeconds: { 1_796_655_662 })
        // When two recordings start in the same second
        recorder.begin()
        await recorder.end()
        let first = recorder.statistics.recordingID
        recorder.begin()
        await recorder.end()
        let second = recorder.statistics.recordingID
        await recorder.shutdown()
        // Then they are named by that second, the second with -2
        #expect(first == "2026-12-07T150102Z" && second == "2026-12-07T150102Z-2")
        // And the old recording's two files went, each with a log line; the file that is no recording stayed
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == ["2026-12-07T150102Z-2.h264", "2026-12-07T150102Z-2.video.jsonl", "2026-12-07T150102Z.h264",
                         "2026-12-07T150102Z.video.jsonl", "notes.txt"])
        let removals = log.entries("old video recording removed")
        #expect(removals.map { $0.metadata["file"] ?? "" }.sorted()
            == [directory + "/2020-01-01T000000Z.h264", directory + "/2020-01-01T000000Z.video.jsonl"])
        #expect(recorder.statistics.recordingsDeleted == 1)
    }
}
