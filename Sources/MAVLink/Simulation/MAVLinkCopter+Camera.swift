import FollowCore
import MAVLink

/// The copter's camera as ArduPilot's AP_Camera answers a ground station: `parameters.cameraType` is its CAM1_TYPE,
/// each type answering as a real ArduCopter SITL (4.7.0-dev, 2598e9d4) did (docs/mavlink.md §8.7). A PX4 copter has
/// no camera here (PX4's cameras are MAVLink components of their own, not modelled): camera commands are UNSUPPORTED.
extension MAVLinkCopter {
    /// CAM1_TYPE of a MAVLink camera behind the autopilot (AP_Camera.h: 6 MAVLINK_CAMV2), found and recording video.
    public static let mavlinkCameraType = 6

    /// MAV_CMD_REQUEST_MESSAGE (GCS_Common.cpp `handle_command_request_message`): an id ArduPilot maps to one of
    /// its messages is ACCEPTED and the message queued; an unknown id FAILED. CAMERA_INFORMATION and
    /// CAMERA_CAPTURE_STATUS map whether or not a camera is configured (`AP_CAMERA_ENABLED`).
    /// Other ids: FAILED here (not simulated).
    func requestMessageResult(_ param1: Float) -> MAVResult {
        guard !isPX4 else { return .unsupported }
        switch UInt32(exactly: param1) {
        case CameraInformation.messageID?, CameraCaptureStatus.messageID?: return .accepted
        default: return .failed
        }
    }

    /// What an accepted REQUEST_MESSAGE sends: nothing without a camera (CAM1_TYPE 0: no back-end); nothing from a
    /// mount back-end whose mount sends none (4, a servo mount: AP_Camera_Mount hands both to AP_Mount, whose
    /// defaults send nothing); no CAMERA_INFORMATION from a RunCam that has found no camera (8).
    func requestedMessage(_ param1: Float) -> [any MAVLinkMessage] {
        let type = parameters.cameraType
        guard type != 0, type != Self.servoMountCameraType else { return [] }
        switch UInt32(exactly: param1) {
        case CameraInformation.messageID?: return type == Self.runCamCameraType ? [] : [cameraInformation]
        case CameraCaptureStatus.messageID?: return [cameraCaptureStatus]
        default: return []
        }
    }

    /// CAM1_TYPE of a camera on a mount (AP_Camera.h: 4 MOUNT); modelled as a servo mount's, which sends no
    /// camera message (a Siyi, Topotek, Viewpro or Xacti gimbal would say CAPTURE_VIDEO: not modelled).
    static let servoMountCameraType = 4
    /// CAM1_TYPE of a RunCam (AP_Camera.h: 8 RUNCAM); modelled without its serial port: no camera found.
    static let runCamCameraType = 8
    /// CAM1_TYPE of a servo-triggered camera (AP_Camera.h: 1 SERVO).
    static let servoCameraType = 1
    /// Back-ends whose `record_video` returns true: the MAVLink camera (forwards it), scripting (7: true without a
    /// script, AP_Camera_Scripting.cpp) and RunCam (8: AP_RunCam.h, true with or without a camera).
    static let videoAcceptingCameraTypes: Set<Int> = [6, 7, 8]

    /// CAMERA_INFORMATION from the autopilot's component (as this SITL sends it; a newer master relays a MAVLink
    /// camera's with the camera's own component id). A MAVLink camera's, relayed: here image and video capture.
    /// The servo back-end's: flags 0 and zeros (AP_Camera_Servo `init` never fills the information the base
    /// sends). The other back-ends' (AP_Camera_Backend `send_camera_information`): CAPTURE_IMAGE only, NaN focal
    /// length and sensor size; `gimbal_device_id` the mount's when there is one.
    var cameraInformation: CameraInformation {
        CameraInformation {
            $0.timeBootMilliseconds = timeBootMilliseconds
            switch parameters.cameraType {
            case Self.mavlinkCameraType:
                $0.flags = [.captureVideo, .captureImage]
                $0.vendorName = MAVLinkText("FollowMe")
                $0.modelName = MAVLinkText("SimCam")
                ($0.resolutionHorizontal, $0.resolutionVertical) = (1920, 1080)
                ($0.focalLengthMillimeters, $0.sensorSizeHorizontalMillimeters, $0.sensorSizeVerticalMillimeters) = (4.5, 6.2, 4.6)
            case Self.servoCameraType:
                $0.flags = []
            default:
                $0.flags = [.captureImage]
                ($0.focalLengthMillimeters, $0.sensorSizeHorizontalMillimeters, $0.sensorSizeVerticalMillimeters) = (.nan, .nan, .nan)
            }
            $0.gimbalDeviceID = parameters.mountType != 0 ? 1 : 0
        }
    }

    /// CAMERA_CAPTURE_STATUS from the autopilot: the base back-end's for every type (AP_Camera_Backend
    /// `send_camera_capture_status`: `video_status` 0 and no recording time even while a MAVLink camera records,
    /// which AP_Camera_MAVLinkCamV2 does not override), capacity NaN.
    var cameraCaptureStatus: CameraCaptureStatus {
        CameraCaptureStatus {
            $0.timeBootMilliseconds = timeBootMilliseconds
            $0.availableCapacityMebibytes = .nan
        }
    }

    /// MAV_CMD_VIDEO_START_CAPTURE / STOP_CAPTURE (AP_Camera::handle_command): stream id 0 is the primary camera,
    /// n the n-th; ACCEPTED when the back-end's `record_video` returns true (`videoAcceptingCameraTypes`), FAILED
    /// otherwise — no camera (CAM1_TYPE 0: no primary), an instance that does not exist, or a back-end whose
    /// `record_video` is the default false (servo, relay, the older MAVLink camera 5, a servo mount). Only the
    /// MAVLink camera is modelled as recording (`isRecordingVideo`).
    mutating func recordVideo(start: Bool, streamID: Float) -> MAVResult {
        guard !isPX4 else { return .unsupported }
        guard parameters.cameraType != 0, streamID == 0 || streamID == 1 else { return .failed }
        guard Self.videoAcceptingCameraTypes.contains(parameters.cameraType) else { return .failed }
        guard parameters.cameraType == Self.mavlinkCameraType else { return .accepted }
        if start, !isRecordingVideo { videoRecordingStartedAt = time }
        if !start { videoRecordingStartedAt = nil }
        isRecordingVideo = start
        return .accepted
    }
}
