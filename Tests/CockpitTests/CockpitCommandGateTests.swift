@testable import Cockpit
import FollowCore
import Testing

/// The gate in front of the flight: the sender's rate, then the body and the command. Who may command
/// is `CockpitAuthority`'s (CockpitAuthorityTests) and the routes' (CockpitServerTests).
@Suite struct CockpitCommandGateTests {
    let gate = CockpitCommandGate()
    let json = "application/json"

    func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a known command is read in any case of its name, with the code it carries", arguments: OperatorCommand.allCases)
    func known(command: OperatorCommand) throws {
        let parsed = try gate.parse(body: body(#"{"command":"\#(command.rawValue.uppercased())","code":"123456"}"#), contentType: json)
        #expect(parsed.request == .command(command) && parsed.code == "123456")
        #expect(try gate.parse(body: body(#"{"command":"\#(command.rawValue)"}"#), contentType: json).code == nil)
    }

    @Test("garbage, wrong shapes and unknown commands are bad requests that say what is expected", arguments: [
        "{not json", "[]", #"{"command":5}"#, #"{"code":"123456"}"#, "",
    ])
    func malformed(text: String) {
        let error = #expect(throws: CockpitCommandGate.Refusal.self) { try gate.parse(body: body(text), contentType: json) }
        guard case .badRequest(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("JSON object"), "\(message)")
    }

    @Test("an unknown command names the four commands the cockpit takes, and mode")
    func unknown() {
        let error = #expect(throws: CockpitCommandGate.Refusal.self) {
            try gate.parse(body: body(#"{"command":"takeoff","code":"123456"}"#), contentType: json)
        }
        guard case .badRequest(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("start, hold, resume, land, mode"), "\(message)")
    }

    @Test("only application/json (with or without a charset) is read")
    func contentType() throws {
        let land = body(#"{"command":"land","code":"123456"}"#)
        #expect(try gate.parse(body: land, contentType: "application/json; charset=utf-8").request == .command(.land))
        for type in [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"] as [String?] {
            #expect(throws: CockpitCommandGate.Refusal.notJSON) { try gate.parse(body: land, contentType: type) }
        }
    }

    @Test("each client gets a burst of 4, then 2 a second; another client is not slowed")
    func rate() throws {
        let t0 = MonotonicTime(seconds: 100)
        for _ in 0..<4 { try gate.admit(client: "192.0.2.7", now: t0) }
        #expect(throws: CockpitCommandGate.Refusal.self) { try gate.admit(client: "192.0.2.7", now: t0) }
        try gate.admit(client: "192.0.2.8", now: t0)
        try gate.admit(client: "192.0.2.7", now: MonotonicTime(seconds: 100.5))
        #expect(throws: CockpitCommandGate.Refusal.self) { try gate.admit(client: "192.0.2.7", now: MonotonicTime(seconds: 100.6)) }
    }

    @Test("a full table forgets its least recently used address: a new one is never refused, a paired phone's bucket is apart")
    func boundedTable() throws {
        let t0 = MonotonicTime(seconds: 1)
        for _ in 0..<4 { try gate.admit(client: "paired:0123456789abcdef", now: t0) }
        for i in 0..<(CockpitCommandGate.maxClients + 50) {
            try gate.admit(client: "10.0.\(i / 256).\(i % 256)", now: MonotonicTime(seconds: 1 + Double(i) * 1e-3))
        }
        #expect(gate.clientCount == CockpitCommandGate.maxClients + 1)
        // The paired phone's empty bucket was kept (not refilled by being forgotten), and not evicted by the flood.
        #expect(throws: CockpitCommandGate.Refusal.self) { try gate.admit(client: "paired:0123456789abcdef", now: MonotonicTime(seconds: 1.3)) }
        try gate.admit(client: "192.0.2.99", now: MonotonicTime(seconds: 2))
    }

    @Test("mode: the mode, angle and direction are read and checked")
    func modeChange() throws {
        let orbit = try gate.parse(body: body(#"{"command":"MODE","mode":"Orbit","orbit_direction":"counterclockwise","code":"123456"}"#),
                                   contentType: json)
        #expect(orbit.request == .followMode(try FollowModeChange(mode: .orbit, orbitDirection: .counterclockwise)))
        for (text, words) in [(#"{"command":"mode","code":"123456"}"#, "unknown mode"),
                              (#"{"command":"mode","mode":"angle","angle_deg":-181,"code":"123456"}"#, "outside -180…180"),
                              (#"{"command":"mode","mode":"orbit","orbit_direction":"up","code":"123456"}"#, "unknown direction")] {
            let error = #expect(throws: CockpitCommandGate.Refusal.self) { try gate.parse(body: body(text), contentType: json) }
            guard case .badRequest(let message)? = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(message.contains(words), "\(message)")
        }
    }
}
