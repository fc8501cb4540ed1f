import FollowCore
import MAVLink

/// Time: the fixed physics step (docs/mavlink.md §8.1; the plant equations are on `MAVLinkCopter`)
/// and the telemetry streams that fall due.
extension MAVLinkCopter {
    /// Moves the simulation to the last step boundary ≤ `now` (no-op if earlier) and returns the
    /// telemetry that fell due on the way and any STATUSTEXT the copter sent on its own (guided
    /// timeout, landing, auto-disarm), in time order.
    public mutating func advance(to now: MonotonicTime) -> [any MAVLinkMessage] {
        var out: [any MAVLinkMessage] = []
        while now.nanoseconds - time.nanoseconds >= physicsStep.nanoseconds {
            out += step()
            out += dueTelemetry()
        }
        return out
    }

    private mutating func step() -> [any MAVLinkMessage] {
        var out: [any MAVLinkMessage] = []
        let dt = physicsStep.seconds
        if isArmed {
            batteryPercent = max(0, batteryPercent - dynamics.flyingDrainPercentPerSecond * dt)
        } else {
            batteryPercent = max(0, batteryPercent - dynamics.landedDrainPercentPerSecond * dt)
        }
        if let current = setpoint, time.seconds(since: current.receivedAt) > parameters.guidedTimeoutSeconds {
            // ArduPilot GUIDED: a velocity target older than the timeout is replaced by zero (stop and hold).
            setpoint = nil
            counters[.guidedTimeouts] += 1
            out.append(Self.text(.warning, "Guided set-point timeout: stopping"))
        }
        out += checkGCSFailsafe()
        out += checkOffboardLoss()
        if isAirborne, liftOffAt == nil { liftOffAt = time }

        switch phase {
        case .onGround:
            out += stepOnGround()
        case .takingOff(let target):
            // Climb at up to the take-off speed, slowing on the last metres (altitude gain 1.2 s⁻¹,
            // at least 0.2 m/s so it arrives; our choice).
            fly(velocityENU: .zero, climb: max(1.2 * (target - altitudeMeters), 0.2), yawRate: 0)
            // PX4's navigator ends the take-off within its altitude acceptance radius (`NAV_MC_ALT_RAD`, 0.8 m).
            if altitudeMeters >= target - (isPX4 ? 0.8 : 0.05) {
                phase = .flying
                if isPX4 { out += px4TakeoffComplete() }
            }
        case .flying:
            switch mode {
            case .guided:
                let s = setpoint
                fly(velocityENU: s?.velocityENU ?? .zero, climb: s?.climbMetersPerSecond ?? 0,
                    yawRate: yawsToRegionOfInterest ? regionOfInterestYawRate() : yawRateReference(s))
            case .land:
                fly(velocityENU: .zero, climb: landClimbReference(), yawRate: 0)
            case .rtl:
                let reference = rtlReference()
                fly(velocityENU: reference.velocityENU, climb: reference.climb, yawRate: 0)
            case .loiter, .brake, .stabilize, .auto:
                fly(velocityENU: .zero, climb: 0, yawRate: 0)
            }
            if altitudeMeters <= 0 { out += touchDown() }
        }
        time = MonotonicTime(nanoseconds: time.nanoseconds + physicsStep.nanoseconds)
        return out
    }

    /// On the ground: a GUIDED climb set-point lifts an armed copter (ArduPilot leaves ground
    /// handling when the target climbs); otherwise it idles, and disarms after `autoDisarmSeconds`.
    private mutating func stepOnGround() -> [any MAVLinkMessage] {
        guard isArmed else { return [] }
        if let at = landedDisarmAt, time >= at {
            landedDisarmAt = nil
            return disarm(reason: "landed")
        }
        // PX4: armed in AUTO.TAKEOFF after a NAV_TAKEOFF that came while disarmed.
        if isPX4, mode == .auto, let target = pendingTakeoffMeters {
            (phase, pendingTakeoffMeters, idleOnGroundSeconds) = (.takingOff(targetAltitudeMeters: target), nil, 0)
            return []
        }
        if mode == .guided, let s = setpoint, s.climbMetersPerSecond > 0 {
            phase = .flying
            idleOnGroundSeconds = 0
            return []
        }
        idleOnGroundSeconds += physicsStep.seconds
        guard idleOnGroundSeconds >= parameters.autoDisarmSeconds else { return [] }
        return disarm(reason: "auto-disarm")
    }

