import ArgumentParser
import ARDroneProtocol
import Dispatch
import DroneLink
import FollowMeConfig
import FlightLog
import FlightService
import ShellSupport
import SimulatorServer
import TrackFiles
import Foundation
import Logging
import Synchronization
import ShellSupport
import Observations

/// `followme drone …`: bench tools that talk to the AR.Drone 2.0 directly through `DroneLink`.
struct DroneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drone",
        abstract: "Talk to the AR.Drone 2.0 directly: status, take-off, land, emergency reset, decode navdata.",
        discussion: """
            The address and ports come from [drone] in --config (overridable with --address, --at-port, \
            --navdata-port); the flight limits written at start come from [drone] and [follow].

            Never run these while `followme` itself flies the drone: two AT senders with two sequence \
            counters confuse it (node-ar-drone issue #36).

            Exit codes: 0 confirmed by navdata; 1 not confirmed / refused / no navdata; 2 bad usage, \
            configuration or file.
            """,
        subcommands: [Status.self, Takeoff.self, Land.self, EmergencyReset.self, Decode.self]
    )

    // MARK: status

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show flight state, battery, altitude, attitude, navdata rate and link quality live.",
            discussion: """
                Text mode redraws one line (or prints one per second when not on a terminal).
                --json prints one object per event: {"event":"navdata",…}, {"event":"statistics",…},
                {"event":"navdata-lost"|"navdata-restored"|"connected"|"config-ack"|"config-failed",…}.
                Starting the link writes general:navdata_demo and the flight limits; it never lands a
                flying drone (REF keeps bit 9 if navdata says it flies) and sends hover.
                """
        )

        @OptionGroup var connection: DroneConnectionOptions

        @Flag(name: .long, help: "Print one JSON object per event instead of the live line.")
        var json = false

        @Option(name: .long, help: "Exit after this many navdata packets.")
        var count: Int?

        @Option(name: .long, help: "Give up after this many seconds (exit 1 if --count was not reached or no navdata came).")
        var timeout: Double?

        func validate() throws {
            if let count, count < 1 { throw ValidationError("--count must be at least 1") }
            if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            let linkConfiguration = try connection.linkConfiguration()
            let session = try await DroneSession.start(linkConfiguration, quiet: json)
            let interactive = !json && isatty(STDOUT_FILENO) == 1
            let json = self.json, limit = count
            let deadline = timeout.map { SystemClock.now().adding(seconds: $0) }

            struct Outcome: Sendable {
                var reachedCount = false
                var navdataCount = 0
            }
            let outcome: Outcome = await withTaskGroup(of: Outcome?.self) { group in
                group.addTask {
                    var outcome = Outcome()
                    var lastPrinted = MonotonicTime.zero
                    var latest: ReceivedNavdata?
                    var statistics = DroneLinkStatistics()
                    var linkState = "waiting for navdata"
                    for await event in session.link.events {
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
                        case .navdataLost:
                            linkState = "NAVDATA LOST"
                        case .navdataRestored:
                            linkState = "restored"
                        case .configurationFailed(let write, let reason, _):
                            if !json { printError("followme drone: configuration \(write) failed: \(reason)") }
                        default:
                            break
                        }
                        let now = SystemClock.now()
                        if !json, latest != nil || interactive, interactive || now.seconds(since: lastPrinted) >= 1 {
                            let line = statusLine(latest, statistics: statistics, linkState: linkState, now: now)
                            print(interactive ? "\r\u{1B}[2K" + line : line, terminator: interactive ? "" : "\n")
                            flushStandardOutput()
                            lastPrinted = now
                        }
                        if let limit, outcome.navdataCount >= limit {
                            outcome.reachedCount = true
                            return outcome
                        }
                    }
                    return outcome
                }
                if let deadline {
                    group.addTask {
                        let wait = max(0, deadline.seconds(since: SystemClock.now()))
                        try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                        return nil
                    }
                }
                // Whichever ends first; on timeout stop the link so the event loop ends too.
                var result: Outcome?
                for await finished in group {
                    if let finished {
                        result = finished
                        group.cancelAll()
                    } else {
                        await session.link.stop()
                    }
                }
                return result ?? Outcome()
            }
            let reached = outcome.reachedCount
            let navdataCount = outcome.navdataCount
            if interactive { print("") }
            await session.stop()
            if let limit, !reached {
                printError("followme drone status: stopped before \(limit) navdata packets arrived (got \(navdataCount))")
                throw ExitCode(1)
            }
            if navdataCount == 0 {
                printError("followme drone status: no navdata from \(linkConfiguration.address):\(linkConfiguration.navdataPort)")
                throw ExitCode(1)
            }
        }
    }

    // MARK: takeoff

    struct Takeoff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take off, hover, then land; each step confirmed by navdata.",
            discussion: """
                Refuses if navdata shows EMERGENCY or low battery. Waits up to --timeout seconds for
                the drone to report hovering/flying, hovers for --hover-seconds (Ctrl-C or SIGTERM
                lands at once), then lands and waits for LANDED. The link stays up the whole time so
                the drone is never left without a controller. Exit 0 only if both take-off and
                landing were confirmed.
                """
        )

        @OptionGroup var connection: DroneConnectionOptions

        @Option(name: .long, help: "Seconds to wait for the take-off (and later the landing) to be confirmed.")
        var timeout: Double = 15

        @Option(name: .customLong("hover-seconds"), help: "Seconds to hover before landing (0–300).")
        var hoverSeconds: Double = 5

        @Flag(name: .customLong("flat-trim"), help: "Send a flat trim (FTRIM) first; the drone must sit on level ground.")
        var flatTrim = false

        func validate() throws {
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
            guard (0...300).contains(hoverSeconds) else { throw ValidationError("--hover-seconds must be 0–300") }
        }

        func run() async throws {
            let linkConfiguration = try connection.linkConfiguration()
            let session = try await DroneSession.start(linkConfiguration, quiet: false)
            let signals = SignalWatch([SIGINT, SIGTERM])
            guard let first = await session.waitForNavdata(timeoutSeconds: connection.connectTimeout) else {
                await session.stop()
                throw ExitCode(1)
            }
            if first.state.contains(.emergency) {
                printError("followme drone takeoff: the drone reports EMERGENCY (state bit 31); inspect it, then run `followme drone emergency-reset`")
                await session.stop()
                throw ExitCode(1)
            }
            if first.state.contains(.batteryLow) {
                printError("followme drone takeoff: the drone reports low battery (state bit 15); refusing to take off")
                await session.stop()
                throw ExitCode(1)
            }
            if flatTrim, session.isLanded {
                do {
                    try await session.link.requestFlatTrim()
                    print("flat trim sent")
                    try? await Task.sleep(for: .milliseconds(500))
                } catch {
                    printError("followme drone takeoff: flat trim refused: \(error)")
                }
            }

            let started = SystemClock.now()
            if session.isAirborne {
                print("already airborne")
            } else {
                print("taking off…")
            }
            session.link.setDesired(flying: true, pilot: .hover, sendImmediately: true)
            let airborne = await session.wait(timeoutSeconds: timeout, signals: signals) { $0.isAirborne }
            if !airborne {
                printError(signals.fired
                    ? "followme drone takeoff: interrupted; landing"
                    : "followme drone takeoff: not confirmed within \(timeout) s (state \(session.stateDescription)); landing")
            } else {
                print(String(format: "airborne after %.1f s", SystemClock.now().seconds(since: started)) + " (\(session.stateDescription))")
                if hoverSeconds > 0 {
                    print("hovering for \(hoverSeconds) s (Ctrl-C lands now)…")
                    _ = await session.wait(timeoutSeconds: hoverSeconds, signals: signals) { _ in false }
                }
            }

            print("landing…")
            session.link.setDesired(flying: false, pilot: .hover, sendImmediately: true)
            // Landing is the safe action: signals no longer interrupt it, the timeout still bounds it.
            let landed = await session.wait(timeoutSeconds: timeout, signals: nil) { $0.isLanded }
            await session.stop()
            if landed { print("landed (\(session.stateDescription))") }
            else { printError("followme drone takeoff: landing not confirmed within \(timeout) s (state \(session.stateDescription))") }
            guard airborne, landed else { throw ExitCode(1) }
        }
    }

    // MARK: land

    struct Land: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Land the drone and wait until navdata reports LANDED.",
            discussion: """
                Ctrl-C and SIGTERM are ignored while landing (abandoning a landing half-way is worse);
                --timeout bounds the wait. Exit 0 when landed (or already on the ground), 1 when not
                confirmed within --timeout.
                """
        )

        @OptionGroup var connection: DroneConnectionOptions

        @Option(name: .long, help: "Seconds to wait for LANDED.")
        var timeout: Double = 20

        func validate() throws {
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            let linkConfiguration = try connection.linkConfiguration()
            let session = try await DroneSession.start(linkConfiguration, quiet: false)
            // Ctrl-C must not abandon a landing half-way: ignore it; the timeout bounds the wait.
            let signals = SignalWatch([SIGINT, SIGTERM])
            defer { withExtendedLifetime(signals) {} }
            guard await session.waitForNavdata(timeoutSeconds: connection.connectTimeout) != nil else {
                await session.stop()
                throw ExitCode(1)
            }
            if session.isLanded {
                print("already landed (\(session.stateDescription))")
                await session.stop()
                return
            }
            print("landing… (\(session.stateDescription))")
            session.link.setDesired(flying: false, pilot: .hover, sendImmediately: true)
            let landed = await session.wait(timeoutSeconds: timeout, signals: nil) { $0.isLanded }
            await session.stop()
            guard landed else {
                printError("followme drone land: LANDED not reported within \(timeout) s (state \(session.stateDescription))")
                throw ExitCode(1)
            }
            print("landed (\(session.stateDescription))")
        }
    }

    // MARK: emergency-reset

    struct EmergencyReset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "emergency-reset",
            abstract: "Clear the drone's EMERGENCY state (red LEDs) after inspecting it.",
            discussion: """
                Only when navdata shows EMERGENCY (state bit 31): REF bit 8 toggles, so on a healthy
                drone it would cut the motors. Exit 0 when bit 31 clears, 1 otherwise.
                """
        )

        @OptionGroup var connection: DroneConnectionOptions

        @Option(name: .long, help: "Seconds to wait for the emergency bit to clear.")
        var timeout: Double = 5

        func validate() throws {
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            let linkConfiguration = try connection.linkConfiguration()
            let session = try await DroneSession.start(linkConfiguration, quiet: false)
            guard let first = await session.waitForNavdata(timeoutSeconds: connection.connectTimeout) else {
                await session.stop()
                throw ExitCode(1)
            }
            guard first.state.contains(.emergency) else {
                printError("""
                    followme drone emergency-reset: the drone is not in emergency (state bit 31 clear), so there is \
                    nothing to reset. Sending the emergency toggle (REF bit 8) now would cut the motors instead.
                    """)
                await session.stop()
                throw ExitCode(1)
            }
            do {
                try await session.link.requestEmergencyToggle()
            } catch {
                printError("followme drone emergency-reset: refused: \(error)")
                await session.stop()
                throw ExitCode(1)
            }
            let cleared = await session.wait(timeoutSeconds: timeout, signals: nil) {
                !($0.latest?.navdata.state.contains(.emergency) ?? true)
            }
            await session.stop()
            guard cleared else {
                printError("followme drone emergency-reset: emergency still reported after \(timeout) s")
                throw ExitCode(1)
            }
            print("emergency cleared (\(session.stateDescription))")
        }
    }

    // MARK: decode

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a captured navdata packet (one raw UDP payload) as JSON.",
            discussion: """
                Output: {"file":…,"bytes":…,"header":{"magic":…,"state":…,"sequence":…,"vision_flag":…},
                "state_flags":{"flying":false,…},"options":[{"tag":0,"name":"demo","size":148,…},…],
                "checksum":{"value":…,"valid":true}}. Exit 2 with the reason if the file is not a valid packet.
                """
        )

        @Argument(help: "File holding exactly one navdata packet (e.g. a capture of UDP port 5554).")
        var file: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("followme drone decode: cannot read \(file)")
                throw ExitCode(2)
            }
            let bytes = [UInt8](data)
            do {
                let navdata = try Navdata(bytes: bytes)
                print(NavdataJSON.document(navdata, bytes: bytes, file: file))
            } catch {
                printError("followme drone decode: \(file) is not a valid navdata packet: \(NavdataJSON.describe(error))")
                throw ExitCode(2)
            }
        }
    }
}

