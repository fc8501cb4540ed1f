@testable import Links
@testable import FollowCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// gpsd dies mid-stream and comes back on the same port: the same GPSClient must report the
/// loss at once and resume on its own (docs/gpsd.md §6 #3: clients that never recover).
@Suite("gpsd restart")
struct GPSDRestartTests {
    /// Loss must be reported within this (the client polls gps_waiting every 250 ms).
    static let lossDeadlineSeconds = 1.0
    /// Fixes must resume within this after gpsd is started again (backoff is capped at 1 s).
    static let resumeDeadlineSeconds = 5.0

    @Test("loss reported promptly, fixes resume, isReconnect", .timeLimit(.minutes(1)),
          arguments: [(signal: SIGKILL, name: "SIGKILL"), (signal: SIGTERM, name: "SIGTERM")])
    func restart(_ kill: (signal: Int32, name: String)) async throws {
        // Given a client receiving 10 Hz fixes from gpsd on port P.
        let dir = try TestDirectory(label: "restart")
        defer { dir.remove() }
        let source = try ScriptedNMEAServer.walking(from: TestSources.targetStart, withHeading: false)
        defer { source.stop() }
        let device = source.gpsdSource()
        let first = try await GPSDProcesses.startGPSD(devices: [device], in: dir)
        defer { first.process.stop() }
        let harness = ClientHarness.start([.local(.target, port: first.port, device: device)])
        defer { harness.stop() }
        let flowing = await harness.recorder.waitUntil(timeoutSeconds: 10) { $0.fixes.count >= 5 }
        try #require(flowing, "no fixes before the kill: \(harness.events)")

        // When gpsd is killed by its PID …
        let killedAt = TestClock.now()
        first.process.send(kill.signal)
        let died = await first.process.waitForExitAsync(timeoutSeconds: 3)
        #expect(died != nil, "gpsd \(first.process.pid) survived \(kill.name)")

        // … then the client reports the connection lost within a second.
        let lost = await harness.recorder.waitUntil(timeoutSeconds: 3) { events in
            events.losses.contains { $0.reason.isConnectionLost }
        }
        try #require(lost, "no .connectionLost within 3 s: \(harness.events.suffix(5))")
        let loss = try #require(harness.events.losses.first { $0.reason.isConnectionLost })
        let lossLatency = loss.at.seconds(since: killedAt)
        #expect(lossLatency < Self.lossDeadlineSeconds, "loss reported \(lossLatency) s after \(kill.name)")
        reportTiming("restart (\(kill.name)): kill → .lost(.connectionLost)", lossLatency)

        // When gpsd comes back on the same port after the client has been retrying for a while …
        await TestClock.sleep(seconds: 1.5)
        let restartedAt = TestClock.now()
        let second = try await GPSDProcesses.startGPSD(devices: [device], in: dir, port: first.port)
        defer { second.process.stop() }

        // … then the same client reconnects and fixes resume within 5 s.
        let resumed = await harness.recorder.waitUntil(timeoutSeconds: 10) { events in
            events.fixes.contains { $0.receivedAt > restartedAt }
        }
        let events = harness.events
        try #require(resumed, "no fix within 10 s of the restart: \(events.suffix(8))\ngpsd:\n\(second.process.output())")
        let firstNewFix = try #require(events.fixes.first { $0.receivedAt > restartedAt })
        let resumeSeconds = firstNewFix.receivedAt.seconds(since: restartedAt)
        #expect(resumeSeconds < Self.resumeDeadlineSeconds, "fixes resumed \(resumeSeconds) s after the restart")
        reportTiming("restart (\(kill.name)): gpsd started again → first fix", resumeSeconds)

        // The reconnect was announced as one, after the loss and before the first new fix.
        let connections = events.connections
        #expect(connections.count == 2, "\(connections)")
        #expect(connections.first?.isReconnect == false)
        if let again = connections.last {
            #expect(again.isReconnect)
            #expect(again.at > loss.at && again.at <= firstNewFix.receivedAt)
            reportTiming("restart (\(kill.name)): gpsd started again → .connected(isReconnect: true)",
                         again.at.seconds(since: restartedAt))
        }

        // One loss for the whole outage (retries stay quiet), and no fix while gpsd was down.
        #expect(events.losses.filter { $0.reason.isConnectionLost }.count == 1, "\(events.losses)")
        #expect(!events.fixes.contains { $0.receivedAt > loss.at && $0.receivedAt < restartedAt })
        #expect(source.connectionsAccepted == 2, "gpsd connections to the source: \(source.connectionsAccepted)")
    }
}
