/// PARAM_VALUE (22): one parameter's value, sent in answer to PARAM_REQUEST_READ (and on changes).
/// Layout and CRC_EXTRA 220 from common.xml (cross-checked with pymavlink 2.4.50: `<fHH` +
/// `char[16]` + `B`, docs/mavlink.md §4.4).
///
/// `value` is a float on the wire whatever the parameter's type: ArduPilot converts integers to
/// float (`AP_Param::cast_to_float`), PX4 copies the integer's bytes into the float (its
/// MAV_PROTOCOL_CAPABILITY_PARAM_ENCODE_BYTEWISE); `ParameterValue` reads both.
public struct ParamValue: MAVLinkMessage {
    public var value: Float = 0
    public var count: UInt16 = 0
    public var index: UInt16 = 0
    public var parameterID: MAVLinkText = MAVLinkText(bytes: [])
    /// `MAV_PARAM_TYPE` (common.xml): 1 UINT8 … 6 INT32, 9 REAL32.
    public var type: UInt8 = 0

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 22, crcExtra: 220, name: "PARAM_VALUE")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("param_value", \.value), .scalar("param_count", \.count), .scalar("param_index", \.index),
         .text("param_id", \.parameterID, count: ParamRequestRead.parameterIDLength), .scalar("param_type", \.type)]
    }

    /// `MAV_PARAM_TYPE_REAL32` (common.xml).
    public static let real32Type: UInt8 = 9

    /// The value as a number. `bytewise`: integer parameters carry their bits in the float (PX4);
    /// otherwise they were converted to float (ArduPilot). REAL32 is a float either way.
    public func number(bytewise: Bool) -> Double {
        guard bytewise, type != Self.real32Type else { return Double(value) }
        let bits = value.bitPattern
        switch type {
        case 1: return Double(UInt8(truncatingIfNeeded: bits))
        case 2: return Double(Int8(truncatingIfNeeded: bits))
        case 3: return Double(UInt16(truncatingIfNeeded: bits))
        case 4: return Double(Int16(truncatingIfNeeded: bits))
        case 5: return Double(bits)
        default: return Double(Int32(bitPattern: bits))
        }
    }
}
