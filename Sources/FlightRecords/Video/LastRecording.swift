import Foundation
import Links

/// The newest finished recording in `[video] directory`: what the cockpit offers a paired phone to
/// download (docs/video.md §8). "Finished" means no recorder holds its raw file
/// (`VideoRecordingFiles.isBeingWritten`): the recording in progress is never offered, and while one
/// records the one before it is the last.
public struct LastRecording: Sendable, Equatable {
    /// The recording's id (`2026-12-07T150102Z`), the UTC second it opened.
    public var id: String
    /// Its raw stream and index, and where its MP4 goes; nil when the raw stream is gone (only the MP4 is left).
    public var recording: VideoMux.Recording?
    /// `<directory>/<id>.mp4`, whether it exists yet or not.
    public var mp4Path: String
    /// The MP4's size in bytes; nil until it is made.
    public var mp4Bytes: Int64?
    /// The raw stream's size in bytes, if it is there.
    public var rawBytes: Int64?
    /// How long it recorded by the host clock: the last frame's `t` less the first's, seconds; nil without an index.
    public var seconds: Double?

    /// The newest of `ids` (`VideoRecordingFiles.isOlder` order) that `isOpen` does not call open; nil if none.
    /// `isOpen` is asked newest first, and only until one is closed.
    public static func newestClosed(_ ids: some Sequence<String>, isOpen: (String) -> Bool) -> String? {
        ids.sorted(by: VideoRecordingFiles.isOlder).reversed().first { !isOpen($0) }
    }

    /// The last finished recording in `directory`, nil if there is none (or no such directory).
    /// `isOpen(id)` says whether recording `id` is being written (default: its raw file's lock).
    public static func find(in directory: String, isOpen: ((String) -> Bool)? = nil) -> LastRecording? {
        let entries = VideoRecordingFiles.entries(of: directory)
        let sizes = Dictionary(entries.map { ($0.name, $0.size) }, uniquingKeysWith: { a, _ in a })
        let path = { (id: String, ext: String) in (directory as NSString).appendingPathComponent(id + ext) }
        let ids = Set(entries.compactMap { entry -> String? in
            guard let id = VideoRecordingFiles.recordingID(ofFile: entry.name), !entry.name.hasSuffix(VideoRecordingFiles.indexExtension)
            else { return nil }
            return id
        })
        let open = isOpen ?? { id in VideoRecordingFiles.isBeingWritten(path(id, VideoRecordingFiles.rawExtension)) }
        guard let id = newestClosed(ids, isOpen: open) else { return nil }
        let recording = VideoMux.recording(path(id, VideoRecordingFiles.rawExtension), directory: directory)
        return LastRecording(
            id: id, recording: recording, mp4Path: path(id, VideoRecordingFiles.mp4Extension),
            mp4Bytes: sizes[id + VideoRecordingFiles.mp4Extension], rawBytes: sizes[id + VideoRecordingFiles.rawExtension],
            seconds: recording?.indexPath.flatMap(indexSpanSeconds(_:)))
    }

    /// The host seconds an index spans (its last frame line's `t` less its first's), read from the
    /// file's first and last few kilobytes only: an index of a long flight is megabytes.
    public static func indexSpanSeconds(_ indexPath: String) -> Double? {
        guard let file = FileHandle(forReadingAtPath: indexPath) else { return nil }
        defer { try? file.close() }
        let window = 8192
        let head = (try? file.read(upToCount: window)) ?? Data()
        guard let end = try? file.seekToEnd() else { return nil }
        try? file.seek(toOffset: end > UInt64(window) ? end - UInt64(window) : 0)
        let tail = (try? file.readToEnd()) ?? Data()
        func frameTime(_ line: Data.SubSequence) -> Double? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], object["frame"] != nil else { return nil }
            return (object["t"] as? NSNumber)?.doubleValue
        }
        // The head's last line and the tail's first may be cut: only whole lines are read.
        let headLines = head.split(separator: 0x0A, omittingEmptySubsequences: true)
        let tailLines = tail.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let first = headLines.lazy.compactMap(frameTime).first, let last = tailLines.reversed().lazy.compactMap(frameTime).first,
              last >= first else { return nil }
        return last - first
    }
}
