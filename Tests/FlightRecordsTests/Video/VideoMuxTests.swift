@testable import FlightRecords
import Foundation  // test-only: files, processes
import Links
import Logging
import Simulation
import Testing
import TestSupport

/// `VideoMux` without ffmpeg: the raw path and the one-line command.
@Suite("Video mux: finding a recording, and without ffmpeg")
struct VideoMuxTests {
    @Test("the mux rate is the index's own (the report maps MP4 time with the same): 26 frames 40 ms apart → 25 fps; no index → 30")
    func muxRateIsTheIndexRate() throws {
        let path = NSTemporaryDirectory() + "followme-mux-rate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).video.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "{\"video\":\"ardrone-pave\",\"t\":99.5}\n"
        for k in 0..<26 { text += "{\"frame\":\(700 + k),\"drone_ms\":\(5000 + 40 * k),\"t\":\(100 + 0.04 * Double(k))}\n" }
        text += "{\"frame\":726,\"drone_m"  // torn by a crash: skipped
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(abs(VideoMux.framesPerSecond(indexPath: path) - 25) < 1e-9)
        #expect(VideoMux.framesPerSecond(indexPath: path) == VideoIndex(text: text).framesPerSecond)
        #expect(VideoMux.framesPerSecond(indexPath: path + ".missing") == 30)
    }

    @Test("no ffmpeg on PATH: the raw stream and the command, nothing run")
    func noFFmpeg() throws {
        let directory = NSTemporaryDirectory() + "followme-mux-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/2026-12-07T150102Z.h264", contents: Data([0, 0, 0, 1, 9, 0xF0]))
        let recording = try #require(VideoMux.recording("2026-12-07T150102Z", directory: directory))
        #expect(recording.mp4Path == directory + "/2026-12-07T150102Z.mp4" && recording.indexPath == nil)
        #expect(VideoMux.recording(directory + "/2026-12-07T150102Z.h264", directory: "/nowhere") == recording)
        #expect(VideoMux.recording("2026-01-01T000000Z", directory: directory) == nil)
        #expect(VideoMux.findFFmpeg(path: "/nonexistent") == nil)
        let outcome = VideoMux.mux(recording, ffmpeg: nil)
        #expect(outcome == .noFFmpeg(rawPath: recording.rawPath, command:
            "ffmpeg -y -f h264 -framerate 30.000 -i \(recording.rawPath) -c copy \(recording.mp4Path)"))
        #expect(!FileManager.default.fileExists(atPath: recording.mp4Path))
    }
}

