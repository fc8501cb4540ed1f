@testable import ARDrone
import Foundation  // test-only: run ffmpeg, read the recording back
@testable import Links
import Logging
import NIOCore
import NIOPosix
import Simulation
import Synchronization
import TestSupport

/// A real H.264 stream for the video tests: ffmpeg's libx264 encoding its `testsrc` pattern (which
/// draws a frame counter), 1280×720 at 30 fps, one IDR every 30 frames, access unit delimiters on
/// (docs/video.md §4 has the recipe). Made once per test process.
enum TestVideo {
    static let seconds = 3

    static let stream: [UInt8] = {
        let path = NSTemporaryDirectory() + "followme-testvideo-\(getpid()).h264"
        defer { unlink(path) }
        let status = run("/usr/bin/env", ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                                          "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=30", "-t", "\(seconds)",
                                          "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0",
                                          "-x264-params", "aud=1", "-pix_fmt", "yuv420p", "-f", "h264", path])
        precondition(status == 0, "ffmpeg failed (apt-get install ffmpeg)")
        return [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    }()

    static let units: [H264AccessUnits.Unit] = H264AccessUnits.split(stream)

    /// Runs a program, returns its exit status (its output goes to the test's).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A fresh directory under the temporary directory.
    static func directory(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "followme-video-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// One index line of a recording (`<id>.video.jsonl`).
struct IndexedFrame: Equatable {
    var frame: UInt32, droneMilliseconds: UInt32, t: Double, offset: Int, size: Int, type: String, connection: Int
}

/// A recording read back: its index's frames, checked against the raw file's bytes.
struct RecordingReadBack {
    var header: [String: Any]
    var frames: [IndexedFrame]
    var raw: [UInt8]

    init(rawPath: String, indexPath: String) throws {
        raw = [UInt8](FileManager.default.contents(atPath: rawPath) ?? Data())
        let lines = String(decoding: FileManager.default.contents(atPath: indexPath) ?? Data(), as: UTF8.self)
            .split(separator: "\n")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        header = objects.first ?? [:]
        frames = objects.dropFirst().map { o in
            IndexedFrame(frame: (o["frame"] as? NSNumber)?.uint32Value ?? 0, droneMilliseconds: (o["drone_ms"] as? NSNumber)?.uint32Value ?? 0,
                         t: (o["t"] as? NSNumber)?.doubleValue ?? 0, offset: (o["offset"] as? NSNumber)?.intValue ?? -1,
                         size: (o["size"] as? NSNumber)?.intValue ?? -1, type: o["type"] as? String ?? "",
                         connection: (o["connection"] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// Whether every indexed frame's bytes in the raw file are the access unit the server sent with that number,
    /// and the frames tile the raw file with no gap.
    func bytesMatch(_ units: [H264AccessUnits.Unit]) -> Bool {
        var expectedOffset = 0
        for f in frames {
            guard f.offset == expectedOffset, f.offset + f.size <= raw.count,
                  Array(raw[f.offset..<(f.offset + f.size)]) == units[Int(f.frame) % units.count].bytes
            else { return false }
            expectedOffset += f.size
        }
        return expectedOffset == raw.count
    }
}

/// The frames a recorder must hold of each connection the server saw: what was sent from the first IDR on.
func expectedFrames(sent: [[UInt32]], units: [H264AccessUnits.Unit]) -> [[UInt32]] {
    sent.map { numbers in Array(numbers.drop { !units[Int($0) % units.count].isIDR }) }
}

/// The recorded frame numbers of each connection (1-based in the index), as many as `count`.
func recordedFrames(_ frames: [IndexedFrame], connections count: Int) -> [[UInt32]] {
    (1...max(1, count)).map { c in frames.filter { $0.connection == c }.map(\.frame) }
}

/// A real `DroneLink` ticking at 30 Hz towards a silent loopback "drone", with the recorder beside it
/// (`VideoRecordingDroneLink`): the tick handler is where a flight runs its control step, so its spacing is
/// the flight's command rate.
final class FlightBeside: Sendable {
    let at = try! LoopbackUDPSocket(), navdata = try! LoopbackUDPSocket()
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    final class Seen: Sendable {
        let ticks = Mutex<[Int64]>([])
        let notices = Mutex<[String]>([])
    }
    let seen = Seen()
    let link: VideoRecordingDroneLink
    var notices: [String] { seen.notices.withLock { $0 } }

    init(video: VideoRecorderSettings) throws {
        let configuration = try DroneLinkConfiguration(
            address: "127.0.0.1", atPort: at.localPort, navdataPort: navdata.localPort,
            limits: try FlightLimits(outdoor: false, eulerAngleMaxRadians: 0.2, controlVzMaxMillimetersPerSecond: 700,
                                     controlYawRadiansPerSecond: 1.7, altitudeMaxMillimeters: 3000),
            videoWrites: video.stream.configurationWrites)
        var logger = Logger(label: "test.video")
        logger.logLevel = .critical
        let seen = seen
        link = VideoRecordingDroneLink(
            configuration: configuration, video: video, eventLoop: group.next(), logger: logger,
            eventHandler: { event in
                if case .notice(let text, _, _) = event { seen.notices.withLock { $0.append(text) } }
                if case .camera(let state, let reason, _) = event { seen.notices.withLock { $0.append("camera \(state.rawValue): \(reason)") } }
            },
            tickHandler: { now in seen.ticks.withLock { $0.append(now.nanoseconds) } })
    }

    func start() async throws { try await link.start() }

    func stop() async {
        await link.stop()
        try? await group.shutdownGracefully()
    }

    /// Ticks per second and the longest gap between two ticks, seconds, over the ticks from `from` on.
    func tickRate(since from: Int64) -> (hertz: Double, maxGapSeconds: Double, count: Int) {
        let t = seen.ticks.withLock { $0 }.filter { $0 >= from }
        guard t.count > 1 else { return (0, .infinity, t.count) }
        let gaps = zip(t.dropFirst(), t).map { Double($0 - $1) / 1e9 }
        return (Double(t.count - 1) / (Double(t.last! - t.first!) / 1e9), gaps.max() ?? .infinity, t.count)
    }
}

/// Settings for a recorder reading `port` on loopback into `directory`, quick to notice a lost stream.
func loopbackVideoSettings(port: Int, directory: String) -> VideoRecorderSettings {
    var s = VideoRecorderSettings()
    (s.host, s.port, s.directory) = ("127.0.0.1", port, directory)
    (s.stallSeconds, s.reconnectSeconds, s.maxReconnectSeconds, s.spaceCheckSeconds) = (0.6, 0.05, 0.2, 0.1)
    return s
}

func sleep(seconds: Double) async throws { try await Task.sleep(for: .milliseconds(Int(seconds * 1000))) }
