import Foundation
@testable import Simulation
import Testing
@testable import ARDrone

/// Expected values: `Fixtures/PROVENANCE.md` and docs/ardrone-protocol.md §6 (node-ar-drone
/// `test-parseNavdata.js` at 11667d46, go-ardrone `decoder_test.go`).
private let fullOptionList: [(tag: UInt16, size: Int)] = [
    (0, 148), (1, 8), (2, 52), (3, 46), (4, 16), (5, 12), (6, 88), (7, 16), (8, 24), (9, 76), (10, 56),
    (11, 16), (12, 44), (13, 92), (14, 108), (15, 364), (16, 328), (17, 8), (18, 40), (19, 65), (20, 12),
    (21, 18), (22, 75), (23, 56), (24, 72), (25, 32), (26, 8), (27, 216),
]

/// Reads the stored checksum (last 4 bytes) of a packet.
private func storedChecksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.suffix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
}

@Test("The fuzz seed corpus (Fuzz/corpus/navdata) holds byte-exact copies of the fixture files", arguments: Fixture.allNavdata)
func fuzzCorpusMatchesFixtures(name: String) throws {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    let copy = FileManager.default.contents(atPath: url.appendingPathComponent("Fuzz/corpus/navdata/\(name)").path)
    #expect(copy.map { [UInt8]($0) } == (try Fixture.bytes(name)), "\(name)")
}

@Test("fw 2.4.8 capture: header and state word")
func fw248Header() throws {
    let navdata = try Navdata(bytes: Fixture.bytes(Fixture.fw248GPS))
    #expect(navdata.magic == .standard)
    #expect(navdata.state.rawValue == 0x4F80_00D0)
    #expect(navdata.state == [.altitudeControlActive, .commandAcknowledged, .cameraReady, .picVersionOK,
                              .atCodecThreadOn, .navdataThreadOn, .videoThreadOn, .acquisitionThreadOn,
                              .communicationWatchdog])
    #expect(!navdata.state.contains(.flying) && !navdata.state.contains(.navdataDemo))
    #expect(!navdata.state.contains(.navdataBootstrap) && !navdata.state.contains(.batteryLow))
    #expect(!navdata.state.contains(.emergency))
    #expect(navdata.sequenceNumber == 300_711)
    #expect(navdata.visionFlag == 1 && navdata.isVisionDefined)
}

@Test("fw 2.4.8 capture: option tags and sizes in wire order")
func fw248OptionList() throws {
    let navdata = try Navdata(bytes: Fixture.bytes(Fixture.fw248GPS))
    #expect(navdata.options.map(\.tag.rawValue) == fullOptionList.map(\.tag))
    #expect(navdata.options.map(\.wireSize) == fullOptionList.map(\.size))
}

@Test("fw 2.4.8 capture: demo option")
func fw248Demo() throws {
    let demo = try #require(try Navdata(bytes: Fixture.bytes(Fixture.fw248GPS)).demo)
    #expect(demo.controlStateWord == 0x0002_0000)
    #expect(demo.controlState == .landed)
    #expect(demo.controlStateMajor == 2 && demo.controlStateMinor == 0)
    #expect(demo.batteryPercent == 50)
    #expect(demo.thetaMillidegrees == 2974 && demo.phiMillidegrees == 550 && demo.psiMillidegrees == 1933)
    #expect(demo.thetaDegrees == 2.974 && demo.phiDegrees == 0.55 && demo.psiDegrees == 1.933)
    #expect(demo.altitudeMillimeters == 0 && demo.altitudeMeters == 0)
    #expect(demo.bodyVelocityMillimetersPerSecond.x == Float(0.0585307739675045))
    #expect(demo.bodyVelocityMillimetersPerSecond.y == Float(-0.8817979097366333))
    #expect(demo.bodyVelocityMillimetersPerSecond.z == 0)
    #expect(demo.bodyVelocityMetersPerSecond.y == Double(Float(-0.8817979097366333)) / 1000)
    #expect(demo.trailingBytes.count == NavdataDemo.legacyTrailingByteCount)
}

