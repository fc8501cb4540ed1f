import FollowCore
import MAVLink

/// What the copter does with a ground station's frames (docs/mavlink.md §8.1): COMMAND_LONG (and
/// COMMAND_INT, for DO_SET_ROI_LOCATION) is answered with COMMAND_ACK at once, with ArduPilot's results; SET_POSITION_TARGET_LOCAL_NED
/// sets the GUIDED velocity target; HEARTBEAT and anything else is only taken as traffic.
extension MAVLinkCopter {
    /// `param2` of COMPONENT_ARM_DISARM that forces a disarm in flight (ArduPilot's magic value).
    static let forceDisarmMagic: Float = 21196

    /// Applies one frame that arrived at `now` (advancing to `now` first) and returns what is
    /// due and the replies (COMMAND_ACK, STATUSTEXT), in order.
    public mutating func receive(_ frame: MAVLinkFrame, at now: MonotonicTime) -> [any MAVLinkMessage] {
        var out = advance(to: now)
        switch MAVLinkMessages.message(in: frame) {
        case let command as CommandLong where isForUs(command.target):
            counters[.commands] += 1
            commandsBySystem[frame.systemID, default: 0] += 1
            if [.requestMessage, .videoStartCapture, .videoStopCapture].contains(command.command.known) {
                cameraCommandsBySystem[frame.systemID, default: 0] += 1
            }
            let (result, texts) = execute(command)
            if result != .accepted { counters[.commandsRefused] += 1 }
            out += texts
            out.append(CommandAck {
                $0.command = command.command
                $0.result = .init(result)
                $0.target = MAVLinkTarget(system: frame.systemID, component: frame.componentID)
            })
            // REQUEST_MESSAGE: the ACK first, then the message (ArduPilot queues it for its deferred sender).
            if command.command.known == .requestMessage, result == .accepted { out += requestedMessage(command.params[0]) }
        case let command as CommandInt where isForUs(command.target):
            counters[.commands] += 1
            commandsBySystem[frame.systemID, default: 0] += 1
            let result = execute(command)
            if result != .accepted { counters[.commandsRefused] += 1 }
            out.append(CommandAck {
                $0.command = command.command
                $0.result = .init(result)
                $0.target = MAVLinkTarget(system: frame.systemID, component: frame.componentID)
            })
        case let target as SetPositionTargetLocalNED where isForUs(target.target):
            setpointsBySystem[frame.systemID, default: 0] += 1
            out += applySetpoint(target)
        case let read as ParamRequestRead where isForUs(read.target):
            // ArduPilot and PX4 answer a known name with PARAM_VALUE and an unknown one with nothing.
            if isPX4 {
                if let report = px4ParameterReport(read.parameterID.string) { out.append(report) }
            } else if let value = parameterValue(read.parameterID.string) {
                var answer = ParamValue()
                answer.value = value
                answer.count = UInt16(Self.parameterNames.count)
                answer.parameterID = read.parameterID
                answer.type = 6 // MAV_PARAM_TYPE_INT32
                out.append(answer)
            }
        case is Heartbeat:
            noteHeartbeat(from: frame.systemID)
        default:
            counters[.messagesIgnored] += 1
        }
        return out
    }

    /// A ground station sets the GCS-failsafe parameter `name` (what its PARAM_SET does on ArduPilot,
    /// `GCS_MAVLINK::handle_param_set`): the failsafe flies with the new value from now on, and the
    /// PARAM_VALUE reporting it is returned for every ground station to hear. `FS_GCS_ENABLE`,
    /// `FS_GCS_TIMEOUT`, `FS_OPTIONS` and the GCS id under this version's name; nil (nothing set) for
    /// another name or a non-finite value, as ArduPilot refuses both.
    /// On PX4, its offboard-loss parameters instead (`setPX4Parameter`).
    public mutating func setParameter(_ name: String, to value: Float) -> ParamValue? {
        if isPX4 { return setPX4Parameter(name, to: value) }
        guard value.isFinite else { return nil }
        switch name {
        case "FS_GCS_ENABLE": parameters.gcsFailsafeAction = Int(value)
        case "FS_GCS_TIMEOUT": parameters.gcsFailsafeTimeoutSeconds = Double(value)
        case "FS_OPTIONS" where value >= 0: parameters.failsafeOptions = UInt32(value)
        case parameters.groundStationIDParameterName where (0...255).contains(value): parameters.groundStationSystemID = UInt8(value)
        default: return nil
        }
        var report = ParamValue()
        report.value = parameterValue(name) ?? value
        report.count = UInt16(Self.parameterNames.count)
        report.parameterID = MAVLinkText(name)
        report.type = 6 // MAV_PARAM_TYPE_INT32
        return report
    }

