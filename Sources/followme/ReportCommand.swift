import FlightService
import ArgumentParser
import FlightRecords

import Foundation
import Links

/// `followme report FLIGHT.jsonl [-o FILE.html]`: the after-flight page of a flight log.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML page about a flight: summary, plan view, time series.",
        discussion: """
            The page (inline SVG and CSS, no network, no external files) shows the duration, the landing \
            reason, the closest approach, the RMS standoff error while following, the holds, the battery used, \
            the plan view of person and drone on a local plane in metres, and on one time axis: distance with \
            the standoff band and the minimum-separation line, altitude, speeds, battery, fix ages and PCMD, \
            each over the flight states' coloured bands. The scores are `followme log report`'s.

            Prints the path it wrote. Exit codes: 0 written; 1 unreadable or not a flight log, or the \
            output cannot be written; 2 bad options.
            """
    )

    @Argument(help: "The JSONL flight log (followme run --flight-log).")
    var log: String

    @Option(name: [.short, .customLong("output")], help: "The HTML file ('-' = stdout; default: LOG with .html).")
    var output: String?

    @Option(name: .long, help: "Seconds of following to skip before scoring (settling), as `log report --settle`.")
    var settle: Double = 10

    /// `-o`, or the log's path with `.html`.
    var outputPath: String { output ?? ((log as NSString).deletingPathExtension + ".html") }

    func validate() throws {
        if (outputPath as NSString).standardizingPath == (log as NSString).standardizingPath {
            throw ValidationError("-o must not be the log itself")
        }
        guard settle.isFinite, settle >= 0 else { throw ValidationError("--settle must be a number ≥ 0") }
    }

    func run() throws {
        let timeline: FlightTimeline
        do {
            let data = try TrackFile.contents(ofFile: log, unreadable: FlightLogError.unreadable(path:reason:))
            timeline = try FlightTimeline(flightLogText: String(decoding: data, as: UTF8.self),
                                          title: "Flight report: \((log as NSString).lastPathComponent)", settleSeconds: settle)
        } catch let error as FlightTimelineError {
            printError("followme report: \(log): \(error)")
            throw ExitCode(1)
        } catch {
            printError("followme report: \(error)")
            throw ExitCode(1)
        }
        let html = FlightReportPage(timeline: timeline).html()
        let path = outputPath
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
