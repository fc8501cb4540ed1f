import FlightService
import ArgumentParser
import ARDrone
import Links
import Foundation
import FollowCore

/// `followme drone status`: show the drone's flight state, battery, attitude, navdata rate and link
/// quality live, or one JSON object per link event. With `[drone] protocol = "mavlink"` the same from
/// the autopilot's telemetry, plus its mode, armed state and system status (DroneStatusCommand+MAVLink.swift).
///
/// Modules: FollowMeConfig (the config, through `DroneConnectionOptions`), DroneLink (a running link
/// from `DroneSession.start`, whose `events` this command reads itself), ShellSupport (`JSONLine`,
/// the clock). Text mode renders `statusLine`; `--json` prints `DroneLinkEvent.jsonLine()`
/// (DroneLinkEvent+JSON.swift). Starting the link writes the flight limits and hovers; it never
/// lands a flying drone (the link keeps REF bit 9). No signal handling: Ctrl-C ends it.
struct DroneStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show flight state, battery, altitude, attitude, navdata rate and link quality live.",
        discussion: """
            Text mode redraws one line (or prints one per second when not on a terminal).
            --json prints one object per event: {"event":"navdata",…}, {"event":"statistics",…},
            {"event":"navdata-lost"|"navdata-restored"|"connected"|"config-ack"|"config-failed",…}.
            Starting the link writes general:navdata_demo and the flight limits; it never lands a
            flying drone (REF keeps bit 9 if navdata says it flies) and sends hover.
            With [drone] protocol = "mavlink" the link sends heartbeats and asks for message rates;
            it never arms and never lands a flying vehicle. Each GLOBAL_POSITION_INT prints as
            {"event":"navdata",…} with the same fields where they mean the same, plus "mode",
            "armed", "system_status", "landed_state"; the vehicle's messages as {"event":"notice",…}.
            """
    )

    @OptionGroup var connection: DroneConnectionOptions

    @OptionGroup var output: LiveOutputOptions<DroneStatusCommand>

    func run() async throws {
        let json = output.json, limit = output.count
        let interactive = !json && isatty(STDOUT_FILENO) == 1
        let outcome: StatusOutcome, source: String, packets: String, hint: String
        switch try connection.target() {
        case .ardrone(let linkConfiguration):
            let session = try await DroneSession.start(linkConfiguration, quiet: json)
            outcome = await untilTimeout(stop: { await session.link.stop() }) {
                await printEvents(of: session.link, json: json, interactive: interactive, limit: limit)
            }
            if interactive { print("") }
            await session.stop()
            (source, packets) = ("\(linkConfiguration.address):\(linkConfiguration.navdataPort)", "navdata")
            hint = LinkHint.noNavdata(linkConfiguration)
        case .mavlink(let bench):
            let session = try await MAVLinkDroneSession.start(bench, quiet: json)
            outcome = await untilTimeout(stop: { await session.stop() }) {
                await printMAVLinkEvents(of: session, json: json, interactive: interactive, limit: limit)
            }
            if interactive { print("") }
            await session.stop()
            (source, packets) = ("\(bench.link.address):\(bench.link.port)", "telemetry")
            hint = session.noTelemetryHint
        }
        if let limit, !outcome.reachedCount {
            printError("followme drone status: stopped before \(limit) \(packets) packets arrived (got \(outcome.navdataCount))")
            throw ExitCode(1)
        }
        if outcome.navdataCount == 0 {
            printError("followme drone status: no \(packets) from \(source): \(hint)")
            throw ExitCode(1)
        }
    }

    /// Runs `printing` until it ends or `--timeout` passes (then `stop` ends the link, so its event loop ends too).
    private func untilTimeout(stop: @escaping @Sendable () async -> Void,
                              _ printing: @escaping @Sendable () async -> StatusOutcome) async -> StatusOutcome {
        let deadline = output.timeout.map { SystemClock.now().adding(seconds: $0) }
        return await withTaskGroup(of: StatusOutcome?.self) { group in
            group.addTask { await printing() }
            if let deadline {
                group.addTask {
                    let wait = max(0, deadline.seconds(since: SystemClock.now()))
                    try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                    return nil
                }
            }
            // Whichever ends first.
            var result: StatusOutcome?
            for await finished in group {
                if let finished {
                    result = finished
                    group.cancelAll()
                } else {
                    await stop()
                }
            }
            return result ?? StatusOutcome()
        }
    }
}

extension DroneStatusCommand: LiveOutputHelp {
    static let jsonHelp = "Print one JSON object per event instead of the live line."
    static let countHelp = "Exit after this many navdata packets."
    static let timeoutHelp = "Give up after this many seconds (exit 1 if --count was not reached or no navdata came)."
}