// MARK: - Shared options

/// `--config` plus bench overrides of the drone's address and ports.
struct DroneConnectionOptions: ParsableArguments {
    @OptionGroup var configOption: ConfigOption

    @Option(name: .long, help: "Drone address (overrides [drone] address).")
    var address: String?

    @Option(name: .customLong("at-port"), help: "Drone AT command UDP port (overrides [drone] at_port).")
    var atPort: Int?

    @Option(name: .customLong("navdata-port"), help: "Drone navdata UDP port (overrides [drone] navdata_port).")
    var navdataPort: Int?

    @Option(name: .customLong("connect-timeout"), help: "Seconds to wait for the first navdata.")
    var connectTimeout: Double = 5

    func validate() throws {
        guard connectTimeout > 0 else { throw ValidationError("--connect-timeout must be positive") }
    }

    /// The validated config file plus overrides, as a link configuration (exit 2 on any problem).
    func linkConfiguration() throws -> DroneLinkConfiguration {
        let config = try loadConfigurationOrExit(path: configOption.config)
        do {
            let limits = try FlightLimits(
                outdoor: config.drone.outdoor,
                // etc/followme.toml: outdoor = use the outdoor limit set *and* fly without the indoor hull.
                flightWithoutShell: config.drone.outdoor,
                eulerAngleMaxRadians: config.follow.maxTiltRadians,
                controlVzMaxMillimetersPerSecond: config.follow.maxClimbMillimetersPerSecond,
                controlYawRadiansPerSecond: config.follow.maxYawRateRadiansPerSecond,
                altitudeMaxMillimeters: config.drone.altitudeMaxMillimeters)
            return try DroneLinkConfiguration(
                address: address ?? config.drone.address,
                atPort: atPort ?? config.drone.atPort,
                navdataPort: navdataPort ?? config.drone.navdataPort,
                limits: limits)
        } catch {
            printError("followme drone: \(error)")
            throw ExitCode(2)
        }
    }
}

