import Foundation  // test-only: files, processes
import Testing
import TestSupport

/// End to end (real gpsd, `followme sim --video`, `followme run` with `[video] record`): the flight's
/// recording holds the simulated camera's frames, lines up with the flight log, and muxes into an MP4
/// ffprobe reads (docs/video.md).
@Suite("Video recording end to end (gpsd, followme sim --video, followme run)")
struct VideoRecordingEndToEndTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `(frame, t)` of each frame line of an index.
    static func index(_ path: String) -> [(frame: Int, t: Double, offset: Int, size: Int)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let frame = (o["frame"] as? NSNumber)?.intValue, let t = (o["t"] as? NSNumber)?.doubleValue,
                  let offset = (o["offset"] as? NSNumber)?.intValue, let size = (o["size"] as? NSNumber)?.intValue
            else { return nil }
            return (frame, t, offset, size)
        }
    }

    @Test("a followed flight records from take-off to landing; the index lines up with the flight log; the MP4 is h264 1280x720",
          .timeLimit(.minutes(4)))
    func recordsTheFlight() async throws {
        let videoDirectory = try scratchDirectory(label: "video-e2e")
        defer { try? FileManager.default.removeItem(at: videoDirectory) }
        // Given the simulator's camera serving ffmpeg's testsrc (a frame counter), 1280x720 at 30 fps
        let source = videoDirectory.appendingPathComponent("camera.h264").path
        let encoded = try Self.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                    "-i", "testsrc=size=1280x720:rate=30", "-t", "4", "-c:v", "libx264", "-preset", "ultrafast",
                                    "-g", "30", "-bf", "0", "-x264-params", "aud=1", "-pix_fmt", "yuv420p", "-f", "h264", source])
        #expect(encoded.status == 0, "ffmpeg (apt install ffmpeg)")
        let recordings = videoDirectory.appendingPathComponent("recordings").path
        let port = LoopbackPorts.freeTCPPort()
        var flightWindow: (start: Double, end: Double) = (0, 0)
        var rawAtFollowing: String?
        try await FaultRig.withFollowingField(
            "video-record",
            config: ["video": ["record": "true", "port": "\(port)", "directory": "\"\(recordings)\""]],
            simArguments: ["--video", source, "--video-port", "\(port)", "--live-video-port", "0"]
        ) { rig in
            // When the drone follows for 6 s more
            try await Task.sleep(for: .seconds(6))
            let transitions = rig.log.transitions()
            flightWindow = (transitions.first { $0.to.hasPrefix("taking") }?.t ?? transitions.first?.t ?? 0, monotonicSeconds())
            rawAtFollowing = try? FileManager.default.contentsOfDirectory(atPath: recordings).first { $0.hasSuffix(".h264") }
            #expect(rawAtFollowing != nil, "no recording while flying\n\(rig.diagnostics())")
            #expect(rig.log.text.contains("video recording started"), "no notice in the flight log")
        }
        // Then (after SIGTERM: landed, recording closed) one recording holds the flight's frames
        let files = try FileManager.default.contentsOfDirectory(atPath: recordings).sorted()
        let raw = try #require(files.first { $0.hasSuffix(".h264") })
        #expect(raw == rawAtFollowing)
        let base = recordings + "/" + String(raw.dropLast(5))
        let frames = Self.index(base + ".video.jsonl")
        let bytes = FileManager.default.contents(atPath: base + ".h264") ?? Data()
        #expect(frames.count > 150, "\(frames.count) frames")
        #expect(frames.last.map { $0.offset + $0.size } == bytes.count)
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.frame == $1.frame + 1 }, "a gap in the frame numbers")
        // And its host times lie inside the flight, on the flight log's clock
        #expect((frames.first?.t ?? 0) >= flightWindow.start - 1 && (frames.first?.t ?? 0) <= flightWindow.end, "\(frames.first?.t ?? 0) vs \(flightWindow)")
        // And the MP4 made after the flight is what ffprobe calls h264 1280x720, as long as the recording
        let mux = try Self.run([FollowMeBinary.url.path, "video", "mux", base + ".h264"])
        #expect(mux.status == 0 && mux.output.hasSuffix(".mp4\n"), "\(mux.output)")
        let probe = try Self.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                  "stream=codec_name,width,height:format=duration", "-of", "default=noprint_wrappers=1", base + ".mp4"])
        #expect(probe.output.contains("codec_name=h264") && probe.output.contains("width=1280") && probe.output.contains("height=720"),
                "\(probe.output)")
        let duration = probe.output.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) } ?? -1
        let span = (frames.last?.t ?? 0) - (frames.first?.t ?? 0)
        #expect(abs(duration - span) < 1, "MP4 \(duration) s, recording \(span) s")
        FaultReport.record("video-record", ["frames": frames.count, "bytes": bytes.count, "mp4_s": duration, "index_span_s": span,
                                            "first_frame_after_takeoff_s": (frames.first?.t ?? 0) - flightWindow.start])
    }
}
