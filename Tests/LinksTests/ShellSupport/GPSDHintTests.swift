@testable import Links
import Testing

/// The fixes named beside the field's top gpsd failures (issue 23 item 6).
@Suite struct GPSDHintTests {
    @Test("a local gpsd that cannot be reached points at gpsd.socket; a remote one at gpsd -G and the network")
    func unreachable() {
        #expect(GPSDHint.unreachable(GPSDAddress(host: "127.0.0.1")).contains("systemctl status gpsd.socket"))
        let remote = GPSDHint.unreachable(GPSDAddress(host: "192.0.2.7", port: 2948))
        #expect(remote.contains("gpsd -G") && remote.contains("192.0.2.7:2948") && !remote.contains("gpsd.socket"))
    }

    @Test("gpsd's 'No such device' names the path to check and the udev rule; other errors get no advice")
    func noSuchDevice() throws {
        let hint = try #require(GPSDHint.forError("No such device as /dev/gpstarget"))
        #expect(hint.contains("`ls -l /dev/gpstarget`") && hint.contains("61-followme-gps.rules"))
        #expect(GPSDHint.forError("Invalid WATCH: device") == nil)
    }
}
