@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// The simulated Copter's camera answers as ArduPilot's AP_Camera did on a real ArduCopter SITL (docs/mavlink.md
/// §8.7): CAM1_TYPE 0 ACCEPTs REQUEST_MESSAGE CAMERA_INFORMATION and sends nothing, and FAILs VIDEO_START_CAPTURE; a
/// MAVLink camera (6) says CAPTURE_VIDEO and records; no other type says CAPTURE_VIDEO.
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

    @Test("a MAVLink camera (CAM1_TYPE 6): ACK then CAMERA_INFORMATION with CAPTURE_VIDEO; start/stop ACCEPTED; the autopilot's CAMERA_CAPTURE_STATUS says video 0 even while it records")
    func mavlinkCamera() throws {
        var gcs = Self.station(cameraType: MAVLinkCopter.mavlinkCameraType)
        let replies = Self.request(CameraInformation.messageID, &gcs)
        // The ACK first, then the message (ArduPilot queues it), from the autopilot's component
        #expect(replies.count == 2 && replies.first is CommandAck, "\(replies)")
        let information = try #require(replies.last as? CameraInformation)
        #expect(information.capturesVideo && information.flags.contains(.captureImage))
        // Stream 0 starts the primary camera
        #expect(gcs.command(.videoStartCapture, [0, 0]) == .accepted)
        #expect(gcs.copter.isRecordingVideo)
        gcs.wait(seconds: 2)
        // And the status the autopilot sends is the base back-end's: not recording, no time (as the real SITL said)
        let status = try #require(Self.request(CameraCaptureStatus.messageID, &gcs).last as? CameraCaptureStatus)
        #expect(!status.isRecording && status.recordingTimeMilliseconds == 0, "\(status)")
        // A stream that does not exist: FAILED
        #expect(gcs.command(.videoStartCapture, [2]) == .failed)
        // Stop: ACCEPTED, not recording
        #expect(gcs.command(.videoStopCapture, [0]) == .accepted)
        #expect(!gcs.copter.isRecordingVideo)
    }

    @Test("CAM1_TYPE 2 relay and 5 the older MAVLink camera: CAMERA_INFORMATION says image capture only (NaN sizes); video FAILED", arguments: [2, 5])
    func imageOnlyBackEnd(cameraType: Int) throws {
        var gcs = Self.station(cameraType: cameraType)
        let information = try #require(Self.request(CameraInformation.messageID, &gcs).last as? CameraInformation)
        #expect(!information.capturesVideo && information.flags.rawValue == CameraCapability.captureImage.rawValue)
        #expect(information.focalLengthMillimeters.isNaN)
        #expect(gcs.command(.videoStartCapture, [0]) == .failed)
        #expect(gcs.command(.videoStopCapture, [0]) == .failed)
    }

    @Test("CAM1_TYPE 1 servo: flags 0 (its information never filled); video FAILED")
    func servoBackEnd() throws {
        var gcs = Self.station(cameraType: 1)
        let information = try #require(Self.request(CameraInformation.messageID, &gcs).last as? CameraInformation)
        #expect(information.flags.rawValue == 0 && !information.capturesVideo)
        #expect(gcs.command(.videoStartCapture, [0]) == .failed)
    }

    @Test("CAM1_TYPE 4 servo mount: neither message comes; video FAILED")
    func servoMount() {
        var gcs = Self.station(cameraType: 4)
        for id in [CameraInformation.messageID, CameraCaptureStatus.messageID] {
            let replies = Self.request(id, &gcs)
            #expect(replies.count == 1 && (replies.first as? CommandAck)?.result.known == .accepted, "\(replies)")
        }
        #expect(gcs.command(.videoStartCapture, [0]) == .failed)
    }

    @Test("CAM1_TYPE 7 scripting (image only) and 8 RunCam without its camera (no CAMERA_INFORMATION): video ACCEPTED, nothing records")
    func acceptingBackEnds() throws {
        var scripting = Self.station(cameraType: 7)
        let information = try #require(Self.request(CameraInformation.messageID, &scripting).last as? CameraInformation)
        #expect(!information.capturesVideo && information.flags.rawValue == CameraCapability.captureImage.rawValue)
        #expect(scripting.command(.videoStartCapture, [0]) == .accepted && !scripting.copter.isRecordingVideo)
        var runCam = Self.station(cameraType: 8)
        let replies = Self.request(CameraInformation.messageID, &runCam)
        #expect(replies.count == 1 && replies.first is CommandAck, "\(replies)")
        #expect(Self.request(CameraCaptureStatus.messageID, &runCam).last is CameraCaptureStatus)
        #expect(runCam.command(.videoStartCapture, [0]) == .accepted && runCam.command(.videoStopCapture, [0]) == .accepted)
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