    /// The parameters the copter answers PARAM_REQUEST_READ for (`parameterValue`).
    static let parameterNames = ["FS_GCS_ENABLE", "FS_GCS_TIMEOUT", "FS_OPTIONS", "MAV_GCS_SYSID", "WPNAV_ACCEL", "PSC_JERK_XY",
                                 "MNT1_TYPE"]

    /// A parameter's value as ArduCopter reports it: the GCS failsafe this copter really flies
    /// (`FS_GCS_ENABLE`, default 5 = LAND here, ArduCopter ships 0; `FS_GCS_TIMEOUT` s; `FS_OPTIONS`;
    /// the GCS id under the one name this version has (`groundStationIDParameterName`) = FollowMe's
    /// default 245, as docs/mavlink.md §10 asks, so FollowMe's preflight passes unless `followme sim
    /// --fs-gcs-enable 0`), and the shaping limits it flies with (`WPNAV_ACCEL` in cm/s², `PSC_JERK_XY`
    /// in m/s³), which FollowMe's stopping model reads (docs/stopping-model.md §7). Any other name:
    /// nil (ArduPilot answers nothing).
    func parameterValue(_ name: String) -> Float? {
        switch name {
        case "FS_GCS_ENABLE": Float(parameters.gcsFailsafeAction)
        case "FS_GCS_TIMEOUT": Float(parameters.gcsFailsafeTimeoutSeconds)
        case "FS_OPTIONS": Float(parameters.failsafeOptions)
        case parameters.groundStationIDParameterName: Float(parameters.groundStationSystemID)
        case "WPNAV_ACCEL": Float(parameters.maxHorizontalAccelerationMetersPerSecondSquared * 100)
        case "PSC_JERK_XY": Float(parameters.horizontalJerkMetersPerSecondCubed)
        case "MNT1_TYPE": Float(parameters.mountType)
        default: nil
        }
    }

    /// Addressed to this copter (or broadcast, 0).
    private func isForUs(_ target: MAVLinkTarget) -> Bool {
        (target.system == 0 || target.system == parameters.systemID)
            && (target.component == 0 || target.component == parameters.componentID)
    }

    /// The result of one COMMAND_LONG and the STATUSTEXTs it caused.
    private mutating func execute(_ command: CommandLong) -> (MAVResult, [any MAVLinkMessage]) {
        let p = command.params
        switch command.command.known {
        case .doSetMode? where isPX4:
            return px4SetMode(p)
        case .doSetMode?:
            // ArduPilot `_set_mode_common`: only custom modes; a mode it cannot enter → FAILED.
            guard UInt8(exactly: p[0]).map({ $0 & MAVModeFlag.customModeEnabled.rawValue != 0 }) ?? false else {
                return (.unsupported, [])
            }
            guard let number = UInt32(exactly: p[1]), let wanted = ArduCopterMode(rawValue: number) else {
                return (.failed, [Self.text(.warning, "Mode change failed: unknown mode \(p[1])")])
            }
            if let refusal = modeRefusal(wanted) {
                return (.failed, [Self.text(.warning, "Mode change to \(Self.name(of: wanted)) failed: \(refusal)")])
            }
            return (.accepted, changeMode(to: wanted, reason: "GCS"))
        case .componentArmDisarm?:
            return armOrDisarm(p[0], force: p[1])
        case .navTakeoff? where isPX4:
            return px4TakeOff(amslMeters: p[6])
        case .navTakeoff?:
            return takeOff(targetMeters: Double(p[6]))
        case .navLand?:
            // ArduPilot Copter: NAV_LAND = switch to LAND (FAILED if it cannot).
            if let refusal = modeRefusal(.land) {
                return (.failed, [Self.text(.warning, "Mode change to LAND failed: \(refusal)")])
            }
            return (.accepted, changeMode(to: .land, reason: "GCS"))
        case .setMessageInterval?:
            return (setMessageInterval(messageID: p[0], intervalMicroseconds: p[1]), [])
        case .doSetROILocation?:
            // ArduCopter `do_set_roi`: any finite location is taken (the mount, or the yaw, turns to it).
            guard p[4].isFinite, p[5].isFinite, abs(p[4]) <= 90, abs(p[5]) <= 180 else { return (.denied, []) }
            setRegionOfInterest(Double(p[4]), Double(p[5]), p[6].isFinite ? Double(p[6]) : 0)
            return (.accepted, [])
        case .doSetROINone?:
            // GCS_Common.cpp: ROI_NONE is a ROI at (0, 0, 0), which autoyaw.cpp `set_roi` takes as "off".
            regionOfInterest = nil
            yawsToRegionOfInterest = false
            return (.accepted, [])
        case .requestMessage?:
            return (requestMessageResult(p[0]), [])
        case .videoStartCapture?, .videoStopCapture?:
            return (recordVideo(start: command.command.known == .videoStartCapture, streamID: p[0]), [])
        case nil:
            return (.unsupported, [])
        }
    }