// MARK: - Session

/// A running `DroneLink` plus what its events said last, for commands that wait on navdata.
final class DroneSession: Sendable {
    struct Observed: Sendable {
        var latest: ReceivedNavdata?
        var droneWasFlying: Bool?
        var failures: [String] = []

        /// Airborne per the latest navdata: FLY bit, or demo state flying/hovering.
        var isAirborne: Bool {
            guard let navdata = latest?.navdata else { return false }
            if let control = navdata.demo?.controlState {
                return control == .flying || control == .hovering || control == .transitionGotoFix
            }
            return navdata.state.contains(.flying)
        }

        /// Landed per the latest navdata: FLY bit clear and (if demo is present) state LANDED.
        var isLanded: Bool {
            guard let navdata = latest?.navdata, !navdata.state.contains(.flying) else { return false }
            return navdata.demo.map { $0.controlState == .landed } ?? true
        }
    }

    let link: DroneLink
    private let observed = Mutex(Observed())
    private let consumer: Mutex<Task<Void, Never>?> = Mutex(nil)

    private init(link: DroneLink) { self.link = link }

    static func start(_ configuration: DroneLinkConfiguration, quiet: Bool) async throws -> DroneSession {
        var logger = Logger(label: "followme.drone") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = quiet ? .error : .warning
        let link = DroneLink(configuration: configuration, logger: logger)
        let session = DroneSession(link: link)
        do {
            try await link.start()
        } catch {
            printError("followme drone: \(error)")
            throw ExitCode(1)
        }
        return session
    }

