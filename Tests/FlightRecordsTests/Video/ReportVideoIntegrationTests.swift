@testable import FlightRecords
import Foundation  // test-only: files, processes
import Links
import Logging
import Simulation
import Testing

/// The report's video end to end in-process: a recording from the simulated drone's video port (loopback
/// TCP), a flight log naming it, then `FlightVideoFiles.find` with real ffmpeg muxes it, makes the strip,
/// and the page links the MP4 beside it; each thumbnail shows the frame its place in the MP4 names.
@Suite("Report video: a recorded flight's page with its MP4 and thumbnails (loopback TCP, ffmpeg)")
struct ReportVideoIntegrationTests {
    @Test("recorded, found by the flight log's notice, muxed by the report, 6 thumbnails each showing its frame")
    func reportWithVideo() async throws {
        let directory = NSTemporaryDirectory() + "followme-report-video-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Given a recording of a stream whose picture n is a flat grey of luma 30 + 3n (n < 60), from the simulated port
        let (settings, id) = try await VideoMuxIntegrationTests.recordGreyRamp(into: directory + "/flights/video")
        let raw = settings.directory + "/\(id).h264"
        let index = VideoIndex(text: try String(contentsOfFile: settings.directory + "/\(id).video.jsonl", encoding: .utf8))
        let span = try #require(index.hostSpan)
        #expect(index.frames.count > 40)

        // And a flight log around it (fixes from 1 s before to 1 s after), naming it as the recorder's notice does,
        // and closed; plus a decoy recording in the same directory that overlaps in time but is not named
        let t0 = span.lowerBound - 1
        var lines = ["{\"t\":\(t0),\"kind\":\"start\",\"standoff_m\":8,\"min_separation_m\":3}",
                     "{\"t\":\(span.lowerBound - 0.2),\"kind\":\"link\",\"event\":\"notice\",\"reason\":\"video recording started: \(raw)\"}"]
        for t in stride(from: t0, through: span.upperBound + 1, by: 0.2) {
            let lat = 47.5 + (t - t0) * 1e-5
            lines.append("{\"t\":\(t),\"kind\":\"gps\",\"event\":{\"role\":\"target\",\"mode\":3,\"lat\":\(lat),\"lon\":8.25,\"rx\":\(t)},\"verdict\":\"accepted\"}")
            lines.append("{\"t\":\(t),\"kind\":\"gps\",\"event\":{\"role\":\"onboard\",\"mode\":3,\"lat\":\(lat - 7e-5),\"lon\":8.25,\"rx\":\(t)},\"verdict\":\"accepted\"}")
        }
        lines.append("{\"t\":\(span.upperBound + 1.1),\"kind\":\"link\",\"event\":\"statistics-final\"}")
        let text = lines.joined(separator: "\n") + "\n"
        let logPath = directory + "/flights/flight.jsonl"
        try text.write(toFile: logPath, atomically: true, encoding: .utf8)
        let decoy = "2020-01-01T000000Z"
        #expect(FileManager.default.createFile(atPath: settings.directory + "/\(decoy).h264", contents: Data([0, 0, 0, 1])))
        try Self.indexText(frames: index.frames).write(toFile: settings.directory + "/\(decoy).video.jsonl", atomically: true, encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: settings.directory + "/\(id).mp4"))

        // When the report looks for the flight's video, ffmpeg present
        let timeline = try FlightTimeline(flightLogText: text, title: "t")
        var options = FlightVideoFiles.Options()
        options.thumbnails = 6
        let reportPath = directory + "/flights/flight.html"
        let found = FlightVideoFiles.find(flightLogText: text, logPath: logPath, reportPath: reportPath,
                                          logStartSeconds: try #require(timeline.logStartSeconds), options: options)

        // Then it found the named recording only, muxed it beside the raw stream, and links it from the page's directory
        #expect(found.videos.map(\.id) == [id], "\(found.messages)")
        let video = try #require(found.videos.first)
        #expect(FileManager.default.fileExists(atPath: settings.directory + "/\(id).mp4"))
        #expect(video.mp4Href == "video/\(id).mp4")
        #expect(found.messages.contains { $0.contains("muxed") })
        // And its time table puts the first frame 1 s into the timeline
        #expect(abs((video.timelineSeconds(atVideoSeconds: 0) ?? -1) - 1) < 1e-6)
        // And each of the 6 thumbnails is a JPEG of the frame at its place in the MP4
        #expect(video.thumbnails.count == 6 && video.thumbnailsNote == nil, "\(video.thumbnailsNote ?? "")")
        for (i, thumbnail) in video.thumbnails.enumerated() {
            #expect(thumbnail.jpeg.starts(with: [0xFF, 0xD8]))
            let jpeg = directory + "/thumb-\(i).jpg"
            #expect(FileManager.default.createFile(atPath: jpeg, contents: Data(thumbnail.jpeg)))
            let pixel = try VideoMuxIntegrationTests.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", jpeg,
                                                          "-vf", "scale=1:1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
            let k = Int((thumbnail.videoSeconds * index.framesPerSecond).rounded())
            // The JPEG is full range (yuvj420p): its luma back to the stream's limited range, then the picture's number
            let luma = (pixel.bytes.first.map(Double.init) ?? -100) * 219 / 255 + 16
            let shown = Int((luma - 30) / 3 + 0.5)
            #expect(shown == index.frames[k].number % VideoMuxIntegrationTests.greyRampPictures,
                    "thumbnail \(i) at \(thumbnail.videoSeconds) s (position \(k)) shows \(shown); the index says frame \(index.frames[k].number)")
            #expect(abs(thumbnail.timelineSeconds - (index.frames[k].hostSeconds - t0)) < 1e-9)
        }
        // And the page holds the player, the strip and the plan view's cursor, and is well-formed
        let html = FlightReportPage(timeline: timeline, videos: found.videos).html()
        let doc = FlightReportPageTests.parse(html)
        #expect(doc.elements.filter { $0.name == "video" }.map { $0.attributes["src"] } == ["video/\(id).mp4"])
        #expect(doc.elements.filter { $0.name == "img" }.count == 6)
        let drone = doc.elements.first { $0.attributes["id"] == "plan-cursor" }?.attributes["data-drone"] ?? ""
        #expect(drone.split(separator: " ").count > 10)

        // And with --no-mux on a fresh copy and no ffmpeg: the command, no thumbnails, and why
        try FileManager.default.removeItem(atPath: settings.directory + "/\(id).mp4")
        options.ffmpeg = nil
        let bare = FlightVideoFiles.find(flightLogText: text, logPath: logPath, reportPath: reportPath,
                                         logStartSeconds: t0, options: options)
        #expect(bare.videos.first?.mp4Href == nil && bare.videos.first?.thumbnails.isEmpty == true)
        #expect(bare.videos.first?.muxCommand == "followme video mux \(raw)")
        #expect(bare.videos.first?.thumbnailsNote?.contains("ffmpeg is not installed") == true)
    }

    /// An index with `frames`' lines and a header.
    static func indexText(frames: [VideoIndex.Frame]) -> String {
        (["{\"video\":\"ardrone-pave\",\"t\":\(frames.first?.hostSeconds ?? 0)}"] + frames.map {
            "{\"frame\":\($0.number),\"drone_ms\":\($0.droneMilliseconds),\"t\":\($0.hostSeconds)}"
        }).joined(separator: "\n") + "\n"
    }
}
