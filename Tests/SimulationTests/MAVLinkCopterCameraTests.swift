@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// The simulated Copter's camera answers as ArduPilot's AP_Camera (docs/mavlink.md §8.7): CAM1_TYPE 0
/// ACCEPTs REQUEST_MESSAGE CAMERA_INFORMATION and sends nothing, and FAILs VIDEO_START_CAPTURE; a MAVLink camera
/// (5) says CAPTURE_VIDEO and records; ArduPilot's own back-ends say image capture only and FAIL video.
@Suite("MAVLinkCopter: the camera (AP_Camera)")
struct MAVLinkCopterCameraTests {
    static func station(cameraType: Int) -> CopterGroundStation {
        var parameters = MAVLinkCopterParameters()
        parameters.cameraType = cameraType
        return CopterGroundStation(copter: MAVLinkCopter(
            parameters: parameters, plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
    }

    /// REQUEST_MESSAGE `id`: the replies, in order (through the codec: frames in, messages out).
    static func request(_ id: UInt32, _ gcs: inout CopterGroundStation) -> [any MAVLinkMessage] {
        gcs.send(CommandLong {
            $0.params = [Float(id), 0, 0, 0, 0, 0, 0]
            $0.command = .init(.requestMessage)
            $0.target = MAVLinkTarget(system: 1, component: 1)
        })
    }

    @Test("CAM1_TYPE 0 (ArduCopter's default): REQUEST_MESSAGE CAMERA_INFORMATION ACCEPTED and nothing sent; VIDEO_START/STOP FAILED")
    func noCamera() {
        var gcs = Self.station(cameraType: 0)
        let replies = Self.request(CameraInformation.messageID, &gcs)
        #expect(replies.count == 1 && (replies.first as? CommandAck)?.result.known == .accepted, "\(replies)")
        #expect(gcs.command(.videoStartCapture, [0]) == .failed)
        #expect(gcs.command(.videoStopCapture, [0]) == .failed)
        #expect(!gcs.copter.isRecordingVideo)
        #expect(gcs.copter.cameraCommandsBySystem[255] == 3)
    }

    @Test("a MAVLink camera (CAM1_TYPE 5): ACK then CAMERA_INFORMATION with CAPTURE_VIDEO; start/stop ACCEPTED; CAMERA_CAPTURE_STATUS follows the recording")
    func mavlinkCamera() throws {
        var gcs = Self.station(cameraType: MAVLinkCopter.mavlinkCameraType)
        let replies = Self.request(CameraInformation.messageID, &gcs)
        // The ACK first, then the message (ArduPilot queues it), from the autopilot's component
        #expect(replies.count == 2 && replies.first is CommandAck, "\(replies)")
        let information = try #require(replies.last as? CameraInformation)
        #expect(information.capturesVideo && information.flags.contains(.captureImage))
        // Stream 0 starts the primary camera; the status then says recording, with its length
        #expect(gcs.command(.videoStartCapture, [0, 0]) == .accepted)
        #expect(gcs.copter.isRecordingVideo)
        gcs.wait(seconds: 2)
        let status = try #require(Self.request(CameraCaptureStatus.messageID, &gcs).last as? CameraCaptureStatus)
        #expect(status.isRecording && (1900...2100).contains(status.recordingTimeMilliseconds), "\(status)")
        // A stream that does not exist: FAILED
        #expect(gcs.command(.videoStartCapture, [2]) == .failed)
        // Stop: ACCEPTED, not recording
        #expect(gcs.command(.videoStopCapture, [0]) == .accepted)
        #expect(!gcs.copter.isRecordingVideo)
        let stopped = try #require(Self.request(CameraCaptureStatus.messageID, &gcs).last as? CameraCaptureStatus)
        #expect(!stopped.isRecording && stopped.recordingTimeMilliseconds == 0)
    }

    @Test("ArduPilot's own back-ends (servo 1, mount 4): CAMERA_INFORMATION says image capture only (NaN sizes); video FAILED", arguments: [1, 4])
    func imageOnlyBackEnd(cameraType: Int) throws {
        var gcs = Self.station(cameraType: cameraType)
        let information = try #require(Self.request(CameraInformation.messageID, &gcs).last as? CameraInformation)
        #expect(!information.capturesVideo && information.flags.rawValue == CameraCapability.captureImage.rawValue)
        #expect(information.focalLengthMillimeters.isNaN)
        #expect(gcs.command(.videoStartCapture, [0]) == .failed)
    }

    @Test("REQUEST_MESSAGE for a message not simulated: FAILED; the PX4 preset: camera commands UNSUPPORTED")
    func otherRequests() {
        var gcs = Self.station(cameraType: MAVLinkCopter.mavlinkCameraType)
        #expect((Self.request(HomePosition.messageID, &gcs).first as? CommandAck)?.result.known == .failed)
        var px4 = CopterGroundStation(copter: MAVLinkCopter(
            parameters: .px4, plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
        #expect(px4.command(.requestMessage, [Float(CameraInformation.messageID)]) == .unsupported)
        #expect(px4.command(.videoStartCapture, [0]) == .unsupported)
    }
}
