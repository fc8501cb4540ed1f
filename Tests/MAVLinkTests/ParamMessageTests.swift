@testable import MAVLink
import Testing

// PARAM_REQUEST_READ (20) and PARAM_VALUE (22), and COMMAND_ACK's target extension (issue 22):
// byte for byte as pymavlink 2.4.50 (ardupilotmega v2.0 dialect) packs them.
@Suite("MAVLink parameter messages")
struct ParamMessageTests {
    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { i in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test("PARAM_REQUEST_READ FS_GCS_ENABLE, index −1, to 1/1: pymavlink's frame (CRC_EXTRA 214)")
    func paramRequestRead() {
        // pymavlink: MAVLink_param_request_read_message(1, 1, b'FS_GCS_ENABLE', -1).pack(mav) from 1/1, sequence 0
        let expected = Self.bytes("fd110000000101140000ffff010146535f4743535f454e41424c458f6d")
        let message = ParamRequestRead {
            $0.parameterIndex = -1
            $0.target = MAVLinkTarget(system: 1, component: 1)
            $0.parameterID = MAVLinkText("FS_GCS_ENABLE")
        }
        #expect(message.encoded(sequence: 0, systemID: 1, componentID: 1) == expected)
    }

    @Test("PARAM_VALUE FS_GCS_ENABLE = 1.0 (INT8, 37 of 900): decoded from pymavlink's frame (CRC_EXTRA 220)")
    func paramValue() throws {
        // pymavlink: MAVLink_param_value_message(b'FS_GCS_ENABLE', 1.0, MAV_PARAM_TYPE_INT8, 900, 37), sequence 1
        let frame = try MAVLinkFrame(bytes: Self.bytes("fd1900000001011600000000803f8403250046535f4743535f454e41424c450000000221a1"))
        let value = try #require(MAVLinkMessages.message(in: frame) as? ParamValue)
        #expect(value.parameterID.string == "FS_GCS_ENABLE")
        #expect(value.value == 1 && value.count == 900 && value.index == 37 && value.type == 2)
        #expect(value.number(bytewise: false) == 1)
    }

    @Test("PARAM_VALUE integers: PX4 sends their bits in the float (bytewise), ArduPilot the converted value")
    func bytewise() {
        func param(_ value: Float, type: UInt8) -> ParamValue {
            var param = ParamValue()
            param.value = value
            param.type = type
            return param
        }
        let px4 = param(Float(bitPattern: 4), type: 6)
        #expect(px4.number(bytewise: true) == 4)
        let negative = param(Float(bitPattern: UInt32(bitPattern: -1)), type: 6)
        #expect(negative.number(bytewise: true) == -1)
        let real = param(1.5, type: 9)
        #expect(real.number(bytewise: true) == 1.5)
    }

    @Test("COMMAND_ACK target_system/target_component extension: decoded from pymavlink's frame")
    func commandAckTarget() throws {
        // pymavlink: MAVLink_command_ack_message(176, 0, 0, 0, 245, 190), sequence 2
        let frame = try MAVLinkFrame(bytes: Self.bytes("fd0a00000001014d0000b000000000000000f5bebdee"))
        let ack = try #require(MAVLinkMessages.message(in: frame) as? CommandAck)
        #expect(ack.command.known == .doSetMode && ack.result.known == .accepted)
        #expect(ack.target == MAVLinkTarget(system: 245, component: 190))
    }
}
