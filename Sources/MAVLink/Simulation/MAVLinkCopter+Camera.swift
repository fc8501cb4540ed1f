import FollowCore
import MAVLink

/// The copter's camera as ArduPilot's AP_Camera answers a ground station (4.4 and later; docs/mavlink.md §8.7):
/// `parameters.cameraType` is its CAM1_TYPE. A PX4 copter has no camera here (PX4's cameras are MAVLink
/// components of their own, not modelled): camera commands are UNSUPPORTED.
extension MAVLinkCopter {
    /// CAM1_TYPE of a MAVLink camera (AP_Camera_Params.cpp `@Values`: 5 MAVLinkCamV2).
    public static let mavlinkCameraType = 5

    /// MAV_CMD_REQUEST_MESSAGE (GCS_Common.cpp `handle_command_request_message`): an id ArduPilot maps to one of
    /// its messages is ACCEPTED and the message queued; an unknown id FAILED. CAMERA_INFORMATION and
    /// CAMERA_CAPTURE_STATUS map whether or not a camera is configured (`AP_CAMERA_ENABLED`); with none, the
    /// camera library has no back-end to send them (`AP_Camera::send_camera_information` loops over none).
    /// Other ids: FAILED here (not simulated).
    func requestMessageResult(_ param1: Float) -> MAVResult {
        guard !isPX4 else { return .unsupported }
        switch UInt32(exactly: param1) {
        case CameraInformation.messageID?, CameraCaptureStatus.messageID?: return .accepted
        default: return .failed
        }
    }

    /// What an accepted REQUEST_MESSAGE sends: nothing without a camera (CAM1_TYPE 0).
    func requestedMessage(_ param1: Float) -> [any MAVLinkMessage] {
        guard parameters.cameraType != 0 else { return [] }
        switch UInt32(exactly: param1) {
        case CameraInformation.messageID?: return [cameraInformation]
        case CameraCaptureStatus.messageID?: return [cameraCaptureStatus]
        default: return []
        }
    }

    /// CAMERA_INFORMATION from the autopilot's component (as 4.5–4.6 send it; the newest master relays a
    /// MAVLink camera's with the camera's own component id). A MAVLink camera's own (`AP_Camera_MAVLinkCamV2`
    /// relays what the camera said: here image and video capture); ArduPilot's own back-ends' (AP_Camera_Backend
    /// `send_camera_information`: flags CAPTURE_IMAGE only, NaN focal length and sensor size, lens id = the
    /// instance 0, the mount as gimbal when there is one).
    var cameraInformation: CameraInformation {
        CameraInformation {
            $0.timeBootMilliseconds = timeBootMilliseconds
            if parameters.cameraType == Self.mavlinkCameraType {
                $0.flags = [.captureVideo, .captureImage]
                $0.vendorName = MAVLinkText("FollowMe")
                $0.modelName = MAVLinkText("SimCam")
                ($0.resolutionHorizontal, $0.resolutionVertical) = (1920, 1080)
                ($0.focalLengthMillimeters, $0.sensorSizeHorizontalMillimeters, $0.sensorSizeVerticalMillimeters) = (4.5, 6.2, 4.6)
            } else {
                $0.flags = [.captureImage]
                ($0.focalLengthMillimeters, $0.sensorSizeHorizontalMillimeters, $0.sensorSizeVerticalMillimeters) = (.nan, .nan, .nan)
            }
            $0.gimbalDeviceID = parameters.mountType != 0 ? 1 : 0
        }
    }

    /// CAMERA_CAPTURE_STATUS: a MAVLink camera's own (recording and for how long); ArduPilot's own back-ends'
    /// (AP_Camera_Backend `send_camera_capture_status`: video status 0 always, capacity NaN).
    var cameraCaptureStatus: CameraCaptureStatus {
        CameraCaptureStatus {
            $0.timeBootMilliseconds = timeBootMilliseconds
            $0.availableCapacityMebibytes = .nan
            if parameters.cameraType == Self.mavlinkCameraType, isRecordingVideo, let since = videoRecordingStartedAt {
                $0.videoStatus = 1
                $0.recordingTimeMilliseconds = UInt32(clamping: Int64((time.seconds(since: since) * 1000).rounded()))
            }
        }
    }

    /// MAV_CMD_VIDEO_START_CAPTURE / STOP_CAPTURE (AP_Camera::handle_command): stream id 0 is the primary camera,
    /// n the n-th; ACCEPTED when the back-end's `record_video` succeeds, FAILED otherwise — no camera (CAM1_TYPE 0:
    /// no primary), an instance that does not exist, or a back-end that cannot record (servo, relay: the
    /// back-end's default `record_video` is false). A MAVLink camera (CamV2) forwards it and succeeds.
    mutating func recordVideo(start: Bool, streamID: Float) -> MAVResult {
        guard !isPX4 else { return .unsupported }
        guard parameters.cameraType != 0, streamID == 0 || streamID == 1 else { return .failed }
        guard parameters.cameraType == Self.mavlinkCameraType else { return .failed }
        if start, !isRecordingVideo { videoRecordingStartedAt = time }
        if !start { videoRecordingStartedAt = nil }
        isRecordingVideo = start
        return .accepted
    }
}
