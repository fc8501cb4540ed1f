@testable import Links
@testable import FollowCore
import Testing
import TestSupport

/// Target and onboard on two different gpsd instances (the deployment where each receiver
/// has its own daemon): routing is by endpoint, with any device on each.
@Suite("two gpsd instances")
struct TwoGPSDInstancesTests {
    @Test("each role gets only its own gpsd's positions", .timeLimit(.minutes(1)))
    func routesByEndpoint() async throws {
        // Given gpsd A reading a TCP NMEA target walk, and gpsfake (gpsd B) looping the
        // u-blox NEO-M8N UBX log (Adelaide) for the onboard receiver.
        let target = try ScriptedNMEAServer.walking(from: TestSources.targetStart, withHeading: false)
        defer { target.stop() }
        try await GPSDProcesses.withGPSD(label: "two-gpsd", devices: [target.gpsdSource()]) { dir, gpsdA in
            let onboardLog = try dir.copyFixture("ublox-neo-m8n.log")
            let onboardPositions = try GPSDCheckFile(path: try Fixtures.path("ublox-neo-m8n.log.chk")).fixTPVs
            let gpsdB = try await GPSDProcesses.startGPSFake(logs: [onboardLog], in: dir, cycleSeconds: 0.02, oneShot: false)
            defer { gpsdB.process.stop() }

            // When one client reads target from A and onboard from B, any device on each.
            let harness = ClientHarness.start([
                .local(.target, port: gpsdA.port, device: nil),
                .local(.onboard, port: gpsdB.port, device: nil),
            ])
            defer { harness.stop() }
            let enough = await harness.waitForBothRoles(fixes: 15, timeoutSeconds: 20)
            let events = harness.events
            if !enough {
                let diagnostics = await gpsdB.diagnosticsAsync()
                Issue.record("""
                too little data in 20 s: target \(harness.client.statistics(for: .target)), \
                onboard \(harness.client.statistics(for: .onboard)); first onboard events: \(events.of(.onboard).prefix(6)); \
                gpsfake: \(diagnostics)
                """)
            }

            // Then target fixes are all target-source positions, from its tcp:// device …
            let targetSent = target.sentCycles
            for fix in events.of(.target).fixes {
                #expect(fix.device == target.gpsdSource())
                #expect(TestSources.cycle(latitudeDegrees: fix.coordinate.latitudeDegrees,
                                          longitudeDegrees: fix.coordinate.longitudeDegrees, in: targetSent) != nil,
                        "target fix \(fix.coordinate) was never sent by the target source")
            }
            // … and onboard fixes are all positions of the replayed log, from gpsfake's pty.
            for fix in events.of(.onboard).fixes {
                #expect(fix.device.hasPrefix("/dev/pts/"), "onboard device \(fix.device)")
                let fromLog = onboardPositions.contains {
                    abs($0.latitudeDegrees! - fix.coordinate.latitudeDegrees) <= 1e-9
                        && abs($0.longitudeDegrees! - fix.coordinate.longitudeDegrees) <= 1e-9
                }
                #expect(fromLog, "onboard fix \(fix.coordinate) is not in ublox-neo-m8n.log.chk")
                #expect(TestSources.cycle(latitudeDegrees: fix.coordinate.latitudeDegrees,
                                          longitudeDegrees: fix.coordinate.longitudeDegrees, in: targetSent) == nil)
            }
            #expect(events.losses.filter { $0.reason.isConnectionLost }.isEmpty)
            for role in ReceiverRole.allCases {
                if let first = events.of(role).fixes.first {
                    reportTiming("two gpsds: client start → first \(role) fix", first.receivedAt.seconds(since: harness.startedAt))
                }
            }
        }
    }
}