/// What `status`'s event loop saw before it ended.
struct StatusOutcome: Sendable {
    var reachedCount = false
    /// Navdata packets (the AR.Drone) or telemetry packets (MAVLink: GLOBAL_POSITION_INT) printed.
    var navdataCount = 0

    /// True (and `reachedCount` set) once `limit` packets arrived; never without a limit.
    mutating func reached(_ limit: Int?) -> Bool {
        guard let limit, navdataCount >= limit else { return false }
        reachedCount = true
        return true
    }
}

/// Prints the link's events (JSON lines, or the live line at most once a second when not on a
/// terminal) until the link stops or `limit` navdata packets arrived.
private func printEvents(of link: DroneLink, json: Bool, interactive: Bool, limit: Int?) async -> StatusOutcome {
    var outcome = StatusOutcome()
    var printer = LiveLinePrinter(interactive: interactive)
    var latest: ReceivedNavdata?
    var statistics = DroneLinkStatistics()
    var linkState = "waiting for navdata"
    for await event in link.events {
        if json, let line = event.jsonLine() {
            print(line)
            flushStandardOutput()
        }
        switch event {
        case .navdata(let received):
            outcome.navdataCount += 1
            latest = received
        case .statistics(let snapshot):
            statistics = snapshot
        case .connected:
            linkState = "connected"
        case .telemetryLost:
            linkState = "NAVDATA LOST"
        case .navdataRestored:
            linkState = "restored"
        case .configurationFailed(let write, let reason, _):
            if !json { printError("followme drone: configuration \(write) failed: \(reason)") }
        default:
            break
        }
        if !json {
            printer.show(hasData: latest != nil) { statusLine(latest, statistics: statistics, linkState: linkState, now: $0) }
        }
        if outcome.reached(limit) { return outcome }
    }
    return outcome
}

/// The text mode's live line: redrawn in place on a terminal (from the first event on), else
/// printed at most once a second once there is data.
struct LiveLinePrinter {
    let interactive: Bool
    private var lastPrinted = MonotonicTime.zero

    init(interactive: Bool) { self.interactive = interactive }

    /// Prints `line(now)` if it is time to.
    mutating func show(hasData: Bool, _ line: (MonotonicTime) -> String) {
        let now = SystemClock.now()
        guard hasData || interactive, interactive || now.seconds(since: lastPrinted) >= 1 else { return }
        let text = line(now)
        print(interactive ? "\r\u{1B}[2K" + text : text, terminator: interactive ? "" : "\n")
        flushStandardOutput()
        lastPrinted = now
    }
}

/// The live line: state, battery, attitude, navdata rate and age, drops, raised alarms, link state.
private func statusLine(_ latest: ReceivedNavdata?, statistics: DroneLinkStatistics, linkState: String,
                       now: MonotonicTime) -> String {
    guard let latest else { return "[\(linkState)]" }
    let navdata = latest.navdata
    var line: String
    if let demo = navdata.demo {
        line = demo.controlStateName.padding(toLength: 10, withPad: " ", startingAt: 0)
        line += String(format: " bat %3u%% alt %5.2f m pitch %6.2f° roll %6.2f° yaw %7.2f°",
                       demo.batteryPercent, demo.altitudeMeters, demo.thetaDegrees, demo.phiDegrees, demo.psiDegrees)
    } else {
        line = (navdata.state.contains(.navdataBootstrap) ? "BOOTSTRAP" : "NO DEMO").padding(toLength: 10, withPad: " ", startingAt: 0)
    }
    line += String(format: "  navdata %4.1f Hz age %.1fs", statistics.navdataRateHz, now.seconds(since: latest.receivedAt))
    line += "  drops src \(statistics.counts[.droppedUnexpectedSource]) seq \(statistics.counts[.droppedSequenceNotIncreasing]) bad \(statistics.counts[.droppedMalformed])"
    let raised = statusAlarms.filter { navdata.state.contains($0.0) }.map(\.1)
    if !raised.isEmpty { line += "  [" + raised.joined(separator: ", ") + "]" }
    if linkState != "connected" && linkState != "restored" { line += "  [\(linkState)]" }
    return line
}

/// The state bits the live line shows as alarms, in this order.
private let statusAlarms: [(DroneState, String)] = [
    (.emergency, "EMERGENCY"), (.batteryLow, "BATTERY LOW"), (.communicationWatchdog, "COM WATCHDOG"),
    (.communicationLost, "COM LOST"), (.motorsProblem, "MOTORS"), (.softwareFault, "SOFTWARE FAULT"),
    (.tooMuchWind, "WIND"), (.ultrasoundDeaf, "ULTRASOUND"), (.anglesOutOfRange, "ANGLES"),
    (.cutoutDetected, "CUTOUT"), (.magnetometerNeedsCalibration, "MAGNETO CALIB"),
]
