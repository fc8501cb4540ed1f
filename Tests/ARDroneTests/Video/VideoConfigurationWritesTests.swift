@testable import ARDrone
import Testing

/// The video stream's `AT*CONFIG` writes (docs/video.md §2): after the limits, in every start-up sequence.
@Suite("Video configuration writes")
struct VideoConfigurationWritesTests {
    @Test("video:video_codec and video:video_channel follow the limits in the start-up writes, redone with them")
    func startupOrder() throws {
        let writes: [ConfigurationWrite] = [.videoCodec(0x82), .videoChannel(0)]
        let configuration = try DroneLinkConfiguration(limits: ARDroneSessionTests.testLimits, videoWrites: writes)
        let session = ARDroneSession(configuration: configuration)
        #expect(session.startupWrites == [.navdataDemo] + ARDroneSessionTests.testLimits.configurationWrites + writes)
        #expect(writes.map(\.description) == ["video:video_codec=130", "video:video_channel=0"])
        #expect(writes.allSatisfy { $0.isEncodable })
        // Without video, nothing about it is written
        let plain = ARDroneSession(configuration: try DroneLinkConfiguration(limits: ARDroneSessionTests.testLimits))
        #expect(!plain.startupWrites.contains { $0.key.hasPrefix("video:") })
    }
}
