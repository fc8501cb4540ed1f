import ARDrone
import FollowCore

/// What the simulated drone reports, in ARDroneProtocol's navdata types: the header state word and
/// the demo option (docs/ardrone-protocol.md §3.2, §3.4), in the drone's own units and frames.
extension DroneSimulator {
    /// The header state bits the simulator models: 0 FLY (from takeoff to touchdown), 6 COMMAND
    /// (config written, not yet acknowledged), 10 NAVDATA_DEMO (`general:navdata_demo` TRUE),
    /// 15 VBAT_LOW (below `DroneDynamics.lowBatteryPercent`), 20 WIND (`isWindTooStrong`),
    /// 30 COM_WATCHDOG (no AT command for `general:com_watchdog` seconds, or none yet) and
    /// 31 EMERGENCY (motors cut). The bits the firmware always reports (threads on, PIC version)
    /// are the protocol layer's to add.
    public var droneState: DroneState {
        var state: DroneState = []
        switch flightPhase {
        case .takingOff, .flying, .landing: state.insert(.flying)
        case .landed, .emergency: break
        }
        if configAckPending { state.insert(.commandAcknowledged) }
        if configuration.navdataDemo { state.insert(.navdataDemo) }
        if batteryPercent < dynamics.lowBatteryPercent { state.insert(.batteryLow) }
        if isWindTooStrong { state.insert(.tooMuchWind) }
        if isComWatchdogTripped { state.insert(.communicationWatchdog) }
        if flightPhase == .emergency { state.insert(.emergency) }
        return state
    }

    /// The ground speed full tilt holds against still air, c2·sin(euler_angle_max) of the limit
    /// set in force, m/s (6.0 at the outdoor default 20°, 3.6 at the indoor 12°): a steady wind at
    /// least this strong blows the drone away at full tilt.
    public var windAuthorityMetersPerSecond: Double {
        dynamics.speedPerSinTiltMetersPerSecond * _sin(configuration.active.eulerAngleMaxRadians)
    }

    /// State bit 20 (`ARDRONE_WIND_MASK`, docs/ardrone-protocol.md §3.2): raised while the drone is
    /// airborne (taking off, flying or landing, above the ground; motors on) and the wind in force
    /// (`windENU`, gusts included) is at least `windAuthorityMetersPerSecond`. The firmware's real
    /// threshold is not documented (the SDK only names the bit); the authority is our choice because
    /// it is the physical limit of this model — beyond it no tilt the drone is allowed holds it in
    /// place — and the same quantity FollowCore's wind monitor measures, so a test can tell which
    /// of the two noticed the wind first. On the ground the bit is clear: wind does not move a
    /// landed drone here, and a raised bit would keep the follower from taking off.
    public var isWindTooStrong: Bool {
        switch flightPhase {
        case .takingOff, .flying, .landing:
            dynamics.reportsWindWarning && altitudeMeters > 0 && windENU.length >= windAuthorityMetersPerSecond
        case .landed, .emergency:
            false
        }
    }

    /// The major and minor control state (`ctrl_state`). The SDK has no emergency control state; we
    /// report DEFAULT during an emergency (our choice, so that it can never be mistaken for
    /// LANDED/FLYING): clients must key off state bit 31. Airborne, FLYING while a progressive PCMD
    /// is in force, else HOVERING (minor LOST_COM once the com watchdog tripped).
    public var controlState: (major: ControlState, minor: UInt16) {
        switch flightPhase {
        case .landed: (.landed, ControlMinorState.ok)
        case .takingOff: (.transitionTakeoff, ControlMinorState.ok)
        case .landing: (.transitionLanding, ControlMinorState.ok)
        case .emergency: (.defaultState, ControlMinorState.ok)
        case .flying:
            if isComWatchdogTripped {
                (.hovering, ControlMinorState.hoveringLostCom)
            } else {
                (activeCommand.isHover ? .hovering : .flying, ControlMinorState.ok)
            }
        }
    }

    /// The demo option the drone would send now: battery (whole percent), attitude and yaw in
    /// millidegrees (theta positive = nose up, phi positive = right side down, psi clockwise from
    /// true north in [−180000, 180000): an ideal magnetometer-fused heading), altitude in mm, and
    /// ground velocity in the body frame in mm/s (x forward, y right, z down).
    public var demoOption: NavdataDemo {
        let control = controlState
        let body = tiltWorldRadians.bodyFrame(headingDegrees: noseHeadingDegrees)
        let velocityBody = velocityENU.bodyFrame(headingDegrees: noseHeadingDegrees)
        return NavdataDemo(
            controlState: control.major,
            minorState: control.minor,
            batteryPercent: UInt32(batteryPercent.rounded(.down)),
            thetaMillidegrees: Float(-degrees(fromRadians: body.forward) * 1000),
            phiMillidegrees: Float(degrees(fromRadians: body.right) * 1000),
            psiMillidegrees: Float(wrappedDegrees180(noseHeadingDegrees) * 1000),
            altitudeMillimeters: Int32((altitudeMeters * 1000).rounded()),
            bodyVelocityMillimetersPerSecond: NavdataVector3(
                x: Float(velocityBody.forward * 1000),
                y: Float(velocityBody.right * 1000),
                z: Float(-climbRateMetersPerSecond * 1000))
        )
    }

    /// The header state and demo option together, as a client's decoder reads a demo packet
    /// (`NavdataSummary`). Sequence number 0: numbering packets is the protocol layer's job.
    public var navdata: NavdataSummary {
        NavdataSummary(Navdata { ($0.state, $0.options) = (droneState, [.demo(demoOption)]) })
    }
}
