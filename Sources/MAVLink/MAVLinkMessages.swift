/// The messages this codec knows, by id (docs/mavlink.md §4.4): one file each in `Messages/`, whose
/// properties are in the wire order of its `fields` (largest type first, §4.2), extensions last.
public enum MAVLinkMessages {
    /// Every message type, in id order.
    public static let all: [any MAVLinkMessage.Type] = [
        Heartbeat.self, SysStatus.self, ParamRequestRead.self, ParamValue.self, Attitude.self, LocalPositionNED.self, GlobalPositionInt.self,
        CommandInt.self, CommandLong.self, CommandAck.self, SetPositionTargetLocalNED.self, FollowTarget.self,
        HomePosition.self, ExtendedSysState.self, StatusText.self, CameraInformation.self, CameraCaptureStatus.self,
    ]

    /// `all` by message id, built once (the parser looks up every frame's id).
    static let byID: [UInt32: any MAVLinkMessage.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.messageID, $0) })

    /// The type for `messageID`, nil when unknown.
    public static func type(for messageID: UInt32) -> (any MAVLinkMessage.Type)? {
        byID[messageID]
    }

    /// CRC_EXTRA for `messageID`, nil when unknown (the parser then cannot check the frame).
    public static func crcExtra(_ messageID: UInt32) -> UInt8? {
        type(for: messageID)?.crcExtra
    }

    /// The typed message in `frame`; nil for an id this codec does not know.
    public static func message(in frame: MAVLinkFrame) -> (any MAVLinkMessage)? {
        type(for: frame.messageID)?.init(payload: frame.payload)
    }
}
