@testable import FollowCore
@testable import MAVLink
import Testing


/// Defect 5 (issue 22): the link says whether it controls the vehicle; refusals are bounded.
@Suite("MAVLinkSession: in control or not, and refusals that escalate")
struct MAVLinkSessionControlTests {
    /// A PX4 vehicle taken off by us, now AUTO.LOITER and IN_AIR: the session asks OFFBOARD.
    static func px4AfterTakeoff() -> SessionHarness {
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.connectAndConfigure(.px4)
        h.fly(true)
        h.run(1.1)
        h.ack()                          // ARM
        h.vehicleSays(armed: true)
        h.run(SessionHarness.tick)
        h.ack()                          // NAV_TAKEOFF to 483 m AMSL
        h.vehicle?.position = SessionHarness.position(relativeAltitudeMeters: 3, mslMeters: 483)
        h.vehicleSays(mode: PX4Mode.autoLoiter.customMode, landed: .inAir)
        h.run(SessionHarness.tick)
        return h
    }

    var controlEvents: [Bool] = []

    @Test("PX4 refuses OFFBOARD three times: not asked again, .control(inControl: false) at once (the old link retried every 2 s forever)")
    func offboardRefused() {
        var h = Self.px4AfterTakeoff()
        #expect(h.commandIDs.last == 176, "\(h.commandIDs)")
        for _ in 0..<3 {
            h.ack(.denied)
            h.run(2.5)
        }
        let afterThree = h.commands.count
        h.run(10)
        #expect(h.commands.count == afterThree, "asked again: \(h.commandIDs)")
        let control = h.events.compactMap { if case .control(let inControl, _, _) = $0 { inControl } else { nil } }
        #expect(control == [false], "\(control)")
    }

    @Test("airborne after our take-off but out of our mode for 5 s: .control(false); into OFFBOARD: .control(true)")
    func outOfModeThenBack() {
        var h = Self.px4AfterTakeoff()
        // The OFFBOARD request goes unanswered (and is re-sent); the vehicle stays in AUTO.LOITER
        h.run(4)
        #expect(!h.events.contains { if case .control = $0 { true } else { false } }, "too early")
        h.run(1.5)
        #expect(h.events.contains { if case .control(false, _, _) = $0 { true } else { false } })
        // When it finally switches to OFFBOARD
        h.vehicleSays(mode: PX4Mode.offboard.customMode)
        h.run(SessionHarness.tick)
        #expect(h.events.contains { if case .control(true, _, _) = $0 { true } else { false } })
    }

    @Test("ArduPilot refuses LAND twice: the link falls back to MAV_CMD_NAV_LAND (21), lat/lon/alt NaN")
    func landEscalates() {
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        h.clear()
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(SessionHarness.tick)
        #expect(h.commandIDs.last == 176)
        h.ack(.denied)
        h.run(2.5)
        #expect(h.commandIDs.last == 176)
        h.ack(.failed)
        h.run(2.5)
        #expect(h.commandIDs.last == 21, "\(h.commandIDs)")
        let navLand = h.commands.last!
        #expect(navLand.params[4].isNaN && navLand.params[5].isNaN && navLand.params[6].isNaN)
    }

    @Test("ArduPilot in GUIDED the whole flight: never reported out of control")
    func ardupilotInControl() {
        var h = SessionHarness()
        h.flyingInControl(motion: .stop)
        h.run(10)
        #expect(!h.events.contains { if case .control = $0 { true } else { false } })
    }
}
