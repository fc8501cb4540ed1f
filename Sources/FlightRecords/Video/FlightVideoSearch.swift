import Foundation
import Links

/// Which recordings belong to a flight (docs/video.md §7). Pure: the flight log's text and what the
/// caller found on disk go in, the choice comes out.
///
/// A flight log names its recordings: the AR.Drone's recorder writes `link` lines with `event`
/// `notice` ("video recording started: PATH", "video recording closed: PATH (N frames)") and `camera`
/// ("video recording PATH"), PATH being `[video] directory`/ID.h264 as `followme run` saw it. A log
/// that names none (written before the recorder said so, or edited) is matched by time instead: a
/// recording whose index's host times overlap the log's `t` span (both CLOCK_MONOTONIC; a recording
/// from another boot could overlap by chance, which is why names come first).
public enum FlightVideoSearch {
    /// A recording found in a directory: its id (the file name without `.h264`), where, and its index.
    public struct Candidate: Sendable, Hashable {
        public var id: String
        /// The directory holding `<id>.h264` (and `<id>.video.jsonl`, `<id>.mp4`).
        public var directory: String
        /// Host seconds of its first and last frame (nil without an index or frames).
        public var hostSpan: ClosedRange<Double>?

        public init(id: String, directory: String, hostSpan: ClosedRange<Double>?) {
            (self.id, self.directory, self.hostSpan) = (id, directory, hostSpan)
        }

        public var rawPath: String { (directory as NSString).appendingPathComponent(id + VideoRecordingFiles.rawExtension) }
    }

    /// The raw paths the flight log's recorder lines name, in the order first named, each once.
    public static func namedRawPaths(flightLogText text: String) -> [String] {
        var paths: [String] = []
        for line in text.split(separator: "\n") where line.contains("video recording") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == FlightLinkRecord.kind,
                  let event = object["event"] as? String, event == "notice" || event == "camera",
                  let reason = object["reason"] as? String, let path = rawPath(in: reason) else { continue }
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// The `.h264` path in one of the recorder's texts ("video recording started: P",
    /// "video recording P", "video recording closed: P (N frames)"); nil in the others.
    static func rawPath(in reason: String) -> String? {
        let prefixes = ["video recording started: ", "video recording closed: ", "video recording "]
        guard let prefix = prefixes.first(where: { reason.hasPrefix($0) }) else { return nil }
        var rest = Substring(reason.dropFirst(prefix.count))
        guard let end = rest.range(of: VideoRecordingFiles.rawExtension, options: .backwards) else { return nil }
        rest = rest[..<end.upperBound]
        return rest.isEmpty || rest == Substring(VideoRecordingFiles.rawExtension) ? nil : String(rest)
    }

    /// The log's `t` span: its first and last record's (nil without records).
    public static func logSpan(flightLogText text: String) -> ClosedRange<Double>? {
        var low = Double.infinity, high = -Double.infinity
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] is String, let t = (object["t"] as? NSNumber)?.doubleValue, t.isFinite else { continue }
            (low, high) = (min(low, t), max(high, t))
        }
        return low <= high ? low...high : nil
    }

    /// Whether the log was closed by `followme run` (its last `link` `statistics-final` line): a log
    /// still being written belongs to a flight that may still be recording.
    public static func flightEnded(flightLogText text: String) -> Bool {
        text.split(separator: "\n").reversed().contains { $0.contains("\"statistics-final\"") }
    }

    /// The directories to look in, in order, each once: `videoDirectory` alone when given; else the
    /// directories of the named paths (a relative one taken against the log's directory, then as
    /// given, i.e. the working directory), then `video/` beside the log (`[video] directory`'s
    /// default, inside `[log] directory`), then the log's own directory.
    public static func directories(namedRawPaths: [String], logPath: String, videoDirectory: String?) -> [String] {
        if let videoDirectory { return [videoDirectory] }
        let logDirectory = (logPath as NSString).deletingLastPathComponent
        /// `path` inside the log's directory (as is when the log is in the working directory).
        func besideLog(_ path: String) -> String {
            logDirectory.isEmpty ? path : (logDirectory as NSString).appendingPathComponent(path)
        }
        var out: [String] = []
        func add(_ d: String) {
            let d = d.isEmpty ? "." : (d as NSString).standardizingPath
            if !out.contains(d) { out.append(d) }
        }
        for path in namedRawPaths {
            let directory = (path as NSString).deletingLastPathComponent
            if directory.hasPrefix("/") { add(directory) } else {
                add(besideLog(directory))
                add(directory)
            }
        }
        add(besideLog("video"))
        add(logDirectory)
        return out
    }

    /// The flight's recordings among `candidates` (in the order of `directories` searched): when the
    /// log names recordings, those whose id it names (the first candidate of each id); else those
    /// whose host span overlaps `logSpan`. Ordered by their first frame's host time (unknown last).
    public static func select(candidates: [Candidate], namedRawPaths: [String], logSpan: ClosedRange<Double>?) -> [Candidate] {
        let namedIDs = namedRawPaths.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
        var chosen: [Candidate] = []
        for candidate in candidates where !chosen.contains(where: { $0.id == candidate.id }) {
            if !namedIDs.isEmpty {
                if namedIDs.contains(candidate.id) { chosen.append(candidate) }
            } else if let span = candidate.hostSpan, let logSpan, span.overlaps(logSpan) {
                chosen.append(candidate)
            }
        }
        return chosen.sorted { ($0.hostSpan?.lowerBound ?? .infinity) < ($1.hostSpan?.lowerBound ?? .infinity) }
    }
}
