/// PARAM_REQUEST_READ (20): asks a component for one parameter by name (`param_index` −1) or index;
/// answered by PARAM_VALUE. Layout and CRC_EXTRA 214 from common.xml (cross-checked with pymavlink
/// 2.4.50: fields `<hBB` + `char[16]`, docs/mavlink.md §4.4).
public struct ParamRequestRead: MAVLinkMessage {
    /// −1: use `parameterID`.
    public var parameterIndex: Int16 = -1
    public var target: MAVLinkTarget = MAVLinkTarget()
    /// Up to 16 bytes, NUL-terminated only when shorter.
    public var parameterID: MAVLinkText = MAVLinkText(bytes: [])

    public init() {}
    /// `char param_id[16]`.
    public static let parameterIDLength = 16
    public static let layout = MAVLinkLayout<Self>(id: 20, crcExtra: 214, name: "PARAM_REQUEST_READ")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("param_index", \.parameterIndex), .scalar("target_system", \.target.system),
         .scalar("target_component", \.target.component), .text("param_id", \.parameterID, count: parameterIDLength)]
    }
}
