import ArgumentParser
import FollowBench
import FollowCore
import FollowMeConfig
import FollowMeService
import Foundation

/// `followme bench`: FollowMe against the objc.io baseline on simulated time, every scenario ×
/// controller × GPS noise model.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark FollowMe against the naive objc.io follower in closed-loop simulation.",
        discussion: """
            Runs every scenario (straight walk, square, stop-and-go, jog on a curve, and the recorded \
            tracks found under --tracks and --walks) with both controllers (followme, naive) under both \
            GPS models (clean, realistic; the same noise for both controllers) on the simulated AR.Drone 2.0.

            Prints per run: RMS and p95 of |distance − standoff|, minimum separation, RMS facing error, \
            time airborne, final state, and per scenario FollowMe's RMS ÷ the baseline's; then the \
            median-scenario ratio and the speed-up over real time (target ≥ 1000×). A progress bar is \
            drawn on stderr when it is a terminal.

            Exit codes: 0 done; 1 a run could not start or plots could not be written; 2 bad options.
            """
    )

    @Option(name: .long, help: "Seed of the GPS noise (the same for every scenario and controller).")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Seconds the person moves in each run (recorded tracks stop earlier if they end).")
    var duration: Double = 240

    @Option(name: .long, help: "The simulated drone's control:euler_angle_max for both controllers, degrees (SDK default 12).")
    var tiltMaxDeg: Double = 12

    @Option(name: .long, help: "FollowMe's follow.standoff_m, metres (default: the config default, 8).")
    var standoffM: Double = FollowMeConfiguration.defaults.follow.standoffMeters

    @Option(name: .long, help: "FollowMe's failsafe.min_separation_m, metres (default: the config default, 3).")
    var minSeparationM: Double = FollowMeConfiguration.defaults.failsafe.minSeparationMeters

    @Option(name: .long, help: "FollowMe's failsafe.gps_relative_error_m, metres (default: the config default, 4).")
    var gpsRelativeErrorM: Double = FollowMeConfiguration.defaults.failsafe.gpsRelativeErrorMeters

    @Flag(name: .long, help: "Print one JSON object (every run, comparisons, medians, timing) instead of the table.")
    var json = false

    @Option(name: .long, help: "Write one SVG plot per run into this directory (created if missing).")
    var plots: String?

    @Option(name: .long, help: "Directory with the vendored GPX tracks (tracks/ in the repository).")
    var tracks: String = "tracks"

    @Option(name: .long, help: "Directory with the GPL-3.0 NMEA walks, read at run time only if present.")
    var walks: String = "../shared/fixtures/gpsd/walks"

    @Flag(name: .long, help: "Run the synthetic scenarios only.")
    var noReplays = false

    @Option(name: .long, help: "Run only this scenario (repeatable), e.g. --scenario square.")
    var scenario: [String] = []

    private var benchConfiguration: BenchConfiguration {
        var c = BenchConfiguration()
        c.seed = seed
        c.durationSeconds = duration
        c.eulerAngleMaxDegrees = tiltMaxDeg
        c.standoffMeters = standoffM
        c.failsafe.minSeparationMeters = minSeparationM
        c.failsafe.gpsRelativeErrorMeters = gpsRelativeErrorM
        return c
    }

    func validate() throws {
        do {
            try benchConfiguration.validate()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        var (scenarios, notes) = BenchReplays.allScenarios(
            tracksDirectory: noReplays ? nil : tracks, walksDirectory: noReplays ? nil : walks)
        if !scenario.isEmpty {
            let unknown = scenario.filter { name in !scenarios.contains { $0.name == name } }
            guard unknown.isEmpty else {
                printError("followme bench: unknown scenario \(unknown.joined(separator: ", ")); "
                    + "available: \(scenarios.map(\.name).joined(separator: ", "))")
                throw ExitCode(2)
            }
            scenarios = scenarios.filter { scenario.contains($0.name) }
        }
        if !json {
            for note in notes { printError("followme bench: note: \(note)") }
        }

        let progress = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        let clock = ContinuousClock()
        let started = clock.now
        let report: BenchReport
        do {
            report = try BenchRunner.runSuite(scenarios: scenarios, configuration: benchConfiguration) { p in
                progress.update(done: p.completedRuns, total: p.totalRuns,
                                label: "\(p.scenario) \(p.controller)/\(p.noise)")
            }
        } catch {
            progress.clear()
            printError("followme bench: \(error)")
            throw ExitCode(1)
        }
        let elapsed = started.duration(to: clock.now).components
        let wallSeconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        progress.clear()

        if json {
            print(BenchOutput.json(report, scenarios: scenarios, wallSeconds: wallSeconds, notes: notes))
        } else {
            print(BenchOutput.table(report, scenarios: scenarios, wallSeconds: wallSeconds), terminator: "")
        }
        flushStandardOutput()

        if let plots {
            do {
                try FileManager.default.createDirectory(atPath: plots, withIntermediateDirectories: true)
                for result in report.results {
                    let path = (plots as NSString).appendingPathComponent(BenchOutput.plotFileName(result))
                    try result.plot().svg().write(toFile: path, atomically: true, encoding: .utf8)
                }
            } catch {
                printError("followme bench: cannot write plots to \(plots): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            if !json { printError("followme bench: \(report.results.count) plots written to \(plots)") }
        }
    }
}

/// A one-line progress bar on stderr (only when stderr is a terminal).
private struct ProgressBar {
    let enabled: Bool

    func update(done: Int, total: Int, label: String) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[2K[\(bar)] \(done)/\(total) \(label)".utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