@Test("fw 2.4.8 capture: time and magnetometer options")
func fw248TimeAndMagneto() throws {
    let navdata = try Navdata(bytes: Fixture.bytes(Fixture.fw248GPS))
    let time = try #require(navdata.time)
    #expect(time.time.rawValue == 0x2D4E_F0B5)
    #expect(time.time.seconds == 362 && time.time.microseconds == 979_125)
    #expect(time.time.totalMilliseconds == 362_979.125)
    let magneto = try #require(navdata.magneto)
    #expect(magneto.rawCounts == NavdataInt16Vector3(x: 30, y: -56, z: 80))
    #expect(magneto.rawMilligauss == NavdataVector3(x: 189, y: -100.8984375, z: -278.4375))
    #expect(magneto.headingUnwrappedDegrees == 0)
    #expect(magneto.headingGyroUnwrappedDegrees == Float(0.00041322660399600863))
    #expect(magneto.headingFusionUnwrappedDegrees == Float(1.933355689048767))
    #expect(magneto.calibrationOKByte == 1 && magneto.isCalibrationOK)
    #expect(magneto.magnetoState == 2)
    #expect(magneto.radius == 387.31146240234375)
    #expect(magneto.errorMean == -211.51361083984375)
    #expect(magneto.errorVariance == 79.3671875)
    #expect(magneto.extensionBytes.isEmpty)
}

@Test("fw 2.4.8 capture: GPS option (216-byte layout)")
func fw248GPS() throws {
    let gps = try #require(try Navdata(bytes: Fixture.bytes(Fixture.fw248GPS)).gps)
    #expect(gps.latitudeDegrees == 34.0905016 && gps.longitudeDegrees == -118.2766877)
    #expect(gps.elevationMeters == 122.64 && gps.hdop == 1)
    #expect(gps.dataAvailable == 7 && gps.isZeroValidated && gps.waypointValidatedFlag == 0)
    #expect(gps.latitude0Degrees == 34.0905016 && gps.longitude0Degrees == -118.2766877)
    #expect(gps.latitudeFusedDegrees == 34.0904833 && gps.longitudeFusedDegrees == -118.2766982)
    #expect(gps.gpsState == 1)
    #expect(gps.speed == 0.10000000149011612)
    #expect(gps.lastFrameTimestamp.totalMilliseconds == 2409.591)
    #expect(gps.degree == 141.00999450683594 && gps.degreeMagnetic == 0)
    #expect(gps.ehpe == 8.260000228881836 && gps.ehve == 0.429999977350235)
    #expect(gps.carrierToNoise == 28 && gps.satelliteCount == 9)
    let expectedChannels: [(UInt8, UInt8)] = [(10, 26), (5, 21), (8, 27), (3, 17), (13, 18), (7, 32), (9, 23),
                                              (27, 9), (19, 19), (28, 29), (30, 26), (138, 0)]
    #expect(gps.channels == expectedChannels.map { NavdataGPSChannel(satelliteID: $0.0, carrierToNoise: $0.1) })
    #expect(gps.isGPSPlugged && gps.ephemerisStatus == 73)
    #expect(gps.vxTraj == 0 && gps.vyTraj == 0 && gps.firmwareStatus == 1)
}

struct ChecksumCase: Sendable, CustomTestStringConvertible {
    let file: String
    let checksum: UInt32
    var testDescription: String { file }
}

@Test("Checksums verify and re-encoding reproduces every capture byte for byte", arguments: [
    ChecksumCase(file: Fixture.fw248GPS, checksum: 46179),
    ChecksumCase(file: Fixture.full2012, checksum: 36358),
    ChecksumCase(file: Fixture.fw247GPS480, checksum: 57639),
    ChecksumCase(file: Fixture.bootstrap, checksum: 678),
])
func checksums(example: ChecksumCase) throws {
    let bytes = try Fixture.bytes(example.file)
    #expect(storedChecksum(bytes) == example.checksum)
    #expect(Navdata.checksum(of: bytes.dropLast(8)) == example.checksum)
    let navdata = try Navdata(bytes: bytes)
    #expect(try navdata.encoded() == bytes)
}

