import FollowCore
import Simulation
import Observations

extension DroneTelemetry {
    /// What the follow core gets from one simulated navdata packet: the same mapping the shell
    /// applies to real demo navdata (FollowMeService `Navdata+Telemetry.swift`; CTRL_STATES and
    /// units in docs/ardrone-protocol.md §3.4).
    init(simulated navdata: SimulatedNavdata, receivedAt: MonotonicTime) {
        let state: DroneFlightState
        switch navdata.controlStateMajor {
        case .landed: state = .landed
        case .flying, .transGotofix: state = .flying
        case .hovering: state = .hovering
        case .transTakeoff: state = .takingOff
        case .transLanding: state = .landing
        case .default, .initializing, .test, .transLooping: state = .unknown
        }
        let vx = Double(navdata.vxMillimetersPerSecond) / 1000
        let vy = Double(navdata.vyMillimetersPerSecond) / 1000
        let psi = Double(navdata.psiMillidegrees) / 1000
        self.init(
            flightState: state,
            emergency: navdata.state.contains(.emergency),
            batteryPercent: Double(navdata.batteryPercent),
            altitudeMeters: Double(navdata.altitudeMillimeters) / 1000,
            velocityBody: vx.isFinite && vy.isFinite
                ? BodyVelocity(forwardMetersPerSecond: vx, rightMetersPerSecond: vy) : nil,
            yawDegrees: psi.isFinite ? psi : nil,
            pitchDegrees: Double(navdata.thetaMillidegrees) / 1000, rollDegrees: Double(navdata.phiMillidegrees) / 1000,
            receivedAt: receivedAt
        )
    }
}