    /// Starts recording events (for the commands that wait; `status` reads `link.events` itself).
    private func startObserving() {
        consumer.withLock { task in
            guard task == nil else { return }
            let events = link.events
            task = Task { [self] in
                for await event in events {
                    observed.withLock { state in
                        switch event {
                        case .navdata(let received): state.latest = received
                        case .connected(let wasFlying, _, _): state.droneWasFlying = wasFlying
                        case .configurationFailed(let write, let reason, _): state.failures.append("\(write): \(reason)")
                        default: break
                        }
                    }
                    if case .configurationFailed(let write, let reason, _) = event {
                        printError("followme drone: configuration \(write) failed: \(reason)")
                    }
                }
            }
        }
    }

    var snapshot: Observed { observed.withLock { $0 } }
    var isLanded: Bool { snapshot.isLanded }
    var isAirborne: Bool { snapshot.isAirborne }

    /// "LANDED, battery 80 %, altitude 0.00 m" or the state bits when no demo option came.
    var stateDescription: String {
        guard let navdata = snapshot.latest?.navdata else { return "no navdata" }
        if let demo = navdata.demo {
            return controlStateName(demo) + String(format: ", battery %u %%, altitude %.2f m", demo.batteryPercent,
                                                   demo.altitudeMeters)
        }
        return "bits " + navdata.state.setBitNames.joined(separator: ",")
    }

