import Foundation
import Links

/// Muxing a recording's raw H.264 into an MP4 after the flight, never in its stop path (docs/video.md §5):
/// `ffmpeg -y -f h264 -framerate R -i ID.h264 -c copy ID.mp4`, no re-encoding, `R` from the index.
public enum VideoMux {
    /// A recording found on disk.
    public struct Recording: Sendable, Equatable {
        public var rawPath: String
        /// The index beside it (nil if missing).
        public var indexPath: String?
        /// Where the MP4 goes: the raw file's path with `.mp4`.
        public var mp4Path: String
    }

    /// What `mux` did.
    public enum Outcome: Sendable, Equatable {
        /// ffmpeg wrote the MP4.
        case muxed(mp4Path: String)
        /// No ffmpeg on the PATH: the raw stream and the command that would mux it.
        case noFFmpeg(rawPath: String, command: String)
        /// ffmpeg ran and failed: its exit status and the last lines it printed.
        case failed(status: Int32, message: String)
    }

    /// The recording `idOrPath` names: a path to its `.h264` (or `.video.jsonl`), or an id in `directory`.
    public static func recording(_ idOrPath: String, directory: String) -> Recording? {
        var raw = idOrPath
        if raw.hasSuffix(VideoRecordingFiles.indexExtension) {
            raw = String(raw.dropLast(VideoRecordingFiles.indexExtension.count)) + VideoRecordingFiles.rawExtension
        }
        if !raw.hasSuffix(VideoRecordingFiles.rawExtension) || !FileManager.default.fileExists(atPath: raw) {
            raw = (directory as NSString).appendingPathComponent(idOrPath + VideoRecordingFiles.rawExtension)
        }
        guard FileManager.default.fileExists(atPath: raw) else { return nil }
        let base = String(raw.dropLast(VideoRecordingFiles.rawExtension.count))
        let index = base + VideoRecordingFiles.indexExtension
        return Recording(rawPath: raw, indexPath: FileManager.default.fileExists(atPath: index) ? index : nil,
                         mp4Path: base + VideoRecordingFiles.mp4Extension)
    }

    /// Frames per second over the recording, from its index (`VideoIndex.framesPerSecond`, the rate the report
    /// maps the MP4's time with): 30 (the drone's rate) without a readable index.
    public static func framesPerSecond(indexPath: String?) -> Double {
        guard let indexPath, let data = FileManager.default.contents(atPath: indexPath) else { return 30 }
        return VideoIndex(text: String(decoding: data, as: UTF8.self)).framesPerSecond
    }

    /// The ffmpeg arguments (after the program name) that mux `recording`.
    public static func arguments(_ recording: Recording, framesPerSecond: Double) -> [String] {
        let rate = String(format: "%.3f", framesPerSecond)
        return ["-hide_banner", "-loglevel", "error", "-y", "-f", "h264", "-framerate", rate, "-i", recording.rawPath,
                "-c", "copy", recording.mp4Path]
    }

    /// The one-line command a person can run, each argument quoted where the shell needs it.
    public static func commandLine(_ recording: Recording, framesPerSecond: Double) -> String {
        (["ffmpeg"] + arguments(recording, framesPerSecond: framesPerSecond).filter { $0 != "-hide_banner" })
            .filter { !["-loglevel", "error"].contains($0) }
            .map { $0.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=+,".contains($0) } ? $0 : "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
    }

    /// ffmpeg on `PATH`, or nil.
    public static func findFFmpeg(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Where `mux` has ffmpeg write before the MP4 is renamed into place: `<id>.muxing.mp4`, a name
    /// `VideoRecordingFiles` does not take for a recording's.
    public static func partialPath(_ recording: Recording) -> String {
        String(recording.mp4Path.dropLast(VideoRecordingFiles.mp4Extension.count)) + ".muxing" + VideoRecordingFiles.mp4Extension
    }

    /// Muxes `recording` into its MP4 with ffmpeg (`ffmpeg`: its path; nil = look on `PATH`). Blocks until
    /// ffmpeg exits; run it after the flight (`followme video mux`), never while one is stopping.
    /// ffmpeg writes `partialPath`, renamed to `mp4Path` once it succeeded: an `<id>.mp4` is always whole.
    /// `niceness` (0–19) lowers ffmpeg's CPU priority as `nice -n` would, from just after it starts.
    public static func mux(_ recording: Recording, ffmpeg: String? = findFFmpeg(), niceness: Int32 = 0) -> Outcome {
        let fps = framesPerSecond(indexPath: recording.indexPath)
        guard let ffmpeg else { return .noFFmpeg(rawPath: recording.rawPath, command: commandLine(recording, framesPerSecond: fps)) }
        var partial = recording
        partial.mp4Path = partialPath(recording)
        defer { unlink(partial.mp4Path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments(partial, framesPerSecond: fps)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            if niceness > 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process.processIdentifier), niceness) }
        } catch {
            return .failed(status: -1, message: "\(ffmpeg): \(error)")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failed(status: process.terminationStatus,
                           message: message.split(separator: "\n").suffix(3).joined(separator: "\n"))
        }
        guard rename(partial.mp4Path, recording.mp4Path) == 0 else {
            return .failed(status: -1, message: "cannot rename \(partial.mp4Path) to \(recording.mp4Path): \(String(cString: strerror(errno)))")
        }
        return .muxed(mp4Path: recording.mp4Path)
    }
}
