#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FlightRecords
import FlightService
import Foundation
import FollowCore
import Links

/// Which operator command a `followme land|hold|resume|start` is.
protocol OperatorCommandKind { static var command: OperatorCommand { get } }
enum LandKind: OperatorCommandKind { static let command = OperatorCommand.land }
enum HoldKind: OperatorCommandKind { static let command = OperatorCommand.hold }
enum ResumeKind: OperatorCommandKind { static let command = OperatorCommand.resume }
enum StartKind: OperatorCommandKind { static let command = OperatorCommand.start }

extension OperatorCommand {
    /// The command line's one-line help.
    var abstract: String {
        switch self {
        case .land: "Land the running flight now (from any state but an emergency or a released vehicle)."
        case .hold: "Stop following and hover where the drone is (before take-off: do not take off), until resume."
        case .resume: "Lift an operator's hold: follow again (before take-off: take off when preflight passes)."
        case .start: "Take off now: only in preflight with every check passed ([follow] takeoff = \"start\")."
        }
    }
}

/// `followme land|hold|resume|start`: one operator command to the running `followme run`, through
/// its status socket (members of group `followme`; docs/commands.md §4.7). Prints what the flight
/// made of it; exit 0 when taken (or already so), 1 when refused or no flight answered, 2 on usage.
struct OperatorCommandLine<Kind: OperatorCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Kind.command.rawValue,
            abstract: Kind.command.abstract,
            discussion: """
                Sent to the running flight through its status socket (--socket, else --config's \
                [status] socket, else \(StatusSocketOptions.installedSocketPath)); logged in the flight log \
                with its source (cli and your uid) and shown on every view. Exit codes: 0 taken or \
                already so; 1 refused (the reply says why), no flight running, or no answer within \
                --timeout; 2 bad usage.
                """)
    }

    @OptionGroup var target: StatusSocketOptions

    @Flag(name: .long, help: "Print the flight's reply as one JSON line.")
    var json = false

    @Option(name: .long, help: "Give up after this many seconds without a reply (with --wait: without landing).")
    var timeout: Double = 5

    @Flag(name: .long, help: "For land: after the flight took it, wait until it reports landed.")
    var wait = false

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600] s") }
        if wait, Kind.command != .land { throw ValidationError("--wait is for land only") }
    }

    func run() throws {
        try OperatorRequestExchange(target: target, json: json, timeout: timeout, wait: wait).run(.command(Kind.command))
    }
}

/// One request to the running flight through its status socket and the wait for its reply: what
/// `followme land|hold|resume|start` and `followme mode` share (the same exit codes).
struct OperatorRequestExchange {
    var target: StatusSocketOptions
    var json: Bool
    var timeout: Double
    /// LAND only: after the flight took it, wait until it reports landed.
    var wait = false

    func run(_ request: OperatorRequest) throws {
        let name = request.name
        let path = try target.socketPath(command: name)
        let connection: StatusSocketReader
        do {
            connection = try StatusSocketReader(path: path)
        } catch {
            printError("followme \(name): no flight to command at \(path) (\(error)): "
                + StatusSocketOptions.noFlightHint(path: path, problem: error.description, command: name))
            throw ExitCode(1)
        }
        guard connection.send(request, via: "cli") else {
            printError("followme \(name): the flight closed its socket \(path)")
            throw ExitCode(1)
        }
        let deadline = SystemClock.now().adding(seconds: timeout)
        var reply: OperatorCommandReply?
        var landed = false
        read: while SystemClock.now() < deadline {
            var pfd = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, Int32(max(1, min(deadline.seconds(since: SystemClock.now()), 0.25) * 1000)))
            guard pfd.revents != 0 else { continue }
            guard let lines = connection.readLines() else { break }
            for line in lines where !line.isEmpty {
                if reply == nil, let r = OperatorCommandReply.decode(jsonLine: line) {
                    reply = r
                    report(r)
                    if !wait || !r.accepted { break read }
                } else if reply != nil, wait, let status = FlightStatus.decode(jsonLine: line), status.state == "landed" {
                    landed = true
                    break read
                }
            }
        }
        guard let reply else {
            printError("followme \(name): no answer from the flight at \(path) within \(timeout) s")
            throw ExitCode(1)
        }
        guard reply.accepted else { throw ExitCode(1) }
        if wait {
            guard landed else {
                printError("followme land: the flight did not report landed within \(timeout) s")
                throw ExitCode(1)
            }
            if !json { print("landed") }
        }
    }

    private func report(_ reply: OperatorCommandReply) {
        if json {
            print(reply.jsonLine())
        } else if reply.accepted {
            print("\(reply.command): \(reply.outcome); state \(reply.state)")
        } else {
            printError("followme \(reply.command): \(reply.outcome)" + (reply.state.isEmpty ? "" : "; state \(reply.state)"))
        }
        flushStandardOutput()
    }
}
