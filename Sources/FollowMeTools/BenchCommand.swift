import ArgumentParser
import Simulation
import FollowCore
import FlightService
import FlightRecords
import Links
import Foundation
import MAVLink

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

            Then, per FollowMe run, the follow-quality figures: wind, geofence, mean trailing behind a \
            moving person, aim bias (a standing offset), climb drift from the take-off point, seconds \
            "following" while stalled far behind, and seconds in each other state (holds). \
            --extra-scenarios (or --scenario NAME) adds jogs, the 5-minute jog with the shipped failsafe, \
            stop dead, turn back, walk/jog at the drone and wind; --plant, --wind-mps/--gusts, \
            --target-rate-hz, --no-doppler, --no-wind-bit, --smallest-standoff and --adversarial-offset-m change the world.

            --link mavlink flies every run behind the MAVLink link instead (the same core, its commands as the \
            link's velocity set-points, GUIDED take-off, to the simulated ArduPilot Copter on the same plant, \
            wind and noise); --link both runs each on both links and adds a table of the two side by side \
            (RMS, closest approach, MAVLink ÷ AR.Drone ratio and medians). --position-source says where the \
            MAVLink runs' onboard position comes from (autopilot, the default as in [mavlink], or receiver).

            --receiver-latency S makes both simulated receivers deliver each fix S seconds after its epoch (the \
            fix time stays the epoch), and FollowMe dates every receiver fix by the age its FixAgeMeter measures \
            against the simulated host clock, as followme run does against a synchronised one (docs/gps-latency.md).

            Exit codes: 0 done; 1 a run could not start or plots or report pages could not be written; 2 bad options.
            """
    )

    @Option(name: .long, help: "Seed of the GPS noise (the same for every scenario and controller).")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Seconds the person moves in each run (recorded tracks stop earlier if they end).")
    var duration: Double = 240

    @Option(name: .long, help: "The simulated drone's control:euler_angle_max for both controllers, degrees (SDK default 12).")
    var tiltMaxDeg: Double = 12

    @Option(name: .long, help: "FollowMe's follow.braking_tilt_deg, degrees: its runs' control:euler_angle_max, never below --tilt-max-deg (default: the shipped 25).")
    var brakingTiltDeg: Double = FollowParameters.Spec.brakingTiltDegrees.defaultValue

    @Option(name: .long, help: "FollowMe's follow.standoff_m, metres (default: the shipped config's value).")
    var standoffM: Double = FollowMeConfiguration.defaults.follow.standoffMeters

    @Option(name: .long, help: "FollowMe's failsafe.min_separation_m, metres (default: the shipped config's value).")
    var minSeparationM: Double = FollowMeConfiguration.defaults.failsafe.minSeparationMeters

    @Option(name: .long, help: "FollowMe's failsafe.gps_relative_error_m, metres (default: the shipped config's value).")
    var gpsRelativeErrorM: Double = FollowMeConfiguration.defaults.failsafe.gpsRelativeErrorMeters

    @Flag(name: .long, help: "Print one JSON object (every run, comparisons, medians, timing) instead of the table.")
    var json = false

    @Option(name: .long, help: "Write one SVG plot per run into this directory (created if missing); a follow mode's run also gets one seen from the person (-person.svg).")
    var plots: String?

    @Option(name: .customLong("report"), help: "Write one HTML report page per run (as followme report draws a flight) and an index.html linking them into this directory (created if missing).")
    var reportDirectory: String?

    @Option(name: .long, help: "Directory with the vendored GPX tracks (tracks/ in the repository).")
    var tracks: String = "tracks"

    @Option(name: .long, help: "Directory with the GPL-3.0 NMEA walks (serialc/gnss_accuracy_and_error_oer; never copied into this repository), read at run time when given.")
    var walks: String?

    @Flag(name: .long, help: "Run the synthetic scenarios only.")
    var noReplays = false

    @Option(name: .long, help: "Run only this scenario (repeatable), e.g. --scenario square; the extra scenarios (jog-straight, wind-stand, …) can be named too.")
    var scenario: [String] = []

    @Flag(name: .long, help: "Also run the extra scenarios: jogs (straight, S-curve, 5 min with the default geofence, stop dead), turn back, walk/jog at the drone, wind (steady, gusts).")
    var extraScenarios = false

    @Flag(name: .long, help: "Also run the follow-mode scenarios: angle 180 and 90 behind a walker with 90° turns, orbit round a standing and a walking person.")
    var modeScenarios = false

    @Option(name: .long, help: "Simulated drone: nominal (the controller's own tum model; on MAVLink, ArduCopter's default GUIDED controllers) or off-model (c1 ×0.8, c2 ×1.15, 180 ms latency; on MAVLink also a softer, slower, delayed autopilot).")
    var plant: String = BenchPlant.nominal.rawValue

    @OptionGroup var wind: WindOptions

    @Option(name: .long, help: "Fix rate of the person's receiver, Hz (default: the GPS model's 5).")
    var targetRateHz: Double?

    @Flag(name: .long, help: "The person's fixes carry no Doppler speed/track.")
    var noDoppler = false

    @Option(name: .long, help: "Both receivers deliver each fix this many seconds after its epoch, 0 to 0.6, and FollowMe dates each fix by its measured age (the simulated host clock is trusted). Default: the GPS models' 0.3 s and the configured ages.")
    var receiverLatency: Double?

    @Flag(name: .long, help: "The simulated AR.Drone never raises navdata's \"too much wind\" bit: wind is left to FollowMe's own wind monitor.")
    var noWindBit = false

    @Flag(name: .long, help: "Use the smallest standoff FollowCore accepts with --min-separation-m and --gps-relative-error-m (overrides --standoff-m).")
    var smallestStandoff = false

    @Option(name: .long, help: "Worst-case relative GPS error: every person fix this many metres farther from the drone than the truth (default 0). Set it to --gps-relative-error-m with --noise clean to test the separation promise at its edge.")
    var adversarialOffsetM: Double = 0

    @Option(name: .long, help: "Run only this GPS model (repeatable): clean, realistic.")
    var noise: [String] = []

    @Option(name: .long, help: "Run only this controller (repeatable): followme, naive.")
    var controller: [String] = []

    @Option(name: .long, help: "Drone link: ardrone (the simulated AR.Drone, default), mavlink (the simulated ArduPilot Copter behind the MAVLink link) or both (side by side).")
    var link: String = BenchLink.ardrone.rawValue

    @Option(name: .long, help: "MAVLink runs' onboard position: autopilot (its own estimate, default) or receiver (the simulated onboard receiver, as on the AR.Drone).")
    var positionSource: String = MAVLinkLinkConfiguration.PositionSource.autopilot.rawValue

    /// The links `--link` names.
    private var links: [BenchLink] { link == "both" ? BenchLink.allCases : [BenchLink(rawValue: link) ?? .ardrone] }

    private var benchConfiguration: BenchConfiguration {
        var c = BenchConfiguration.defaults
        c.seed = seed
        c.durationSeconds = duration
        c.eulerAngleMaxDegrees = tiltMaxDeg
        c.brakingTiltDegrees = brakingTiltDeg
        c.standoffMeters = standoffM
        c.failsafe.minSeparationMeters = minSeparationM
        c.failsafe.gpsRelativeErrorMeters = gpsRelativeErrorM
        if let shipped = try? FlightConfiguration(FollowMeConfiguration.defaults).failsafe { c.shippedFailsafe = shipped }
        c.plant = BenchPlant(rawValue: plant) ?? .nominal
        c.wind = wind.parameters
        c.targetRateHertz = targetRateHz
        c.receiverLatencySeconds = receiverLatency
        c.targetReportsVelocity = !noDoppler
        c.firmwareReportsWind = !noWindBit
        c.adversarialTargetOffsetMeters = adversarialOffsetM
        c.mavlinkPositionSource = MAVLinkLinkConfiguration.PositionSource(rawValue: positionSource) ?? .autopilot
        if smallestStandoff, let smallest = c.smallestAcceptedStandoffMeters() { c.standoffMeters = smallest }
        return c
    }

    func validate() throws {
        guard BenchPlant(rawValue: plant) != nil else {
            throw ValidationError("--plant must be one of \(BenchPlant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for n in noise where BenchNoise(rawValue: n) == nil {
            throw ValidationError("--noise must be one of \(BenchNoise.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard link == "both" || BenchLink(rawValue: link) != nil else {
            throw ValidationError("--link must be one of \((BenchLink.allCases.map(\.rawValue) + ["both"]).joined(separator: ", "))")
        }
        guard MAVLinkLinkConfiguration.PositionSource(rawValue: positionSource) != nil else {
            throw ValidationError("--position-source must be one of "
                + MAVLinkLinkConfiguration.PositionSource.allCases.map(\.rawValue).joined(separator: ", "))
        }
        for n in controller where BenchController(rawValue: n) == nil {
            throw ValidationError("--controller must be one of \(BenchController.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        do {
            try benchConfiguration.validate()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        var (scenarios, notes) = BenchReplays.allScenarios(
            tracksDirectory: noReplays ? nil : tracks, walksDirectory: noReplays ? nil : walks, read: readTrack)
        let extras = BenchScenario.extra()
        if extraScenarios {
            scenarios += extras
        } else {
            scenarios += extras.filter { scenario.contains($0.name) }
        }
        let modes = BenchScenario.followModes()
        scenarios += modeScenarios ? modes : modes.filter { scenario.contains($0.name) }
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
            let controllers = controller.isEmpty ? BenchController.allCases : controller.compactMap(BenchController.init(rawValue:))
            let noises = noise.isEmpty ? BenchNoise.allCases : noise.compactMap(BenchNoise.init(rawValue:))
            report = try BenchRunner.runSuite(scenarios: scenarios, controllers: controllers, noises: noises, links: links,
                                              configuration: benchConfiguration) { p in
                progress.update(done: p.completedRuns, total: p.totalRuns,
                                label: "\(p.scenario) \(p.controller)/\(p.noise)" + (p.link == .ardrone ? "" : "/\(p.link)"))
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
                    if let personFrame = result.personFramePlot() {
                        let path = (plots as NSString).appendingPathComponent(BenchOutput.personFramePlotFileName(result))
                        try personFrame.svg().write(toFile: path, atomically: true, encoding: .utf8)
                    }
                }
            } catch {
                printError("followme bench: cannot write plots to \(plots): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            if !json { printError("followme bench: \(report.results.count) plots written to \(plots)") }
        }
        if let reportDirectory {
            do {
                let index = try BenchReportWriter.write(report.results, to: reportDirectory, minSeparationMeters: minSeparationM,
                                                        notes: ["seed \(seed), \(String(format: "%.0f", duration)) s per run"])
                if !json { printError("followme bench: \(report.results.count) report pages written; index: \(index)") }
            } catch {
                printError("followme bench: cannot write the report pages to \(reportDirectory): \(error.localizedDescription)")
                throw ExitCode(1)
            }
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

/// The bench's track reader: GPX and NMEA files through TrackFiles; nil when the file is missing.
func readTrack(_ format: BenchTrackSource.Format, _ path: String) throws -> [TimedCoordinate]? {
    switch format {
    case .gpx(let trackName): try TrackFile.gpxPoints(path: path, trackName: trackName)
    case .nmea: try TrackFile.nmeaPoints(path: path)
    }
}