/// Records a few seconds from the simulated drone's video port, muxes it, and reads the MP4 back with ffprobe.
@Suite("Video mux: a recording from the simulator becomes an MP4 ffprobe reads (loopback TCP, ffmpeg)")
struct VideoMuxIntegrationTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, bytes: [UInt8]) { try ToolRun.run(arguments) }

    /// Pictures in the grey-ramp stream (2 s at 30 fps): picture n is a flat grey of luma 30 + 3n.
    static let greyRampPictures = 60

    /// 2.5 s of a stream whose picture n is a flat grey of luma 30 + 3n (n < `greyRampPictures`, looped), served by
    /// the simulated port and recorded by a `VideoRecorder` into `directory`: its settings and the recording's id.
    static func recordGreyRamp(into directory: String) async throws -> (settings: VideoRecorderSettings, id: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = directory + "/grey-ramp-source.h264"
        let encoded = try run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                               "-i", "color=c=gray:size=1280x720:rate=30,geq=lum='30+3*N':cb=128:cr=128", "-t", "2",
                               "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0", "-x264-params", "aud=1",
                               "-pix_fmt", "yuv420p", "-f", "h264", source])
        #expect(encoded.status == 0, "ffmpeg (apt install ffmpeg)")
        let units = H264AccessUnits.split([UInt8](FileManager.default.contents(atPath: source) ?? Data()))
        try? FileManager.default.removeItem(atPath: source)
        #expect(units.count == greyRampPictures)
        var logger = Logger(label: "test.grey-ramp")
        logger.logLevel = .critical
        let server = try await SimulatedVideoServer.start(port: 0, units: units, logger: logger)
        var settings = VideoRecorderSettings()
        (settings.host, settings.port, settings.directory) = ("127.0.0.1", server.port, directory)
        let recorder = VideoRecorder(settings: settings, logger: logger)
        recorder.begin()
        try await Task.sleep(for: .seconds(2.5))
        await recorder.shutdown()
        await server.stop()
        return (settings, try #require(recorder.statistics.recordingID))
    }

    @Test("3 s of 720p from the simulator: h264, 1280x720, its duration within 1 s of the recording's")
    func recordMuxProbe() async throws {
        let directory = NSTemporaryDirectory() + "followme-mux-it-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Given a real H.264 stream (ffmpeg's testsrc, libx264) served by the simulated drone's video port
        let source = directory + "/source.h264"
        let encoded = try Self.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                    "-i", "testsrc=size=1280x720:rate=30", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
                                    "-g", "30", "-bf", "0", "-x264-params", "aud=1", "-pix_fmt", "yuv420p", "-f", "h264", source])
        #expect(encoded.status == 0, "ffmpeg (apt install ffmpeg)")
        let units = H264AccessUnits.split([UInt8](FileManager.default.contents(atPath: source) ?? Data()))
        #expect(units.count == 60 && units[0].isIDR)
        var logger = Logger(label: "test.mux")
        logger.logLevel = .critical
        let server = try await SimulatedVideoServer.start(port: 0, units: units, logger: logger)
        var settings = VideoRecorderSettings()
        (settings.host, settings.port, settings.directory) = ("127.0.0.1", server.port, directory + "/video")
        let recorder = VideoRecorder(settings: settings, logger: logger)
        // When the recorder takes 3 s of it, then the MP4 is made after the recording closed
        recorder.begin()
        try await Task.sleep(for: .seconds(3))
        // (While it records, its raw file is locked: the cockpit never offers it; closed, it is not.)
        let rawPath = try #require(recorder.statistics.rawPath)
        #expect(VideoRecordingFiles.isBeingWritten(rawPath) && LastRecording.find(in: settings.directory) == nil)
        await recorder.shutdown()
        await server.stop()
        #expect(!VideoRecordingFiles.isBeingWritten(rawPath))
        let stats = recorder.statistics
        let id = try #require(stats.recordingID)
        let recording = try #require(VideoMux.recording(id, directory: settings.directory))
        let outcome = VideoMux.mux(recording)
        #expect(outcome == .muxed(mp4Path: recording.mp4Path))
        #expect(!FileManager.default.fileExists(atPath: VideoMux.partialPath(recording)) && LastRecording.find(in: settings.directory)?.id == id)
        // Then ffprobe reads an H.264 1280x720 video lasting as long as the recording (drone time stamps)
        let probe = try Self.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                  "stream=codec_name,width,height:format=duration", "-of", "default=noprint_wrappers=1",
                                  recording.mp4Path])
        let fields = Dictionary(probe.output.split(separator: "\n").compactMap { line -> (String, String)? in
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            return kv.count == 2 ? (kv[0], kv[1]) : nil
        }, uniquingKeysWith: { a, _ in a })
        #expect(fields["codec_name"] == "h264" && fields["width"] == "1280" && fields["height"] == "720", "\(probe.output)")
        let indexPath = try #require(recording.indexPath)
        let index = try String(contentsOfFile: indexPath, encoding: .utf8).split(separator: "\n")
        let stamps = index.dropFirst().compactMap { line -> Double? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["t"].flatMap { ($0 as? NSNumber)?.doubleValue }
        }
        let recorded = (stamps.last ?? 0) - (stamps.first ?? 0) + 1.0 / 30
        let duration = Double(fields["duration"] ?? "") ?? -1
        #expect(stats.framesWritten > 60 && abs(duration - recorded) < 1, "MP4 \(duration) s, recording \(recorded) s")
        #expect(abs(duration - Double(stats.framesWritten) / 30) < 0.2, "MP4 \(duration) s for \(stats.framesWritten) frames")
    }

    @Test("the picture the index places at a host time is the frame it names (each picture's brightness is its number)")
    func indexFindsThePicture() async throws {
        let directory = NSTemporaryDirectory() + "followme-mux-pic-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Given a stream whose picture n is a flat grey of luma 30 + 3n (n < 60), recorded from the simulated port
        let (settings, id) = try await Self.recordGreyRamp(into: directory + "/video")
        let recording = try #require(VideoMux.recording(id, directory: settings.directory))
        let indexPath = try #require(recording.indexPath)
        let lines = try String(contentsOfFile: indexPath, encoding: .utf8).split(separator: "\n").dropFirst()
        let frames = lines.compactMap { line -> (frame: Int, t: Double)? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let frame = (o["frame"] as? NSNumber)?.intValue, let t = (o["t"] as? NSNumber)?.doubleValue else { return nil }
            return (frame, t)
        }
        #expect(frames.count > 40)
        // When the frame at a host time (the middle of the recording) is looked up in the index
        let middle = ((frames.first?.t ?? 0) + (frames.last?.t ?? 0)) / 2
        let position = try #require(frames.indices.min { abs(frames[$0].t - middle) < abs(frames[$1].t - middle) })
        // Then the picture at that position in the recording shows the number of the frame the index names
        let picture = try Self.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "h264", "-i", recording.rawPath,
                                    "-vf", "select=eq(n\\,\(position)),scale=2:2", "-frames:v", "1", "-f", "rawvideo",
                                    "-pix_fmt", "yuv420p", "-"])
        let luma = picture.bytes.first.map(Double.init) ?? -1
        // The first byte of a 2×2 yuv420p picture is its luma as encoded
        let shown = Int((luma - 30) / 3 + 0.5)
        #expect(shown == frames[position].frame % Self.greyRampPictures,
                "picture \(position) shows \(shown) (luma \(luma)); the index says frame \(frames[position].frame)")
    }
}