    /// The result of one COMMAND_INT. DO_SET_ROI_LOCATION as ArduPilot takes it (GCS_Common.cpp
    /// `handle_command_do_set_roi(command_int)`): a frame `location_from_command_t` knows (a global one;
    /// else DENIED), a valid latitude/longitude (`check_latlng`; else FAILED), x/y exact in degE7 and z as
    /// the frame says. Any other command as COMMAND_INT: UNSUPPORTED here (FollowMe sends only this one).
    private mutating func execute(_ command: CommandInt) -> MAVResult {
        guard command.command.known == .doSetROILocation else { return .unsupported }
        guard let frame = command.frame.known, frame == .globalInt || frame == .globalRelativeAltitudeInt else { return .denied }
        let position = command.position
        guard abs(position.latitudeDegrees) <= 90, abs(position.longitudeDegrees) <= 180 else { return .failed }
        setRegionOfInterest(position.latitudeDegrees, position.longitudeDegrees,
                            command.altitudeMeters.isFinite ? Double(command.altitudeMeters) : 0)
        return .accepted
    }

    /// ArduCopter `GCS_MAVLINK_Copter::handle_command_do_set_roi` → autoyaw.cpp `set_roi`: the mount takes the
    /// point; without a mount that pans the auto-yaw mode becomes ROI (the nose turns to it).
    private mutating func setRegionOfInterest(_ latitudeDegrees: Double, _ longitudeDegrees: Double, _ altitudeMeters: Double) {
        regionOfInterest = (latitudeDegrees, longitudeDegrees, altitudeMeters)
        yawsToRegionOfInterest = parameters.mountType == 0
    }

    /// Why `wanted` cannot be entered now (nil = it can). GUIDED, LOITER, BRAKE and RTL need a
    /// position (ArduPilot `requires_GPS`), PX4's OFFBOARD also the offboard signal; STABILIZE is refused
    /// in the air because no pilot's sticks fly this simulation (our choice); AUTO (no mission here; on
    /// PX4 AUTO.TAKEOFF, entered by NAV_TAKEOFF) is refused.
    func modeRefusal(_ wanted: ArduCopterMode) -> String? {
        switch wanted {
        case .guided where isPX4 && hasGPSFix && !hasOffboardSignal:
            "no offboard signal"
        case .guided, .loiter, .brake, .rtl:
            hasGPSFix ? nil : "requires position"
        case .land:
            nil
        case .stabilize:
            isAirborne ? "no pilot to fly it" : nil
        case .auto:
            "not simulated"
        }
    }

    /// Enters `wanted` (which `modeRefusal` allowed) and announces it.
    mutating func changeMode(to wanted: ArduCopterMode, reason: String) -> [any MAVLinkMessage] {
        guard wanted != mode else { return [] }
        mode = wanted
        setpoint = nil
        yawsToRegionOfInterest = false
        landPauseUntil = nil
        rtlStage = wanted == .rtl ? .climb : nil
        if wanted != .auto { pendingTakeoffMeters = nil }
        // ArduPilot climbs in GUIDED; PX4's take-off is its own mode, which any change ends.
        if case .takingOff = phase, wanted != .guided || isPX4 { phase = .flying }
        // ArduCopter sends a HEARTBEAT at once on every mode change (mode.cpp `Copter::set_mode`:
        // `gcs().send_message(MSG_HEARTBEAT)`): a ground station sees the new mode within milliseconds.
        return [Self.text(.info, "Mode \(Self.name(of: wanted)) (\(reason))")] + (isPX4 ? [] : [heartbeat])
    }

