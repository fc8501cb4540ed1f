@testable import ARDrone
@testable import Links
import Logging
@testable import FollowCore
import Testing
import TestSupport

/// A drone that never answers after start (wrong Wi-Fi, wrong address, FreeFlight holding it): the
/// log says what to check, once and then every 30 s, not every tick (issue 23 item 6). Real UDP on
/// 127.0.0.1: the "drone" is two bound sockets that stay silent.
@Suite("DroneLink: what to check when no navdata comes (loopback UDP)")
struct DroneLinkSilenceHintTests {
    @Test("silent drone: one warning after five silence periods naming the address:port and the fix; a drone that answers gets none",
          .timeLimit(.minutes(1)))
    func silentDrone() async throws {
        // Given a "drone" whose AT and navdata ports are bound but never answer, and a link with a 0.2 s silence bound
        let at = try LoopbackUDPSocket(), navdata = try LoopbackUDPSocket()
        let configuration = try DroneLinkConfiguration(address: "127.0.0.1", atPort: at.localPort, navdataPort: navdata.localPort,
                                                       navdataSilenceSeconds: 0.2, limits: LinkHarness.testLimits)
        let log = CapturedLog()
        let link = DroneLink(configuration: configuration, logger: log.logger(label: "test.silence", level: .warning))
        // When it runs 2.5 s (the first hint is due at 1 s, the next at 31 s)
        let hint = try await log.onlyWarning("no navdata from the drone yet", runningFor: 2.5, start: link.start, stop: link.stop)

        // Then exactly one warning said no navdata came, with the drone's address:port and what to check
        #expect(hint.metadata["drone"] == "127.0.0.1:\(navdata.localPort)")
        #expect(hint.metadata["fix"] == LinkHint.noNavdata(configuration))
        #expect(hint.metadata["fix"]?.contains("127.0.0.1, \(at.localPort)/\(navdata.localPort)") == true)

        // And a drone that answers (the scripted peer) never makes the link say it
        let peer = try await DronePeer.start()
        let answering = try DroneLinkConfiguration(address: "127.0.0.1", atPort: peer.atPort, navdataPort: peer.navdataPort,
                                                   navdataSilenceSeconds: 0.2, limits: LinkHarness.testLimits)
        let quiet = CapturedLog()
        let connected = DroneLink(configuration: answering, logger: quiet.logger(label: "test.answering", level: .warning))
        try await connected.start()
        await TestClock.sleep(seconds: 1.5)
        await connected.stop()
        await peer.shutdown()
        #expect(quiet.entries("no navdata from the drone yet").isEmpty, "\(quiet.recorder.events)")
    }
}
