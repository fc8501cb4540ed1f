@testable import ARDrone
@testable import Simulation
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
        #expect(proto.counters[.acceptedCommands] == accepted.count)
        #expect(proto.counters[.staleCommands] == sent.count - accepted.count)
    }

    @Test("stale commands inside one datagram are dropped individually")
    func staleWithinDatagram() {
        var proto = SimulatedDroneProtocol()
        _ = proto.receiveATDatagram(datagram("AT*COMWDG=20\r"))
        // When a datagram carries seq 19 (stale) and 21 (fresh).
        let inputs = proto.receiveATDatagram(datagram("AT*REF=19,290718208\rAT*REF=21,290717696\r"))
        // Then only the land REF (21) is applied.
        #expect(inputs == [.ref(REFInput(flying: false, emergencyToggle: false))])
        #expect(proto.lastAcceptedSequenceNumber == 21)
    }

    @Test("a malformed datagram is counted and ignored whole", arguments: [
        "AT*REF=1,abc\r", "AT*REF=1,290718208", "hello", "AT*PCMD=1,1,0,0,0\r", "AT*COMWDG=2\rAT*XYZ=3\r", "",
    ])
    func malformed(text: String) {
        var proto = SimulatedDroneProtocol()
        let inputs = proto.receiveATDatagram(datagram(text))
        #expect(inputs.isEmpty)
        #expect(proto.counters[.malformedDatagrams] == 1)
        #expect(proto.counters[.acceptedCommands] == 0)
        #expect(proto.lastDecodingError != nil)
        #expect(proto.lastAcceptedSequenceNumber == nil)
    }

    static let commands: [ATCommand] = [
        .ref(.takeoff), .ref(.land), .ref(.emergencyToggle),
        .pcmd(ProgressiveCommand(rollFraction: 0.25, pitchFraction: -0.5, gazFraction: 0.75, yawFraction: -1)),
        .pcmd(.hover),
        .pcmdMag(ProgressiveCommand(pitchFraction: -0.1), ControllerHeading(psiFraction: 0.5, psiAccuracyFraction: 0.1)),
        .config(key: "control:altitude_max", value: "3000"),
        .ctrl(.acknowledgeCommand), .ctrl(.configurationGet),
        .configIDs(sessionID: "00000000", userID: "00000000", applicationID: "00000000"),
        .calib(.magnetometer), .ftrim, .comwdg,
    ]

    @Test("every AT command reaches the simulator as the codec decodes it", arguments: commands)
    func passesThrough(command: ATCommand) throws {
        // Given a command encoded as a client sends it, when the drone side receives the datagram,
        // then the simulator gets the same ATCommand value (what it does with it: DroneSimulatorTests).
        var encoder = ATEncoder()
        var proto = SimulatedDroneProtocol()
        let bytes = try encoder.encodeDatagram([command])
        #expect(proto.receiveATDatagram(bytes) == [command])
    }

    /// A landed drone that has heard no client yet (com watchdog bit set), battery 87 %, psi 45°.
    static let landed: (state: DroneState, demo: NavdataDemo) = {
        let simulator = DroneSimulator(start: .zero)
        var demo = simulator.demoOption
        demo.batteryPercent = 87
        demo.psiMillidegrees = 45_000
        return (simulator.droneState, demo)
    }()

    @Test("navdata: bootstrap, then demo after navdata_demo TRUE, numbered from 1")
    func navdataModes() throws {
        // Given a drone that has just booted.
        var proto = SimulatedDroneProtocol()
        // Then it sends bootstrap packets: bit 11, no options, sequence 1, 2.
        for expectedSequence: UInt32 in 1...2 {
            let packet = proto.nextNavdataPacket(state: Self.landed.state, demo: Self.landed.demo)
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
        let packet = proto.nextNavdataPacket(state: Self.landed.state.union(.navdataDemo), demo: Self.landed.demo)
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
        let packet = proto.nextNavdataPacket(state: Self.landed.state, demo: Self.landed.demo)
        #expect(proto.navdataMode == .full)
        #expect(!packet.state.contains(.navdataBootstrap))
        #expect(!packet.state.contains(.navdataDemo))
        #expect(packet.demo != nil)
    }

    @Test("the header state word is the simulator's bits plus the always-on ones")
    func stateWord() {
        // Given every bit the simulator models.
        let simulated: DroneState = [.flying, .commandAcknowledged, .navdataDemo, .batteryLow, .communicationWatchdog,
                                     .emergency]
        let state = SimulatedDroneProtocol.headerState(simulated)
        // Then the header carries each, plus the always-on thread bits.
        let expected: DroneState = [.flying, .commandAcknowledged, .navdataDemo, .batteryLow, .communicationWatchdog,
                                    .emergency, .picVersionOK, .atCodecThreadOn, .navdataThreadOn, .videoThreadOn,
                                    .acquisitionThreadOn]
        #expect(state == expected)
    }
}
