@testable import FollowCore
@testable import MAVLink
@testable import Links
import Logging
import Testing
import TestSupport

/// An autopilot that never sends a HEARTBEAT (wrong address/port, no MAVLink output to us, a
/// firewall): the log says what to check, once and then every 30 s, not every tick (issue 23 item 6).
@Suite("MAVLinkLink: what to check when no HEARTBEAT comes (loopback UDP)")
struct MAVLinkLinkSilenceHintTests {
    static func configuration(port: Int) throws -> MAVLinkLinkConfiguration {
        var timing = MAVLinkLinkConfiguration.Timing()
        timing.telemetrySilenceSeconds = 0.2
        return try MAVLinkLinkConfiguration(address: "127.0.0.1", port: port, setpoints: VelocitySetpointLimits(follow: FollowParameters()),
                                            takeoffAltitudeMeters: 3, timing: timing)
    }

    @Test("silent autopilot: one warning after five silence periods naming [mavlink] address:port and the fix; one that answers gets none",
          .timeLimit(.minutes(1)))
    func silentAutopilot() async throws {
        // Given an "autopilot" port that is bound but never answers, and a link with a 0.2 s silence bound
        let silent = try LoopbackUDPSocket()
        let configuration = try Self.configuration(port: silent.localPort)
        let log = CapturedLog()
        let link = MAVLinkLink(configuration: configuration, logger: log.logger(label: "test.silence", level: .warning),
                               eventHandler: { _ in })
        // When it runs 2.5 s (the first hint is due at 1 s, the next at 31 s)
        let hint = try await log.onlyWarning("no HEARTBEAT from the autopilot yet", runningFor: 2.5, start: link.start, stop: link.stop)

        // Then exactly one warning said no HEARTBEAT came, with the vehicle's address:port and what to check
        #expect(hint.metadata["vehicle"] == "127.0.0.1:\(silent.localPort)")
        #expect(hint.metadata["fix"] == LinkHint.noHeartbeat(configuration))

        // And an autopilot that answers (the scripted peer) never makes the link say it
        let peer = try AutopilotPeer(autopilot: .ardupilotmega, customMode: 0)
        let quiet = CapturedLog()
        let connected = MAVLinkLink(configuration: try Self.configuration(port: peer.port),
                                    logger: quiet.logger(label: "test.answering", level: .warning), eventHandler: { _ in })
        try await connected.start()
        peer.attach(linkPort: try #require(await connected.localAddress()?.port))
        await TestClock.sleep(seconds: 1.5)
        await connected.stop()
        peer.stop()
        #expect(quiet.entries("no HEARTBEAT from the autopilot yet").isEmpty, "\(quiet.recorder.events)")
    }
}
