@testable import Cockpit
import FlightRecords
@testable import FlightService
import FollowCore
import Foundation
import Testing

/// Pairing over a real socket: the secret for a token, the token for commands, the unit-wide lockout,
/// what a paired phone is told, and what many addresses cannot take from it. (An extension of
/// CockpitServerTests: the integration pass runs it, one test at a time.)
extension CockpitServerTests {
    @Test("POST /pair: the secret gives a token and the stream's cookie; a wrong one is 401 'wrong code'; the token commands without the code")
    func pairThenCommand() async throws {
        try await CockpitFixtures.withServer { server, _, flight, http in
            let wrong = try await http.pair("000000")
            #expect(wrong.reply.status == 401 && wrong.reply.body.contains("wrong code") && wrong.token == nil)
            let (reply, token) = try await http.pair("123456")
            let paired = try #require(token, "\(reply.body)")
            let cookie = try #require(reply.headers["set-cookie"])
            #expect(cookie.hasPrefix("followme_token=\(paired);") && cookie.contains("Path=/events") && cookie.contains("SameSite=Strict"))
            #expect(try await http.request("GET", "/session", headers: ["X-FollowMe-Token": paired]).body.contains(#""paired":true"#))
            #expect(try await http.request("GET", "/session", headers: ["X-FollowMe-Token": "0.0"]).body.contains(#""paired":false"#))
            let hold = try await http.command(#"{"command":"hold"}"#, token: paired)
            #expect(hold.status == 200, "\(hold.body)")
            let stale = try await http.command(#"{"command":"hold"}"#, token: "0123456789abcdef." + String(repeating: "0", count: 32))
            #expect(stale.status == 401 && stale.body.contains("pair again"), "\(stale.body)")
            #expect(flight?.commands.map(\.command) == [.hold])
            let form = try await http.request("POST", "/pair", headers: ["Content-Type": "text/plain"], body: #"{"secret":"123456"}"#)
            #expect(form.status == 415)
        }
    }

    @Test("guesses from many addresses lock pairing for the whole unit: then the right secret gets the same 429 as a wrong one, a paired phone still commands, and its stream warns")
    func lockout() async throws {
        try await CockpitFixtures.withServer { server, board, flight, http in
            board.publish(CockpitFixtures.following)
            let token = try #require(try await http.pair("123456").token)
            let stream = try await EventStreamClient.open(port: server.port, token: token)
            defer { stream.close() }
            var statuses: [Int] = []
            for i in 0...PairingLimiter.freeFailures {
                statuses.append(try await LoopbackHTTP(port: server.port, source: "127.0.\(i + 1).9").pair(String(format: "%06d", i)).reply.status)
            }
            #expect(statuses == Array(repeating: 401, count: PairingLimiter.freeFailures + 1))
            let right = try await LoopbackHTTP(port: server.port, source: "127.0.40.9").pair("123456")
            let wrong = try await LoopbackHTTP(port: server.port, source: "127.0.41.9").pair("000009")
            #expect(right.reply.status == 429 && right.token == nil && wrong.reply.status == 429)
            #expect(right.reply.headers["retry-after"] == "30" && right.reply.body == wrong.reply.body, "\(right.reply.body)")
            #expect(right.reply.body.contains(#""retry_after_s":30"#))
            let commandWithCode = try await LoopbackHTTP(port: server.port, source: "127.0.42.9").command(#"{"command":"hold","code":"123456"}"#)
            #expect(commandWithCode.status == 429)
            #expect(try await http.command(#"{"command":"land"}"#, token: token).status == 200)
            #expect(flight?.commands.map(\.command) == [.land])
            let warning = try #require(try await stream.nextEvent(named: "security"))
            #expect(warning.contains("someone is trying pairing codes from 127.0."), "\(warning)")
        }
    }

    @Test("two Host headers, the good one first: 400, nothing served")
    func twoHosts() async throws {
        try await CockpitFixtures.withServer(landWithoutCode: true) { server, board, flight, http in
            board.publish(CockpitFixtures.following)
            let reply = try await http.request("POST", "/command", headers: ["Content-Type": "application/json", "Host": "evil.example.com"],
                                                body: #"{"command":"land"}"#)
            #expect(reply.status == 400 && flight?.commands.isEmpty == true, "\(reply.status) \(reply.body)")
            #expect(try await http.request("GET", "/status").status == 200)
        }
    }

    @Test("300 addresses fill the rate table and every stream slot: the paired phone still watches (it takes an unpaired slot) and commands")
    func crowd() async throws {
        try await CockpitFixtures.withServer(maxStreams: 8) { server, board, flight, http in
            board.publish(CockpitFixtures.following)
            let token = try #require(try await http.pair("123456").token)
            var held: [EventStreamClient] = []
            defer { for stream in held { stream.close() } }
            for i in 0..<300 {
                let source = "127.0.\(1 + i / 200).\(1 + i % 200)"
                _ = try await LoopbackHTTP(port: server.port, source: source).command(#"{"command":"hold"}"#)
                if held.count < 12 {
                    let stream = try await EventStreamClient.open(port: server.port, source: source)
                    if stream.status == 200 { held.append(stream) } else { stream.close() }
                }
            }
            #expect(held.count == 8, "the streams' cap")
            let refused = try await LoopbackHTTP(port: server.port, source: "127.0.9.9").request("GET", "/events")
            #expect(refused.status == 503 && refused.body.contains("pair this phone"), "\(refused.body)")
            let mine = try await EventStreamClient.open(port: server.port, token: token)
            defer { mine.close() }
            #expect(mine.status == 200)
            #expect(try await mine.nextData() != nil)
            #expect(try await http.command(#"{"command":"land"}"#, token: token).status == 200)
            #expect(try await http.command(#"{"command":"resume"}"#, token: token).status == 200)
            #expect(flight?.commands.map(\.command) == [.land, .resume])
        }
    }

    @Test("one address holds at most 4 live streams; the fifth is told why")
    func streamsPerAddress() async throws {
        try await CockpitFixtures.withServer { server, board, _, _ in
            board.publish(CockpitFixtures.following)
            var same: [EventStreamClient] = []
            defer { for stream in same { stream.close() } }
            for _ in 0..<4 { same.append(try await EventStreamClient.open(port: server.port, source: "127.0.77.1")) }
            #expect(same.map(\.status) == [200, 200, 200, 200])
            let fifth = try await LoopbackHTTP(port: server.port, source: "127.0.77.1").request("GET", "/events")
            #expect(fifth.status == 503 && fifth.body.contains("this address has 4 live views"), "\(fifth.body)")
            #expect(try await EventStreamClient.open(port: server.port, source: "127.0.77.2").status == 200)
        }
    }
}