@Test("2012 capture (= go-ardrone fixture): 12-byte zimmu option kept raw")
func capture2012() throws {
    let navdata = try Navdata(bytes: Fixture.bytes(Fixture.full2012))
    #expect(navdata.state.rawValue == 1_333_788_880)
    #expect(navdata.sequenceNumber == 300_711 && navdata.visionFlag == 1)
    let demo = try #require(navdata.demo)
    #expect(demo.controlState == .landed && demo.controlStateMinor == 0)
    #expect(demo.batteryPercent == 50 && demo.altitudeMillimeters == 0)
    #expect(navdata.gps == nil)
    #expect(navdata.options.last == .raw(NavdataRawOption(tag: .gps, payload: Array(repeating: 0, count: 8))))
    #expect(navdata.options.map(\.wireSize) == fullOptionList.dropLast().map(\.size) + [12])
}

@Test("fw 2.4.7 capture: 480-byte GPS option is skipped by size, everything else decodes")
func capture247() throws {
    let navdata = try Navdata(bytes: Fixture.bytes(Fixture.fw247GPS480))
    let reference = try Navdata(bytes: Fixture.bytes(Fixture.fw248GPS))
    #expect(navdata.gps == nil)
    guard case .raw(let gps)? = navdata.options.last else {
        Issue.record("tag 27 should be raw, got \(String(describing: navdata.options.last))")
        return
    }
    #expect(gps.tag == .gps && gps.payload.count == 476)
    // The raw bytes are the capture's: node-ar-drone's old fw 2.4.7 layout (lat@+4, elevation@+20,
    // relative to the option start) still reads latitude 34.0903478 and elevation 130.39 from them.
    let latitudeBits = gps.payload[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let elevationBits = gps.payload[16..<24].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    #expect(Double(bitPattern: latitudeBits) == 34.0903478)
    #expect(Double(bitPattern: elevationBits) == 130.39)
    #expect(Array(navdata.options.dropLast()) == Array(reference.options.dropLast()))
    #expect(navdata.options.map(\.tag.rawValue) == fullOptionList.map(\.tag))
}

@Test("Bootstrap packet: header and checksum only")
func bootstrapPacket() throws {
    let navdata = try Navdata(bytes: Fixture.bytes(Fixture.bootstrap))
    #expect(navdata.state.rawValue == 0x4F80_0C10)
    #expect(navdata.state.contains(.navdataBootstrap) && navdata.state.contains(.navdataDemo))
    #expect(navdata.state.contains(.communicationWatchdog) && navdata.state.contains(.altitudeControlActive))
    #expect(!navdata.state.contains(.commandAcknowledged))
    #expect(navdata.sequenceNumber == 1 && navdata.visionFlag == 0)
    #expect(navdata.options.isEmpty && navdata.demo == nil)
    #expect(try Navdata.bootstrap(state: DroneState(rawValue: 0x4F80_0410), sequenceNumber: 1).encoded()
        == Fixture.bytes(Fixture.bootstrap))
}

@Test("Derived demo-only packet: first 164 bytes of the capture plus checksum 7605")
func derivedDemoPacket() throws {
    var bytes = Array(try Fixture.bytes(Fixture.fw248GPS).prefix(164))
    #expect(Navdata.checksum(of: bytes) == 7605)
    bytes += [0xFF, 0xFF, 0x08, 0x00, 0xB5, 0x1D, 0x00, 0x00]  // 7605 = 0x1DB5
    let navdata = try Navdata(bytes: bytes)
    #expect(bytes.count == 172)
    #expect(navdata.options.count == 1 && navdata.demo?.batteryPercent == 50)
}

@Test("Every state bit has its own name")
func stateBitNames() {
    #expect(DroneState.namedBits.count == 32)
    for (index, entry) in DroneState.namedBits.enumerated() {
        #expect(entry.bit.rawValue == 1 << UInt32(index), "\(entry.name)")
    }
    #expect(Set(DroneState.namedBits.map(\.name)).count == 32)
    #expect(DroneState(rawValue: 0x4F80_0C10).setBitNames == [
        "altitudeControlActive", "navdataDemo", "navdataBootstrap", "picVersionOK", "atCodecThreadOn",
        "navdataThreadOn", "videoThreadOn", "acquisitionThreadOn", "communicationWatchdog",
    ])
}
