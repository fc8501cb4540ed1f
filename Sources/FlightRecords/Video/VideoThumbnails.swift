import Foundation

/// The report's thumbnail strip (docs/video.md §7): small JPEGs of chosen frames, made by ffmpeg in one
/// decoding pass (`select` by frame number, so picture n is exactly the index's frame n and plays at
/// n / rate in the MP4). Runs after the flight, from `followme report`; blocks until ffmpeg exits.
public enum VideoThumbnails {
    /// Thumbnails' width in pixels (the height keeps the picture's aspect, even): our choice, sharp in a
    /// 150–240 px wide strip cell, about 5–10 kB each.
    public static let widthPixels = 240

    /// What `make` produced.
    public struct Outcome: Sendable, Hashable {
        public var thumbnails: [FlightReportVideo.Thumbnail]
        /// Why there are none, or fewer than asked; nil when complete.
        public var note: String?
    }

    /// The ffmpeg arguments (after the program name) that write frames `positions` (0-based, ascending)
    /// of `input` as `outputPattern` (`…/thumb-%03d.jpg`, numbered from 1 in that order). `input` is the
    /// MP4, or the raw stream read as H.264 at `framesPerSecond` when `raw`.
    public static func arguments(input: String, raw: Bool, framesPerSecond: Double, positions: [Int],
                                 outputPattern: String) -> [String] {
        let select = positions.map { "eq(n\\,\($0))" }.joined(separator: "+")
        var out = ["-hide_banner", "-loglevel", "error", "-y"]
        if raw { out += ["-f", "h264", "-framerate", String(format: "%.3f", framesPerSecond)] }
        // passthrough: one picture per selected frame, none repeated to fill a constant rate.
        out += ["-i", input, "-vf", "select='\(select)',scale=\(widthPixels):-2", "-fps_mode", "passthrough",
                "-q:v", "5", "-f", "image2", outputPattern]
        return out
    }

    /// `count` thumbnails evenly over `recording` (its MP4 when there is one, else its raw stream), on a
    /// timeline whose 0 is host time `logStartSeconds`. Without ffmpeg (`ffmpeg` nil) or when it fails,
    /// none, and the note says why.
    public static func make(_ recording: VideoMux.Recording, index: VideoIndex, count: Int, logStartSeconds: Double,
                            ffmpeg: String? = VideoMux.findFFmpeg()) -> Outcome {
        let positions = index.evenFramePositions(count: count)
        guard !positions.isEmpty else { return Outcome(thumbnails: [], note: count > 0 ? "no frames to show" : nil) }
        guard let ffmpeg else {
            return Outcome(thumbnails: [], note: "No thumbnails: ffmpeg is not installed (apt install ffmpeg), "
                + "then write this page again.")
        }
        let scratch = NSTemporaryDirectory() + "followme-thumbs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard (try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)) != nil else {
            return Outcome(thumbnails: [], note: "No thumbnails: cannot create \(scratch)")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let mp4 = FileManager.default.fileExists(atPath: recording.mp4Path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments(input: mp4 ? recording.mp4Path : recording.rawPath, raw: !mp4,
                                      framesPerSecond: index.framesPerSecond, positions: positions,
                                      outputPattern: scratch + "/thumb-%03d.jpg")
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return Outcome(thumbnails: [], note: "No thumbnails: \(ffmpeg): \(error)")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var thumbnails: [FlightReportVideo.Thumbnail] = []
        let rate = index.framesPerSecond
        for (i, k) in positions.enumerated() {
            guard let data = FileManager.default.contents(atPath: scratch + String(format: "/thumb-%03d.jpg", i + 1)) else { break }
            thumbnails.append(.init(videoSeconds: Double(k) / rate, timelineSeconds: index.frames[k].hostSeconds - logStartSeconds,
                                    jpeg: [UInt8](data)))
        }
        guard process.terminationStatus == 0 || !thumbnails.isEmpty else {
            let last = message.split(separator: "\n").suffix(2).joined(separator: " ")
            return Outcome(thumbnails: [], note: "No thumbnails: ffmpeg exited \(process.terminationStatus): \(last)")
        }
        let note = thumbnails.count < positions.count
            ? "\(thumbnails.count) of \(positions.count) thumbnails: ffmpeg decoded no more (a damaged stream?)" : nil
        return Outcome(thumbnails: thumbnails, note: note)
    }
}
