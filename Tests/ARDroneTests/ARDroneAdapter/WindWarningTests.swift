@testable import ARDrone
import Foundation
@testable import FollowCore
import Testing

/// The firmware's own "too much wind" warning (state bit 20 `ARDRONE_WIND_MASK`,
/// docs/ardrone-protocol.md §3.2) reaches the follow core as `DroneTelemetry.windWarning`.
@Suite("ARDroneAdapter: navdata state bit 20 (too much wind) → DroneTelemetry.windWarning")
struct WindWarningTests {
    /// A real capture (node-ar-drone's fw 2.4.8 navdata, MIT; Tests/ARDroneTests/ARDroneProtocol/Fixtures/PROVENANCE.md),
    /// read from the protocol tests' fixture folder next to this one.
    static func capture() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../ARDroneProtocol/Fixtures/node-ar-drone_navdata_full_fw248-gps.bin")
            .standardizedFileURL
        return [UInt8](try Data(contentsOf: url))
    }

    @Test("a real capture (bit 20 clear) → no warning; the same packet with bit 20 set, re-encoded → warning",
          arguments: [false, true])
    func windBit(set: Bool) throws {
        // Given the captured packet, with bit 20 set or not, through our encoder and decoder
        var navdata = try Navdata(bytes: Self.capture())
        #expect(!navdata.state.contains(.tooMuchWind), "the capture itself has bit 20 clear")
        if set { navdata.state.insert(.tooMuchWind) }
        let summary = try NavdataSummary(bytes: navdata.encoded())
        #expect(summary.state.rawValue & (1 << 20) == (set ? 1 << 20 : 0))
        // When the link maps it to telemetry
        let telemetry = try #require(DroneTelemetry(navdata: summary, receivedAt: .zero))
        // Then the warning is the bit, and nothing else of the packet changed
        #expect(telemetry.windWarning == set)
        var other = try #require(DroneTelemetry(navdata: NavdataSummary(bytes: Self.capture()), receivedAt: .zero))
        other.windWarning = set
        #expect(telemetry == other)
    }
}
