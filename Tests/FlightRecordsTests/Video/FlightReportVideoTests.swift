@testable import FlightRecords
import Foundation  // test-only: JSON lines, base64 to compare
@testable import FollowCore
import Testing

/// The report's video without I/O: the index's time mapping, which recordings are the flight's, and
/// what the page carries (the player, the cursor, the strip), well-formed.
@Suite("Report video: index time mapping, finding the flight's recordings, the page")
struct FlightReportVideoTests {
    /// An index of `count` frames at the drone's 30 fps (drone_ms 1000/30 apart), host times from
    /// `hostStart` 1/30 s apart, but a 2 s gap (a reconnection) before frame `gapAt`; a torn last line.
    static func indexText(count: Int = 90, hostStart: Double = 1000, gapAt: Int = 60) -> String {
        var lines = ["{\"video\":\"ardrone-pave\",\"stream\":\"720p\",\"port\":5553,\"raw\":\"2026-12-07T150102Z.h264\",\"t\":\(hostStart - 0.5),\"unix\":1796655662}"]
        for k in 0..<count {
            let t = hostStart + Double(k) / 30 + (k >= gapAt ? 2 : 0)
            lines.append("{\"frame\":\(500 + k),\"drone_ms\":\(Double(k) * 1000 / 30),\"t\":\(t),\"offset\":\(k * 100),\"size\":100,\"type\":\"\(k % 30 == 0 ? "idr" : "p")\",\"width\":1280,\"height\":720,\"connection\":1}")
        }
        lines.append("{\"frame\":999,\"drone_ms\":")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the index: frames read, torn line skipped; the rate from the drone's stamps; video ↔ host time")
    func indexMapping() throws {
        let index = VideoIndex(text: Self.indexText())
        #expect(index.frames.count == 90 && index.openedHostSeconds == 999.5)
        #expect(index.frames[0].number == 500 && index.frames[0].type == "idr" && index.frames[1].type == "p")
        #expect(abs(index.framesPerSecond - 30) < 1e-9)
        #expect(abs(index.videoSeconds - 3) < 1e-9)
        // Frame k plays at k / 30 in the MP4 and was read at its host time
        for k in [0, 1, 29, 59, 60, 89] {
            let host = try #require(index.hostSeconds(atVideoSeconds: Double(k) / 30))
            #expect(abs(host - index.frames[k].hostSeconds) < 1e-9, "frame \(k)")
        }
        // Between frames 59 and 60 (the reconnection) video time runs 1/30 s, host time 2 + 1/30 s: linear
        let across = try #require(index.hostSeconds(atVideoSeconds: 59.5 / 30))
        #expect(abs(across - (index.frames[59].hostSeconds + index.frames[60].hostSeconds) / 2) < 1e-9)
        // Clamped past either end
        #expect(index.hostSeconds(atVideoSeconds: -1) == index.frames[0].hostSeconds)
        #expect(index.hostSeconds(atVideoSeconds: 99) == index.frames[89].hostSeconds)
        // Host → video: a moment in the gap shows the frame after it; outside the span, nothing
        let inGap = try #require(index.videoSeconds(atHostSeconds: index.frames[59].hostSeconds + 1))
        #expect(abs(inGap - 60.0 / 30) < 1e-9)
        #expect(index.videoSeconds(atHostSeconds: index.frames[0].hostSeconds - 0.01) == nil)
        #expect(abs((index.videoSeconds(atHostSeconds: index.frames[30].hostSeconds) ?? -1) - 1) < 1e-9)
        // An index without frames says 30 fps and maps nothing
        let empty = VideoIndex(text: "not json\n")
        #expect(empty.frames.isEmpty && empty.framesPerSecond == 30 && empty.hostSeconds(atVideoSeconds: 1) == nil)
    }

    @Test("the time table keeps first and last frame within its bound; thumbnails' frames spread evenly")
    func tableAndPositions() {
        let index = VideoIndex(text: Self.indexText(count: 1000, gapAt: 2000))
        let table = index.timeTable(maxPoints: 50)
        #expect(table.count <= 50 && table.count >= 40)
        #expect(table.first?.videoSeconds == 0 && table.first?.hostSeconds == index.frames[0].hostSeconds)
        #expect(abs((table.last?.videoSeconds ?? 0) - 999.0 / 30) < 1e-9 && table.last?.hostSeconds == index.frames[999].hostSeconds)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0.videoSeconds < $1.videoSeconds && $0.hostSeconds <= $1.hostSeconds })
        #expect(index.evenFramePositions(count: 10) == [50, 150, 250, 350, 450, 550, 650, 750, 850, 950])
        #expect(VideoIndex(text: Self.indexText(count: 3)).evenFramePositions(count: 10) == [0, 1, 2])
        #expect(index.evenFramePositions(count: 0).isEmpty)
    }

    /// A flight log's recorder lines, as `FlightLoop` writes the link events, among other lines.
    static let flightLog = """
        {"t":100.0,"kind":"start","standoff_m":8}
        {"t":101.5,"kind":"link","event":"camera","value":"recording","reason":"video recording /var/log/followme/video/2026-12-07T150102Z.h264"}
        {"t":101.5,"kind":"link","event":"notice","reason":"video recording started: /var/log/followme/video/2026-12-07T150102Z.h264"}
        {"t":110.0,"kind":"link","event":"notice","reason":"video recording stopped: free space 400 MB"}
        {"t":120.0,"kind":"link","event":"notice","reason":"video recording started: video/2026-12-07T150121Z.h264"}
        {"t":130.0,"kind":"link","event":"notice","reason":"video recording closed: video/2026-12-07T150121Z.h264 (300 frames)"}
        {"t":130.5,"kind":"link","event":"notice","reason":"battery low"}
        {"t":131.0,"kind":"link","event":"statistics-final"}
        """

    @Test("the flight log names its recordings; the directories searched; names before times; a closed log")
    func findingRecordings() {
        let named = FlightVideoSearch.namedRawPaths(flightLogText: Self.flightLog)
        #expect(named == ["/var/log/followme/video/2026-12-07T150102Z.h264", "video/2026-12-07T150121Z.h264"])
        #expect(FlightVideoSearch.logSpan(flightLogText: Self.flightLog) == 100...131)
        #expect(FlightVideoSearch.flightEnded(flightLogText: Self.flightLog))
        #expect(!FlightVideoSearch.flightEnded(flightLogText: String(Self.flightLog.split(separator: "\n").dropLast().joined(separator: "\n"))))
        // Where to look: the named directories (a relative one against the log's, then as given), video/ beside the log, the log's
        #expect(FlightVideoSearch.directories(namedRawPaths: named, logPath: "/data/logs/f.jsonl", videoDirectory: nil)
            == ["/var/log/followme/video", "/data/logs/video", "video", "/data/logs"])
        #expect(FlightVideoSearch.directories(namedRawPaths: [], logPath: "f.jsonl", videoDirectory: nil) == ["video", "."])
        #expect(FlightVideoSearch.directories(namedRawPaths: named, logPath: "/l/f.jsonl", videoDirectory: "/v") == ["/v"])
        // Named: only those ids, the first directory's copy, in time order; an unnamed overlapping one is not taken
        let a = FlightVideoSearch.Candidate(id: "2026-12-07T150121Z", directory: "/data/logs/video", hostSpan: 120...130)
        let b = FlightVideoSearch.Candidate(id: "2026-12-07T150102Z", directory: "/var/log/followme/video", hostSpan: 101.6...110)
        let copy = FlightVideoSearch.Candidate(id: "2026-12-07T150121Z", directory: "/data/logs", hostSpan: 120...130)
        let other = FlightVideoSearch.Candidate(id: "2026-12-07T150125Z", directory: "/data/logs/video", hostSpan: 121...125)
        #expect(FlightVideoSearch.select(candidates: [a, copy, other, b], namedRawPaths: named, logSpan: 100...131) == [b, a])
        // Without names: by overlap with the log's span (before, after and without an index: not taken)
        let before = FlightVideoSearch.Candidate(id: "2026-12-06T000000Z", directory: "v", hostSpan: 10...99.9)
        let noIndex = FlightVideoSearch.Candidate(id: "2026-12-07T150130Z", directory: "v", hostSpan: nil)
        #expect(FlightVideoSearch.select(candidates: [before, other, noIndex, b], namedRawPaths: [], logSpan: 100...131) == [b, other])
        #expect(FlightVideoSearch.select(candidates: [b], namedRawPaths: [], logSpan: nil).isEmpty)
    }

