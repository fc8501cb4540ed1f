@testable import Links
import Logging
import Synchronization
@testable import FollowCore
@testable import Simulation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Rate control and the delivered-rate measurement against a real gpsd: what the client asks
/// with `?DEVICE`, what gpsd 3.22 answers for each kind of source, and the rate measured.
@Suite("receiver rate through a real gpsd")
struct ReceiverRateGPSDTests {
    /// A client whose rate reports (from `rateHandler`) are kept in order.
    final class RateHarness: Sendable {
        let client: GPSClient
        let recorder: EventRecorder<GPSEvent>
        private let log: ReportLog

        final class ReportLog: Sendable {
            let reports = Mutex<[ReceiverRateReport]>([])
        }

        init(_ subscriptions: [ReceiverSubscription]) {
            let logger = Logger(label: "ReceiverRateGPSDTests") { _ in SwiftLogNoOpLogHandler() }
            let log = ReportLog()
            client = GPSClient(subscriptions: subscriptions, logger: logger,
                               rateHandler: { _, report in log.reports.withLock { $0.append(report) } })
            recorder = EventRecorder(client.events)
            self.log = log
            client.start()
        }

        /// Every control state reported, in order.
        var controlHistory: [RateControlStatus] {
            var out: [RateControlStatus] = []
            for r in log.reports.withLock({ $0 }) where out.last != r.control { out.append(r.control) }
            return out
        }

        func report(_ role: ReceiverRole) -> ReceiverRateReport { client.rateReport(for: role) }

        /// Waits until `condition` holds for `role`'s report, at most `timeoutSeconds`.
        func waitUntil(_ role: ReceiverRole, timeoutSeconds: Double,
                       _ condition: (ReceiverRateReport) -> Bool) async -> Bool {
            let deadline = TestClock.now().adding(seconds: timeoutSeconds)
            while TestClock.now() < deadline, !Task.isCancelled {
                if condition(report(role)) { return true }
                await TestClock.sleep(seconds: 0.02)
            }
            return condition(report(role))
        }

        func stop() { client.stop() }
    }

