import Foundation  // test-only: files, processes
import Synchronization
import Testing
import TestSupport

/// A second client of the simulated camera, independent of the recorder: it notes each frame's number
/// (PaVE `frame_number`, bytes 20–23) and when its last byte arrived on CLOCK_MONOTONIC, the flight
/// log's clock. What the camera showed when, for checking the recording's index against.
final class CameraObserver: Sendable {
    private let seen = Mutex<[(frame: Int, t: Double)]>([])
    private let stopped = Atomic(false)
    private let done = Atomic(false)

    /// Connects to 127.0.0.1:`port` and reads on a thread of its own until `stop()`.
    init(port: Int) {
        Thread { [self] in
            defer { done.store(true, ordering: .releasing) }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { return }
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            func word(_ at: Int, _ bytes: Int) -> Int { (0..<bytes).reduce(0) { $0 | Int(buffer[at + $1]) << (8 * $1) } }
            while !stopped.load(ordering: .acquiring) {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 { return }
                if n < 0 { continue }
                let arrived = monotonicSeconds()
                buffer += chunk[..<n]
                // Whole frames: a 64-byte (or longer) header, then its payload; the simulator sends nothing else.
                while buffer.count >= 12, buffer.starts(with: Array("PaVE".utf8)) {
                    let total = word(6, 2) + word(8, 4)
                    guard buffer.count >= total, total >= 24 else { break }
                    let frame = word(20, 4)
                    seen.withLock { $0.append((frame, arrived)) }
                    buffer.removeFirst(total)
                }
            }
        }.start()
    }

    /// Every frame seen so far, in order.
    var frames: [(frame: Int, t: Double)] { seen.withLock { $0 } }

    /// Stops reading and waits for the thread to close its socket.
    func stop() async {
        stopped.store(true, ordering: .releasing)
        while !done.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(20)) }
    }
}

