import FollowCore

/// `[mavlink] point_camera` (issue 26): the camera (and, on ArduCopter without a mount, the yaw) looks
/// at the person — MAV_CMD_DO_SET_ROI_LOCATION with `LinkCommand.lookAt` once a second while flying in
/// our mode, and MAV_CMD_DO_SET_ROI_NONE when the flight lands. Outside the one-at-a-time request
/// machine (docs/mavlink.md §7.3): a region of interest is desired state re-sent every second, like a
/// set-point, so an unanswered one is simply superseded; the clear is re-sent until ACKed (at most
/// `roiClearMaxSends`).
extension MAVLinkSession {
    /// Seconds between DO_SET_ROI_LOCATION sends (our choice: a walker moves 1.4 m meanwhile, a few
    /// degrees of camera angle at the standoff).
    static let roiIntervalSeconds = 1.0
    /// DO_SET_ROI_NONE sends before giving up without an ACK.
    static let roiClearMaxSends = 3

    /// Once per tick: point the camera at the person, or clear the point when landing.
    mutating func pointCamera(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard configuration.pointCamera, let target = vehicleTarget, !autopilotMismatch, !flight.released,
              !desired.released else { return }
        let due = camera.lastSentAt.map { now.seconds(since: $0) >= Self.roiIntervalSeconds } ?? true
        if desired.flying {
            guard let look = desired.lookAt, isIn(profile.control), vehicle.landedState == .inAir, due else { return }
            // z: ArduPilot takes it above home in MAV_FRAME_GLOBAL_RELATIVE_ALT_INT (the person's ground ≈ the
            // take-off point's); PX4 reads param7 as above mean sea level whatever the frame (as NAV_TAKEOFF's,
            // `AutopilotProfile.takeoffAltitudeParameter`), so it gets MAV_FRAME_GLOBAL_INT and home's altitude.
            let altitude = profile.takeoffAltitudeParameter(aboveHomeMeters: 0, vehicle: vehicle)
            emit(.positionCommand(Self.roiLocation(look, altitudeMeters: altitude, autopilot: profile.autopilot, target: target)),
                 into: &output)
            camera = CameraPointing(lastSentAt: now, active: true, clearSends: 0)
        } else if camera.active, due, camera.clearSends < Self.roiClearMaxSends {
            emit(.command(Self.roi(.doSetROINone, [0, 0, 0, 0, 0, 0, 0], target: target)), into: &output)
            camera.lastSentAt = now
            camera.clearSends += 1
        }
    }

    /// An ACK of DO_SET_ROI_NONE (any result): the clear is done (a refusal would refuse again).
    mutating func noteCameraAck(_ ack: CommandAck) {
        if ack.command.rawValue == MAVCommand.doSetROINone.rawValue { camera.active = false }
    }

    /// DO_SET_ROI_LOCATION as COMMAND_INT: p1 0 (every gimbal), x/y the point in degE7 (exact to 1.1 cm; as
    /// COMMAND_LONG's float32 p5/p6 it was rounded to ≈ 0.6 m), z `altitudeMeters` in the autopilot's frame.
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
