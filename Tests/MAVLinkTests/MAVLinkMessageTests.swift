@testable import MAVLink
import Testing

// Typed messages: what the follow code will read and write (docs/mavlink.md §4–5).

@Suite("MAVLink messages and enums")
struct MAVLinkMessageTests {
    @Test("typed messages come back equal from their frames (text, enums, vectors, extensions)")
    func typedRoundTrip() throws {
        var home = HomePosition()
        home.latitudeLongitude = .init(latitudeE7: -337_000_000, longitudeE7: 1_512_000_000)
        home.altitudeMSLMillimeters = 25_000
        home.positionNEDMeters = [1, 2, -3]
        home.quaternion = [1, 0, 0, 0]
        home.timeMicroseconds = 1_700_000_000_000_000
        let messages: [any MAVLinkMessage] = [
            StatusText {
                $0.severity = .init(.warning)
                $0.text = "PreArm: Need 3D Fix"
                $0.id = 0
                $0.chunkSequence = 0
            },
            Heartbeat {
                ($0.customMode, $0.type, $0.autopilot) = (ArduCopterMode.brake.rawValue, .init(.quadrotor), .init(.ardupilotmega))
                ($0.baseMode, $0.systemStatus, $0.mavlinkVersion) = ([.customModeEnabled, .safetyArmed], .init(.active), 3)
            },
            ExtendedSysState { $0.vtolState = .init(.undefined); $0.landedState = .init(.landing) },
            CommandAck {
                $0.command = .init(.navTakeoff)
                $0.result = .init(.inProgress)
                $0.progress = 40
                $0.resultParam2 = -7
                $0.target = .init(system: 255, component: 190)
            },
            home,
        ]
        for message in messages {
            let frame = try MAVLinkFrame(bytes: message.encoded(sequence: 1, systemID: 1, componentID: 1))
            let decoded = try #require(MAVLinkMessages.message(in: frame))
            let equal = isEqual(decoded, message)
            #expect(equal, "\(type(of: message).messageName)")
        }
    }

    private func isEqual<M: MAVLinkMessage>(_ decoded: any MAVLinkMessage, _ message: M) -> Bool {
        (decoded as? M) == message
    }

    @Test("a value no enum names survives decoding and re-encoding, with known == nil")
    func unknownEnumValue() throws {
        let heartbeat = Heartbeat { $0.type = .init(rawValue: 99); $0.systemStatus = .init(rawValue: 200) }
        let decoded = try Heartbeat(frame: MAVLinkFrame(bytes: heartbeat.encoded(sequence: 0, systemID: 1, componentID: 1)))
        #expect(decoded.systemStatus.rawValue == 200 && decoded.systemStatus.known == nil && decoded.type.rawValue == 99)
        #expect(Heartbeat { $0.systemStatus = .init(.standby) }.systemStatus.known == .standby)
    }

    @Test("an all-zero message is sent with its first payload byte only; a text is cut at 50 bytes")
    func truncationAndText() throws {
        #expect(ExtendedSysState().frame(sequence: 0, systemID: 1, componentID: 1).payload == [0])
        let long = StatusText { $0.text = MAVLinkText(String(repeating: "x", count: 60)) }
        let decoded = try StatusText(frame: MAVLinkFrame(bytes: long.encoded(sequence: 0, systemID: 1, componentID: 1)))
        #expect(decoded.text.string == String(repeating: "x", count: 50))
    }

    @Test("degE7 positions read as degrees")
    func degreesE7() {
        let position = LatitudeLongitudeE7(latitudeE7: 473_977_420, longitudeE7: -1_224_194_000)
        #expect(position.latitudeDegrees == 47.397742 && position.longitudeDegrees == -122.4194)
    }

    @Test("the mode and mask numbers a follow sends (ArduCopter, PX4, velocity + yaw rate)")
    func modeNumbers() {
        #expect(ArduCopterMode.guided.rawValue == 4 && ArduCopterMode.loiter.rawValue == 5)
        #expect(ArduCopterMode.land.rawValue == 9 && ArduCopterMode.brake.rawValue == 17)
        // PX4: custom_mode bytes [0, 0, main, sub].
        #expect(PX4Mode.offboard.customMode == 0x0006_0000)
        #expect(PX4Mode.autoLand.customMode == 0x0604_0000 && PX4Mode.autoLoiter.customMode == 0x0304_0000)
        #expect(PX4Mode(customMode: 0x0604_0000) == .autoLand)
        #expect(MAVLinkBitmask<PositionTargetTypeBit>.velocityAndYawRate.rawValue == 1479)
        let mask = MAVLinkBitmask<PositionTargetTypeBit>.velocityAndYawRate
        #expect(!mask.contains(.vxIgnore) && !mask.contains(.yawRateIgnore) && mask.contains(.yawIgnore))
        #expect(MAVCommand.componentArmDisarm.rawValue == 400 && MAVCommand.setMessageInterval.rawValue == 511)
        #expect(MAVCommand.navTakeoff.rawValue == 22 && MAVCommand.navLand.rawValue == 21 && MAVCommand.doSetMode.rawValue == 176)
        #expect(MAVCommand.doSetROILocation.rawValue == 195 && MAVCommand.doSetROINone.rawValue == 197)
    }
}