    /// Waits for the first navdata; prints why and returns nil on timeout.
    func waitForNavdata(timeoutSeconds: Double) async -> NavdataSummary? {
        startObserving()
        let arrived = await wait(timeoutSeconds: timeoutSeconds, signals: nil) { $0.latest != nil }
        guard arrived, let navdata = snapshot.latest?.navdata else {
            let c = link.configuration
            printError("followme drone: no navdata from \(c.address):\(c.navdataPort) within \(timeoutSeconds) s (is this machine on the drone's Wi-Fi?)")
            return nil
        }
        return navdata
    }

    /// Polls every 50 ms until `condition` holds, `timeoutSeconds` pass, or a watched signal fires.
    func wait(timeoutSeconds: Double, signals: SignalWatch?, until condition: (Observed) -> Bool) async -> Bool {
        startObserving()
        let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
        while SystemClock.now() < deadline {
            if condition(snapshot) { return true }
            if signals?.fired == true { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(snapshot)
    }

    func stop() async {
        await link.stop()
        let task = consumer.withLock { $0 }
        await task?.value
    }
}

/// Turns SIGINT/SIGTERM into a flag instead of killing the process ("SIGTERM means land").
final class SignalWatch: Sendable {
    private let flag = Mutex(false)
    /// Kept only to keep the sources alive; never touched after `init`.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    init(_ signals: [Int32]) {
        var created: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                flag.withLock { $0 = true }
                printError("followme drone: signal \(number) received")
            }
            source.resume()
            created.append(source)
        }
        sources = created
    }

    var fired: Bool { flag.withLock { $0 } }
}

// MARK: - Text and JSON rendering

/// The CTRL_STATES name of the demo's major state, e.g. "LANDED".
private func controlStateName(_ demo: NavdataDemo) -> String {
    switch demo.controlState {
    case .defaultState: "DEFAULT"
    case .initializing: "INIT"
    case .landed: "LANDED"
    case .flying: "FLYING"
    case .hovering: "HOVERING"
    case .test: "TEST"
    case .transitionTakeoff: "TAKING OFF"
    case .transitionGotoFix: "GOTO FIX"
    case .transitionLanding: "LANDING"
    case .transitionLooping: "LOOPING"
    case nil: "STATE \(demo.controlStateMajor)"
    }
}

/// The live `status` line.
private func statusLine(_ latest: ReceivedNavdata?, statistics: DroneLinkStatistics, linkState: String,
                        now: MonotonicTime) -> String {
    guard let latest else { return "[\(linkState)]" }
    let navdata = latest.navdata
    var line: String
    if let demo = navdata.demo {
        line = controlStateName(demo).padding(toLength: 10, withPad: " ", startingAt: 0)
        line += String(format: " bat %3u%% alt %5.2f m pitch %6.2f° roll %6.2f° yaw %7.2f°",
                       demo.batteryPercent, demo.altitudeMeters, demo.thetaDegrees, demo.phiDegrees, demo.psiDegrees)
    } else {
        line = (navdata.state.contains(.navdataBootstrap) ? "BOOTSTRAP" : "NO DEMO").padding(toLength: 10, withPad: " ", startingAt: 0)
    }
    line += String(format: "  navdata %4.1f Hz age %.1fs", statistics.navdataRateHz, now.seconds(since: latest.receivedAt))
    line += "  drops src \(statistics.droppedUnexpectedSource) seq \(statistics.droppedSequenceNotIncreasing) bad \(statistics.droppedMalformed)"
    let alarms: [(DroneState, String)] = [
        (.emergency, "EMERGENCY"), (.batteryLow, "BATTERY LOW"), (.communicationWatchdog, "COM WATCHDOG"),
        (.communicationLost, "COM LOST"), (.motorsProblem, "MOTORS"), (.softwareFault, "SOFTWARE FAULT"),
        (.tooMuchWind, "WIND"), (.ultrasoundDeaf, "ULTRASOUND"), (.anglesOutOfRange, "ANGLES"),
        (.cutoutDetected, "CUTOUT"), (.magnetometerNeedsCalibration, "MAGNETO CALIB"),
    ]
    let raised = alarms.filter { navdata.state.contains($0.0) }.map(\.1)
    if !raised.isEmpty { line += "  [" + raised.joined(separator: ", ") + "]" }
    if linkState != "connected" && linkState != "restored" { line += "  [\(linkState)]" }
    return line
}

