import Foundation
import Links

/// The files side of the report's video (docs/video.md §7): finds a flight's recordings on disk
/// (`FlightVideoSearch` decides), muxes a missing MP4 when asked, makes the thumbnails, and builds
/// the page's `FlightReportVideo`s. Runs after the flight, from `followme report`.
public enum FlightVideoFiles {
    /// What the report asks for.
    public struct Options: Sendable, Hashable {
        /// Look only here (`--video-dir`); nil: the directories `FlightVideoSearch.directories` names.
        public var videoDirectory: String? = nil
        /// Mux a recording that has no MP4 yet, when ffmpeg is present and the flight log is closed.
        public var mux = true
        /// Thumbnails per recording (0: none).
        public var thumbnails = 10
        /// ffmpeg's path; nil: none (no mux, no thumbnails).
        public var ffmpeg: String? = VideoMux.findFFmpeg()

        public init() {}
    }

    /// The recordings found, for the page, and one line per thing a person should know (a recording
    /// without an index, a mux that failed, …), for stderr.
    public struct Found: Sendable, Hashable {
        public var videos: [FlightReportVideo] = []
        public var messages: [String] = []
    }

    /// Every `<id>.h264` in `directory` (sorted by id), without reading anything but the listing.
    public static func rawIDs(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(VideoRecordingFiles.rawExtension) }
            .map { String($0.dropLast(VideoRecordingFiles.rawExtension.count)) }.sorted()
    }

    /// The flight's recordings for the page written at `reportPath` (`-`: stdout, links relative to the
    /// working directory) from the flight log at `logPath` with text `flightLogText`, whose timeline's
    /// 0 is host time `logStartSeconds`.
    public static func find(flightLogText: String, logPath: String, reportPath: String, logStartSeconds: Double,
                            options: Options = Options()) -> Found {
        var found = Found()
        let named = FlightVideoSearch.namedRawPaths(flightLogText: flightLogText)
        let namedIDs = Set(named.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension })
        let directories = FlightVideoSearch.directories(namedRawPaths: named, logPath: logPath,
                                                        videoDirectory: options.videoDirectory)
        var candidates: [FlightVideoSearch.Candidate] = []
        var indexes: [String: VideoIndex] = [:]
        for directory in directories {
            for id in rawIDs(in: directory) where namedIDs.isEmpty || namedIDs.contains(id) {
                let key = (directory as NSString).appendingPathComponent(id)
                let text = FileManager.default.contents(atPath: key + VideoRecordingFiles.indexExtension)
                    .map { String(decoding: $0, as: UTF8.self) }
                let index = text.map(VideoIndex.init(text:))
                indexes[key] = index
                candidates.append(.init(id: id, directory: directory, hostSpan: index?.hostSpan))
            }
        }
        let chosen = FlightVideoSearch.select(candidates: candidates, namedRawPaths: named,
                                              logSpan: FlightVideoSearch.logSpan(flightLogText: flightLogText))
        let missing = namedIDs.subtracting(chosen.map(\.id))
        for id in missing.sorted() {
            found.messages.append("recording \(id) named by the flight log not found (looked in \(directories.joined(separator: ", ")); --video-dir DIR)")
        }
        let ended = FlightVideoSearch.flightEnded(flightLogText: flightLogText)
        let reportDirectory = reportPath == "-" ? "." : (reportPath as NSString).deletingLastPathComponent
        for candidate in chosen {
            guard let recording = VideoMux.recording(candidate.rawPath, directory: candidate.directory) else { continue }
            guard let index = indexes[(candidate.directory as NSString).appendingPathComponent(candidate.id)],
                  !index.frames.isEmpty else {
                found.messages.append("recording \(candidate.id): no frames in its index (\(candidate.id)\(VideoRecordingFiles.indexExtension)): not shown")
                continue
            }
            var notes: [String] = []
            let fps = index.framesPerSecond
            if !FileManager.default.fileExists(atPath: recording.mp4Path), options.mux, ended, let ffmpeg = options.ffmpeg {
                switch VideoMux.mux(recording, ffmpeg: ffmpeg) {
                case .muxed(let mp4):
                    notes.append("MP4 made by this report: \(mp4) (ffmpeg -c copy at \(fixed(fps, decimals: 3)) fps)")
                    found.messages.append("recording \(candidate.id): muxed \(mp4)")
                case .noFFmpeg:
                    break
                case .failed(let status, let message):
                    found.messages.append("recording \(candidate.id): ffmpeg exited \(status) muxing it: \(message)")
                }
            }
            let href = FileManager.default.fileExists(atPath: recording.mp4Path)
                ? FlightReportVideo.urlPath(FlightReportVideo.relativePath(absolute(recording.mp4Path), from: absolute(reportDirectory)))
                : nil
            var video = FlightReportVideo(id: candidate.id, index: index, logStartSeconds: logStartSeconds, mp4Href: href,
                                          rawPath: recording.rawPath, muxCommand: "followme video mux " + shellQuoted(recording.rawPath))
            if options.thumbnails > 0 {
                let outcome = VideoThumbnails.make(recording, index: index, count: options.thumbnails,
                                                   logStartSeconds: logStartSeconds, ffmpeg: options.ffmpeg)
                (video.thumbnails, video.thumbnailsNote) = (outcome.thumbnails, outcome.note)
            } else {
                video.thumbnailsNote = "No thumbnails (--thumbnails 0)."
            }
            if href == nil, !ended { notes.append("the flight log is still open (no statistics-final line): not muxed") }
            video.notes = notes
            found.videos.append(video)
        }
        return found
    }

    /// `path` made absolute against the working directory, standardized.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }

    /// `text` as one shell word: as is when it needs no quoting, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        text.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=+,".contains($0) }) && !text.isEmpty
            ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
