@testable import Links
@testable import FollowCore
import Testing
import TestSupport

/// Real receiver logs replayed through gpsfake (its own gpsd, real libgps) into a GPSClient;
/// what comes out must match gpsd's own expected output (`.chk`) report for report.
@Suite("gpsfake replays of gpsd regression logs")
struct GPSFakeReplayTests {
    /// A log; `cycleSeconds` is gpsfake's `-c` (seconds slept after each line/packet);
    /// `documentedTPVs`/`documentedFixes` are the TPV reports and those with mode >= 2 in the
    /// `.chk`, as counted independently in Tests/LinksTests/GPSClient/Fixtures/PROVENANCE.md (guards
    /// the `.chk` parser itself).
    typealias Replay = (log: String, cycleSeconds: Double, documentedTPVs: Int, documentedFixes: Int)

    /// The logs (Fixtures/PROVENANCE.md). Cycle times keep each replay at 0.2–4 s of feeding.
    static let replays: [Replay] = [
        (log: "bu353s4.log", cycleSeconds: 0.01, documentedTPVs: 27, documentedFixes: 27),
        (log: "mtk-3301.log", cycleSeconds: 0.01, documentedTPVs: 15, documentedFixes: 8),
        (log: "quectel.log", cycleSeconds: 0.01, documentedTPVs: 85, documentedFixes: 68),
        (log: "neo-m8n.log", cycleSeconds: 0.01, documentedTPVs: 23, documentedFixes: 23),
        (log: "ublox-neo-m8n.log", cycleSeconds: 0.01, documentedTPVs: 44, documentedFixes: 44),
        (log: "gr601-w.log", cycleSeconds: 0.01, documentedTPVs: 10, documentedFixes: 10),
        (log: "bu303-nofix.log", cycleSeconds: 0.02, documentedTPVs: 7, documentedFixes: 0),
        (log: "bu303-moving.log", cycleSeconds: 0.02, documentedTPVs: 12, documentedFixes: 12),
        (log: "hemi.log", cycleSeconds: 0.005, documentedTPVs: 215, documentedFixes: 6),
    ]

    @Test("the .chk parser counts what the fixture README documents", arguments: replays)
    func checkFileCounts(_ replay: Replay) throws {
        let chk = try GPSDCheckFile(path: try Fixtures.path(replay.log + ".chk"))
        #expect(chk.skies.count == Self.documentedSkies[replay.log], "SKY reports in \(replay.log).chk")
        #expect(chk.tpvs.count == replay.documentedTPVs)
        #expect(chk.fixTPVs.count == replay.documentedFixes)
        let withoutPosition = chk.fixTPVs.filter { !$0.hasPosition }
        #expect(withoutPosition.isEmpty, "mode >= 2 TPVs without lat/lon: \(withoutPosition)")
    }

    /// SKY reports per `.chk` (`grep -c '"class":"SKY"'`; hemi.log has none).
    static let documentedSkies: [String: Int] = [
        "bu353s4.log": 5, "mtk-3301.log": 1, "quectel.log": 41, "neo-m8n.log": 23, "ublox-neo-m8n.log": 5,
        "gr601-w.log": 10, "bu303-nofix.log": 7, "bu303-moving.log": 11, "hemi.log": 0,
    ]

    /// gpsd prints lat/lon with 9 decimals; the client must reproduce them to that precision.
    static let printedPrecisionDegrees = 1e-9