extension DroneLinkEvent {
    /// The event as one JSON object for `status --json` (nil for nothing to print).
    func jsonLine() -> String? {
        var j = JSONLine()
        switch self {
        case .navdata(let received):
            let navdata = received.navdata
            j.add("event", "navdata")
            j.add("rx", received.receivedAt.seconds)
            j.add("seq", Int(navdata.sequenceNumber))
            j.add("state", NavdataJSON.hex(navdata.state.rawValue))
            j.addRaw("flags", NavdataJSON.array(navdata.state.setBitNames.map { NavdataJSON.string($0) }))
            if let demo = navdata.demo {
                j.add("ctrl_state", controlStateName(demo).lowercased())
                j.add("battery_pct", Int(demo.batteryPercent))
                j.add("alt_m", demo.altitudeMeters)
                j.add("pitch_deg", demo.thetaDegrees)
                j.add("roll_deg", demo.phiDegrees)
                j.add("yaw_deg", demo.psiDegrees)
                let v = demo.bodyVelocityMetersPerSecond
                j.add("vx_mps", v.x)
                j.add("vy_mps", v.y)
                j.add("vz_mps", v.z)
            }
        case .statistics(let s):
            j.add("event", "statistics")
            j.add("navdata_hz", s.navdataRateHz)
            j.add("navdata_received", s.navdataReceived)
            j.add("dropped_source", s.droppedUnexpectedSource)
            j.add("dropped_sequence", s.droppedSequenceNotIncreasing)
            j.add("dropped_malformed", s.droppedMalformed)
            j.add("navdata_lost", s.navdataLost)
            j.add("navdata_losses", s.navdataLosses)
            j.add("datagrams_sent", s.datagramsSent)
            j.add("commands_sent", s.commandsSent)
            j.add("send_failures", s.sendFailures)
            j.add("ticks_late", s.ticksLate)
            j.add("config_pending", s.configurationsPending)
            j.add("config_failed", s.configurationFailures)
        case .connected(let wasFlying, let desiredFlying, let at):
            j.add("event", "connected")
            j.add("drone_was_flying", wasFlying)
            j.add("desired_flying", desiredFlying)
            j.add("rx", at.seconds)
        case .navdataLost(let last, let at):
            j.add("event", "navdata-lost")
            j.add("silence_s", at.seconds(since: last))
            j.add("rx", at.seconds)
        case .navdataRestored(let silence, let at):
            j.add("event", "navdata-restored")
            j.add("silence_s", silence)
            j.add("rx", at.seconds)
        case .configurationAcknowledged(let write, let attempts, let at):
            j.add("event", "config-ack")
            j.add("key", write.key)
            j.add("value", write.value)
            j.add("attempts", attempts)
            j.add("rx", at.seconds)
        case .configurationFailed(let write, let reason, let at):
            j.add("event", "config-failed")
            j.add("key", write.key)
            j.add("value", write.value)
            j.add("reason", reason.description)
            j.add("rx", at.seconds)
        case .desiredFlyingCleared(let reason, let at):
            j.add("event", "desired-flying-cleared")
            j.add("reason", reason == .emergency ? "emergency" : "cutoff")
            j.add("rx", at.seconds)
        case .socketClosed(let socket, _, let at):
            j.add("event", "socket-closed"); j.add("socket", socket.rawValue); j.add("rx", at.seconds)
        case .socketReopened(let socket, let port, _, _, _, let at):
            j.add("event", "socket-reopened"); j.add("socket", socket.rawValue); j.add("local_port", port); j.add("rx", at.seconds)
        case .bootstrapFallback(let reason, let at):
            j.add("event", "bootstrap-fallback"); j.add("reason", reason.rawValue); j.add("rx", at.seconds)
        case .configurationComplete(let failedKeys, let at):
            j.add("event", "config-complete"); j.add("failed", failedKeys.joined(separator: ",")); j.add("rx", at.seconds)
        }
        return j.string
    }
}