    private mutating func touchDown() -> [any MAVLinkMessage] {
        truth.settleOnGround()
        horizontalController = nil
        phase = .onGround
        idleOnGroundSeconds = 0
        setpoint = nil
        // ArduPilot LAND and RTL's final descent disarm once the land detector says landed and the motors
        // are at ground idle (`mode_land.cpp`, `mode_rtl.cpp` `land_run(true)`): `landedDisarmSeconds` after
        // touch-down; other modes wait for DISARM_DELAY.
        rtlStage = nil
        if mode == .land || mode == .rtl { landedDisarmAt = time.adding(seconds: parameters.landedDisarmSeconds) }
        return [Self.text(.info, "Landed")]
    }

    /// The yaw rate the autopilot asks for, degrees per second clockwise: the set-point's rate, or a
    /// turn toward its heading (proportional, 2 s⁻¹, our choice), limited to `maxYawRateDegreesPerSecond`.
    private func yawRateReference(_ s: VelocitySetpoint?) -> Double {
        let limit = parameters.maxYawRateDegreesPerSecond
        if let rate = s?.yawRateDegreesPerSecond { return min(max(rate, -limit), limit) }
        if let yaw = s?.yawDegrees { return min(max(2 * wrappedDegrees180(yaw - noseHeadingDegrees), -limit), limit) }
        return 0
    }

    /// The yaw rate turning the nose to `regionOfInterest` (autoyaw.cpp `roi_yaw`: the bearing from the vehicle),
    /// degrees per second clockwise, with `yawRateReference`'s gain and limit.
    private func regionOfInterestYawRate() -> Double {
        guard let roi = regionOfInterest,
              let point = GeoCoordinate(latitudeDegrees: roi.latitudeDegrees, longitudeDegrees: roi.longitudeDegrees)
        else { return 0 }
        let limit = parameters.maxYawRateDegreesPerSecond
        let bearing = (plane.project(point) - positionPlane).bearingDegrees
        return min(max(2 * wrappedDegrees180(bearing - noseHeadingDegrees), -limit), limit)
    }

    /// One step of the airframe under the autopilot's loops (equations on `MAVLinkCopter`): `target`
    /// is the horizontal velocity set-point, m/s east/north.
    private mutating func fly(velocityENU target: PlaneVector, climb: Double, yawRate: Double) {
        let c2 = dynamics.speedPerSinTiltMetersPerSecond
        // ArduCopter's position/velocity controller chooses the lean (started afresh in a new mode).
        if horizontalController == nil || horizontalControllerMode != mode {
            horizontalController = GuidedVelocityController(
                parameters: parameters, positionPlane: positionPlane, velocityENU: velocityENU,
                tiltWorldRadians: tiltWorldRadians)
            horizontalControllerMode = mode
        }
        let position = positionPlane, velocity = velocityENU, dt = physicsStep.seconds
        let tiltReference = horizontalController?.update(
            velocitySetpointENU: target, positionPlane: position, velocityENU: velocity, dtSeconds: dt) ?? .zero
        truth.tiltWorldRadians += (tiltReference - tiltWorldRadians) * attitudeTrackingAlpha
        let tiltAngle = tiltWorldRadians.length
        let steady = tiltAngle > 0 ? tiltWorldRadians * (c2 * _sin(tiltAngle) / tiltAngle) : PlaneVector.zero
        truth.velocityENU += (steady + windENU - velocityENU) * physicsStep.velocityAlpha
        truth.positionPlane += velocityENU * physicsStep.seconds

        let climbReference = min(max(climb, -parameters.maxDescentMetersPerSecond), parameters.maxClimbMetersPerSecond)
        truth.climbRateMetersPerSecond += (climbReference - truth.climbRateMetersPerSecond) * verticalAlpha
        truth.altitudeMeters += climbRateMetersPerSecond * physicsStep.seconds

        truth.yawRateDegreesPerSecond += (yawRate - truth.yawRateDegreesPerSecond) * physicsStep.yawAlpha
        var heading = noseHeadingDegrees + yawRateDegreesPerSecond * physicsStep.seconds
        if heading >= 360 || heading < 0 { heading = normalizedDegrees360(heading) }
        truth.noseHeadingDegrees = heading
    }

    /// The streams due at `time`, in message-id order; each moves to its next slot (slots missed
    /// are skipped, not sent in a burst).
    private mutating func dueTelemetry() -> [any MAVLinkMessage] {
        var out: [any MAVLinkMessage] = []
        for index in streams.indices {
            guard let interval = streams[index].intervalSeconds, time >= streams[index].nextAt else { continue }
            out.append(telemetry(streams[index].messageID))
            repeat { streams[index].nextAt = streams[index].nextAt.adding(seconds: interval) } while streams[index].nextAt <= time
        }
        return out
    }

    /// The message `id` now (one of `MAVLinkCopterParameters.defaultIntervalsSeconds`' ids).
    private func telemetry(_ id: UInt32) -> any MAVLinkMessage {
        switch id {
        case GlobalPositionInt.messageID: globalPosition
        case Attitude.messageID: attitude
        case SysStatus.messageID: sysStatus
        case ExtendedSysState.messageID: ExtendedSysState { $0.landedState = .init(landedState) }
        default: heartbeat
        }
    }

