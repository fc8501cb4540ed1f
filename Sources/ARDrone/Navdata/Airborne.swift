/// "Airborne" on the navdata side: one rule for the drone link, the simulator server's checks and
/// the telemetry mapping (`DroneTelemetry(navdata:receivedAt:)` in DroneLink reduces the control
/// state to `DroneFlightState`, whose `isAirborne` follows `ControlState.isAirborne`; a test holds
/// the two together).
extension ControlState {
    /// Whether this major control state is in the air under the firmware's flight control:
    /// FLYING, HOVERING, TRANS_TAKEOFF and TRANS_GOTOFIX (docs/ardrone-protocol.md §3.4). A landing
    /// (TRANS_LANDING) is not: the drone is on its way down and follows no command but REF.
    public var isAirborne: Bool {
        switch self {
        case .flying, .hovering, .transitionTakeoff, .transitionGotoFix: true
        case .defaultState, .initializing, .landed, .test, .transitionLanding, .transitionLooping: false
        }
    }
}

extension NavdataSummary {
    /// Whether the drone may be in the air according to this packet: state bit 0 FLY (set from
    /// take-off to touchdown, so a landing counts; docs/ardrone-protocol.md §3.2), or an airborne
    /// control state in the demo option (`ControlState.isAirborne`). The link's adopt-on-connect
    /// rule uses it: a client that (re)connects to a drone with its motors running must keep REF
    /// bit 9 set, never send a bare land (docs/ardrone-protocol.md §7.3).
    public var isAirborne: Bool {
        state.contains(.flying) || demo?.controlState?.isAirborne == true
    }
}
