/// CAMERA_INFORMATION (259): what a camera is and can do, sent when asked with MAV_CMD_REQUEST_MESSAGE
/// (param1 259). Layout and CRC_EXTRA 92 from common.xml (cross-checked with pymavlink 2.4.50: base
/// `<IIfffIHHHBBBc` = 235 bytes, with the extensions 237; docs/mavlink.md §4.4). A camera FollowMe can
/// record with says `CameraCapability.captureVideo` in `flags` (docs/mavlink.md §4.4).
public struct CameraInformation: MAVLinkMessage {
    /// Milliseconds since the sender booted.
    public var timeBootMilliseconds: UInt32 = 0
    /// Version `0xDDCCBBAA` (major AA, minor BB, patch CC, dev DD); 0 = unknown.
    public var firmwareVersion: UInt32 = 0
    /// Focal length (mm), image sensor size horizontal and vertical (mm); NaN = unknown.
    public var focalLengthMillimeters: Float = 0
    public var sensorSizeHorizontalMillimeters: Float = 0
    public var sensorSizeVerticalMillimeters: Float = 0
    /// `CAMERA_CAP_FLAGS` bits (`CameraCapability`).
    public var flags: MAVLinkBitmask<CameraCapability> = []
    /// Image resolution, pixels; 0 = unknown.
    public var resolutionHorizontal: UInt16 = 0
    public var resolutionVertical: UInt16 = 0
    /// Version of the camera definition file (0: none).
    public var camDefinitionVersion: UInt16 = 0
    /// Vendor and model, NUL-padded (common.xml `uint8_t[32]`, text in practice).
    public var vendorName: MAVLinkText = MAVLinkText(bytes: [])
    public var modelName: MAVLinkText = MAVLinkText(bytes: [])
    /// Lens id; ArduPilot puts its camera instance here.
    public var lensID: UInt8 = 0
    /// Camera definition file URI (`char[140]`).
    public var camDefinitionURI: MAVLinkText = MAVLinkText(bytes: [])
    /// Extensions: the gimbal this camera is on (0: none) and, for a camera answering through an
    /// autopilot, which of its cameras (1–6; 0: the sender is the camera itself).
    public var gimbalDeviceID: UInt8 = 0
    public var cameraDeviceID: UInt8 = 0

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 259, crcExtra: 92, name: "CAMERA_INFORMATION")
    /// `uint8_t[32]` names: 32 bytes each.
    public static let nameLength = 32
    /// `char[140]` URI.
    public static let uriLength = 140
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("time_boot_ms", \.timeBootMilliseconds), .scalar("firmware_version", \.firmwareVersion),
         .scalar("focal_length", \.focalLengthMillimeters), .scalar("sensor_size_h", \.sensorSizeHorizontalMillimeters),
         .scalar("sensor_size_v", \.sensorSizeVerticalMillimeters), .scalar("flags", \.flags),
         .scalar("resolution_h", \.resolutionHorizontal), .scalar("resolution_v", \.resolutionVertical),
         .scalar("cam_definition_version", \.camDefinitionVersion),
         .text("vendor_name", \.vendorName, count: nameLength), .text("model_name", \.modelName, count: nameLength),
         .scalar("lens_id", \.lensID), .text("cam_definition_uri", \.camDefinitionURI, count: uriLength)]
    }
    public static var extensionFields: [MAVLinkField<Self>] {
        [.scalar("gimbal_device_id", \.gimbalDeviceID), .scalar("camera_device_id", \.cameraDeviceID)]
    }

    /// The camera records video on MAV_CMD_VIDEO_START_CAPTURE (`CAMERA_CAP_FLAGS_CAPTURE_VIDEO`).
    public var capturesVideo: Bool { flags.contains(.captureVideo) }
}
