#if canImport(Glibc)
import FlightService
import Glibc
#endif
import ArgumentParser
import FlightRecords
import Foundation
import FollowCore
import Links

/// `followme watch`: a running `followme run` (e.g. the systemd service) live on the terminal, like
/// `cgps` for our flight. Reads the flight's read-only status socket; the flight never waits for it.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a running `followme run` live (L lands, H holds, R resumes).",
        discussion: """
            Full screen, refreshed 4 times a second: flight state and reason, distance and bearing \
            to the person, both receivers' fix mode/eph/age, heading, altitude, battery, link rates \
            (navdata Hz, commands/s) and the last state changes. Keys: L lands, H holds, R resumes \
            (operator commands, as `followme land|hold|resume`; the reply shows on the OPERATOR row); \
            q or Ctrl-C quits.

            It attaches to the status socket `followme run` publishes (--status-socket PATH or \
            [status] socket): any number of watchers, and the flight never waits for one. \
            When the flight is not running, or goes away, it says so and keeps retrying.

            --json prints the status lines as they arrive (one JSON object per line).
            """
    )

    /// Seconds between connection attempts while the flight is away: our choice (a flight that
    /// starts is seen within half a second; a connect to a missing socket costs nothing).
    static let retrySeconds = 0.5
    /// Seconds between two redraws: 4 Hz, the publisher's rate.
    static let redrawSeconds = 0.25

    @OptionGroup var target: StatusSocketOptions

    @OptionGroup var output: LiveOutputOptions<WatchCommand>

    func run() throws {
        let path = try target.socketPath(command: "watch")
        WatchTerminal.installSignalHandlers()
        let interactive = !output.json && isatty(STDOUT_FILENO) == 1
        let terminal = interactive ? WatchTerminal() : nil
        defer { terminal?.restore() }
        let start = SystemClock.now()
        let received = watch(path: path, terminal: terminal)
        if let limit = output.count, received < limit {
            terminal?.restore()
            printError("followme watch: stopped after \(received) of \(limit) status lines")
            throw ExitCode(1)
        }
        if received == 0, let timeout = output.timeout, SystemClock.now().seconds(since: start) >= timeout {
            // Nothing to watch came at all: say where it looked (and, if the waiting line did not, what to check), exit 1.
            terminal?.restore()
            let problem = StatusSocketReader.probe(path: path)
            printError("followme watch: no flight status on \(path) within \(String(format: "%g", timeout)) s (\(problem))"
                + (terminal == nil ? "" : ": " + StatusSocketOptions.noFlightHint(path: path, problem: problem)))
            throw ExitCode(1)
        }
    }

    /// Connects, reads and shows until quit, `--count` lines or `--timeout`; returns the lines received.
    private func watch(path: String, terminal: WatchTerminal?) -> Int {
        let start = SystemClock.now()
        var reader: StatusSocketReader?
        var problem = "not connected yet"
        var waitingSince = start
        var nextAttempt = start
        var nextDraw = start
        var latest: (status: FlightStatus, at: MonotonicTime)?
        /// The last status of a flight that went away (shown while waiting for it to come back).
        var lastSeen: FlightStatus?
        var received = 0
        var toldWaiting = false
        /// A command the flight never saw (no flight, rate-limited, socket closed): shown on the OPERATOR row.
        var channelReply: OperatorCommandReply?
        // Keys come from a terminal only (stdin at end of file, e.g. </dev/null, would wake poll forever).
        var readsKeys = terminal != nil && isatty(STDIN_FILENO) == 1
        while !watchQuitRequested.load(ordering: .relaxed) {
            var now = SystemClock.now()
            if let timeout = output.timeout, now.seconds(since: start) >= timeout { break }
            if reader == nil, now >= nextAttempt {
                nextAttempt = now.adding(seconds: Self.retrySeconds)
                do {
                    reader = try StatusSocketReader(path: path)
                    problem = "connected; waiting for the first status line"
                    toldWaiting = false
                } catch {
                    problem = (lastSeen == nil ? "" : "the flight went away; ") + error.description
                    if terminal == nil, !toldWaiting {
                        printError("followme watch: waiting for the flight's status on \(path) (\(problem)); retrying — "
                            + StatusSocketOptions.noFlightHint(path: path, problem: problem))
                        toldWaiting = true
                    }
                }
            }
            // Wait for a status line, a key or the next redraw, whichever comes first.
            var fds = [pollfd(fd: readsKeys ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: reader?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
            let waitMs = Int32(max(0, min(nextDraw.seconds(since: now), Self.redrawSeconds)) * 1000)
            _ = poll(&fds, nfds_t(fds.count), waitMs)
            now = SystemClock.now()
            if fds[0].revents & Int16(POLLIN) != 0 {
                var keys = [UInt8](repeating: 0, count: 64)
                let n = keys.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if n > 0, WatchTerminal.asksToQuit(keys[..<n]) { break }
                // L, H, R: the operator's command to the flight (its reply shows on the OPERATOR row).
                if n > 0, let command = WatchTerminal.operatorCommand(keys[..<n]), let reader, !reader.send(command, via: "watch") {
                    channelReply = .refused(command.rawValue, source: "watch", outcome: "not sent: the socket is closed")
                }
                if n <= 0 { readsKeys = false }
            }
            if let r = reader, fds[1].revents != 0 {
                guard let lines = r.readLines() else {
                    reader = nil
                    (problem, waitingSince, lastSeen, latest) = ("the flight went away (its status socket closed)", now, latest?.status ?? lastSeen, nil)
                    if terminal == nil { printError("followme watch: \(problem); retrying") }
                    continue
                }
                for line in lines where !line.isEmpty {
                    received += 1
                    if terminal == nil {
                        print(output.json ? line : (FlightStatus.decode(jsonLine: line)?.statusLine ?? line))
                        flushStandardOutput()
                    } else if let status = FlightStatus.decode(jsonLine: line) {
                        latest = (status, now)
                    } else if let reply = OperatorCommandReply.decode(jsonLine: line) {
                        // The flight's own answer arrives in the status too; a refusal by the channel only here.
                        channelReply = reply.state.isEmpty ? reply : nil
                    }
                    if let limit = output.count, received >= limit { return received }
                }
            }
            if let terminal, now >= nextDraw {
                nextDraw = now.adding(seconds: Self.redrawSeconds)
                let view: FlightStatusScreen.View = if let latest, reader != nil {
                    .live(latest.status.showing(channelRefusal: channelReply), socketPath: path,
                          receivedSecondsAgo: now.seconds(since: latest.at))
                } else {
                    .waiting(socketPath: path, problem: problem, waitingSeconds: now.seconds(since: waitingSince), lastSeen: lastSeen)
                }
                let size = WatchTerminal.size()
                terminal.draw(FlightStatusScreen.lines(view, columns: size.columns, rows: size.rows))
            }
        }
        return received
    }
}

extension WatchCommand: LiveOutputHelp {
    static let jsonHelp = "Print the flight's status lines (one JSON object each, ~4 a second) instead of the screen."
    static let countHelp = "Exit after this many status lines (exit 1 if --timeout or a quit comes first)."
    static let timeoutHelp = "Stop after this many seconds."
}
