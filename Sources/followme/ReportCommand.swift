import FlightService
import ArgumentParser
import FlightRecords

import Foundation
import Links

/// `followme report FLIGHT.jsonl [-o FILE.html]`: the after-flight page of a flight log.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML page about a flight: summary, plan view, video, time series.",
        discussion: """
            The page (inline SVG and CSS, no network, no external file but a recording's MP4) shows the duration, the landing \
            reason, the closest approach, the RMS standoff error while following, the holds, the battery used, \
            the plan view of person and drone on a local plane in metres, and on one time axis: distance with \
            the standoff band and the minimum-separation line, altitude, speeds, battery, fix ages and PCMD, \
            each over the flight states' coloured bands. The scores are `followme log report`'s.

            The video (AR.Drone with [video] record; docs/video.md §7): the recordings the flight log's \
            recorder lines name ("video recording started: PATH"), looked for in PATH's directory, then in \
            video/ beside the log ([video] directory's default), then beside the log; with --video-dir DIR only \
            in DIR. A log that names none takes the recordings whose index's host times overlap the log's. \
            Each is shown with a <video controls> linking its MP4 by a path relative to the page (the MP4 stays \
            beside the recording: copy it with the page; everything else is inline), the plan view's person \
            and drone markers and the charts' line following the picture, and a strip of --thumbnails JPEGs \
            (inline) that seek it. A recording with only its raw .h264 is muxed first (ffmpeg -c copy, as \
            `followme video mux`) when ffmpeg is installed and the flight log is closed (its statistics-final \
            line: never while the flight records); --no-mux leaves it, and the page prints the command. \
            Without ffmpeg: the command, and no thumbnails (the page says why).

            Prints the path it wrote (what it did about the video goes to stderr). Exit codes: 0 written; \
            1 unreadable or not a flight log, or the output cannot be written; 2 bad options.
            """
    )

    @Argument(help: "The JSONL flight log (followme run --flight-log).")
    var log: String

    @Option(name: [.short, .customLong("output")], help: "The HTML file ('-' = stdout; default: LOG with .html).")
    var output: String?

    @Option(name: .long, help: "Seconds of following to skip before scoring (settling), as `log report --settle`.")
    var settle: Double = 10

    @Option(name: .customLong("video-dir"), help: ArgumentHelp(
        "Look for the flight's recordings only in DIR (default: the directory the log names, video/ beside the log, the log's).",
        valueName: "DIR"))
    var videoDirectory: String?

    @Flag(name: .customLong("no-video"), help: "Leave the video out of the page.")
    var noVideo = false

    @Flag(name: .customLong("no-mux"), help: "Do not make a missing MP4 (the page prints the followme video mux command).")
    var noMux = false

    @Option(name: .long, help: "Thumbnails per recording, evenly over it (ffmpeg; 0 = none).")
    var thumbnails: Int = 10

    /// `-o`, or the log's path with `.html`.
    var outputPath: String { output ?? ((log as NSString).deletingPathExtension + ".html") }

    func validate() throws {
        if (outputPath as NSString).standardizingPath == (log as NSString).standardizingPath {
            throw ValidationError("-o must not be the log itself")
        }
        guard settle.isFinite, settle >= 0 else { throw ValidationError("--settle must be a number ≥ 0") }
        guard (0...60).contains(thumbnails) else { throw ValidationError("--thumbnails must be 0…60") }
    }

    func run() throws {
        let timeline: FlightTimeline
        let text: String
        do {
            let data = try TrackFile.contents(ofFile: log, unreadable: FlightLogError.unreadable(path:reason:))
            text = String(decoding: data, as: UTF8.self)
            timeline = try FlightTimeline(flightLogText: text,
                                          title: "Flight report: \((log as NSString).lastPathComponent)", settleSeconds: settle)
        } catch let error as FlightTimelineError {
            printError("followme report: \(log): \(error)")
            throw ExitCode(1)
        } catch {
            printError("followme report: \(error)")
            throw ExitCode(1)
        }
        let path = outputPath
        var videos: [FlightReportVideo] = []
        if !noVideo, let start = timeline.logStartSeconds {
            var options = FlightVideoFiles.Options()
            (options.videoDirectory, options.mux, options.thumbnails) = (videoDirectory, !noMux, thumbnails)
            let found = FlightVideoFiles.find(flightLogText: text, logPath: log, reportPath: path, logStartSeconds: start,
                                              options: options)
            for message in found.messages { printError("followme report: \(message)") }
            videos = found.videos
        }
        let html = FlightReportPage(timeline: timeline, videos: videos).html()
        if path == "-" {
            print(html, terminator: "")
            flushStandardOutput()
            return
        }
        do {
            try html.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            printError("followme report: cannot write \(path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        print(path)
    }
}