/// End to end (real gpsd, `followme sim --video`, `followme run` with `[video] record`): the flight's
/// recording holds the simulated camera's frames, lines up with the flight log (the picture at a host
/// time the flight log gives is the frame the index names there), shows as REC in the cockpit's status,
/// and after the paired phone's LAND the cockpit hands that phone its MP4 (docs/video.md §8); `followme
/// video mux` makes the same MP4 ffprobe reads (docs/video.md).
@Suite("Video recording end to end (gpsd, followme sim --video, followme run)")
struct VideoRecordingEndToEndTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let run = try ToolRun.run(arguments)
        return (run.status, run.output)
    }

    /// Runs `arguments` (through `env`); its exit status and standard output as bytes.
    static func runBytes(_ arguments: [String]) throws -> (status: Int32, bytes: [UInt8]) {
        let run = try ToolRun.run(arguments)
        return (run.status, run.bytes)
    }

    /// The frame lines of an index: number, host time, place in the raw file, type (`idr`, `p`, …).
    static func index(_ path: String) -> [(frame: Int, t: Double, offset: Int, size: Int, type: String)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let frame = (o["frame"] as? NSNumber)?.intValue, let t = (o["t"] as? NSNumber)?.doubleValue,
                  let offset = (o["offset"] as? NSNumber)?.intValue, let size = (o["size"] as? NSNumber)?.intValue
            else { return nil }
            return (frame, t, offset, size, o["type"] as? String ?? "")
        }
    }

    /// How many pictures the simulated camera's stream holds before it loops: picture n is a flat grey of
    /// luma 30 + 3n (VideoMuxIntegrationTests' recipe), so 60 stay below 255.
    static let picturesInStream = 60

    /// The luma of the picture the raw file holds at index line `position`: the bytes from the last
    /// IDR at or before it to its end, decoded by ffmpeg (no B frames: decode order is display order),
    /// the last picture scaled to 2 × 2 yuv420p, whose first byte is its luma.
    static func luma(at position: Int, frames: [(frame: Int, t: Double, offset: Int, size: Int, type: String)], raw: Data,
                     scratch: String) throws -> Double? {
        guard let idr = frames[...position].lastIndex(where: { $0.type == "idr" }) else { return nil }
        let slice = raw[frames[idr].offset..<(frames[position].offset + frames[position].size)]
        _ = FileManager.default.createFile(atPath: scratch, contents: Data(slice))
        let decoded = try runBytes(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "h264", "-i", scratch, "-vf", "scale=2:2",
                                    "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        // 6 bytes a picture (4 luma, 1 + 1 chroma); one picture per index line from the IDR on
        guard decoded.status == 0, decoded.bytes.count == 6 * (position - idr + 1) else { return nil }
        return Double(decoded.bytes[decoded.bytes.count - 6])
    }

    @Test("a followed flight records from take-off to landing; the index lines up with the flight log, picture by picture; the cockpit says REC, then hands the paired phone the MP4",
          .timeLimit(.minutes(4)))
    func recordsTheFlight() async throws {
        let videoDirectory = try scratchDirectory(label: "video-e2e")
        defer { try? FileManager.default.removeItem(at: videoDirectory) }
        // Given the simulator's camera serving a stream whose picture n shows its number (a flat grey of
        // luma 30 + 3n, 60 pictures looped), 1280x720 at 30 fps
        let source = videoDirectory.appendingPathComponent("camera.h264").path
        let encoded = try Self.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                    "-i", "color=c=gray:size=1280x720:rate=30,geq=lum='30+3*N':cb=128:cr=128",
                                    "-frames:v", "\(Self.picturesInStream)", "-c:v", "libx264", "-preset", "ultrafast",
                                    "-g", "30", "-bf", "0", "-x264-params", "aud=1", "-pix_fmt", "yuv420p", "-f", "h264", source])
        #expect(encoded.status == 0, "ffmpeg (apt install ffmpeg)")
        let recordings = videoDirectory.appendingPathComponent("recordings").path
        let port = LoopbackPorts.freeTCPPort()
        // And the flight's cockpit on loopback, whose pairing secret the person's phone has
        let webPort = LoopbackPorts.freeTCPPort()
        let codeFile = videoDirectory.appendingPathComponent("cockpit-code").path
        try "4711\n".write(toFile: codeFile, atomically: false, encoding: .utf8)
        #expect(chmod(codeFile, 0o600) == 0)
        func cockpit(_ arguments: [String], _ path: String) throws -> (status: Int, body: String, seconds: Double) {
            try CockpitGuessingEndToEndTests.curl(arguments, port: webPort, path: path)
        }
        var downloaded: (status: Int, unpaired: Int, listingInFlight: Int, statusLine: String, seconds: Double) = (0, 0, 0, "", 0)
        let download = videoDirectory.appendingPathComponent("phone.mp4").path
        var flightWindow: (start: Double, end: Double) = (0, 0)
        var followingAt: Double?
        var rawAtFollowing: String?
        var observed: [(frame: Int, t: Double)] = []
        try await FaultRig.withFollowingField(
            "video-record",
            config: ["video": ["record": "true", "port": "\(port)", "directory": "\"\(recordings)\""],
                     "web": ["listen": "\"127.0.0.1:\(webPort)\"", "code_file": "\"\(codeFile)\""]],
            simArguments: ["--video", source, "--video-port", "\(port)", "--live-video-port", "0"]
        ) { rig in
            // When the drone follows for 6 s more, a second client watching the camera beside the recorder
            let observer = CameraObserver(port: port)
            try await Task.sleep(for: .seconds(6))
            await observer.stop()
            observed = observer.frames
            let transitions = rig.log.transitions()
            flightWindow = (transitions.first { $0.to.hasPrefix("taking") }?.t ?? transitions.first?.t ?? 0, monotonicSeconds())
            followingAt = transitions.first { $0.to == "following" }?.t
            rawAtFollowing = try? FileManager.default.contentsOfDirectory(atPath: recordings).first { $0.hasSuffix(".h264") }
            #expect(rawAtFollowing != nil, "no recording while flying\n\(rig.diagnostics())")
            #expect(rig.log.text.contains("video recording started"), "no notice in the flight log")
            // And the cockpit says REC with the recording's length, and offers no video while the only one records
            downloaded.statusLine = try cockpit([], "/status").body
            let pairing = try cockpit(["-H", "Content-Type: application/json", "--data-binary", #"{"secret":"4711"}"#], "/pair")
            let token = try #require((try? JSONSerialization.jsonObject(with: Data(pairing.body.utf8)) as? [String: Any])?["token"] as? String,
                                     "\(pairing)")
            downloaded.listingInFlight = try cockpit(["-H", "X-FollowMe-Token: \(token)"], "/video").status
            // When the paired phone lands the drone, then downloads the last video once the recording closed
            let land = try cockpit(["-H", "Content-Type: application/json", "-H", "X-FollowMe-Token: \(token)",
                                    "--data-binary", #"{"command":"land"}"#], "/command")
            #expect(land.status == 200, "\(land)")
            let closed = try await eventually(seconds: 30) {
                try cockpit(["-H", "X-FollowMe-Token: \(token)"], "/video").status == 200
            }
            #expect(closed, "no finished recording after LAND\n\(rig.diagnostics())")
            downloaded.unpaired = try cockpit(["-o", "/dev/null"], "/video/last").status
            (downloaded.status, _, downloaded.seconds) = try cockpit(["-o", download, "-H", "X-FollowMe-Token: \(token)"], "/video/last")
        }
        // Then the cockpit said REC while recording, and offered nothing then (the only recording was open)
        let status = (try? JSONSerialization.jsonObject(with: Data(downloaded.statusLine.utf8)) as? [String: Any]) ?? [:]
        let recSeconds = (status["camera_recording_s"] as? NSNumber)?.doubleValue ?? -1
        #expect(status["camera"] as? String == "recording" && recSeconds > 1 && recSeconds < 60, "\(downloaded.statusLine)")
        #expect(downloaded.listingInFlight == 404)
        // And after the landing the paired phone got an MP4 ffprobe reads (made by the cockpit); an unpaired client got 401
        #expect(downloaded.unpaired == 401 && downloaded.status == 200, "\(downloaded)")
        let phoneProbe = try Self.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height",
                                       "-of", "default=noprint_wrappers=1", download])
        #expect(phoneProbe.output.contains("codec_name=h264") && phoneProbe.output.contains("width=1280"), "\(phoneProbe.output)")
        // Then (landed, recording closed) one recording holds the flight's frames
        let files = try FileManager.default.contentsOfDirectory(atPath: recordings).sorted()
        #expect(files.filter { $0.hasSuffix(".h264") }.count == 1, "\(files)")
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
        // And the index finds the picture: at a host time inside the flight taken from the flight log
        // (3 s after its transition to following), the index line nearest it names the frame whose picture
        // the raw file holds at that line's offset
        let hostTime = try #require(followingAt, "no following transition in the flight log") + 3
        #expect(hostTime > (frames.first?.t ?? .infinity) && hostTime < (frames.last?.t ?? 0), "\(hostTime) outside the recording")
        let position = try #require(frames.indices.min { abs(frames[$0].t - hostTime) < abs(frames[$1].t - hostTime) })
        #expect(abs(frames[position].t - hostTime) < 0.25, "the nearest frame is \(frames[position].t - hostTime) s away")
        let luma = try #require(try Self.luma(at: position, frames: frames, raw: bytes, scratch: base + ".slice.h264"),
                                "ffmpeg decoded no picture at index line \(position)")
        try? FileManager.default.removeItem(atPath: base + ".slice.h264")
        let shown = Int((luma - 30) / 3 + 0.5)
        #expect(shown == frames[position].frame % Self.picturesInStream,
                "the picture at \(hostTime) s shows \(shown) (luma \(luma)); the index says frame \(frames[position].frame)")
        // And it is the frame the camera was sending then, as the second client saw it on the same clock
        // (a constant error in the index's host times would pass the lines above): within 3 frames (0.1 s)
        let seenThen = try #require(observed.min { abs($0.t - hostTime) < abs($1.t - hostTime) }, "the second client saw no frame")
        #expect(abs(seenThen.t - hostTime) < 0.25, "the second client's nearest frame is \(seenThen.t - hostTime) s away")
        #expect(abs(seenThen.frame - frames[position].frame) <= 3,
                "at \(hostTime) s the camera sent frame \(seenThen.frame); the index says \(frames[position].frame)")
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
                                            "first_frame_after_takeoff_s": (frames.first?.t ?? 0) - flightWindow.start,
                                            "lookup_frame": frames[position].frame, "lookup_offset_s": frames[position].t - hostTime,
                                            "lookup_luma": luma, "lookup_frame_seen": seenThen.frame,
                                            "rec_s_in_flight": recSeconds, "phone_download_s": downloaded.seconds])
    }
}
