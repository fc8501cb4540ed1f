@testable import Cockpit
import FlightRecords
@testable import FlightService
import FollowCore
import Foundation
import NIOCore
import NIOPosix
import Testing

/// The cockpit over a real socket on 127.0.0.1 (an ephemeral port), with a real board and inbox and a
/// fake flight behind the inbox: what each route answers, what reaches the flight and what does not.
/// (scripts/test.sh runs this suite in the integration pass, one test at a time.)
@Suite(.timeLimit(.minutes(1))) struct CockpitServerTests {
    @Test("the page is served, self-contained (no http:// or https:// reference), never cached, with a CSP")
    func page() async throws {
        try await CockpitFixtures.withServer { server, board, _, http in
            let reply = try await http.request("GET", "/")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "text/html; charset=utf-8")
            #expect(reply.body.contains("<title>FollowMe cockpit</title>") && reply.body.contains("LAND"))
            #expect(!reply.body.contains("http://") && !reply.body.contains("https://"), "the page names an external URL")
            #expect(!reply.body.contains("src=") || !reply.body.contains("<script src"), "the page loads a script")
            #expect(reply.headers["cache-control"] == "no-store")
            #expect(reply.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true)
            #expect(reply.headers["x-frame-options"] == "DENY")
            // The latest status rides inline in the page, and nothing in it can end its script block.
            var hostile = CockpitFixtures.following
            hostile.reason = "</script><script>alert(1)</script>"
            board.publish(hostile)
            let withStatus = try await http.request("GET", "/").body
            #expect(withStatus.contains(#""state":"following""#) && !withStatus.contains("<script>alert"))
            let missing = try await http.request("GET", "/nothing")
            #expect(missing.status == 404 && missing.headers["cache-control"] == "no-store")
        }
    }

    @Test("GET /status is the board's latest status, as the status socket's line; 503 before the first one")
    func status() async throws {
        try await CockpitFixtures.withServer { server, board, _, http in
            #expect(try await http.request("GET", "/status").status == 503)
            board.publish(CockpitFixtures.following)
            let reply = try await http.request("GET", "/status")
            #expect(reply.status == 200 && reply.headers["content-type"] == "application/json")
            #expect(FlightStatus.decode(jsonLine: reply.body.trimmingCharacters(in: .newlines)) == CockpitFixtures.following)
        }
    }

    @Test("GET /events streams each new status once, as the board changes")
    func events() async throws {
        try await CockpitFixtures.withServer { server, board, _, http in
            board.publish(CockpitFixtures.preflightWaiting)
            let stream = try await EventStreamClient.open(port: server.port)
            defer { stream.close() }
            #expect(stream.status == 200)
            let first = try #require(try await stream.nextData())
            #expect(FlightStatus.decode(jsonLine: first) == CockpitFixtures.preflightWaiting)
            board.publish(CockpitFixtures.following)
            let second = try #require(try await stream.nextData())
            #expect(FlightStatus.decode(jsonLine: second) == CockpitFixtures.following)
            board.publish(CockpitFixtures.holdingTargetStale)
            let third = try #require(try await stream.nextData())
            #expect(FlightStatus.decode(jsonLine: third)?.state == "holding(target-stale)")
        }
    }

    @Test("a command with the right code reaches the flight with source `web 127.0.0.1`, and its reply comes back")
    func commandAccepted() async throws {
        try await CockpitFixtures.withServer { server, _, flight, http in
            let reply = try await http.command(#"{"command":"hold","code":"123456"}"#)
            #expect(reply.status == 200, "\(reply.body)")
            let decoded = try #require(OperatorCommandReply.decode(jsonLine: reply.body.trimmingCharacters(in: .newlines)))
            #expect(decoded.command == "hold" && decoded.source == "web 127.0.0.1" && decoded.outcome == "accepted" && decoded.accepted)
            #expect(flight?.commands.map(\.command) == [.hold] && flight?.commands.first?.source == "web 127.0.0.1")
        }
    }

    @Test("a mode change with the right code reaches the flight as one; a bad angle is 400 and a missing code 401, neither reaching it")
    func modeChange() async throws {
        try await CockpitFixtures.withServer { server, _, flight, http in
            let reply = try await http.command(#"{"command":"mode","mode":"angle","angle_deg":-90,"code":"123456"}"#)
            #expect(reply.status == 200 && reply.body.contains(#""command":"mode""#), "\(reply.body)")
            let expected = try FollowModeChange(mode: .angle, angleDegrees: -90)
            #expect(flight?.requests.map(\.request) == [.followMode(expected)] && flight?.requests.first?.source == "web 127.0.0.1")
            let bad = try await http.command(#"{"command":"mode","mode":"angle","angle_deg":270,"code":"123456"}"#)
            #expect(bad.status == 400 && bad.body.contains("angle_deg 270.0 is outside"), "\(bad.body)")
            let missing = try await http.command(#"{"command":"mode","mode":"orbit"}"#)
            #expect(missing.status == 401)
            #expect(flight?.requests.count == 1)
        }
    }

    @Test("a refused command is still 200: the reply says what the flight made of it")
    func commandRefusedByFlight() async throws {
        try await CockpitFixtures.withServer(delivery: FakeFlight(outcome: "refused:waiting heading")) { server, _, _, http in
            let reply = try await http.command(#"{"command":"start","code":"123456"}"#)
            #expect(reply.status == 200 && reply.body.contains(#""outcome":"refused:waiting heading""#), "\(reply.body)")
        }
    }

    @Test("wrong or missing code: 401, and the flight gets nothing")
    func unauthorized() async throws {
        try await CockpitFixtures.withServer { server, _, flight, http in
            let wrong = try await http.command(#"{"command":"land","code":"000000"}"#)
            let missing = try await http.command(#"{"command":"hold"}"#)
            #expect(wrong.status == 401 && missing.status == 401)
            #expect(wrong.body.contains("pairing code"), "\(wrong.body)")
            #expect(flight?.commands.isEmpty == true)
        }
    }

    @Test("land_without_code: LAND without a code reaches the flight; HOLD without one is 401")
    func landWithoutCode() async throws {
        try await CockpitFixtures.withServer(landWithoutCode: true) { server, _, flight, http in
            let land = try await http.command(#"{"command":"land"}"#), hold = try await http.command(#"{"command":"hold"}"#)
            #expect(land.status == 200 && hold.status == 401)
            #expect(flight?.commands.map(\.command) == [.land])
        }
    }

    @Test("garbage JSON and unknown commands: 400 naming the known ones; not JSON: 415; a 2 KB body: 413")
    func badRequests() async throws {
        try await CockpitFixtures.withServer { server, _, flight, http in
            let garbage = try await http.command("{not json")
            #expect(garbage.status == 400 && garbage.body.contains("JSON object"), "\(garbage.body)")
            let unknown = try await http.command(#"{"command":"flip","code":"123456"}"#)
            #expect(unknown.status == 400 && unknown.body.contains("start, hold, resume, land"), "\(unknown.body)")
            let form = try await http.request("POST", "/command", headers: ["Content-Type": "text/plain"], body: #"{"command":"land","code":"123456"}"#)
            #expect(form.status == 415)
            let huge = try await http.command(#"{"command":"land","code":""# + String(repeating: "9", count: 2048) + #""}"#)
            #expect(huge.status == 413, "\(huge.status) \(huge.body)")
            #expect(flight?.commands.isEmpty == true)
        }
    }

    @Test("a burst of 20 commands: the bucket's 4 pass, the rest are 429 with Retry-After; over the rate a LAND with the code is 429 too (no oracle), a paired phone's LAND passes")
    func rateLimited() async throws {
        try await CockpitFixtures.withServer { server, _, flight, http in  // the clock stands still: no token comes back
            let token = try #require(try await http.pair("123456").token)
            var statuses: [Int] = []
            for _ in 0..<20 { statuses.append(try await http.command(#"{"command":"hold","code":"123456"}"#).status) }
            #expect(statuses == Array(repeating: 200, count: 3) + Array(repeating: 429, count: 17))  // POST /pair took one
            #expect(flight?.commands.count == 3)
            let limited = try await http.command(#"{"command":"hold","code":"123456"}"#)
            #expect(limited.headers["retry-after"] == "1" && limited.body.contains("wait"))
            // Over the rate a LAND carrying the code gets what a wrong code gets: its answer must not tell them apart.
            let guess = try await http.command(#"{"command":"land","code":"000000"}"#)
            let right = try await http.command(#"{"command":"land","code":"123456"}"#)
            #expect(guess.status == 429 && right.status == 429, "\(guess.status) \(right.status)")
            // A paired phone's LAND is never refused, however often it is pressed.
            for _ in 0..<6 {
                let land = try await http.command(#"{"command":"land"}"#, token: token)
                #expect(land.status == 200, "\(land.status) \(land.body)")
            }
            #expect(flight?.commands.count == 9)
        }
    }

    @Test("a request under another site's name (DNS rebinding) is 421: no status, no command reaches the flight")
    func reboundName() async throws {
        try await CockpitFixtures.withServer(landWithoutCode: true) { server, board, flight, http in
            board.publish(CockpitFixtures.following)
            let status = try await http.request("GET", "/status", host: "evil.example.com:\(server.port)")
            let land = try await http.request("POST", "/command", headers: ["Content-Type": "application/json"],
                                               body: #"{"command":"land"}"#, host: "evil.example.com")
            #expect(status.status == 421 && !status.body.contains("following"), "\(status.body)")
            #expect(land.status == 421 && flight?.commands.isEmpty == true)
            #expect(status.headers["cache-control"] == "no-store")
            #expect(try await http.request("GET", "/status", host: "localhost:\(server.port)").status == 200)
        }
    }

    @Test("no flight attached: 503 with the reply's `no-flight`")
    func noFlight() async throws {
        try await CockpitFixtures.withServer(delivery: nil) { server, _, _, http in
            let reply = try await http.command(#"{"command":"land","code":"123456"}"#)
            #expect(reply.status == 503 && reply.body.contains("no-flight"), "\(reply.body)")
        }
    }

    @Test("more live streams than the limit: the extra ones get 503 with a message; a closed one frees its place")
    func streamLimit() async throws {
        try await CockpitFixtures.withServer(maxStreams: 4) { server, board, _, http in
            board.publish(CockpitFixtures.following)
            var open: [EventStreamClient] = []
            for _ in 0..<4 { open.append(try await EventStreamClient.open(port: server.port)) }
            #expect(open.map(\.status) == [200, 200, 200, 200])
            let extra = try await http.request("GET", "/events")
            #expect(extra.status == 503 && extra.body.contains("live views"), "\(extra.body)")
            // The page and commands still work while the streams are full.
            #expect(try await http.request("GET", "/status").status == 200)
            // A stream notices its client left at its next write: the flight publishes every 0.25 s.
            open.removeLast().close()
            var reopened: EventStreamClient?
            for _ in 0..<40 where reopened == nil {
                board.publish(CockpitFixtures.following)
                let attempt = try await EventStreamClient.open(port: server.port)
                if attempt.status == 200 { reopened = attempt } else { attempt.close(); try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(reopened != nil, "the closed stream's place never came back")
            reopened?.close()
            for stream in open { stream.close() }
        }
    }

    @Test("a port already taken: start fails with the address and the reason, and leaves nothing running")
    func portTaken() async throws {
        let (first, _, _) = try await CockpitFixtures.server()
        defer { first.stop() }
        let settings = CockpitSettings(host: "127.0.0.1", port: first.port, code: PairingCode("1"))
        let error = await #expect(throws: CockpitError.self) {
            _ = try await CockpitServer.start(settings: settings, board: FlightStatusBoard(), commands: OperatorCommandInbox(),
                                              logger: .init(label: "test"), clock: { .zero })
        }
        #expect(error.map { "\($0)" }?.contains("127.0.0.1:\(first.port)") == true, "\(String(describing: error))")
        #expect(try await LoopbackHTTP(port: first.port).request("GET", "/").status == 200, "the first server still serves")
        await first.waitUntilStopped()
    }

    @Test("it runs on its own event loop group, not the flight loop's shared one, and stops cleanly with streams open")
    func ownEventLoop() async throws {
        let (server, board, _) = try await CockpitFixtures.server()
        let shared = MultiThreadedEventLoopGroup.singleton
        #expect(server.group !== shared)
        let sharedLoops = Set(shared.makeIterator().map { ObjectIdentifier($0) })
        #expect(server.group.makeIterator().allSatisfy { !sharedLoops.contains(ObjectIdentifier($0)) })
        board.publish(CockpitFixtures.following)
        let stream = try await EventStreamClient.open(port: server.port)
        defer { stream.close() }
        _ = try await stream.nextData()
        await server.waitUntilStopped()
        await #expect(throws: (any Error).self) { try await LoopbackHTTP(port: server.port).request("GET", "/status") }
    }
}
