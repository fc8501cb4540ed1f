@testable import FollowCore
import Testing
@testable import FlightService

/// `[target]`/`[onboard] latency_s` and `latency_source`: how each receiver's fixes are aged.
@Suite("latency_s and latency_source: the age each receiver's fixes get")
struct FixAgeConfigTests {
    @Test("defaults: 0.3 s, auto, for both receivers; the gpsd subscriptions carry them")
    func defaults() throws {
        let c = try TestDocument.flyable().parse().get()
        #expect(c.follow.assumedGPSLatencySeconds == 0.3 && c.follow.assumedOnboardGPSLatencySeconds == 0.3)
        #expect(c.target.latencySource == .auto && c.onboard.latencySource == .auto)
        let (target, onboard) = c.receiverSubscriptions
        #expect(target.latencySource == .auto && target.latencySeconds == 0.3)
        #expect(onboard.latencySource == .auto && onboard.latencySeconds == 0.3)
    }

    @Test("written values reach the core's parameters and each receiver's subscription")
    func writtenValues() throws {
        // Given a file that measures the puck against any clock and never measures the onboard receiver
        let c = try TestDocument.flyable([("target", "latency_s", "0.15"), ("target", "latency_source", "\"clock\""),
                                          ("onboard", "latency_s", "0.05"), ("onboard", "latency_source", "\"config\"")])
            .parse().get()
        // Then the core ages unmeasured fixes by them, and the client measures as asked
        #expect(c.followParameters.assumedGPSLatencySeconds == 0.15)
        #expect(c.followParameters.assumedOnboardGPSLatencySeconds == 0.05)
        let flight = try FlightConfiguration(c)
        #expect(flight.subscriptions.map(\.latencySource) == [.clock, .config])
        #expect(flight.subscriptions.map(\.latencySeconds) == [0.15, 0.05])
        // And they render and read back
        #expect(try FollowMeConfiguration.parse(toml: c.renderedTOML(), path: "rendered") == c)
    }

    @Test("latency_s outside 0…1 s is refused with its key and range", arguments: [
        ("target.latency_s", "300"), ("target.latency_s", "1.01"), ("onboard.latency_s", "-0.1"), ("onboard.latency_s", "nan"),
    ])
    func outOfRange(key: String, value: String) throws {
        let (problem, line) = try TestDocument.soleProblem(writing: key, value)
        #expect(problem == .outOfRange(path: TestDocument.path, line: line, key: key, value: value, range: "0 to 1"))
    }

    @Test("an unknown latency_source names the key, its line and the allowed values",
          arguments: ["target.latency_source", "onboard.latency_source"])
    func unknownSource(key: String) throws {
        let (problem, line) = try TestDocument.soleProblem(writing: key, "\"ntp\"")
        let written = try #require(line)
        #expect(problem.description
            == "\(TestDocument.path):\(written): \(key): \"ntp\" is not one of the allowed values: \"auto\", \"clock\", \"config\"")
    }
}
