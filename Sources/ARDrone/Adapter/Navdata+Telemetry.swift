import FollowCore

extension DroneTelemetry {
    /// What the follow core needs from one navdata packet; nil for packets without the demo
    /// option (bootstrap), which carry no flight state. The one navdata → telemetry mapping: the
    /// flight on a real drone, `followme drone` and `followme bench` (the simulated drone's
    /// `DroneSimulator.navdata`) all use it. Control states (docs/ardrone-protocol.md §3.4) reduce so
    /// that `DroneFlightState.isAirborne` equals `ControlState.isAirborne` (FollowBenchTests'
    /// LinkMappingTests checks every state). State bit 20 (`DroneState.tooMuchWind`, §3.2) is the
    /// firmware's own "too much wind" warning: `windWarning`.
    public init?(navdata: NavdataSummary, receivedAt: MonotonicTime) {
        guard let demo = navdata.demo else { return nil }
        let state: DroneFlightState
        switch demo.controlState {
        case .landed?: state = .landed
        case .flying?, .transitionGotoFix?: state = .flying
        case .hovering?: state = .hovering
        case .transitionTakeoff?: state = .takingOff
        case .transitionLanding?: state = .landing
        default: state = .unknown
        }
        let v = demo.bodyVelocityMetersPerSecond
        let vx = v.x, vy = v.y
        let psi = demo.psiDegrees
        self.init(
            flightState: state,
            emergency: navdata.state.contains(.emergency),
            batteryPercent: Double(demo.batteryPercent),
            altitudeMeters: demo.altitudeMeters,
            velocityBody: vx.isFinite && vy.isFinite
                ? BodyVelocity(forwardMetersPerSecond: vx, rightMetersPerSecond: vy) : nil,
            yawDegrees: psi.isFinite ? psi : nil,
            pitchDegrees: Double(demo.thetaMillidegrees) / 1000, rollDegrees: Double(demo.phiMillidegrees) / 1000,
            windWarning: navdata.state.contains(.tooMuchWind),
            receivedAt: receivedAt
        )
    }
}
