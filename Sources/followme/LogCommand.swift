import ArgumentParser
import FlightRecords
import FlightService
import Links

import Foundation

/// `followme log`: tools for the JSONL flight log written by `followme run --flight-log`.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Turn a flight log into a GPX track, an SVG plot or a scored report.",
        subcommands: [LogGPXCommand.self, LogGeoJSONCommand.self, LogPlotCommand.self, LogReportCommand.self]
    )
}

/// The options both log tools share.
struct LogToolOptions: ParsableArguments {
    @Argument(help: "The JSONL flight log.")
    var log: String

    @Option(name: [.short, .customLong("output")], help: "Output file ('-' = stdout; default: LOG with the extension replaced).")
    var output: String?

    /// `-o`, or the log's path with `ext`.
    func outputPath(extension ext: String) -> String {
        output ?? ((log as NSString).deletingPathExtension + "." + ext)
    }

    func validate() throws {
        if let output, output != "-", (output as NSString).standardizingPath == (log as NSString).standardizingPath {
            throw ValidationError("-o must not be the log itself")
        }
    }

    /// Reads the log or exits 1 with the reason; exits 1 too if it holds no fix.
    func readLog(tool: String) throws -> FlightLog {
        let flightLog: FlightLog
        do {
            flightLog = try FlightLog(contentsOf: log)
        } catch {
            printError("followme log \(tool): \(error)")
            throw ExitCode(1)
        }
        guard !flightLog.fixes.isEmpty else {
            printError("followme log \(tool): \(log): \(FlightLogError.noFixes(lines: flightLog.lineCount))")
            throw ExitCode(1)
        }
        return flightLog
    }

    /// Writes `text` to the output (or stdout) and reports what was written on stderr.
    func write(_ text: String, extension ext: String, tool: String, log flightLog: FlightLog) throws {
        let path = outputPath(extension: ext)
        if path == "-" {
            print(text, terminator: "")
            flushStandardOutput()
        } else {
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                printError("followme log \(tool): cannot write \(path): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            printError("followme log \(tool): wrote \(path) (\(flightLog.targetFixes.count) target fixes, "
                + "\(flightLog.onboardFixes.count) onboard fixes)")
        }
        if !flightLog.malformedLines.isEmpty {
            printError("followme log \(tool): skipped \(flightLog.malformedLines.count) malformed line(s), first at line "
                + "\(flightLog.malformedLines[0])")
        }
    }
}

/// `followme log gpx LOG`: the person's and the drone's fixes as two GPX tracks.
struct LogGPXCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpx",
        abstract: "Write a GPX file with two tracks: person (target fixes) and drone (onboard fixes).",
        discussion: "Exit codes: 0 written; 1 unreadable log, no fixes, or output not writable; 2 bad options."
    )

    @OptionGroup var options: LogToolOptions

    func run() throws {
        let flightLog = try options.readLog(tool: "gpx")
        try options.write(flightLog.gpx(), extension: "gpx", tool: "gpx", log: flightLog)
    }
}

/// `followme log plot LOG`: the fixes projected on the local plane, as an SVG.
struct LogPlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Write an SVG plan view of the person's and the drone's fixes (metres on a local plane).",
        discussion: "Exit codes: 0 written; 1 unreadable log, no fixes, or output not writable; 2 bad options."
    )

    @OptionGroup var options: LogToolOptions

    func run() throws {
        let flightLog = try options.readLog(tool: "plot")
        let plot: String
        do {
            plot = try flightLog.plot(title: "flight log \((options.log as NSString).lastPathComponent)").svg()
        } catch {
            printError("followme log plot: \(error)")
            throw ExitCode(1)
        }
        try options.write(plot, extension: "svg", tool: "plot", log: flightLog)
    }
}

/// `followme log report LOG`: RMS standoff error while following, minimum separation, transitions.
struct LogReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Score a flight: RMS standoff error while following and the minimum separation."
    )

    @Argument(help: "The JSONL flight log.")
    var log: String

    @Option(name: .long, help: "Seconds of following to skip before scoring (settling).")
    var settle: Double = 10

    func run() throws {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else {
            printError("followme log report: cannot read \(log)")
            throw ExitCode(1)
        }
        print(FlightLogReport(text: text, settleSeconds: settle).text, terminator: "")
    }
}
