@testable import FlightRecords
import Links
import Testing

/// The flight logs' retention and the video recordings' budget stay apart (docs/video.md §3).
@Suite("Flight log retention leaves video recordings alone")
struct FlightLogRetentionVideoTests {
    @Test("[log] max_total_mb and max_flights never count or delete a recording, even in the flight logs' directory")
    func flightLogRetentionLeavesRecordings() {
        let entries = ["2026-01-01T000000Z.h264", "2026-01-01T000000Z.video.jsonl", "2026-01-01T000000Z.mp4"]
            .map { FlightLogRetention.Entry(fileName: $0, sizeBytes: 1_000_000_000) }
            + [FlightLogRetention.Entry(fileName: "2026-01-01T000000Z.jsonl", sizeBytes: 10)]
        let removed = FlightLogRetention(maxFlights: 1, maxTotalBytes: 1).filesToRemove(in: entries, current: "2026-01-02T000000Z.jsonl")
        #expect(removed == ["2026-01-01T000000Z.jsonl"])
    }

    @Test("a flight log's name is no recording's")
    func namesDoNotOverlap() {
        #expect(VideoRecordingFiles.recordingID(ofFile: FlightLogFileName(startUnixSeconds: 1_796_655_662).fileName) == nil)
        #expect(FlightLogFileName(fileName: "2026-12-07T151422Z.video.jsonl") == nil)
        #expect(FlightLogFileName(fileName: "2026-12-07T151422Z.h264") == nil)
    }
}