    // Each case: the log, gpsfake's cycle, gpsd's answer, the driver it names (checked when given;
    // NMEA's is in the answer), the cycle and mincycle it reports.
    @Test("under gpsfake, asked for the fastest rate (?DEVICE), gpsd answers by driver", .timeLimit(.minutes(1)), arguments: [
        // bu353s4.log: gpsd identifies it as NMEA0183, keeps cycle 1.00 without mincycle → not supported.
        ("bu353s4.log", 0.02, RateControlStatus.notSupported(driver: "NMEA0183"), nil, 1.0, nil),
        // ublox-neo-m8n.log: UBX binary (gpsfake runs gpsd with -b); asked for 10 Hz (the cap; gpsd's
        // mincycle is 0.02 s), gpsd sets cycle 0.10 → accepted.
        ("ublox-neo-m8n.log", 0.01, .accepted(cycleSeconds: 0.1), "u-blox", 0.1, 0.02),
    ] as [(String, Double, RateControlStatus, String?, Double, Double?)])
    func replayedRate(fixture: String, gpsfakeCycleSeconds: Double, control: RateControlStatus, driver: String?,
                      gpsdCycleSeconds: Double, gpsdMinCycleSeconds: Double?) async throws {
        // Given gpsfake looping the receiver's log.
        let dir = try TestDirectory(label: "rate-replay")
        defer { dir.remove() }
        let log = try dir.copyFixture(fixture)
        let gpsfake = try await GPSDProcesses.startGPSFake(logs: [log], in: dir, cycleSeconds: gpsfakeCycleSeconds, oneShot: false)
        defer { gpsfake.process.stop() }

        // When a client asks for the fastest rate.
        let harness = RateHarness([.local(.target, port: gpsfake.port, device: nil).withRate(.fastest)])
        defer { harness.stop() }
        let answered = await harness.waitUntil(.target, timeoutSeconds: 20) { $0.control.name == control.name }

        // Then the request went out (10 Hz, the cap) and gpsd's answer is the driver's; fixes keep coming.
        let report = harness.report(.target)
        let diagnostics = answered ? "" : await gpsfake.diagnosticsAsync()
        #expect(answered, "rate control: \(harness.controlHistory); gpsd: \(diagnostics)")
        if let driver { #expect(report.driver == driver) }
        #expect(report.control == control)
        #expect(report.gpsdCycleSeconds == gpsdCycleSeconds && report.gpsdMinCycleSeconds == gpsdMinCycleSeconds)
        #expect(harness.controlHistory.contains(.requested(cycleSeconds: 0.1)))
        let fixes = await harness.recorder.waitUntil(timeoutSeconds: 10) { $0.fixes.count >= 3 }
        #expect(fixes)
    }

    @Test("NMEA served over tcp:// at 1, 5 and 10 Hz: the delivered rate is measured; gpsd cannot confirm a cycle",
          .timeLimit(.minutes(1)), arguments: [1.0, 5.0, 10.0])
    func deliveredRate(_ hz: Double) async throws {
        // Given an NMEA source (RMC+GGA) at `hz`, read by gpsd as tcp://.
        let dir = try TestDirectory(label: "rate-tcp")
        defer { dir.remove() }
        let source = try ScriptedNMEAServer(rateHz: hz, script: TestSources.walk(
            from: TestSources.targetStart, withHeading: false, periodCentiseconds: Int((100 / hz).rounded())))
        source.start()
        defer { source.stop() }
        let path = source.gpsdSource()
        let gpsd = try await GPSDProcesses.startGPSD(devices: [path], in: dir)
        defer { gpsd.process.stop() }

        // When a client watching that device asks for the fastest rate and reads ≥ 8 intervals.
        let harness = RateHarness([.local(.target, port: gpsd.port, device: path).withRate(.fastest)])
        defer { harness.stop() }
        let measured = await harness.waitUntil(.target, timeoutSeconds: 8 / hz + 10) { $0.intervalsMeasured >= 8 }

        // Then the delivered rate is the served rate within 10 %, and the request was sent but gpsd
        // does not report a network source's cycle.
        let report = harness.report(.target)
        #expect(measured, "report \(report); gpsd: \(gpsd.diagnostics())")
        let rate = try #require(report.deliveredHertz)
        print("[rate] served \(hz) Hz, measured \(NMEASentence.decimal(rate, fractionDigits: 2)) Hz over \(report.intervalsMeasured) intervals")
        #expect(abs(rate - hz) / hz < 0.1, "served \(hz) Hz, measured \(rate) Hz")
        #expect(report.control == .unconfirmed(cycleSeconds: 0.1), "history \(harness.controlHistory)")
    }

    @Test("gpsd restarts: the rate is asked again on the new connection, and the meter starts over",
          .timeLimit(.minutes(1)))
    func askedAgainAfterRestart() async throws {
        // Given a client asking for 5 Hz of a 5 Hz tcp:// NMEA source, answered once.
        let dir = try TestDirectory(label: "rate-restart")
        defer { dir.remove() }
        let source = try ScriptedNMEAServer(rateHz: 5, script: TestSources.walk(
            from: TestSources.targetStart, withHeading: false, periodCentiseconds: 20))
        source.start()
        defer { source.stop() }
        let path = source.gpsdSource()
        let first = try await GPSDProcesses.startGPSD(devices: [path], in: dir)
        defer { first.process.stop() }
        let harness = RateHarness([.local(.target, port: first.port, device: path).withRate(.hertz(5))])
        defer { harness.stop() }
        let answered = await harness.waitUntil(.target, timeoutSeconds: 10) {
            $0.control == .unconfirmed(cycleSeconds: 0.2) && $0.deliveredHertz != nil
        }
        try #require(answered, "history \(harness.controlHistory)")

        // When gpsd is killed and started again on the same port.
        first.process.send(SIGTERM)
        _ = await first.process.waitForExitAsync(timeoutSeconds: 3)
        let reset = await harness.waitUntil(.target, timeoutSeconds: 5) { $0.deliveredHertz == nil }
        let second = try await GPSDProcesses.startGPSD(devices: [path], in: dir, port: first.port)
        defer { second.process.stop() }

        // Then the meter forgot the old connection, and the request went out again and was answered.
        #expect(reset, "the delivered rate survived the lost connection")
        let again = await harness.waitUntil(.target, timeoutSeconds: 10) { $0.deliveredHertz != nil }
        let history = harness.controlHistory
        #expect(again, "history \(history)")
        #expect(history.filter { $0 == .requested(cycleSeconds: 0.2) }.count == 2, "history \(history)")
        #expect(history.last == .unconfirmed(cycleSeconds: 0.2), "history \(history)")
    }
}

extension ReceiverSubscription {
    /// This subscription asking gpsd for `rate`.
    func withRate(_ rate: RateRequest) -> ReceiverSubscription {
        var copy = self
        copy.rate = rate
        return copy
    }
}
