import Foundation  // test-only: the child process, a scratch file, JSON
@testable import MAVLink
@testable import FollowCore
import Testing

// Against pymavlink itself, as a child process (Tests/MAVLinkTests/pymavlink_vectors.py; pymavlink
// pinned and installed into .build/pymavlink-venv by `scripts/ensure-deps.sh --test`).

/// Runs pymavlink_vectors.py with `arguments`; its stdout.
private func pymavlink(_ arguments: [String]) throws -> String {
    let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    let python = ProcessInfo.processInfo.environment["FOLLOWME_PYMAVLINK_PYTHON"]
        ?? repository.appendingPathComponent(".build/pymavlink-venv/bin/python3").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
        throw VectorError.missing("\(python): run scripts/ensure-deps.sh --test (installs pymavlink) or set FOLLOWME_PYMAVLINK_PYTHON")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [testsDirectory.appendingPathComponent("pymavlink_vectors.py").path] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw VectorError.malformed("pymavlink_vectors.py \(arguments): \(errorText)") }
    return String(decoding: data, as: UTF8.self)
}

/// pymavlink's reading of each frame: header and field bits, one per line.
private func pymavlinkDecode(_ frames: [[UInt8]]) throws -> [[String: Any]] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("mavlink-frames-\(getpid())-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: file) }
    try frames.map(Hex.string).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    return try pymavlink(["decode", file.path]).split(separator: "\n").map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw VectorError.malformed(String(line))
        }
        return object
    }
}

@Suite("pymavlink cross-check (child process)", .serialized)
struct PymavlinkCrossCheckTests {
    @Test("the checked-in vector file is exactly what pymavlink generates now")
    func vectorFileIsCurrent() throws {
        let generated = try pymavlink(["generate"])
        #expect(generated == (try Fixture.vectorText()), "regenerate: python3 Tests/MAVLinkTests/pymavlink_vectors.py generate > Tests/MAVLinkTests/Fixtures/pymavlink-vectors.json")
    }

    @Test("pymavlink decodes 1200 frames we encoded (seeded values, all 17 messages) to our values")
    func pymavlinkDecodesOurFrames() throws {
        // Given seeded messages with edge and random bits (quiet NaNs: Python quiets signalling ones)
        var rng = SplitMix64(seed: 0x4D41_564C_C0DE)
        var sent: [(message: any MAVLinkMessage, sequence: UInt8, systemID: UInt8, componentID: UInt8)] = []
        for index in 0..<1200 {
            let type = MAVLinkMessages.all[index % MAVLinkMessages.all.count]
            var values = arbitraryFieldValues(of: type, using: &rng, quietNaNsOnly: true)
            if index % 5 == 0 { values = values.mapValues { $0.map { _ in 0 } } }  // all zero: 1-byte payload
            sent.append((type.init(fieldValues: values), rng.nextByte(), rng.nextByte(), rng.nextByte()))
        }
        // When pymavlink reads our frames
        let decoded = try pymavlinkDecode(sent.map { $0.message.encoded(sequence: $0.sequence, systemID: $0.systemID, componentID: $0.componentID) })
        // Then it accepts every checksum and reads every field as we wrote it
        try #require(decoded.count == sent.count)
        for (ours, theirs) in zip(sent, decoded) {
            #expect(theirs["message"] as? String == type(of: ours.message).messageName, "\(theirs)")
            #expect(theirs["seq"] as? Int == Int(ours.sequence) && theirs["sysid"] as? Int == Int(ours.systemID)
                && theirs["compid"] as? Int == Int(ours.componentID))
            #expect(try Vector.fieldBits(theirs["fields"]) == Fixture.bits(of: ours.message), "\(type(of: ours.message).messageName)")
        }
    }

    @Test("what a follow sends means to pymavlink what we mean (arm, take-off, GUIDED, velocity + yaw rate, land)")
    func followCommandsByName() throws {
        let guided = CommandLong {
            $0.params = [Float(MAVModeFlag.customModeEnabled.rawValue), Float(ArduCopterMode.guided.rawValue), 0, 0, 0, 0, 0]
            $0.command = .init(.doSetMode)
            $0.target = .init(system: 1, component: 1)
        }
        let arm = CommandLong {
            $0.params = [1, 0, 0, 0, 0, 0, 0]
            $0.command = .init(.componentArmDisarm)
            $0.target = .init(system: 1, component: 1)
        }
        let takeoff = CommandLong {
            $0.params = [0, 0, 0, .nan, .nan, .nan, 5]
            $0.command = .init(.navTakeoff)
            $0.target = .init(system: 1, component: 1)
        }
        let velocity = SetPositionTargetLocalNED {
            $0.timeBootMilliseconds = 1000
            $0.velocityNEDMetersPerSecond = [1.5, -0.5, 0]
            $0.yawRateRadiansPerSecond = 0.25
            $0.typeMask = .velocityAndYawRate
            $0.target = .init(system: 1, component: 1)
            $0.coordinateFrame = .init(.localNED)
        }
        let heartbeat = Heartbeat {
            $0.type = .init(.gcs)
            $0.autopilot = .init(.invalid)
            $0.systemStatus = .init(.active)
            $0.mavlinkVersion = 3
        }
        var position = GlobalPositionInt()
        position.latitudeLongitude = .init(latitudeE7: 473_977_420, longitudeE7: 85_455_940)
        position.altitudeMSLMillimeters = 488_000
        position.relativeAltitudeMillimeters = 10_000
        position.velocityNEDCentimetersPerSecond = [150, -50, 0]
        position.headingCentidegrees = 9000
        let messages: [any MAVLinkMessage] = [guided, arm, takeoff, velocity, heartbeat, position]
        let decoded = try pymavlinkDecode(messages.map { $0.encoded(sequence: 0, systemID: 255, componentID: 190) })
        try #require(decoded.count == 6)
        func field(_ index: Int, _ name: String) -> [UInt64]? { (decoded[index]["fields"] as? [String: [NSNumber]])?[name]?.map(\.uint64Value) }
        #expect(field(0, "command") == [176] && field(0, "param1") == [UInt64(Float(1).bitPattern)] && field(0, "param2") == [UInt64(Float(4).bitPattern)])
        #expect(field(1, "command") == [400] && field(1, "param1") == [UInt64(Float(1).bitPattern)] && field(1, "target_system") == [1])
        #expect(field(2, "command") == [22] && field(2, "param7") == [UInt64(Float(5).bitPattern)] && field(2, "param4") == [0x7FC0_0000])
        #expect(field(3, "type_mask") == [1479] && field(3, "coordinate_frame") == [1] && field(3, "vx") == [UInt64(Float(1.5).bitPattern)]
            && field(3, "vy") == [UInt64(Float(-0.5).bitPattern)] && field(3, "yaw_rate") == [UInt64(Float(0.25).bitPattern)])
        #expect(field(4, "type") == [6] && field(4, "autopilot") == [8] && field(4, "system_status") == [4] && field(4, "mavlink_version") == [3])
        #expect(field(5, "lat") == [473_977_420] && field(5, "lon") == [85_455_940] && field(5, "alt") == [488_000]
            && field(5, "vy") == [UInt64(UInt16(bitPattern: -50))] && field(5, "hdg") == [9000])
    }
}