/// JSON rendering of a decoded navdata packet for `drone decode`.
enum NavdataJSON {
    /// Option names by tag (`navdata_keys.h`; 27 = GPS from fw 2.4, docs/ardrone-protocol.md §3.3).
    static let optionNames: [UInt16: String] = [
        0: "demo", 1: "time", 2: "raw_measures", 3: "phys_measures", 4: "gyros_offsets", 5: "euler_angles",
        6: "references", 7: "trims", 8: "rc_references", 9: "pwm", 10: "altitude", 11: "vision_raw",
        12: "vision_of", 13: "vision", 14: "vision_perf", 15: "trackers_send", 16: "vision_detect",
        17: "watchdog", 18: "adc_data_frame", 19: "video_stream", 20: "games", 21: "pressure_raw",
        22: "magneto", 23: "wind_speed", 24: "kalman_pressure", 25: "hdvideo_stream", 26: "wifi", 27: "gps",
    ]

    static func document(_ navdata: Navdata, bytes: [UInt8], file: String) -> String {
        var j = JSONLine()
        j.add("file", file)
        j.add("bytes", bytes.count)

        var header = JSONLine()
        header.add("magic", hex(navdata.magic.rawValue))
        header.add("state", hex(navdata.state.rawValue))
        header.add("sequence", Int(navdata.sequenceNumber))
        header.add("vision_flag", Int(navdata.visionFlag))
        j.addRaw("header", header.string)

        var flags = JSONLine()
        for (name, bit) in DroneState.namedBits { flags.add(name, navdata.state.contains(bit)) }
        j.addRaw("state_flags", flags.string)

        j.addRaw("options", array(navdata.options.map(option)))

        // Decoding succeeded, so the stored sum equals the byte sum before the checksum option.
        let checksumOffset = bytes.count - Navdata.checksumOptionByteCount
        let stored = bytes[(checksumOffset + 4)...].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        let computed = Navdata.checksum(of: bytes[..<checksumOffset])
        var checksum = JSONLine()
        checksum.add("value", Int(stored))
        checksum.add("valid", stored == computed)
        j.addRaw("checksum", checksum.string)
        return j.string
    }

