import Testing
@testable import FlightService

/// `[log] directory, max_flights, max_total_mb` and `[status] socket` (issue 14): defaults, "" =
/// none, and FILE:LINE: KEY problems (ranges and types: ValueValidationTests' tables).
@Suite("Config: [log] directory and retention, [status] socket")
struct LogStatusKeysTests {
    @Test("defaults: one file per flight in out/flights, 50 flights, 200 MB, no status socket")
    func defaults() {
        let log = FollowMeConfiguration.defaults.log
        #expect(log.path == nil && log.directory == "out/flights")
        #expect(log.maxFlights == 50 && log.maxTotalMegabytes == 200)
        #expect(FollowMeConfiguration.defaults.status.socketPath == "")
    }

    @Test("written values are read; \"\" turns the directory off; 0 means no limit")
    func values() throws {
        let c = try TestDocument.flyable([
            ("log", "directory", "\"\""), ("log", "max_flights", "0"), ("log", "max_total_mb", "1000000"),
            ("status", "socket", "\"/run/followme/status.sock\""),
        ]).parse().get()
        #expect(c.log.directory == nil && c.log.maxFlights == 0 && c.log.maxTotalMegabytes == 1_000_000)
        #expect(c.status.socketPath == "/run/followme/status.sock")
    }

    @Test("a path with a control character is FILE:LINE: KEY: why", arguments: ["log.directory", "status.socket"])
    func controlCharacters(_ key: String) throws {
        let (problem, line) = try TestDocument.soleProblem(writing: key, "\"out/\\u0007flights\"")
        #expect(problem.key == key && problem.line == line && line != nil)
        #expect(problem.description.hasPrefix("\(TestDocument.path):\(line!): \(key): "), "\(problem.description)")
        #expect(problem.description.contains("control characters"))
    }

    @Test("config check prints the new keys with their units and ranges")
    func rendered() throws {
        let text = try TestDocument.flyable().parse().get().renderedTOML()
        #expect(text.contains("\ndirectory = \"out/flights\"  # \"\" = none; one file per flight\n"))
        #expect(text.contains("\nmax_flights = 50  # flights, 0 to 100000, 0 = no limit\n"))
        #expect(text.contains("\nmax_total_mb = 200  # MB, 0 to 1000000, 0 = no limit\n"))
        #expect(text.contains("\n[status]\nsocket = \"\"  # \"\" = none\n"))
    }
}
