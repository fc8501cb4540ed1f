import Foundation  // test-only: files
@testable import Links
import Testing

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
