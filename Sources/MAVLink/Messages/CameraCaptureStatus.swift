/// CAMERA_CAPTURE_STATUS (262): whether a camera is taking pictures or recording, and for how long.
/// Layout and CRC_EXTRA 12 from common.xml (cross-checked with pymavlink 2.4.50: base `<IfIfBB` = 18
/// bytes, with the extensions 23; docs/mavlink.md §4.4).
public struct CameraCaptureStatus: MAVLinkMessage {
    /// Milliseconds since the sender booted.
    public var timeBootMilliseconds: UInt32 = 0
    /// Seconds between two pictures while an interval capture runs.
    public var imageIntervalSeconds: Float = 0
    /// Milliseconds since the recording started; 0 while not recording.
    public var recordingTimeMilliseconds: UInt32 = 0
    /// Free storage, MiB; NaN = unknown (ArduPilot's own back-ends send NaN).
    public var availableCapacityMebibytes: Float = 0
    /// 0 idle, 1 capturing, 2 interval set but idle, 3 interval set and capturing.
    public var imageStatus: UInt8 = 0
    /// 0 idle, 1 recording.
    public var videoStatus: UInt8 = 0
    /// Extensions: pictures taken since boot; which of an autopilot's cameras (0: the sender itself).
    public var imageCount: Int32 = 0
    public var cameraDeviceID: UInt8 = 0

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 262, crcExtra: 12, name: "CAMERA_CAPTURE_STATUS")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds), .scalar("image_interval", \.imageIntervalSeconds),
         .scalar("recording_time_ms", \.recordingTimeMilliseconds), .scalar("available_capacity", \.availableCapacityMebibytes),
         .scalar("image_status", \.imageStatus), .scalar("video_status", \.videoStatus)]
    }
    public static var extensionFields: [MAVLinkField<Self>] {
        [.scalar("image_count", \.imageCount), .scalar("camera_device_id", \.cameraDeviceID)]
    }

    /// `video_status` 1: recording.
    public var isRecording: Bool { videoStatus == 1 }
}
