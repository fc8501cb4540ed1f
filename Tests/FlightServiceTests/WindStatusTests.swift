@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
import Foundation
import Testing

/// Where the flight loop puts the wind failsafe's view (`FlightStateMachine.wind`): on every
/// command line of the flight log while airborne, and in the status snapshot's `wind`.
@Suite("Flight loop: the wind in the flight log and the status", .serialized)
struct WindStatusTests {
    @Test("command lines carry wind_mps, wind_towards_deg and wind_authority only while airborne; the status its wind")
    func windWhileAirborne() throws {
        // Given a flight loop with a flight log (the rig's drone never moves: the follower's commands
        // go nowhere, which its wind observers read as a wind)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wind-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rig = try FlightRig(recorder: try FlightRecorder(path: path, now: MonotonicTime(seconds: 100)))
        rig.start()
        func status(_ rig: FlightRig) -> FlightStatus {
            rig.loop.statusTracker.status(machine: rig.loop.machine, decision: nil, dryRun: false, startedAt: .zero, now: rig.now)
        }
        // When it waits on the ground for its prerequisites, then the status has no wind
        var groundStatuses: [FlightStatus] = []
        #expect(rig.run(within: 10) { rig in
            groundStatuses.append(status(rig))
            return rig.state.kind != .preflight
        })
        #expect(groundStatuses.count > 3 && groundStatuses.dropLast().allSatisfy { $0.wind == nil })

        // When it takes off and follows for 5 s
        #expect(rig.run(within: 30) { $0.state == .following }, "states: \(rig.states)")
        rig.run(for: 5)
        // Then the status has the monitor's wind: its latest estimate, direction, share of the tilt, clock
        let monitor = rig.loop.machine.wind
        let wind = try #require(status(rig).wind)
        #expect(wind.windMetersPerSecond == monitor.lastWind.length && wind.windTowardsDegrees == monitor.lastWind.bearingDegrees)
        #expect(wind.windAuthority == monitor.authorityUsed && wind.saturatedSeconds == monitor.saturatedSeconds)
        #expect(wind.windMetersPerSecond > 0.05, "the unmoving drone reads as a wind: \(wind)")

        // When the flight lands and the log is closed
        rig.send(.shutdown)
        #expect(rig.run(within: 20) { $0.outcome != nil })
        #expect(status(rig).wind == nil, "\(rig.state) \(String(describing: rig.loop.machine.telemetry?.flightState)) \(rig.states)")
        #expect(rig.loop.recorder?.close(timeoutSeconds: 5) == true)

        // Then the command lines while following (and landing) have the three fields, consistent with
        // one tilt authority; none on the ground before take-off or after the landing
        let commands = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONDecoder().decode(FlightCommandRecord.self, from: Data($0.utf8)) }
            .filter { $0.kind == FlightCommandRecord.kind }
        let windy = commands.filter { $0.windMetersPerSecond != nil }
        #expect(commands.first?.windMetersPerSecond == nil && commands.last?.windMetersPerSecond == nil)
        #expect(!commands.contains { $0.state?.hasPrefix("preflight") == true && $0.windMetersPerSecond != nil })
        // (the rig's climb commands no tilt to a drone that does not move: the estimate stays exactly 0,
        // no estimate yet, until the follower first flies it)
        #expect(commands.filter { $0.state == "following" }.dropFirst().allSatisfy { $0.windMetersPerSecond != nil },
                "\(commands.map { "\($0.state ?? "") \($0.windMetersPerSecond ?? -1)" })")
        #expect(windy.count > 50, "\(windy.count) of \(commands.count) command lines")
        for r in windy {
            let (speed, towards, share) = (r.windMetersPerSecond ?? -1, r.windTowardsDegrees ?? -1, r.windAuthority ?? -1)
            #expect(speed >= 0 && (0..<360).contains(towards) && share >= 0, "\(r)")
            #expect(abs(share * monitor.authorityMetersPerSecond - speed) < 1e-9, "\(r)")
        }
    }
}
