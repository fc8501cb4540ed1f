#if canImport(Glibc)
import Glibc
#endif
@testable import FlightRecords
@testable import FlightService
import Foundation
import FollowCore
@testable import Links
import Synchronization
import Testing

/// Operator commands on the status socket (docs/commands.md §4.7), over real Unix sockets: a line in,
/// the command handed to the flight with the sender's uid as its source, one reply line back; what is
/// not a command is answered and never reaches the flight.
@Suite("Status socket: operator command lines", .serialized)
struct StatusSocketCommandTests {
    /// The flight stand-in: takes every command, answers `accepted` in `state`, remembers what it got.
    final class FakeFlight: Sendable {
        let received = Mutex<[(OperatorRequest, String)]>([])
        let inbox = OperatorCommandInbox()

        init() {
            inbox.attach { [self] command, source, reply in
                self.received.withLock { $0.append((command, source)) }
                var r = OperatorCommandReply()
                (r.command, r.source, r.outcome, r.accepted, r.state) = (command.name, source, "accepted", true, "holding(operator-hold)")
                // The flight answers from its own thread, as the event loop does.
                DispatchQueue.global().async { [r] in reply(r) }
            }
        }
    }

    @Test("a command line reaches the flight with the sender's uid as source; the reply comes back on the same connection")
    func commandRoundTrip() throws {
        // Given a publisher with a flight attached, and a client
        let (dir, publisher, flight, client) = try Self.connected()
        defer { publisher.stop(); _ = dir }

        // When the client sends HOLD labelled as the watch
        client.send(#"{"command":"hold","via":"watch"}"#)

        // Then the flight got HOLD from "watch uid=<our uid>" and the client reads the reply
        let reply = try #require(Self.reply(from: client))
        #expect(flight.received.withLock { $0.map(\.0) } == [.command(.hold)])
        #expect(flight.received.withLock { $0.first?.1 } == "watch uid=\(getuid())")
        #expect(reply.command == "hold" && reply.accepted && reply.outcome == "accepted" && reply.state == "holding(operator-hold)")
        #expect(publisher.counters[.commandsReceived] == 1 && publisher.counters[.commandsRefused] == 0)
    }

    @Test("garbage, an unknown command and a line too long are answered bad-request and never reach the flight; the connection goes on")
    func badRequests() throws {
        let (dir, publisher, flight, client) = try Self.connected()
        defer { publisher.stop(); _ = dir }

        client.send("not json at all")
        let garbage = try #require(Self.reply(from: client))
        #expect(garbage.outcome.hasPrefix("bad-request: not a JSON object") && !garbage.accepted)

        client.send(#"{"command":"takeoff"}"#)
        let unknown = try #require(Self.reply(from: client))
        #expect(unknown.outcome.contains("unknown command \"takeoff\"") && unknown.outcome.contains("hold, resume, land"))

        client.send(String(repeating: "x", count: 10_000))
        let long = try #require(Self.reply(from: client))
        #expect(long.outcome == "bad-request: line longer than \(StatusPublisher.maxCommandBytes) bytes")

        // And a good command on the same connection still goes through (the long line was discarded whole)
        client.send(#"{"command":"land"}"#)
        let land = try #require(Self.reply(from: client))
        #expect(land.accepted && land.command == "land")
        #expect(flight.received.withLock { $0.map(\.0) } == [.command(.land)])
        #expect(flight.received.withLock { $0.first?.1 } == "socket uid=\(getuid())", "no via: labelled socket")
        #expect(publisher.counters[.commandsRefused] == 3)
    }

    @Test("a mode line reaches the flight as a mode change with its source; a bad one is answered bad-request and never reaches it")
    func modeLine() throws {
        let (dir, publisher, flight, client) = try Self.connected()
        defer { publisher.stop(); _ = dir }

        client.send(#"{"command":"mode","mode":"angle","angle_deg":45.5,"via":"cli"}"#)
        let reply = try #require(Self.reply(from: client))
        #expect(reply.command == "mode" && reply.accepted)
        #expect(flight.received.withLock { $0.map(\.0) } == [.followMode(try FollowModeChange(mode: .angle, angleDegrees: 45.5))])
        #expect(flight.received.withLock { $0.first?.1 } == "cli uid=\(getuid())")

        // (three more lines: the connection's burst is 4)
        for (line, words) in [(#"{"command":"mode"}"#, "unknown mode"), (#"{"command":"mode","mode":"angle","angle_deg":"90"}"#, "must be a number"),
                              (#"{"command":"mode","mode":"orbit","orbit_direction":7}"#, "unknown direction")] {
            client.send(line)
            let refused = try #require(Self.reply(from: client))
            #expect(refused.command == "mode" && refused.outcome.hasPrefix("bad-request: ") && refused.outcome.contains(words),
                    "\(line): \(refused.outcome)")
        }
        #expect(flight.received.withLock { $0.count } == 1)
    }

    @Test("a client sending faster than the bucket allows is answered rate-limited; the flight sees only the burst")
    func rateLimited() throws {
        let (dir, publisher, flight, client) = try Self.connected()
        defer { publisher.stop(); _ = dir }

        // When 20 commands arrive at once
        client.send(Array(repeating: #"{"command":"hold"}"#, count: 20).joined(separator: "\n"))
        var replies: [OperatorCommandReply] = []
        let deadline = Date().addingTimeInterval(3)
        while replies.count < 20, Date() < deadline {
            replies += client.readAvailable().compactMap { OperatorCommandReply.decode(jsonLine: $0) }
            usleep(10_000)
        }
        // Then the burst reached the flight and the rest were refused
        #expect(replies.count == 20)
        let limited = replies.filter { $0.outcome == "rate-limited" }.count
        let burst = Int(CommandRateLimit.burst)
        #expect(limited >= 20 - burst - 1 && limited <= 20 - burst, "\(limited) rate-limited")
        #expect(flight.received.withLock { $0.count } == 20 - limited)
    }

    @Test("a client flooding garbage without reading: the flight sees nothing, reading pauses, other watchers keep their lines")
    func flood() throws {
        let flight = FakeFlight()
        let (dir, publisher) = try Self.publisher(commands: flight.inbox, intervalSeconds: 0.05)
        defer { publisher.stop(); _ = dir }
        let flooder = try Watcher(path: publisher.path), reader = try Watcher(path: publisher.path)
        // When one client writes 2 s of garbage lines (as fast as the socket takes them) and never reads
        var statuses = 0
        let start = Date()
        var n = 0
        while Date().timeIntervalSince(start) < 2 {
            n += 1
            flooder.sendWithoutBlocking(String(repeating: "{\"command\":\"fly\"}\n", count: 50))
            publisher.publish(StatusPublisherTests.status(n))
            statuses += reader.readAvailable().compactMap { FlightStatus.decode(jsonLine: $0) }.count
            usleep(5_000)
        }
        // Then nothing reached the flight, the other watcher kept getting status lines at its rate,
        // and the flooder got answers only for what the rate allows (reading pauses after each limit)
        #expect(flight.received.withLock { $0.isEmpty })
        #expect(statuses >= 20, "\(statuses) status lines in 2 s at 20 Hz")
        let refused = publisher.counters[.commandsRefused]
        #expect(refused > 0 && refused < 200, "\(refused) lines answered: reading did not pause")
    }

    @Test("watch's OPERATOR row: a refusal by the channel shows there (upper-cased), a reply the flight gave leaves the status as it is")
    func channelRefusalOnTheOperatorRow() {
        var status = FlightStatus()
        (status.t, status.state) = (1_042, "following")
        var held = FlightStatus.OperatorCommandStatus()
        (held.t, held.command, held.source, held.outcome) = (1_030, "hold", "cli uid=0", "accepted")
        status.operatorCommand = held
        let limited = OperatorCommandReply.refused("land", source: "watch uid=1000", outcome: "rate-limited")
        var byFlight = limited
        (byFlight.outcome, byFlight.state) = ("refused:landed", "landed")

        #expect(status.showing(channelRefusal: nil) == status)
        #expect(status.showing(channelRefusal: byFlight) == status)
        let shown = status.showing(channelRefusal: limited)
        #expect(shown.operatorCommand?.outcome == "rate-limited" && shown.operatorCommand?.t == 1_042)
        let lines = FlightStatusScreen.lines(.live(shown, socketPath: "/run/followme/status.sock", receivedSecondsAgo: 0.2),
                                             columns: 100, rows: 30)
        #expect(lines.contains { $0.hasPrefix("OPERATOR  LAND RATE-LIMITED · from watch uid=1000") }, "\(lines)")
    }

    @Test("with no flight attached a command is answered no-flight")
    func noFlight() throws {
        let (dir, publisher) = try Self.publisher(commands: OperatorCommandInbox())
        defer { publisher.stop(); _ = dir }
        let client = try Watcher(path: publisher.path)
        client.send(#"{"command":"land"}"#)
        let reply = try #require(Self.reply(from: client))
        #expect(reply.outcome == "no-flight" && !reply.accepted && reply.state.isEmpty)
        // And a socket without an inbox answers the same, counting it refused, not received
        let (dir2, bare) = try Self.publisher(commands: nil)
        defer { bare.stop(); _ = dir2 }
        let other = try Watcher(path: bare.path)
        other.send(#"{"command":"land"}"#)
        #expect(Self.reply(from: other)?.outcome == "no-flight")
        #expect(bare.counters[.commandsReceived] == 0 && bare.counters[.commandsRefused] == 1)
    }

    @Test("a watcher that sends nothing and closes its sending side still gets status lines")
    func halfClosedWatcher() throws {
        let (dir, publisher) = try Self.publisher(commands: nil, intervalSeconds: 0.01)
        defer { publisher.stop(); _ = dir }
        let client = try Watcher(path: publisher.path)
        client.shutdownWrite()
        for n in 1...20 {
            publisher.publish(StatusPublisherTests.status(n))
            usleep(10_000)
        }
        #expect(client.readAvailable().compactMap { FlightStatus.decode(jsonLine: $0) }.count >= 5)
    }

    static func publisher(commands: OperatorCommandInbox?, intervalSeconds: Double = 0.25) throws -> (TemporaryDirectory, StatusPublisher) {
        let dir = try TemporaryDirectory()
        return (dir, try StatusPublisher(path: dir.path + "/status.sock", intervalSeconds: intervalSeconds, commands: commands))
    }

    /// A publisher with a fake flight attached and one client connected to it.
    static func connected() throws -> (TemporaryDirectory, StatusPublisher, FakeFlight, Watcher) {
        let flight = FakeFlight()
        let (dir, publisher) = try publisher(commands: flight.inbox)
        return (dir, publisher, flight, try Watcher(path: publisher.path))
    }

    /// The first reply line within 2 s (status lines skipped).
    static func reply(from client: Watcher) -> OperatorCommandReply? {
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            if let reply = client.readAvailable().lazy.compactMap({ OperatorCommandReply.decode(jsonLine: $0) }).first { return reply }
            usleep(10_000)
        }
        return nil
    }
}

extension Watcher {
    /// Writes `line` and a newline (blocking: the tests' lines fit the socket buffer).
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func shutdownWrite() { Glibc.shutdown(descriptor, Int32(SHUT_WR)) }

    /// Writes what the socket takes now, never waiting.
    func sendWithoutBlocking(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
    }
}