    @Test("fixes, losses and headings match the .chk", .timeLimit(.minutes(2)), arguments: replays)
    func replayMatchesCheckFile(_ replay: Replay) async throws {
        // Given gpsd's expected output for the log, and gpsfake replaying it once (-1) on a private port.
        let expected = try GPSDCheckFile(path: try Fixtures.path(replay.log + ".chk"))
        let dir = try TestDirectory(label: "replay")
        defer { dir.remove() }
        let log = try dir.copyFixture(replay.log)
        // When a GPSClient (any device) connects as soon as gpsd accepts, before the device is
        // active, and reads the replay until gpsd deactivates the device at gpsfake's # EOF.
        let (gpsfake, harness) = try await GPSDProcesses.startGPSFake(
            logs: [log], in: dir, cycleSeconds: replay.cycleSeconds, oneShot: true, waitSeconds: 60,
            attach: { port in ClientHarness.start([.local(.target, port: port, device: nil)]) },
            detach: { $0.stop() })
        defer { gpsfake.process.stop() }
        defer { harness.stop() }
        let ended = await harness.recorder.waitUntil(timeoutSeconds: 45) { events in
            events.losses.contains { $0.reason == .deviceDeactivated }
        }
        let events = harness.events
        if !ended {
            Issue.record("no DEVICE deactivation within 45 s; events \(events.prefix(4)); \(await gpsfake.diagnosticsAsync())")
        }

        // Then the client saw exactly the .chk's reports, in order.
        #expect(events.first.map(isFirstConnect) == true, "first event \(String(describing: events.first))")
        let fixes = events.fixes
        let chkFixes = expected.fixTPVs
        #expect(fixes.count == chkFixes.count, "fixes (mode >= 2): client \(fixes.count), .chk \(chkFixes.count)")
        let mismatch = zip(fixes, chkFixes).enumerated().first { _, pair in
            let (fix, tpv) = pair
            return !Self.samePosition(fix, tpv) || fix.mode.rawValue != tpv.mode || !fix.device.hasPrefix("/dev/pts/")
        }
        #expect(mismatch == nil, """
            first differing fix #\(mismatch?.offset ?? -1): client \(String(describing: mismatch?.element.0)), \
            .chk \(String(describing: mismatch?.element.1))
            """)
        if let first = fixes.first, let last = fixes.last, let chkFirst = chkFixes.first, let chkLast = chkFixes.last {
            #expect(Self.samePosition(first, chkFirst), "first fix \(first.coordinate) vs .chk \(chkFirst)")
            #expect(Self.samePosition(last, chkLast), "last fix \(last.coordinate) vs .chk \(chkLast)")
        }

        // Speed and track (what the estimator fuses as the person's velocity) are gpsd's, fix for fix;
        // a TPV without them gives a fix without them.
        let velocityMismatch = zip(fixes, chkFixes).enumerated().first { _, pair in
            let (fix, tpv) = pair
            return !Self.same(fix.speedMetersPerSecond, tpv.speedMetersPerSecond)
                || !Self.same(fix.trackDegrees, tpv.trackDegrees)
        }
        #expect(velocityMismatch == nil, """
            first fix with other speed/track #\(velocityMismatch?.offset ?? -1): client \
            \(String(describing: velocityMismatch?.element.0)), .chk \(String(describing: velocityMismatch?.element.1))
            """)
        if replay.log == "ublox-neo-m8n.log" {
            // The UBX binary log reports Doppler velocity in every fix.
            #expect(!fixes.isEmpty && fixes.allSatisfy { $0.speedMetersPerSecond != nil && $0.trackDegrees != nil })
        }

        // Mode 0/1 TPVs became `.lost(.noFix)`, one each, with the TPV's mode.
        let noFixModes = events.losses.compactMap { loss -> Int? in
            if case .noFix(let mode) = loss.reason { return mode } else { return nil }
        }
        #expect(noFixModes == expected.noFixTPVs.map(\.mode))

        // ATT headings (hemi.log) arrived as heading events with gpsd's values.
        let headings = events.headings.map(\.headingDegrees)
        #expect(headings.count == expected.attHeadingsDegrees.count)
        for (got, want) in zip(headings, expected.attHeadingsDegrees) {
            #expect(abs(got - want) <= 1e-9, "heading \(got) vs .chk \(want)")
        }

        // SKY reports (satellites used / in view, HDOP: what `followme gps`, `watch` and the log show)
        // arrived as sky events, report for report, with the counts of gpsd's satellite list and its HDOP.
        let skies = events.skies
        #expect(skies.count == expected.skies.count, "sky reports: client \(skies.count), .chk \(expected.skies.count)")
        let skyMismatch = zip(skies, expected.skies).enumerated().first { _, pair in
            let (sky, chk) = pair
            return sky.satellitesUsed != chk.used || sky.satellitesVisible != chk.visible || !Self.same(sky.hdop, chk.hdop)
        }
        #expect(skyMismatch == nil, """
            first differing sky #\(skyMismatch?.offset ?? -1): client \(String(describing: skyMismatch?.element.0)), \
            .chk \(String(describing: skyMismatch?.element.1))
            """)

        // The replay ended with the device deactivated, after the last fix.
        let endIndex = events.lastIndex { if case .lost(let l) = $0 { return l.reason == .deviceDeactivated } else { return false } }
        let lastFixIndex = events.lastIndex { if case .fix = $0 { return true } else { return false } }
        if let endIndex, let lastFixIndex { #expect(endIndex > lastFixIndex) }
        #expect(!events.losses.contains { $0.reason.isConnectionLost }, "the connection dropped during the replay")

        let stats = harness.client.statistics(for: .target)
        #expect(stats[.ignoredOtherDevice] == 0 && stats[.ignoredBadMode] == 0 && stats[.ignoredNoPosition] == 0,
                "\(stats)")
        if let firstFix = fixes.first {
            reportTiming("replay \(replay.log): client start → first fix", firstFix.receivedAt.seconds(since: harness.startedAt))
        }
        if let end = events.losses.first(where: { $0.reason == .deviceDeactivated }) {
            reportTiming("replay \(replay.log): client start → device deactivated (-c \(replay.cycleSeconds))",
                         end.at.seconds(since: harness.startedAt))
        }
    }

    /// Latitude and longitude equal to gpsd's printed precision.
    static func samePosition(_ fix: GPSFix, _ tpv: GPSDCheckFile.TPV) -> Bool {
        guard let lat = tpv.latitudeDegrees, let lon = tpv.longitudeDegrees else { return false }
        return abs(fix.coordinate.latitudeDegrees - lat) <= printedPrecisionDegrees
            && abs(fix.coordinate.longitudeDegrees - lon) <= printedPrecisionDegrees
    }

    /// Both absent, or equal to gpsd's printed precision (speed 3, track 4 decimals).
    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a - b) <= 1e-9
        default: return false
        }
    }

    private func isFirstConnect(_ event: GPSEvent) -> Bool {
        if case .connected(.target, _, false, _) = event { return true }
        return false
    }
}
