@testable import FollowCore
@testable import FlightService
@testable import Simulation
import Logging
import Synchronization
import Testing
import TestSupport

/// A drone link that sends nothing: it keeps every command the flight loop hands it.
typealias RecordingLink = RecordingDroneLink<NoAnswer>

/// The bench flies the flight `followme run` flies: the inputs of a bench run (GPS, the link's
/// telemetry and events, ticks, on simulated time), handed to `FlightLoop` as `FlightService` builds
/// it, give the same decisions and the same commands to the link as they gave the bench.
@Suite("One flight loop: the bench's flight is followme run's")
struct OneFlightLoopTests {
    /// What a flight did with a run's inputs: its latest decision after each input, and every
    /// command it handed its link.
    struct Flown: Equatable {
        var decisions: [FlightDecision?] = []
        var sent: [RecordingLink.Sent] = []

        /// The first input after which the two flights differ (decision or command), nil if none.
        func firstDifference(from other: Flown) -> String? {
            if let i = zip(decisions, other.decisions).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                return "decision after input \(i)"
            }
            if let i = zip(sent, other.sent).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                return "command \(i)"
            }
            return decisions.count == other.decisions.count && sent.count == other.sent.count ? nil : "counts"
        }
    }

    static func trace(_ link: BenchLink) throws -> BenchFlightTrace {
        var configuration = BenchConfiguration()
        configuration.durationSeconds = 25
        configuration.settleSeconds = 5
        return try BenchRunner.flightTrace(.square(), noise: .realistic, configuration: configuration, link: link)
    }

    /// The bench's record of its own flight.
    static func bench(_ trace: BenchFlightTrace) -> Flown {
        var flown = Flown(), last: FlightDecision?
        for entry in trace.entries {
            last = entry.step.decision ?? last
            flown.decisions.append(last)
            if entry.step.sendsCommand, let command = entry.step.command {
                flown.sent.append(RecordingLink.Sent(command: command, immediately: entry.step.immediately))
            }
        }
        return flown
    }

    /// `followme run`'s flight: `FlightLoop` as `FlightService` builds it (the machine, a link, no flight
    /// log, the default options, a logger), started at the bench's t = 0 and handed `inputs` in order.
    static func run(machine: FlightStateMachine, inputs: [BenchFlightTrace.Entry]) -> Flown {
        let link = RecordingLink()
        var loop = FlightLoop(machine: machine, link: link, recorder: nil, options: FlightServiceOptions(),
                              logger: Logger(label: "test.one-flight-loop", factory: { _ in SwiftLogNoOpLogHandler() }))
        loop.start(now: .zero)
        var flown = Flown()
        for entry in inputs {
            _ = loop.handle(entry.input, now: entry.now)
            flown.decisions.append(loop.core.lastDecision)
        }
        flown.sent = link.sent
        return flown
    }

    @Test("the same inputs give the same decisions and link commands on the bench and in followme run's FlightLoop",
          arguments: BenchLink.allCases)
    func sameFlight(link: BenchLink) throws {
        // Given a 40 s bench run (take-off, climb, following a square walk, realistic GPS)
        let trace = try Self.trace(link)
        let bench = Self.bench(trace)
        #expect(bench.decisions.contains { $0?.state == .following }, "the bench's flight never followed")
        #expect(bench.sent.count > 1000 && bench.sent.contains { $0.immediately } && bench.sent.contains { !$0.immediately })

        // When followme run's FlightLoop gets the same inputs at the same times
        let run = Self.run(machine: trace.machine, inputs: trace.entries)

        // Then it decides the same at every input and hands its link the same commands
        #expect(run.firstDifference(from: bench) == nil)
        let same = run == bench   // (not inside #expect: it would print both flights whole)
        #expect(same)
    }

    @Test("the comparison sees one perturbed input: a person's fix 1.5 m farther east while following")
    func perturbedInputDiffers() throws {
        // Given the same bench run's inputs, one target fix moved 1.5 m east once the flight follows
        let trace = try Self.trace(.ardrone)
        let bench = Self.bench(trace)
        let following = try #require(trace.entries.firstIndex { $0.step.decision?.state == .following })
        let index = try #require(trace.entries.indices.first { i in
            guard i > following, case .gps(.fix(let fix)) = trace.entries[i].input else { return false }
            return fix.role == .target
        })
        guard case .gps(.fix(let fix)) = trace.entries[index].input else { return }
        let moved = try #require(GPSFix(
            role: fix.role, device: fix.device, mode: fix.mode, latitudeDegrees: fix.coordinate.latitudeDegrees,
            longitudeDegrees: fix.coordinate.longitudeDegrees + 2e-5, fixTime: fix.fixTime, receivedAt: fix.receivedAt,
            altitudeHAEMeters: fix.altitudeHAEMeters, trackDegrees: fix.trackDegrees, speedMetersPerSecond: fix.speedMetersPerSecond,
            climbMetersPerSecond: fix.climbMetersPerSecond, ephMeters: fix.ephMeters, epvMeters: fix.epvMeters,
            epsMetersPerSecond: fix.epsMetersPerSecond))
        var inputs = trace.entries
        inputs[index].input = .gps(.fix(moved))

        // When followme run's FlightLoop gets them
        let run = Self.run(machine: trace.machine, inputs: inputs)

        // Then the flights agree up to that input and differ from it on
        let same = run == bench
        #expect(!same)
        #expect(run.firstDifference(from: bench) == "decision after input \(index)")
        #expect(Array(run.decisions[..<index]) == Array(bench.decisions[..<index]))
        #expect(run.decisions[index] != bench.decisions[index])
    }
}
