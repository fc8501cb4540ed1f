@testable import ARDrone
import Testing

/// The navdata side's one "airborne" rule (docs/ardrone-protocol.md §3.2, §3.4).
@Suite("Airborne per navdata")
struct AirborneTests {
    @Test("control states in the air: FLYING, HOVERING, TRANS_TAKEOFF, TRANS_GOTOFIX", arguments: ControlState.allCases)
    func controlState(state: ControlState) {
        let expected: Set<ControlState> = [.flying, .hovering, .transitionTakeoff, .transitionGotoFix]
        #expect(state.isAirborne == expected.contains(state))
    }

    @Test("a packet is airborne on the FLY bit or an airborne control state", arguments: [
        // (FLY bit, control state or nil for a bootstrap packet, airborne)
        (false, nil, false), (true, nil, true),
        (false, ControlState.landed, false), (true, .landed, true),
        (true, .transitionLanding, true),  // landing: motors still running, FLY still set
        (false, .transitionLanding, false),
        (false, .hovering, true), (false, .transitionTakeoff, true), (false, .transitionGotoFix, true),
        (false, .defaultState, false), (true, .defaultState, true),
    ] as [(Bool, ControlState?, Bool)])
    func packet(flyBit: Bool, control: ControlState?, airborne: Bool) {
        let demo = control.map { NavdataDemo(controlState: $0, batteryPercent: 50) }
        let summary = NavdataSummary(state: flyBit ? [.flying] : [], sequenceNumber: 1, demo: demo,
                                     optionCount: demo == nil ? 0 : 1)
        #expect(summary.isAirborne == airborne)
    }
}
