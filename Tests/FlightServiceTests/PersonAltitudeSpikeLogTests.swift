@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
import Foundation
import Testing

/// The flight log's statistics line carries the person's altitude fixes the rate gate ignored
/// (`target_altitude_spikes_rejected`, FlightLoop+Link.swift) — counted from fixes that went through
/// `FlightLoop.handle(.gps)`, not set on the filter by hand.
@Suite("Flight loop: the person's altitude spikes in the flight log's statistics", .serialized)
struct PersonAltitudeSpikeLogTests {
    /// Runs the rig for 3 s at 400 m, then `spikes` fixes 40 m low and 2 s at 400 m again, then has the
    /// link report its statistics; returns the statistics line's JSON object and the filter's count.
    static func statisticsLine(_ mode: AltitudeMode, spikes: Int) throws -> (line: [String: Any], counted: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("altspikes-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var follow = FollowParameters()
        follow.altitudeMode = mode
        var rig = try FlightRig(follow: follow, recorder: try FlightRecorder(path: path, now: MonotonicTime(seconds: 100)))
        rig.start()
        rig.personAltitudeMeters = 400
        rig.run(for: 3)
        rig.personAltitudeMeters = 360
        rig.run(for: Double(spikes) / 5)   // 5 Hz fixes
        rig.personAltitudeMeters = 400
        rig.run(for: 2)
        rig.send(.link(.statistics(LinkStatistics())))
        #expect(rig.loop.recorder?.close(timeoutSeconds: 5) == true)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let statistics = try #require(lines.last { $0["kind"] as? String == "link" && $0["event"] as? String == "statistics" })
        return (statistics, rig.loop.machine.personAltitude.spikesRejected)
    }

    @Test("altitude_mode person: a spike through the loop is counted in target_altitude_spikes_rejected", arguments: [1, 2])
    func spikeInTheLog(spikes: Int) throws {
        let (line, counted) = try Self.statisticsLine(.person, spikes: spikes)
        #expect(counted == spikes)
        #expect(line["target_altitude_spikes_rejected"] as? Int == spikes, "\(line)")
    }

    @Test("altitude_mode takeoff: the statistics line has no such field (as before)")
    func noFieldInTakeoffMode() throws {
        let (line, counted) = try Self.statisticsLine(.takeoff, spikes: 1)
        #expect(counted == 1 && line["target_altitude_spikes_rejected"] == nil, "\(line)")
    }
}