    /// COMPONENT_ARM_DISARM: param1 1 arms, 0 disarms (refused in flight unless forced), other
    /// values are UNSUPPORTED (ArduPilot Copter's handler).
    private mutating func armOrDisarm(_ param1: Float, force: Float) -> (MAVResult, [any MAVLinkMessage]) {
        switch param1 {
        case 1:
            if isArmed { return (.accepted, []) }
            if let refusal = armingRefusal() { return (isPX4 ? .temporarilyRejected : .failed, [Self.text(.critical, refusal)]) }
            isArmed = true
            idleOnGroundSeconds = 0
            homePlane = positionPlane
            return (.accepted, [Self.text(.info, "Arming motors")])
        case 0:
            guard !isAirborne || force == Self.forceDisarmMagic else {
                return (isPX4 ? .temporarilyRejected : .failed, [Self.text(.critical, "Disarm refused: flying")])
            }
            return (.accepted, disarm(reason: "GCS"))
        default:
            return (.unsupported, [])
        }
    }

    /// Why the copter will not arm (nil = it will): a 3D fix is needed, and a mode that can take
    /// off under ground-station control (GUIDED or LOITER; our reading of the shared design — a real
    /// ArduPilot also arms in STABILIZE for its RC pilot, whom this simulation has not).
    /// PX4 arms in Hold, POSCTL, AUTO.TAKEOFF and, with the offboard signal, OFFBOARD (its texts: "Arming denied: …").
    private func armingRefusal() -> String? {
        if isPX4 {
            guard hasGPSFix else { return "Preflight Fail: GPS fix too low" }
            guard mode == .brake || mode == .loiter || mode == .auto || (mode == .guided && hasOffboardSignal) else {
                return "Arming denied: not in an armable mode"
            }
            return nil
        }
        guard hasGPSFix else { return "PreArm: Need 3D Fix" }
        guard mode == .guided || mode == .loiter else { return "Arm: Mode not armable" }
        return nil
    }

    mutating func disarm(reason: String) -> [any MAVLinkMessage] {
        guard isArmed else { return [] }
        isArmed = false
        setpoint = nil
        liftOffAt = nil
        pendingTakeoffMeters = nil
        landedDisarmAt = nil
        return [Self.text(.info, "Disarming motors (\(reason))")]
    }

    /// NAV_TAKEOFF: armed, on the ground, in GUIDED, to an altitude above the current one; else
    /// FAILED (ArduPilot: `do_user_takeoff` returned false).
    private mutating func takeOff(targetMeters: Double) -> (MAVResult, [any MAVLinkMessage]) {
        let refusal: String? =
            !isArmed ? "not armed"
            : mode != .guided ? "mode \(Self.name(of: mode))"
            : isAirborne ? "already flying"
            : !(targetMeters.isFinite && targetMeters > altitudeMeters) ? "bad altitude \(targetMeters)"
            : nil
        if let refusal { return (.failed, [Self.text(.warning, "Takeoff refused: \(refusal)")]) }
        phase = .takingOff(targetAltitudeMeters: targetMeters)
        setpoint = nil
        return (.accepted, [])
    }

    /// SET_MESSAGE_INTERVAL (ArduPilot `set_message_interval`): interval µs; 0 = default rate,
    /// −1 = stop, below 1000 µs = 1 ms, above 60 s = 60 s. A message the copter does not stream → FAILED.
    private mutating func setMessageInterval(messageID: Float, intervalMicroseconds: Float) -> MAVResult {
        guard let id = UInt32(exactly: messageID), let index = streams.firstIndex(where: { $0.messageID == id }),
              intervalMicroseconds.isFinite else { return .failed }
        var stream = streams[index]
        switch intervalMicroseconds {
        case 0: stream.intervalSeconds = parameters.defaultIntervalsSeconds[id]
        case -1: stream.intervalSeconds = nil
        case ..<0: return .failed
        default: stream.intervalSeconds = min(max(Double(intervalMicroseconds) / 1e6, 0.001), 60)
        }
        stream.nextAt = time.adding(seconds: Self.firstSlotDelaySeconds(id, interval: stream.intervalSeconds))
        streams[index] = stream
        return .accepted
    }