    static func option(_ option: NavdataOption) -> String {
        var j = JSONLine()
        j.add("tag", Int(option.tag.rawValue))
        var name = optionNames[option.tag.rawValue] ?? "unknown"
        // Tag 27 is zimmu_3000 (12 bytes) in SDK 2.0.1 and GPS (216 bytes) from fw 2.4.8 (docs/ardrone-protocol.md §3.3);
        // other sizes (fw 2.4.7's 480 bytes) have no known layout.
        if case .raw = option, option.tag == .gps { name = option.wireSize == 12 ? "zimmu_3000" : "gps_unknown_layout" }
        j.add("name", name)
        j.add("size", option.wireSize)
        switch option {
        case .demo(let demo):
            j.add("ctrl_state", controlStateName(demo).lowercased())
            j.add("ctrl_state_major", Int(demo.controlStateMajor))
            j.add("ctrl_state_minor", Int(demo.controlStateMinor))
            j.add("battery_pct", Int(demo.batteryPercent))
            j.add("theta_deg", demo.thetaDegrees)
            j.add("phi_deg", demo.phiDegrees)
            j.add("psi_deg", demo.psiDegrees)
            j.add("altitude_mm", Int(demo.altitudeMillimeters))
            let v = demo.bodyVelocityMillimetersPerSecond
            j.addRaw("velocity_mm_s", vector(Double(v.x), Double(v.y), Double(v.z)))
        case .time(let time):
            j.add("seconds", Int(time.time.seconds))
            j.add("microseconds", Int(time.time.microseconds))
            j.add("milliseconds", time.time.totalMilliseconds)
        case .magneto(let m):
            j.addRaw("raw_counts", vector(Double(m.rawCounts.x), Double(m.rawCounts.y), Double(m.rawCounts.z)))
            j.addRaw("raw_mG", vector(Double(m.rawMilligauss.x), Double(m.rawMilligauss.y), Double(m.rawMilligauss.z)))
            j.addRaw("rectified_mG", vector(Double(m.rectifiedMilligauss.x), Double(m.rectifiedMilligauss.y),
                                            Double(m.rectifiedMilligauss.z)))
            j.addRaw("offset_mG", vector(Double(m.offsetMilligauss.x), Double(m.offsetMilligauss.y),
                                         Double(m.offsetMilligauss.z)))
            j.add("heading_unwrapped_deg", Double(m.headingUnwrappedDegrees))
            j.add("heading_gyro_unwrapped_deg", Double(m.headingGyroUnwrappedDegrees))
            j.add("heading_fusion_unwrapped_deg", Double(m.headingFusionUnwrappedDegrees))
            j.add("calibration_ok", m.isCalibrationOK)
            j.add("state", Int(m.magnetoState))
            j.add("radius", Double(m.radius))
            j.add("error_mean", Double(m.errorMean))
            j.add("error_variance", Double(m.errorVariance))
        case .gps(let g):
            j.add("latitude_deg", g.latitudeDegrees)
            j.add("longitude_deg", g.longitudeDegrees)
            j.add("elevation_m", g.elevationMeters)
            j.add("hdop", g.hdop)
            j.add("data_available", Int(g.dataAvailable))
            j.add("zero_validated", g.isZeroValidated)
            j.add("latitude_fused_deg", g.latitudeFusedDegrees)
            j.add("longitude_fused_deg", g.longitudeFusedDegrees)
            j.add("gps_state", Int(g.gpsState))
            j.add("speed", Double(g.speed))
            j.add("course_deg", Double(g.degree))
            j.add("ehpe", Double(g.ehpe))
            j.add("c_n0", Double(g.carrierToNoise))
            j.add("satellites", Int(g.satelliteCount))
            j.add("gps_plugged", g.isGPSPlugged)
        case .raw(let raw):
            j.add("decoded", false)
            j.add("payload_bytes", raw.payload.count)
        }
        return j.string
    }

    static func vector(_ x: Double, _ y: Double, _ z: Double) -> String {
        var j = JSONLine()
        j.add("x", x)
        j.add("y", y)
        j.add("z", z)
        return j.string
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    static func string(_ value: String) -> String {
        var j = JSONLine()
        j.add("s", value)
        let object = j.string
        return String(object.dropFirst(5).dropLast())  // {"s":"…"} → "…"
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// A person-readable reason for a decoder error, with the byte offset where it applies.
    static func describe(_ error: NavdataDecodingError) -> String {
        switch error {
        case .packetTooShort(let count, let minimum):
            "\(count) bytes, shorter than the \(minimum)-byte minimum (header + checksum option)"
        case .packetTooLong(let count, let maximum):
            "\(count) bytes, longer than NAVDATA_MAX_SIZE \(maximum)"
        case .badMagic(let found):
            "header magic \(hex(found)) is neither 0x55667788 nor 0x55667789"
        case .truncatedOptionHeader(let offset, let remaining):
            "option header at byte \(offset) is cut off (\(remaining) bytes left)"
        case .invalidOptionSize(let tag, let offset, let size):
            "option tag \(tag) at byte \(offset) has size \(size) (< 4)"
        case .optionExceedsPacket(let tag, let offset, let size, let remaining):
            "option tag \(tag) at byte \(offset) claims \(size) bytes but only \(remaining) remain"
        case .optionTooShort(let tag, let offset, let size, let minimum):
            "option tag \(tag) at byte \(offset) is \(size) bytes, its layout needs \(minimum)"
        case .invalidChecksumOptionSize(let offset, let size):
            "checksum option at byte \(offset) has size \(size), not 8"
        case .checksumMismatch(let stored, let computed):
            "checksum mismatch: stored \(stored), computed \(computed)"
        case .missingChecksum:
            "no checksum option at the end"
        case .bytesAfterChecksum(let offset, let count):
            "\(count) stray bytes after the checksum option at byte \(offset)"
        }
    }
}
