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
}
