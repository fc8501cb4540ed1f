@testable import Links
@testable import FollowCore
import Testing
import TestSupport

/// One gpsd serving both receivers (two `tcp://` NMEA sources); each role subscribes to its
/// own device path, and must only ever hear that device.
@Suite("one gpsd, two receivers")
struct OneGPSDTwoReceiversTests {
    /// How the target source is named to gpsd and in the subscription.
    enum TargetPath: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// `tcp://127.0.0.1:P` (~21 characters): WATCH goes through gps_stream.
        case short
        /// `tcp://127.0.0.1:000…P` (38 characters; gpsd and getaddrinfo accept the zeros):
        /// longer than gps_stream's 80-byte command carries (docs/gpsd.md §1.5 #1), so
        /// WATCH must go through gps_send.
        case long

        var portDigits: Int { self == .short ? 0 : 22 }
        var testDescription: String { rawValue }
    }

    @Test("each role gets only its own positions; onboard headings arrive as sent",
          .timeLimit(.minutes(1)), arguments: TargetPath.allCases)
    func routesByRole(_ form: TargetPath) async throws {
        // Given a target source (RMC+GGA) and an onboard source (RMC+GGA+HCHDT) at 10 Hz,
        // both read by one gpsd.
        let target = try ScriptedNMEAServer.walking(from: TestSources.targetStart, withHeading: false)
        defer { target.stop() }
        let onboard = try ScriptedNMEAServer.walking(from: TestSources.onboardStart, withHeading: true)
        defer { onboard.stop() }
        let targetPath = target.gpsdSource(portDigits: form.portDigits)
        let onboardPath = onboard.gpsdSource()
        if form == .long { #expect(targetPath.count > 33, "\(targetPath) is not long enough to test gps_send") }
        try await GPSDProcesses.withGPSD(label: "one-gpsd", devices: [targetPath, onboardPath]) { _, gpsd in

            // When one client subscribes target → targetPath and onboard → onboardPath on that gpsd.
            let harness = ClientHarness.start([
                .local(.target, port: gpsd.port, device: targetPath),
                .local(.onboard, port: gpsd.port, device: onboardPath),
            ])
            defer { harness.stop() }
            let enough = await harness.waitForBothRoles(fixes: 15, onboardHeadings: 10, timeoutSeconds: 20)
            let events = harness.events
            #expect(enough, "too little data in 20 s; gpsd output:\n\(gpsd.process.output())\nevents: \(events.suffix(10))")

            // Then every target fix is a target position, from the target path, and likewise onboard.
            let targetSent = target.sentCycles, onboardSent = onboard.sentCycles
            func expectOnlyOwnPositions(_ role: ReceiverRole, path: String, own: [ScriptedNMEAServer.SentCycle], other: [ScriptedNMEAServer.SentCycle]) {
                for fix in events.of(role).fixes {
                    let lat = fix.coordinate.latitudeDegrees, lon = fix.coordinate.longitudeDegrees
                    #expect(fix.device == path)
                    #expect(TestSources.cycle(latitudeDegrees: lat, longitudeDegrees: lon, in: own) != nil,
                            "\(role) fix \(fix.coordinate) was never sent by the \(role) source")
                    #expect(TestSources.cycle(latitudeDegrees: lat, longitudeDegrees: lon, in: other) == nil,
                            "\(role) fix \(fix.coordinate) is the other receiver's position")
                }
            }
            expectOnlyOwnPositions(.target, path: targetPath, own: targetSent, other: onboardSent)
            expectOnlyOwnPositions(.onboard, path: onboardPath, own: onboardSent, other: targetSent)

            // Onboard headings equal what HDT said; the target source sends none, so the target has none.
            let sentHeadings = onboardSent.compactMap(\.headingDegrees)
            for heading in events.of(.onboard).headings {
                #expect(heading.device == onboardPath)
                #expect(sentHeadings.contains { abs($0 - heading.headingDegrees) <= 1e-9 },
                        "heading \(heading.headingDegrees) was never sent")
            }
            #expect(events.of(.target).headings.isEmpty)

            // gpsd itself honoured each WATCH device: nothing from the other device reached either
            // connection (the mapper's own filter would have counted it).
            let targetStats = harness.client.statistics(for: .target)
            let onboardStats = harness.client.statistics(for: .onboard)
            #expect(targetStats[.ignoredOtherDevice] == 0, "\(targetStats)")
            #expect(onboardStats[.ignoredOtherDevice] == 0, "\(onboardStats)")
            #expect(events.gpsdErrors.isEmpty, "\(events.gpsdErrors)")

            for role in ReceiverRole.allCases {
                if let first = events.of(role).fixes.first {
                    reportTiming("one gpsd (\(form) target path): client start → first \(role) fix",
                                 first.receivedAt.seconds(since: harness.startedAt))
                }
            }
        }
    }

    /// Lengths around gps_stream's limit: 32 fits its 80-byte buffer, 33 goes through
    /// gps_send (fm_watch's cut-off), 34 broke with "Invalid WATCH", 35+ silently watched
    /// every device when sent with gps_stream (docs/gpsd.md §1.5 #1). With `"pps":true` (the TOFF
    /// reports, docs/gps-latency.md §1.3) the limit is 21.
    static func missingPathLengths(timeOffsets: Bool) -> [Int] { timeOffsets ? [21, 22, 33, 82] : [32, 33, 34, 48, 82] }

    @Test("WATCH for a missing device path of any length gets gpsd's error, not everything; with and without TOFF",
          .timeLimit(.minutes(1)), arguments: [false, true])
    func missingDevicePaths(timeOffsets: Bool) async throws {
        let latencySource: FixAgeMeter.Policy = timeOffsets ? .auto : .config
        // Given a gpsd with one live device streaming at 10 Hz.
        let source = try ScriptedNMEAServer.walking(from: TestSources.onboardStart, withHeading: true)
        defer { source.stop() }
        try await GPSDProcesses.withGPSD(label: "long-path", devices: [source.gpsdSource()]) { _, gpsd in
            for length in Self.missingPathLengths(timeOffsets: timeOffsets) {
                // When the target role watches a path gpsd does not have (the onboard role watches
                // the live device, to prove data is flowing meanwhile).
                let prefix = "/dev/serial/by-id/usb-u-blox_AG_GNSS_"
                let missing = prefix + String(repeating: "x", count: max(0, length - prefix.count))
                let path = String(missing.prefix(length))
                #expect(path.count == length)
                let harness = ClientHarness.start([
                    .local(.target, port: gpsd.port, device: path, latencySource: latencySource),
                    .local(.onboard, port: gpsd.port, device: source.gpsdSource(), latencySource: latencySource),
                ])
                defer { harness.stop() }
                let answered = await harness.recorder.waitUntil(timeoutSeconds: 10) { events in
                    !events.of(.target).gpsdErrors.isEmpty && events.of(.onboard).fixes.count >= 10
                }
                let events = harness.events

                // Then gpsd answers "No such device as <the whole path>" and sends the target nothing else.
                #expect(answered, "length \(length): no error or no onboard data in 10 s: \(events.suffix(5))")
                #expect(events.of(.target).gpsdErrors == ["No such device as \(path)"], "length \(length)")
                #expect(events.of(.target).fixes.isEmpty && events.of(.target).headings.isEmpty, "length \(length)")
                let stats = harness.client.statistics(for: .target)
                #expect(stats[.ignoredOtherDevice] == 0, "length \(length): gpsd sent other devices' reports: \(stats)")
            }
        }
    }
}
