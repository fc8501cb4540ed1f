@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
import Foundation
import Testing

/// What the flight loop puts in its status snapshot, read back through a real status socket.
@Suite("Flight loop status: the snapshot followme watch shows", .serialized)
struct FlightLoopStatusTests {
    @Test("state, reason, distance, both fixes, heading, navdata, link rates and transitions reach a watcher")
    func statusThroughTheSocket() throws {
        // Given a flight loop publishing to a real status socket, and a watcher on it
        let (dir, publisher) = try StatusPublisherTests.publisher(intervalSeconds: 0.02)
        defer { publisher.stop(); _ = dir }
        let watcher = try Watcher(path: publisher.path)
        var options = FlightServiceOptions()
        options.statusPublisher = publisher
        var rig = try FlightRig(options: options)
        rig.start()

        // When it follows the person (10 m north) and the link reports its rates twice, 1 s apart
        #expect(rig.run(within: 30) { $0.state == .following }, "states: \(rig.states)")
        rig.run(for: 1)
        var statistics = LinkStatistics()
        statistics.telemetryRateHz = 15
        statistics.counts[.commandsSent] = 1000
        rig.send(.link(.statistics(statistics)))
        rig.run(for: 1)
        statistics.counts[.commandsSent] = 1086
        rig.send(.link(.statistics(statistics)))
        // And then the person's receiver goes silent
        rig.sendsTarget = false
        #expect(rig.run(within: 10) { $0.state == .holding(.targetStale) }, "states: \(rig.states)")
        rig.run(for: 0.3)
        usleep(200_000)

        // Then the watcher's latest status says all of it
        let status = try #require(watcher.readAvailable().compactMap { FlightStatus.decode(jsonLine: $0) }.last)
        #expect(status.state == "holding(target-stale)")
        #expect(status.reason == "hold:target-stale")
        #expect(abs(status.t - rig.now.seconds) < 0.5)
        let person = try #require(status.person)
        #expect(abs(person.distanceMeters - 10) < 3, "\(person)")
        #expect(status.standoffMeters == FollowParameters().standoffMeters)
        #expect(status.target?.mode == 3 && status.target?.ephMeters == 2)
        #expect((status.target?.ageSeconds ?? 0) > 1, "the person's fixes stopped")
        #expect((status.onboard?.ageSeconds ?? 9) < 0.3)
        #expect(status.headingDegrees != nil && status.batteryPercent == 90 && status.droneState != nil)
        #expect(status.navdataHertz == 15)
        #expect(abs((status.commandsPerSecond ?? 0) - 86) < 3, "\(String(describing: status.commandsPerSecond))")
        #expect(status.transitions.map(\.to).suffix(4) == ["taking-off", "climbing", "following", "holding(target-stale)"])
        #expect(status.transitions.last?.reason == "hold:target-stale")
        #expect(status.stateSinceT == status.transitions.last?.t)
    }
}

/// The flight's last status reaches the views: the loop ends on the navdata that confirms the landing,
/// and no tick comes after it to publish the state the throttle held back.
@Suite("Flight loop status: the last state is published when the flight ends")
struct FlightLoopFinalStatusTests {
    @Test("shutdown while following: the board's last status is landed, not landing(shutdown)")
    func landedReachesTheBoard() throws {
        // Given a flight loop following, publishing to a board
        let board = FlightStatusBoard()
        var options = FlightServiceOptions()
        options.statusBoard = board
        var rig = try FlightRig(options: options)
        rig.start()
        #expect(rig.run(within: 30) { $0.state == .following }, "states: \(rig.states)")

        // When shutdown lands it, and the navdata that confirms the landing is followed by a fix of the
        // person before the next tick (the fix decides at once: that decision ends the flight)
        rig.send(.shutdown)
        #expect(rig.run(within: 10) { $0.flightState == .landed }, "the firmware landed; states: \(rig.states)")
        rig.sendTelemetry()
        rig.send(.gps(rig.fix(.target, at: rig.person)))

        // Then the outcome is landed and so is the last status every view reads
        #expect(rig.outcome == .landed)
        #expect(rig.state == .landed)
        let status = try #require(board.current.status)
        #expect(status.state == "landed", "the last status published: \(status.state)")
        #expect(status.transitions.last?.to == "landed")
    }
}
