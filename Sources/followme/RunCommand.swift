import ArgumentParser
import Links
import Foundation
import FlightRecords
import FlightService

import Logging

/// `followme run --config FILE`: the appliance. Takes off once preflight passes, follows,
/// lands on SIGTERM/SIGINT (confirmed by navdata) and exits 0.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Fly: follow the target receiver with the drone.",
        discussion: """
            Takes off by itself once preflight passes (both fixes fresh with mode ≥ 2, heading,
            navdata, battery), or with [follow] takeoff = "start" on the operator's START
            (`followme start`, the cockpit). `followme hold|resume|land` command it while it runs.
            SIGTERM/SIGINT → land, wait for navdata "landed", exit 0.
            Exit 1 if landing could not be confirmed, 2 on a bad config.
            """
    )

    @OptionGroup var configOption: ConfigOption

    @Flag(name: .long, help: "Dry run: never take off; log the commands it would send.")
    var noTakeoff = false

    @Option(name: .long, help: "JSONL flight log path (overrides [log] path).")
    var flightLog: String?

    @Option(name: .long, help: "After SIGTERM/SIGINT, seconds to wait for navdata to confirm landing.")
    var landTimeout: Double = 30

    @Option(name: .long, help: "Log level.")
    var logLevel: Logger.Level = .info

    @Flag(name: .long, help: "At exit, print the fix-to-datagram latency (p50/p99/max, count) to stdout.")
    var latencyReport = false

    @Option(name: .long, help: ArgumentHelp(
        "Unix socket `followme watch` reads the live status from (read-only; overrides [status] socket).",
        valueName: "path"))
    var statusSocket: String?

    func validate() throws {
        guard landTimeout > 0, landTimeout <= 300 else { throw ValidationError("--land-timeout must be in (0, 300] s") }
    }

    func run() async throws {
        let config = loadConfigurationOrExit(path: configOption.config)
        // Every log line goes through one writer thread: the flight loop runs on the drone link's
        // event loop, and a stalled stderr (terminal, full pipe) must not stop the AT commands.
        // When its queue is full, lines are dropped and counted (flight log: log_lines_dropped).
        // A reader that goes away (`followme run 2>&1 | head`) must not kill the flight with
        // SIGPIPE: the write fails with EPIPE instead and is counted.
        signal(SIGPIPE, SIG_IGN)
        let stderrWriter = LogWriter(name: "stderr", fileDescriptor: STDERR_FILENO)
        let level = logLevel
        let style = LogLineStyle.forStandardError(environment: ProcessInfo.processInfo.environment,
                                                  statusLine: isatty(STDERR_FILENO) == 1)
        LoggingSystem.bootstrap { label in
            var handler = QueuedLogHandler(label: label, writer: stderrWriter, style: style)
            handler.logLevel = level
            return handler
        }
        defer {
            // Bounded: a stderr nobody reads must not keep followme from exiting.
            stderrWriter.shutdown(timeoutSeconds: 2)
        }
        var logger = Logger(label: "followme")
        logger.logLevel = level
        var options = FlightServiceOptions()
        options.noTakeoff = noTakeoff
        options.landTimeoutSeconds = landTimeout
        options.flightLogPath = Self.flightLogPath(flag: flightLog, config: config.log, logger: logger)
        (options.configPath, options.configTOML) = (configOption.config, config.renderedTOML())
        options.statusLine = isatty(STDERR_FILENO) == 1
        options.latencyReport = latencyReport
        options.logWriter = stderrWriter
        options.systemd = SystemdNotifier.fromEnvironment(ProcessInfo.processInfo.environment)
        // One status board for every view, one inbox for every operator command (docs/commands.md §4.7).
        let board = FlightStatusBoard(), commands = OperatorCommandInbox()
        (options.statusBoard, options.commands) = (board, commands)
        options.statusPublisher = Self.statusPublisher(path: statusSocket ?? config.status.socketPath, logger: logger,
                                                       board: board, commands: commands)
        defer { Self.stop(options.statusPublisher, logger: logger) }
        let cockpit = try await Self.startCockpit(config: config, board: board, commands: commands, logger: logger)
        defer { cockpit?.stop() }
        let app: FlightApplication
        do {
            app = try ServiceFactory.buildFlight(config: config, options: options, logger: logger)
        } catch {
            stderrWriter.enqueue(style.decorate("followme run: \(error)", level: .error) + "\n")
            throw ExitCode(2)
        }
        let outcome = try await app.run()
        if latencyReport {
            print("fix-to-datagram latency: \(app.fixLatency?.summary ?? "not measured (the drone link never ran)")")
            flushStandardOutput()
        }
        switch outcome {
        case .landed?: return
        case .landingUnconfirmed?:
            stderrWriter.enqueue(style.decorate("followme run: landing was not confirmed by navdata", level: .error) + "\n")
            throw ExitCode(1)
        case .released?:
            stderrWriter.enqueue(style.decorate(
                "followme run: stopped while a pilot or the autopilot flies the vehicle (released); FollowMe did not land it",
                level: .warning) + "\n")
            throw ExitCode(3)
        case nil:
            throw ExitCode(1)
        }
    }

    /// The status socket at `path`, or nil (none asked for, or it cannot be made: then the flight
    /// goes on without it, logged as an error — a missing watch must not keep a drone on the ground
    /// nor stop a restarted followme from adopting one in the air).
    static func statusPublisher(path: String?, logger: Logger, board: FlightStatusBoard,
                                commands: OperatorCommandInbox) -> StatusPublisher? {
        guard let path, !path.isEmpty else { return nil }
        do {
            return try StatusPublisher(path: path, logger: logger, board: board, commands: commands)
        } catch {
            logger.error("status socket not available; flying without it", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Stops the status socket (removes its file) and logs what it did.
    static func stop(_ publisher: StatusPublisher?, logger: Logger) {
        guard let publisher else { return }
        publisher.stop()
        let c = publisher.counters
        logger.info("status socket closed", metadata: [
            "path": "\(publisher.path)", "watchers": "\(c[.accepted])", "lines-sent": "\(c[.linesSent])",
            "lines-skipped": "\(c[.linesSkipped])", "watchers-dropped": "\(c[.watchersDropped])",
            "commands": "\(c[.commandsReceived])", "commands-refused": "\(c[.commandsRefused])",
        ])
    }
}

/// `--log-level trace|debug|info|notice|warning|error|critical`: the help lists the values, shells
/// complete them, and anything else is a usage error (exit 2) naming them.
extension Logger.Level: @retroactive ExpressibleByArgument {}
