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
            // param7: ArduPilot takes it above home (the person's ground ≈ the take-off point's), PX4 above
            // mean sea level (as NAV_TAKEOFF's, `AutopilotProfile.takeoffAltitudeParameter`).
            let altitude = profile.takeoffAltitudeParameter(aboveHomeMeters: 0, vehicle: vehicle)
            emit(.command(Self.roi(.doSetROILocation, [0, 0, 0, 0, Float(look.latitudeDegrees), Float(look.longitudeDegrees), altitude],
                                   target: target)), into: &output)
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
