import Foundation
import Testing
import TestSupport

/// `followme drone decode FILE` prints the real navdata captures as JSON with the values the
/// fixtures' sources assert (Tests/ARDroneTests/ARDroneProtocol/Fixtures/PROVENANCE.md).
@Suite struct DroneDecodeTests {
    static let fixtures = RepositoryRoot.file("Tests/ARDroneTests/ARDroneProtocol/Fixtures")

    struct Expected: Sendable, CustomStringConvertible {
        var file: String, state: String, sequence: Int, checksum: Int, battery: Int?
        var description: String { file }
    }

    @Test("decode prints the capture's header, demo option and checksum", arguments: [
        Expected(file: "node-ar-drone_navdata_full_fw248-gps.bin", state: "0x4F8000D0", sequence: 300711, checksum: 46179, battery: 50),
        Expected(file: "node-ar-drone_navdata_full_2012.bin", state: "0x4F8000D0", sequence: 300711, checksum: 36358, battery: 50),
        Expected(file: "node-ar-drone_navdata_full_fw247-gps480.bin", state: "0x4F8000D0", sequence: 300711, checksum: 57639, battery: 50),
        Expected(file: "navdata_bootstrap_24byte_forum.bin", state: "0x4F800C10", sequence: 1, checksum: 678, battery: nil),
    ])
    func decodes(_ e: Expected) throws {
        let r = try FollowMeBinary.run(["drone", "decode", Self.fixtures.appendingPathComponent(e.file).path])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let header = try #require(json["header"] as? [String: Any])
        #expect(header["state"] as? String == e.state)
        #expect(header["sequence"] as? Int == e.sequence)
        let checksum = try #require(json["checksum"] as? [String: Any])
        #expect(checksum["value"] as? Int == e.checksum)
        #expect(checksum["valid"] as? Bool == true)
        let options = try #require(json["options"] as? [[String: Any]])
        let demo = options.first { $0["tag"] as? Int == 0 }
        #expect(demo?["battery_pct"] as? Int == e.battery)
        if e.file.hasSuffix("fw248-gps.bin") {
            let gps = try #require(options.first { $0["tag"] as? Int == 27 })
            #expect(gps["latitude_deg"] as? Double == 34.0905016)
            #expect(gps["longitude_deg"] as? Double == -118.2766877)
            #expect(gps["satellites"] as? Int == 9)
            #expect(demo?["theta_deg"] as? Double == 2.974)
        }
    }

    @Test("a corrupted capture exits 2 with a clear message")
    func corrupted() throws {
        var bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent("node-ar-drone_navdata_full_fw248-gps.bin"))
        bytes[23] &+= 1
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID().uuidString).bin")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try FollowMeBinary.run(["drone", "decode", file.path])
        #expect(r.exitCode == 2)
        #expect(r.stderr.lowercased().contains("checksum"))
    }
}
