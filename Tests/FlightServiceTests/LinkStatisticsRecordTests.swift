@testable import ARDrone
@testable import FollowCore
@testable import Links
@testable import FlightService
@testable import FlightRecords
import Testing

/// The flight log's statistics fields stay what they were before the seam: an AR.Drone flight's
/// counters, now through `LinkStatistics`, land in the same fields, so the JSON keys and values
/// (FlightRecordsTests' golden lines) do not change (docs/architecture.md §3.2, §3.3).
@Suite("DroneLinkStatistics → LinkStatistics → the flight log's LinkStatisticsRecord")
struct LinkStatisticsRecordTests {
    @Test("each AR.Drone counter lands in the field it always had")
    func fields() {
        // Given AR.Drone link statistics where every counter has its own value
        var drone = DroneLinkStatistics()
        for (index, counter) in DroneLinkStatistics.Counter.allCases.enumerated() { drone.counts[counter] = 100 + index }
        drone.navdataRateHz = 14.5
        drone.maxTickLatenessSeconds = 0.04

        // When the flight records them through the neutral counters
        let record = LinkStatisticsRecord(LinkStatistics(drone))

        // Then every field holds what the AR.Drone-only mapping wrote there
        let c = drone.counts
        var expected = LinkStatisticsRecord()
        (expected.datagramsSent, expected.commandsSent) = (c[.datagramsSent], c[.commandsSent])
        (expected.navdataRead, expected.navdataReceived) = (c[.navdataDatagramsRead], c[.navdataReceived])
        (expected.droppedUnexpectedSource, expected.droppedMalformed) = (c[.droppedUnexpectedSource], c[.droppedMalformed])
        (expected.droppedSequence, expected.sequenceRestarts) = (c[.droppedSequenceNotIncreasing], c[.sequenceRestarts])
        (expected.navdataLosses, expected.ticksLate, expected.sendFailures) = (c[.navdataLosses], c[.ticksLate], c[.sendFailures])
        (expected.eventsDropped, expected.socketsClosed) = (c[.eventsDropped], c[.socketsClosed])
        (expected.socketsReopened, expected.bootstrapRedos) = (c[.socketsReopened], c[.bootstrapRedos])
        (expected.navdataRateHz, expected.maxTickLatenessSeconds) = (14.5, 0.04)
        #expect(record == expected)
    }
}
