@testable import Simulation
import Testing
@testable import ARDrone
@testable import FollowCore

@Test("Navdata round trip over 3000 generated packets: decode(encode(x)) == x")
func navdataRoundTrip() throws {
    var rng = SplitMix64(seed: 0x4E41_5644)
    for _ in 0..<3000 {
        // Given a random valid packet
        let navdata = Arbitrary.navdata(using: &rng)
        // When encoded and decoded
        let bytes = try navdata.encoded()
        let decoded = try Navdata(bytes: bytes)
        // Then the value and the bytes survive
        #expect(decoded == navdata)
        #expect(try decoded.encoded() == bytes)
    }
}

@Test("Simulator-style demo packet with magneto and GPS round-trips and sets the mode bits")
func demoPacketFactory() throws {
    // Given what a simulator would send while hovering with the GPS plugged in
    let demo = NavdataDemo(controlState: .hovering, batteryPercent: 73, thetaMillidegrees: -1500,
                           psiMillidegrees: -90_000, altitudeMillimeters: 2500,
                           bodyVelocityMillimetersPerSecond: NavdataVector3(x: 1200, y: -300, z: 0))
    let gps = NavdataGPS(latitudeDegrees: 47.3977, longitudeDegrees: 8.5456, elevationMeters: 410.5,
                         satelliteCount: 11)
    let packet = Navdata.demoPacket(state: [.flying, .navdataBootstrap], sequenceNumber: 7, demo: demo,
                                    additionalOptions: [.gps(gps)])
    // When encoded and decoded
    let bytes = try packet.encoded()
    let decoded = try Navdata(bytes: bytes)
    // Then the demo fields and mode bits are as built
    #expect(decoded.state == [.flying, .navdataDemo])
    #expect(bytes.count == 16 + 148 + 216 + 8)
    let decodedDemo = try #require(decoded.demo)
    #expect(decodedDemo.controlState == .hovering && decodedDemo.batteryPercent == 73)
    #expect(decodedDemo.psiDegrees == -90 && decodedDemo.altitudeMeters == 2.5)
    #expect(decodedDemo.bodyVelocityMetersPerSecond.x == 1.2)
    #expect(decoded.gps?.latitudeDegrees == 47.3977 && decoded.gps?.satelliteCount == 11)
    #expect(decoded.gps?.channels.count == 12)
    #expect(decoded == packet)
}

@Test("Timestamp packing matches TSECDEC")
func timestampPacking() {
    let packed = NavdataTimestamp(seconds: 362, microseconds: 979_125)
    #expect(packed.rawValue == 0x2D4E_F0B5)
    #expect(packed.totalMicroseconds == 362_979_125)
}

@Test("NavdataGPS keeps its wire arrays at 10 controller terms and 12 channels", arguments: [
    (terms: 0, channels: 0),
    (terms: 3, channels: 5),
    (terms: 10, channels: 12),
    (terms: 15, channels: 20),
])
func navdataGPSFixedArrays(terms: Int, channels: Int) {
    // Given fewer or more values than the layout holds
    let givenTerms = (0..<terms).map { Float($0 + 1) }
    let givenChannels = (0..<channels).map { NavdataGPSChannel(satelliteID: UInt8($0 + 1), carrierToNoise: 40) }
    // When a GPS option is built from them
    let gps = NavdataGPS(latitudeDegrees: 1, longitudeDegrees: 2, waypointControllerTerms: givenTerms,
                         channels: givenChannels)
    // Then the first ones are kept in order and the rest is zero / empty, at the wire's sizes
    #expect(gps.waypointControllerTerms.count == 10 && gps.channels.count == 12)
    #expect(Array(gps.waypointControllerTerms.prefix(terms)) == Array(givenTerms.prefix(10)))
    #expect(gps.waypointControllerTerms.dropFirst(terms).allSatisfy { $0 == 0 })
    #expect(Array(gps.channels.prefix(channels)) == Array(givenChannels.prefix(12)))
    #expect(gps.channels.dropFirst(channels).allSatisfy { $0 == NavdataGPSChannel(satelliteID: 0, carrierToNoise: 0) })
    #expect(gps.isGPSPlugged)
}
