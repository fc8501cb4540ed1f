import FollowCore
@testable import MAVLink
import Testing

/// The record of a flight's frame: which vehicle and boot it belongs to.
@Suite struct FlightFrameRecordTests {
    func position(bootMilliseconds: UInt32) -> GlobalPositionInt {
        var p = GlobalPositionInt()
        p.timeBootMilliseconds = bootMilliseconds
        return p
    }

    @Test("it describes the same vehicle's same boot, going on from it by less than a flight lasts; nothing else")
    func describes() {
        let record = FlightFrameRecord(systemID: 1, bootMilliseconds: 600_000, homeMSLMeters: 412.5)
        #expect(record.describes(systemID: 1, position(bootMilliseconds: 600_500)))
        #expect(!record.describes(systemID: 2, position(bootMilliseconds: 600_500)), "another vehicle")
        #expect(!record.describes(systemID: 1, position(bootMilliseconds: 20_000)), "rebooted")
        #expect(!record.describes(systemID: 1, position(bootMilliseconds: 600_000 + FlightFrameRecord.maxFlightMilliseconds + 1)),
                "another boot that has run long")
    }

    @Test("kept while flying, it describes the flight only within 30 s of when it was last kept (a restart), not a later flight of the same boot")
    func describesOnlyARestart() {
        let record = FlightFrameRecord(systemID: 1, bootMilliseconds: 600_000, homeMSLMeters: 412.5, seenBootMilliseconds: 900_700)
        #expect(record.seenBootMilliseconds == 900_000)
        #expect(record.describes(systemID: 1, position(bootMilliseconds: 902_500)))
        #expect(!record.describes(systemID: 1, position(bootMilliseconds: 900_000 + FlightFrameRecord.maxRestartMilliseconds + 1)),
                "a later flight of the same boot")
        #expect(!record.describes(systemID: 1, position(bootMilliseconds: 899_000)), "the clock went back")
    }
}
