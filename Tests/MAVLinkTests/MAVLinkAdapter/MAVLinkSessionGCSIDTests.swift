@testable import FollowCore
@testable import MAVLink
import Testing


/// The GCS id has two names in two ArduPilot generations, and a range only in some (docs/mavlink.md §7.8):
/// an ArduPilot answers a name it lacks with nothing, so waiting for five unanswered reads of each
/// delayed every take-off by seconds.
@Suite("GCS id parameters: one name answered settles the other")
struct MAVLinkSessionGCSIDTests {
    static func count(_ name: String, in h: SessionHarness) -> Int { h.parameterReads.filter { $0 == name }.count }

    @Test("an ArduPilot with MAV_GCS_SYSID but neither SYSID_MYGCS nor MAV_GCS_SYSID_HI (ArduCopter SITL): complete when the 2 s vehicle-discovery window closes, each absent name read once")
    func currentNamesWithoutRange() {
        // Given the message rates answered and the first reads out
        var h = SessionHarness.onGroundRatesAnswered()
        // When the vehicle answers the names it has
        h.answerParameters(["FS_GCS_ENABLE": 5, "MAV_GCS_SYSID": 245])
        h.run(2.5)
        // Then the configuration is complete (the old session waited for five unanswered reads of MAV_GCS_SYSID_HI: 5 s)
        #expect(h.lastComplete == [], "\(String(describing: h.lastComplete))")
        #expect(Self.count("SYSID_MYGCS", in: h) == 1)
        #expect(Self.count("MAV_GCS_SYSID_HI", in: h) == 1)
    }

    @Test("an older ArduPilot answering SYSID_MYGCS: MAV_GCS_SYSID and its range are not asked again")
    func oldName() {
        var h = SessionHarness.onGroundRatesAnswered()
        h.answerParameters(["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245])
        h.run(6)
        #expect(h.lastComplete == [])
        #expect(Self.count("MAV_GCS_SYSID", in: h) == 1)
        #expect(Self.count("MAV_GCS_SYSID_HI", in: h) == 1)
    }

    @Test("MAV_GCS_SYSID_HI that does answer (late, within its one read's time) still refuses a range")
    func rangeStillRefused() {
        var h = SessionHarness.onGroundRatesAnswered()
        h.answerParameters(["FS_GCS_ENABLE": 5, "MAV_GCS_SYSID": 245])
        h.run(0.5)
        h.answerParameters(["MAV_GCS_SYSID_HI": 255])
        #expect(h.failedKeys == ["MAV_GCS_SYSID_HI"])
    }
}
