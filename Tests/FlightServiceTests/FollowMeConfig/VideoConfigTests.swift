import ARDrone
@testable import FlightService
import Links
import Testing

/// `[video]`: read, defaulted, and turned into the AR.Drone link's settings (docs/video.md §3).
@Suite("[video] keys")
struct VideoConfigTests {
    @Test("a file without [video] records nothing and the link writes no video key")
    func missingMeansOff() throws {
        let c = try TestDocument.flyable().parse().get()
        #expect(!c.video.record)
        let settings = try FlightConfiguration(c).link
        let link = try #require(settings as? DroneLinkConfiguration)
        #expect(link.videoWrites.isEmpty)
    }

    @Test("record = true: the 720p recording stream on 5553, its codec and the front camera written, a recorder beside the link",
          arguments: [("\"720p\"", 5553, "130"), ("\"360p\"", 5555, "129")])
    func recordOn(stream: String, port: Int, codec: String) throws {
        let c = try TestDocument.flyable([("video", "record", "true"), ("video", "stream", stream),
                                          ("video", "max_total_mb", "300"), ("video", "min_free_mb", "50"),
                                          ("drone", "address", "\"10.1.2.3\"")]).parse().get()
        let settings = try #require(try FlightConfiguration(c).link as? ARDroneRecordingSettings)
        #expect(settings.link.videoWrites.map(\.description) == ["video:video_codec=\(codec)", "video:video_channel=0"])
        #expect(settings.video.port == port && settings.video.host == "10.1.2.3")
        #expect(settings.video.maxTotalBytes == 300_000_000 && settings.video.minFreeBytes == 50_000_000)
        // The recordings' own directory: inside the flight logs' by default, never the same one
        #expect(settings.video.directory == "out/flights/video")
    }

    @Test("port: 0 is the stream's own, another is used as given")
    func port() throws {
        let c = try TestDocument.flyable([("video", "record", "true"), ("video", "port", "15553")]).parse().get()
        let settings = try #require(try FlightConfiguration(c).link as? ARDroneRecordingSettings)
        #expect(settings.video.port == 15553 && settings.video.stream == .hd720)
    }

    @Test("directory: given, or video/ inside [log] directory, or out/video without one")
    func directory() throws {
        let given = try TestDocument.flyable([("video", "directory", "\"/srv/videos\"")]).parse().get()
        #expect(given.video.effectiveDirectory(log: given.log) == "/srv/videos")
        let logs = try TestDocument.flyable([("log", "directory", "\"/var/log/followme/\"")]).parse().get()
        #expect(logs.video.effectiveDirectory(log: logs.log) == "/var/log/followme/video")
        let none = try TestDocument.flyable([("log", "directory", "\"\"")]).parse().get()
        #expect(none.video.effectiveDirectory(log: none.log) == "out/video")
    }

    @Test("wrong values are refused with the key named", arguments: ["video.stream = \"4k\"", "video.max_total_mb = -1",
                                                                      "video.record = 1"])
    func refused(line: String) throws {
        let parts = line.split(separator: " = ", maxSplits: 1).map(String.init)
        let result = TestDocument.flyable(parts[0], parts[1]).parse()
        let problems = try #require(result.failure)
        #expect(problems.description.contains(parts[0]), "\(problems)")
    }
}
