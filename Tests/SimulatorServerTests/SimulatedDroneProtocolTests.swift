import ARDroneProtocol
import SimulatorServer
import Simulation
import Testing

/// The drone-side protocol rules of the simulator, without sockets.
@Suite("Simulated drone protocol")
struct SimulatedDroneProtocolTests {
    private func datagram(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("sequence numbers: not greater than the last accepted is ignored, 1 resets", arguments: [
        ([1, 2, 3], [1, 2, 3]),
        ([5, 5, 4, 6], [5, 6]),
        ([10, 3, 1, 2, 3], [10, 1, 2, 3]),
        ([7, 1, 1, 0, 2], [7, 1, 1, 2]),
        ([100, 99, 101], [100, 101]),
    ] as [([UInt32], [UInt32])])
    func sequenceFiltering(sent: [UInt32], accepted: [UInt32]) {
        // Given a fresh drone, when COMWDG commands arrive one datagram each with these numbers…
        var proto = SimulatedDroneProtocol()
        var applied: [UInt32] = []
        for seq in sent {
            if !proto.receiveATDatagram(datagram("AT*COMWDG=\(seq)\r")).isEmpty { applied.append(seq) }
        }
        // …then exactly the expected ones are applied and the rest counted as stale.
        #expect(applied == accepted)
        #expect(proto.counters.acceptedCommands == accepted.count)
        #expect(proto.counters.staleCommands == sent.count - accepted.count)
    }

    @Test("stale commands inside one datagram are dropped individually")
    func staleWithinDatagram() {
        var proto = SimulatedDroneProtocol()
        _ = proto.receiveATDatagram(datagram("AT*COMWDG=20\r"))
        // When a datagram carries seq 19 (stale) and 21 (fresh).
        let inputs = proto.receiveATDatagram(datagram("AT*REF=19,290718208\rAT*REF=21,290717696\r"))
        // Then only the land REF (21) is applied.
        #expect(inputs == [.ref(takeoff: false, emergencyToggle: false)])
        #expect(proto.lastAcceptedSequenceNumber == 21)
    }

    @Test("a malformed datagram is counted and ignored whole", arguments: [
        "AT*REF=1,abc\r", "AT*REF=1,290718208", "hello", "AT*PCMD=1,1,0,0,0\r", "AT*COMWDG=2\rAT*XYZ=3\r", "",
    ])
    func malformed(text: String) {
        var proto = SimulatedDroneProtocol()
        let inputs = proto.receiveATDatagram(datagram(text))
        #expect(inputs.isEmpty)
        #expect(proto.counters.malformedDatagrams == 1)
        #expect(proto.counters.acceptedCommands == 0)
        #expect(proto.lastDecodingError != nil)
        #expect(proto.lastAcceptedSequenceNumber == nil)
    }

    static let mappings: [(ATCommand, SimulatorInput)] = [
        (.ref(.takeoff), .ref(takeoff: true, emergencyToggle: false)),
        (.ref(.land), .ref(takeoff: false, emergencyToggle: false)),
        (.ref(.emergencyToggle), .ref(takeoff: false, emergencyToggle: true)),
        (.pcmd(ProgressiveCommand(rollFraction: 0.25, pitchFraction: -0.5, gazFraction: 0.75, yawFraction: -1)),
         .pcmd(progressive: true, roll: 0.25, pitch: -0.5, gaz: 0.75, yaw: -1)),
        (.pcmd(.hover), .hover),
        (.pcmdMag(ProgressiveCommand(pitchFraction: -0.1), ControllerHeading(psiFraction: 0.5, psiAccuracyFraction: 0.1)),
         .pcmd(progressive: true, roll: 0, pitch: -0.1, gaz: 0, yaw: 0)),
        (.config(key: "control:altitude_max", value: "3000"), .config(key: "control:altitude_max", value: "3000")),
        (.ctrl(.acknowledgeCommand), .ctrlAck),
        (.ctrl(.configurationGet), .comwdg),
        (.configIDs(sessionID: "00000000", userID: "00000000", applicationID: "00000000"), .comwdg),
        (.calib(.magnetometer), .comwdg),
        (.ftrim, .ftrim),
        (.comwdg, .comwdg),
    ]

    @Test("AT commands map to simulator inputs", arguments: mappings)
    func mapping(command: ATCommand, input: SimulatorInput) throws {
        // Also through the wire: encode, then receive as the drone would.
        #expect(SimulatedDroneProtocol.simulatorInput(for: command) == input)
        var encoder = ATEncoder()
        var proto = SimulatedDroneProtocol()
        let bytes = try encoder.encodeDatagram([command])
        #expect(proto.receiveATDatagram(bytes) == [input])
    }

    /// A landed drone that has heard no client yet (com watchdog bit set), battery 87 %, psi 45°.
    static let landed: SimulatedNavdata = {
        var navdata = DroneSimulator(start: .zero).navdata
        navdata.batteryPercent = 87
        navdata.psiMillidegrees = 45_000
        return navdata
    }()

    @Test("navdata: bootstrap, then demo after navdata_demo TRUE, numbered from 1")
    func navdataModes() throws {
        // Given a drone that has just booted.
        var proto = SimulatedDroneProtocol()
        // Then it sends bootstrap packets: bit 11, no options, sequence 1, 2.
        for expectedSequence: UInt32 in 1...2 {
            let packet = proto.nextNavdataPacket(for: Self.landed)
            #expect(packet.sequenceNumber == expectedSequence)
            #expect(packet.state.contains(.navdataBootstrap))
            #expect(!packet.state.contains(.navdataDemo))
            #expect(packet.state.contains(.communicationWatchdog))
            #expect(packet.options.isEmpty)
            // And the packet survives the real codec (checksum included).
            #expect(try Navdata(bytes: packet.encoded()) == packet)
        }
        // When the client configures demo navdata.
        _ = proto.receiveATDatagram(Array("AT*CONFIG=1,\"general:navdata_demo\",\"TRUE\"\r".utf8))
        // Then packets carry the demo option and bit 10, without bit 11; numbering continues.
        var flags = Self.landed
        flags.state.insert(.navdataDemo)
        let packet = proto.nextNavdataPacket(for: flags)
        #expect(proto.navdataMode == .demo)
        #expect(packet.sequenceNumber == 3)
        #expect(packet.state.contains(.navdataDemo))
        #expect(!packet.state.contains(.navdataBootstrap))
        let demo = try #require(packet.demo)
        #expect(demo.controlState == .landed)
        #expect(demo.batteryPercent == 87)
        #expect(demo.psiMillidegrees == 45_000)
        #expect(try Navdata(bytes: packet.encoded()) == packet)
    }

    @Test("navdata_demo FALSE leaves bootstrap without the demo bit")
    func fullMode() throws {
        var proto = SimulatedDroneProtocol()
        _ = proto.receiveATDatagram(Array("AT*CONFIG=1,\"general:navdata_demo\",\"FALSE\"\r".utf8))
        let packet = proto.nextNavdataPacket(for: Self.landed)
        #expect(proto.navdataMode == .full)
        #expect(!packet.state.contains(.navdataBootstrap))
        #expect(!packet.state.contains(.navdataDemo))
        #expect(packet.demo != nil)
    }

    @Test("simulator flags keep their SDK bit positions in the state word")
    func stateWord() {
        // Given every flag the simulator models.
        var navdata = Self.landed
        navdata.state = [.flying, .commandAck, .navdataDemo, .batteryLow, .comWatchdog, .emergency]
        let state = SimulatedDroneProtocol.droneState(for: navdata)
        // Then each lands on the bit DroneState names for it, plus the always-on thread bits.
        let expected: DroneState = [.flying, .commandAcknowledged, .navdataDemo, .batteryLow, .communicationWatchdog,
                                    .emergency, .picVersionOK, .atCodecThreadOn, .navdataThreadOn, .videoThreadOn,
                                    .acquisitionThreadOn]
        #expect(state == expected)
    }
}