    /// SET_POSITION_TARGET_LOCAL_NED: flown only in GUIDED, armed, as a velocity target (all
    /// three velocity components given, position and acceleration ignored: the type masks
    /// ArduPilot's guided page lists for velocity), in LOCAL_NED / LOCAL_OFFSET_NED (world axes)
    /// or BODY_NED / BODY_OFFSET_NED (x along the nose, rotated by the heading: ArduPilot rotates
    /// body-frame velocities by yaw only). Anything else is ignored and counted. A set-point ends
    /// a take-off in progress, as ArduPilot's GUIDED switches to its velocity sub-mode.
    private mutating func applySetpoint(_ target: SetPositionTargetLocalNED) -> [any MAVLinkMessage] {
        let mask = target.typeMask
        let positionIgnored = mask.contains(.xIgnore) && mask.contains(.yIgnore) && mask.contains(.zIgnore)
        let velocityGiven = !mask.contains(.vxIgnore) && !mask.contains(.vyIgnore) && !mask.contains(.vzIgnore)
        let accelerationIgnored = mask.contains(.axIgnore) && mask.contains(.ayIgnore) && mask.contains(.azIgnore)
        let v = target.velocityNEDMetersPerSecond.map(Double.init)
        // PX4's offboard signal: any well-formed set-point, whatever the mode.
        if positionIgnored, velocityGiven, accelerationIgnored, v.allSatisfy(\.isFinite) { lastSetpointAt = time }
        guard mode == .guided, isArmed, positionIgnored, velocityGiven, accelerationIgnored,
              v.allSatisfy(\.isFinite), let frame = target.coordinateFrame.known
        else {
            counters[.setpointsIgnored] += 1
            return []
        }
        let velocityENU: PlaneVector
        switch frame {
        case .localNED, .localOffsetNED:
            velocityENU = PlaneVector(east: v[1], north: v[0])
        case .globalInt, .globalRelativeAltitudeInt:
            // Not a local frame: ArduCopter's SET_POSITION_TARGET_LOCAL_NED ignores it.
            counters[.setpointsIgnored] += 1
            return []
        case .bodyNED, .bodyOffsetNED:
            let psi = radians(fromDegrees: noseHeadingDegrees)
            let s = _sin(psi), c = _cos(psi)
            // forward unit = (sinψ, cosψ), right unit = (cosψ, −sinψ) in (east, north).
            velocityENU = PlaneVector(east: v[0] * s + v[1] * c, north: v[0] * c - v[1] * s)
        }
        let yawRate = Double(target.yawRateRadiansPerSecond)
        let yaw = Double(target.yawRadians)
        setpoint = VelocitySetpoint(
            velocityENU: velocityENU, climbMetersPerSecond: -v[2],
            yawRateDegreesPerSecond: !mask.contains(.yawRateIgnore) && yawRate.isFinite ? degrees(fromRadians: yawRate) : nil,
            yawDegrees: !mask.contains(.yawIgnore) && yaw.isFinite ? normalizedDegrees360(degrees(fromRadians: yaw)) : nil,
            receivedAt: time)
        // mode_guided.cpp `set_velaccel` → `set_yaw_state`: a yaw → FIXED/ANGLE_RATE, a yaw rate → RATE, neither
        // → the default mode; each ends a region of interest's auto-yaw (autoyaw.cpp `set_mode`).
        yawsToRegionOfInterest = false
        if case .takingOff = phase { phase = .flying }
        counters[.setpoints] += 1
        return []
    }

    /// A STATUSTEXT of `severity`, cut to the field's 50 bytes.
    static func text(_ severity: MAVSeverity, _ text: String) -> StatusText {
        StatusText {
            $0.severity = .init(severity)
            $0.text = MAVLinkText(bytes: Array(text.utf8.prefix(StatusText.textLength)))
        }
    }
}

extension MAVLinkCopter {
    /// ArduPilot's name of `mode` (as its ground stations show it).
    public static func name(of mode: ArduCopterMode) -> String {
        switch mode {
        case .stabilize: "STABILIZE"
        case .auto: "AUTO"
        case .guided: "GUIDED"
        case .loiter: "LOITER"
        case .rtl: "RTL"
        case .land: "LAND"
        case .brake: "BRAKE"
        }
    }

    /// The mode ArduPilot calls `name` (`LOITER`, case-insensitive), or PX4 (`POSCTL`, `AUTO.LOITER` or
    /// `HOLD`, `OFFBOARD`, `AUTO.LAND`, `AUTO.RTL`: the same behaviours, `px4Mode(of:)`), or nil.
    public static func mode(named name: String) -> ArduCopterMode? {
        let wanted = name.uppercased()
        if let mode = ArduCopterMode.allCases.first(where: { Self.name(of: $0) == wanted }) { return mode }
        if wanted == "HOLD" { return .brake }
        return ArduCopterMode.allCases.first { MAVLinkLinkConfiguration.Autopilot.px4.modeName(px4Mode(of: $0).customMode) == wanted }
    }
}
