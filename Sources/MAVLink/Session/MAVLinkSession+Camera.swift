import FollowCore

/// `[mavlink] point_camera`: the camera looks at the person (docs/mavlink.md §7.13) —
/// MAV_CMD_DO_SET_ROI_LOCATION with `LinkCommand.lookAt` once a second while our own flight flies in our
/// mode, where a region of interest reaches a camera without fighting the set-points, and
/// MAV_CMD_DO_SET_ROI_NONE once the flight lands, is released or stops being ours. Outside the
/// one-at-a-time request machine (§7.3): a region of interest is desired state re-sent every second, like
/// a set-point, so an unanswered one is simply superseded; the clear is re-sent until ACKed (at most
/// `roiClearMaxSends`).
///
/// ArduCopter without a mount turns the vehicle itself to a region of interest (autoyaw.cpp `set_roi`:
/// auto-yaw mode ROI), and every GUIDED set-point sets the auto-yaw mode again whatever its yaw bits
/// (mode_guided.cpp `set_velaccel` → `set_yaw_state`: a yaw rate → RATE, neither yaw nor rate → the
/// default mode), so there the nose is pointed by the set-point's yaw rate alone (the core turns it to
/// the person) and no region of interest is sent.
extension MAVLinkSession {
    /// Seconds between DO_SET_ROI_LOCATION sends (our choice: a walker moves 1.4 m meanwhile, a few
    /// degrees of camera angle at the standoff).
    static let roiIntervalSeconds = 1.0
    /// DO_SET_ROI_NONE sends before giving up without an ACK.
    static let roiClearMaxSends = 3

    /// Once per tick: point the camera at the person, or clear the point when the flight lands, is
    /// released or is no longer ours.
    mutating func pointCamera(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard configuration.pointCamera, let target = vehicleTarget, !autopilotMismatch else { return }
        let due = camera.lastSentAt.map { now.seconds(since: $0) >= Self.roiIntervalSeconds } ?? true
        let ourFlight = desired.flying && !desired.released && !flight.released && owner.isOurs
        if ourFlight {
            guard let look = desired.lookAt, roiReachesCamera, isIn(profile.control), vehicle.landedState == .inAir, due
            else { return }
            let rise = desired.lookAtRiseMeters.flatMap { $0.isFinite ? $0 : nil } ?? 0
            emit(.positionCommand(Self.roiLocation(look, altitudeMeters: roiAltitudeMeters(riseMeters: rise),
                                                   autopilot: profile.autopilot, target: target)),
                 into: &output)
            camera = CameraPointing(lastSentAt: now, active: true, clearSends: 0)
        } else if camera.active, due, camera.clearSends < Self.roiClearMaxSends {
            emit(.command(Self.roi(.doSetROINone, [0, 0, 0, 0, 0, 0, 0], target: target)), into: &output)
            camera.lastSentAt = now
            camera.clearSends += 1
        }
    }

    /// Whether a region of interest turns a camera and leaves the set-points' yaw alone. PX4: yes (OFFBOARD
    /// yaws by the set-point; a gimbal takes the ROI). ArduPilot: only with a mount (`MNT1_TYPE` or `MNT_TYPE`
    /// answered non-zero); without one, or before the answer, the set-point's yaw rate points the nose.
    var roiReachesCamera: Bool {
        switch profile.autopilot {
        case .px4: return true
        case .ardupilot:
            return ParameterState.mountTypeNames.contains { (parameters.state($0)?.value ?? 0) != 0 }
        }
    }

    /// The region of interest's z for the person's ground `riseMeters` above the ground at home: ArduPilot
    /// above home (MAV_FRAME_GLOBAL_RELATIVE_ALT_INT); PX4 above mean sea level — the flight's latched home
    /// altitude (`AltitudeReference`; before one, home's as NAV_TAKEOFF's, `AutopilotProfile`) plus the rise.
    func roiAltitudeMeters(riseMeters: Double) -> Float {
        if profile.autopilot == .px4, let reference = flight.altitudeReference {
            return Float(reference.homeMSLMeters + riseMeters)
        }
        return profile.takeoffAltitudeParameter(aboveHomeMeters: riseMeters, vehicle: vehicle)
    }

    /// An ACK of DO_SET_ROI_NONE (any result): the clear is done (a refusal would refuse again).
    mutating func noteCameraAck(_ ack: CommandAck) {
        if ack.command.rawValue == MAVCommand.doSetROINone.rawValue { camera.active = false }
    }

    /// DO_SET_ROI_LOCATION as COMMAND_INT: p1 0 (every gimbal), x/y the point in degE7 (exact to 1.1 cm, where
    /// COMMAND_LONG's float32 p5/p6 round to ≈ 0.6 m), z `altitudeMeters` in the autopilot's frame.
    /// ArduPilot (GCS_Common.cpp, `handle_command_int_packet` → `handle_command_do_set_roi(command_int)`,
    /// `location_from_command_t`) and PX4 (mavlink_receiver.cpp `handle_message_command_int`: x/y ÷ 1e7 into
    /// the same vehicle_command as COMMAND_LONG's p5/p6) both take it (docs/mavlink.md §7.13).
    static func roiLocation(_ look: GeoCoordinate, altitudeMeters: Float, autopilot: MAVLinkLinkConfiguration.Autopilot,
                            target: MAVLinkTarget) -> CommandInt {
        CommandInt {
            $0.command = .init(MAVCommand.doSetROILocation)
            $0.frame = .init(autopilot == .ardupilot ? MAVFrame.globalRelativeAltitudeInt : .globalInt)
            $0.position = LatitudeLongitudeE7(degrees: look)
            $0.altitudeMeters = altitudeMeters
            $0.target = target
        }
    }

    static func roi(_ command: MAVCommand, _ params: [Float], target: MAVLinkTarget) -> CommandLong {
        CommandLong {
            $0.params = params
            $0.command = .init(command)
            $0.target = target
        }
    }
}

/// What the session last did with the camera's region of interest.
struct CameraPointing: Sendable {
    var lastSentAt: MonotonicTime?
    /// A region of interest was set and not yet cleared (ACKed ROI_NONE).
    var active = false
    var clearSends = 0
}