    @Test("relative links from the page, percent-encoded; base64 as Foundation's")
    func linksAndBase64() {
        #expect(FlightReportVideo.relativePath("/o/demo/video/X.mp4", from: "/o/demo") == "video/X.mp4")
        #expect(FlightReportVideo.relativePath("/o/v/X.mp4", from: "/o/demo/pages") == "../../v/X.mp4")
        #expect(FlightReportVideo.relativePath("/o/X.mp4", from: "/o") == "X.mp4")
        #expect(FlightReportVideo.relativePath("/X.mp4", from: "/") == "X.mp4")
        #expect(FlightReportVideo.urlPath("my flights/#1?/é.mp4") == "my%20flights/%231%3F/%C3%A9.mp4")
        for n in 0..<8 {
            let bytes = (0..<(250 + n)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n) }
            #expect(FlightReportVideo.base64(bytes) == Data(bytes).base64EncodedString(), "\(bytes.count) bytes")
        }
    }

    /// The page's timeline (FlightReportPageTests') with one recording over 5–8 s of it.
    static func video(mp4: Bool, thumbnails: Int = 3) -> FlightReportVideo {
        let index = VideoIndex(text: indexText(count: 90, hostStart: 1005, gapAt: 1000))
        var video = FlightReportVideo(id: "2026-12-07T150102Z", index: index, logStartSeconds: 1000,
                                      mp4Href: mp4 ? "video/2026-12-07T150102Z.mp4" : nil,
                                      rawPath: "/v/2026-12-07T150102Z.h264", muxCommand: "followme video mux /v/2026-12-07T150102Z.h264")
        video.thumbnails = index.evenFramePositions(count: thumbnails).map {
            .init(videoSeconds: Double($0) / 30, timelineSeconds: index.frames[$0].hostSeconds - 1000, jpeg: [0xFF, 0xD8, 0xFF, UInt8($0)])
        }
        return video
    }

    @Test("the page with a video: well-formed, the player linking the MP4, the time table, the cursor, the strip")
    func pageWithVideo() throws {
        let video = Self.video(mp4: true)
        // The table maps the MP4's time to the timeline's: frame k at k/30 s is 5 + k/30 s on the time axis
        #expect(abs((video.timelineSeconds(atVideoSeconds: 1.5) ?? 0) - 6.5) < 1e-6)
        #expect(video.timelineSpan.map { abs($0.lowerBound - 5) < 1e-9 && abs($0.upperBound - (5 + 89.0 / 30)) < 1e-9 } == true)
        let html = FlightReportPage(timeline: FlightReportPageTests.timeline, videos: [video]).html()
        let doc = FlightReportPageTests.parse(html)
        let players = doc.elements.filter { $0.name == "video" }
        #expect(players.count == 1 && players[0].attributes["src"] == "video/2026-12-07T150102Z.mp4")
        #expect(players.first?.attributes["controls"] != nil)
        let figure = try #require(doc.elements.first { $0.name == "figure" && $0.attributes["class"] == "recording" })
        let map = (figure.attributes["data-map"] ?? "").split(separator: " ")
        #expect(map.first == "0.000,5.000" && map.count == 90)
        #expect(figure.attributes["data-start-s"] == "5.000")
        // The plan view carries the tracks for its markers, in its own pixels (person 0…26 m east)
        let cursor = try #require(doc.elements.first { $0.attributes["id"] == "plan-cursor" })
        #expect(cursor.svgID == "chart-plan")
        let person = (cursor.attributes["data-person"] ?? "").split(separator: " ")
        #expect(person.count == FlightReportPageTests.timeline.personTrack.count && person.first?.hasPrefix("0.00,") == true)
        #expect(doc.elements.contains { $0.name == "circle" && $0.attributes["class"] == "cursor-person" })
        #expect(doc.elements.contains { $0.name == "rect" && $0.attributes["class"] == "cursor-drone" })
        // The strip: one button per thumbnail, its JPEG inline, its place in the MP4 and on the time axis
        let thumbs = doc.elements.filter { $0.name == "button" && $0.attributes["class"] == "thumb" }
        #expect(thumbs.map { $0.attributes["data-video-s"] ?? "" } == ["0.500", "1.500", "2.500"])
        #expect(thumbs.map { $0.attributes["data-t"] ?? "" } == ["5.500", "6.500", "7.500"])
        let images = doc.elements.filter { $0.name == "img" }.compactMap { $0.attributes["src"] }
        #expect(images.count == 3 && images[0] == "data:image/jpeg;base64,/9j/Dw==")
        // Nothing fetched: the only URLs are the MP4 (relative) and the inline JPEGs
        #expect(!html.contains("http") && !html.contains("url(") && !html.contains("<link"))
        for attribute in ["src", "href"] {
            for element in doc.elements {
                guard let value = element.attributes[attribute] else { continue }
                #expect(value == "video/2026-12-07T150102Z.mp4" || value.hasPrefix("data:image/jpeg;base64,"), "\(attribute)=\(value)")
            }
        }
        // The script follows the video and seeks it
        for hook in ["\"timeupdate\"", "\"seeked\"", "currentTime = v", "data-cursor-s"] {
            #expect(html.contains(hook), "the script lacks \(hook)")
        }
    }

    @Test("only the raw stream: no player, the mux command; no thumbnails: the strip says why; no video: no section")
    func rawOnlyAndNoVideo() {
        var video = Self.video(mp4: false, thumbnails: 0)
        video.thumbnailsNote = "No thumbnails: ffmpeg is not installed (apt install ffmpeg), then write this page again."
        let html = FlightReportPage(timeline: FlightReportPageTests.timeline, videos: [video]).html()
        let doc = FlightReportPageTests.parse(html)
        #expect(!doc.elements.contains { $0.name == "video" || $0.name == "img" })
        #expect(doc.elements.contains { $0.name == "pre" && $0.text == "followme video mux /v/2026-12-07T150102Z.h264" })
        #expect(doc.elements.contains { $0.name == "p" && $0.attributes["class"] == "thumbs-note" && $0.text.contains("ffmpeg is not installed") })
        #expect(!html.contains("src=") && !html.contains("href="))
        let none = FlightReportPage(timeline: FlightReportPageTests.timeline).html()
        #expect(!none.contains("id=\"video\"") && !none.contains("<figure class=\"recording\""))
        #expect(none.contains("id=\"plan-cursor\""), "the plan view's cursor follows the charts without a video too")
    }
}