    /// Milliseconds since boot, wrapping as the 32-bit field does.
    var timeBootMilliseconds: UInt32 {
        UInt32(truncatingIfNeeded: (time.nanoseconds - bootTime.nanoseconds) / 1_000_000)
    }

    /// HEARTBEAT as ArduPilot Copter sends it: QUADROTOR, ARDUPILOTMEGA, custom mode = the mode
    /// number; base mode custom + stabilize + manual input, guided for the position modes, armed;
    /// status STANDBY on the ground, ACTIVE in the air. PX4: autopilot PX4, custom mode its main and sub mode.
    public var heartbeat: Heartbeat {
        var base: MAVLinkBitmask<MAVModeFlag> = [.customModeEnabled, .stabilizeEnabled, .manualInputEnabled]
        if [.guided, .loiter, .brake, .auto, .rtl].contains(mode) { base.insert(.guidedEnabled) }
        if isArmed { base.insert(.safetyArmed) }
        let px4 = isPX4
        let custom = customMode(of: mode)
        return Heartbeat {
            $0.customMode = custom
            $0.type = .init(.quadrotor)
            $0.autopilot = .init(px4 ? .px4 : .ardupilotmega)
            $0.baseMode = base
            $0.systemStatus = .init(isAirborne ? .active : .standby)
            $0.mavlinkVersion = 3
        }
    }

    /// GLOBAL_POSITION_INT: lat/lon of the plane position, altitudes (MSL = home MSL + height;
    /// `relative_alt` from a home `reportedHomeShiftMeters` higher, as PX4's re-estimated home),
    /// velocity NED cm/s, heading cdeg.
    public var globalPosition: GlobalPositionInt {
        let coordinate = plane.unproject(positionPlane) ?? plane.origin
        func e7(_ degrees: Double) -> Int32 { Int32(clamping: Int64((degrees * 1e7).rounded())) }
        func cm(_ metersPerSecond: Double) -> Int16 { Int16(clamping: Int64((metersPerSecond * 100).rounded())) }
        var position = GlobalPositionInt()
        position.timeBootMilliseconds = timeBootMilliseconds
        position.latitudeLongitude = LatitudeLongitudeE7(latitudeE7: e7(coordinate.latitudeDegrees), longitudeE7: e7(coordinate.longitudeDegrees))
        position.altitudeMSLMillimeters = Int32(clamping: Int64(((parameters.homeAltitudeMSLMeters + altitudeMeters) * 1000).rounded()))
        position.relativeAltitudeMillimeters = Int32(clamping: Int64(((altitudeMeters - reportedHomeShiftMeters) * 1000).rounded()))
        position.velocityNEDCentimetersPerSecond = [cm(velocityENU.north), cm(velocityENU.east), cm(-climbRateMetersPerSecond)]
        position.headingCentidegrees = UInt16(Int((noseHeadingDegrees * 100).rounded()) % 36000)
        return position
    }

    /// ATTITUDE: roll right-down positive, pitch nose-up positive (so a forward lean is negative
    /// pitch), yaw in (−π, π] from north clockwise; yaw rate.
    public var attitude: Attitude {
        let body = tiltWorldRadians.bodyFrame(headingDegrees: noseHeadingDegrees)
        return Attitude {
            $0.timeBootMilliseconds = timeBootMilliseconds
            $0.rollPitchYawRadians = [Float(body.right), Float(-body.forward), Float(radians(fromDegrees: wrappedDegrees180(noseHeadingDegrees)))]
            $0.ratesRadiansPerSecond = [0, 0, Float(radians(fromDegrees: yawRateDegreesPerSecond))]
        }
    }

    /// SYS_STATUS: GPS present/enabled/healthy as `hasGPSFix` says, battery voltage (linear in
    /// the charge), current unknown (−1), remaining percent.
    public var sysStatus: SysStatus {
        let gps: UInt32 = 32 // MAV_SYS_STATUS_SENSOR_GPS (common.xml)
        let millivolts = parameters.batteryEmptyMillivolts
            + (parameters.batteryFullMillivolts - parameters.batteryEmptyMillivolts) * batteryPercent / 100
        return SysStatus {
            $0.sensors = SensorBitmasks(present: gps, enabled: gps, health: hasGPSFix ? gps : 0)
            $0.batteryVoltageMillivolts = UInt16(clamping: Int(millivolts.rounded()))
            $0.batteryCurrentCentiamperes = -1
            $0.batteryRemainingPercent = Int8(clamping: Int(batteryPercent.rounded(.down)))
        }
    }
}
