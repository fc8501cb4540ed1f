@testable import Cockpit
import FollowCore
import Testing

/// The gate in front of the flight: rate first, then the body, the command, the code.
@Suite struct CockpitCommandGateTests {
    let gate = CockpitCommandGate(code: PairingCode("123456"), landWithoutCode: false)
    let json = "application/json"

    func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a known command with the right code passes, in any case of its name", arguments: OperatorCommand.allCases)
    func passes(command: OperatorCommand) throws {
        #expect(try gate.command(body: body(#"{"command":"\#(command.rawValue.uppercased())","code":"123456"}"#), contentType: json) == .command(command))
    }

    @Test("wrong or missing code: unauthorized, for every command")
    func unauthorized() {
        for command in OperatorCommand.allCases {
            #expect(throws: CockpitCommandGate.Refusal.unauthorized(command: command.rawValue)) {
                try gate.command(body: body(#"{"command":"\#(command.rawValue)","code":"654321"}"#), contentType: json)
            }
            #expect(throws: CockpitCommandGate.Refusal.unauthorized(command: command.rawValue)) {
                try gate.command(body: body(#"{"command":"\#(command.rawValue)"}"#), contentType: json)
            }
        }
    }

    @Test("land_without_code lets LAND through without a code, and nothing else")
    func landWithoutCode() throws {
        let open = CockpitCommandGate(code: PairingCode("123456"), landWithoutCode: true)
        #expect(try open.command(body: body(#"{"command":"land"}"#), contentType: json) == .command(.land))
        #expect(try open.command(body: body(#"{"command":"land","code":"wrong"}"#), contentType: json) == .command(.land))
        for command in [OperatorCommand.hold, .resume, .start] {
            #expect(throws: CockpitCommandGate.Refusal.unauthorized(command: command.rawValue)) {
                try open.command(body: body(#"{"command":"\#(command.rawValue)"}"#), contentType: json)
            }
        }
    }

    @Test("garbage, wrong shapes and unknown commands are bad requests that say what is expected", arguments: [
        "not json", "", "[]", #"{"code":"123456"}"#, #"{"command":5,"code":"123456"}"#, #"{"command":"land","code":123456}"#,
    ])
    func garbage(text: String) {
        let error = #expect(throws: CockpitCommandGate.Refusal.self) { try gate.command(body: body(text), contentType: json) }
        guard case .badRequest(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains(#"{"command":"land","code":"123456"}"#))
    }

    @Test("an unknown command names the four commands the cockpit takes, and mode")
    func unknownCommand() {
        let error = #expect(throws: CockpitCommandGate.Refusal.self) {
            try gate.command(body: body(#"{"command":"takeoff","code":"123456"}"#), contentType: json)
        }
        #expect(error == .badRequest("unknown command \"takeoff\": the cockpit takes start, hold, resume, land, mode"))
    }

    @Test("only application/json (with or without a charset) is read")
    func mediaType() throws {
        let land = body(#"{"command":"land","code":"123456"}"#)
        #expect(try gate.command(body: land, contentType: "application/json; charset=utf-8") == .command(.land))
        for type in ["text/plain", "application/x-www-form-urlencoded", nil] {
            #expect(throws: CockpitCommandGate.Refusal.notJSON) { try gate.command(body: land, contentType: type) }
        }
    }

    @Test("each client gets a burst of 4, then 2 a second; another client is not slowed")
    func rateLimit() throws {
        let t0 = MonotonicTime(seconds: 100)
        for _ in 0..<4 { try gate.admit(client: "192.0.2.7", now: t0) }
        #expect(throws: CockpitCommandGate.Refusal.self) { try gate.admit(client: "192.0.2.7", now: t0) }
        try gate.admit(client: "192.0.2.8", now: t0)
        try gate.admit(client: "192.0.2.7", now: MonotonicTime(seconds: 100.5))
        #expect(throws: CockpitCommandGate.Refusal.self) { try gate.admit(client: "192.0.2.7", now: MonotonicTime(seconds: 100.6)) }
    }

    @Test("at most 256 clients' buckets; idle ones are forgotten to make room, busy ones are not")
    func boundedClients() throws {
        let t0 = MonotonicTime(seconds: 0)
        for i in 0..<CockpitCommandGate.maxClients { try gate.admit(client: "c\(i)", now: t0) }
        #expect(throws: CockpitCommandGate.Refusal.self) { try gate.admit(client: "new", now: MonotonicTime(seconds: 1)) }
        try gate.admit(client: "new", now: MonotonicTime(seconds: 11))
    }

    @Test("mode: the mode, angle and direction are read and checked; land_without_code never lets a mode change through")
    func modeChange() throws {
        let orbit = try gate.command(body: body(#"{"command":"MODE","mode":"Orbit","orbit_direction":"counterclockwise","code":"123456"}"#),
                                     contentType: json)
        #expect(orbit == .followMode(try FollowModeChange(mode: .orbit, orbitDirection: .counterclockwise)))
        for (text, words) in [(#"{"command":"mode","code":"123456"}"#, "unknown mode"),
                              (#"{"command":"mode","mode":"angle","angle_deg":-181,"code":"123456"}"#, "outside -180…180"),
                              (#"{"command":"mode","mode":"orbit","orbit_direction":"up","code":"123456"}"#, "unknown direction")] {
            let error = #expect(throws: CockpitCommandGate.Refusal.self) { try gate.command(body: body(text), contentType: json) }
            guard case .badRequest(let message)? = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(message.contains(words), "\(message)")
        }
        let open = CockpitCommandGate(code: PairingCode("123456"), landWithoutCode: true)
        #expect(throws: CockpitCommandGate.Refusal.unauthorized(command: "mode")) {
            try open.command(body: body(#"{"command":"mode","mode":"leash"}"#), contentType: json)
        }
    }
}
