@testable import Links
import Logging
@testable import FollowCore
import Testing
import TestSupport

/// The onboard receiver that gives fixes but never a heading (issue 23 item 6): preflight would wait
/// "heading" forever; the log must say once what that means and what to do.
@Suite("missing onboard heading")
struct MissingHeadingWatchTests {
    static let device = "/dev/gpsonboard"

    static func fix(at seconds: Double, track: Double? = nil) -> GPSEvent {
        .fix(GPSFix(role: .onboard, device: device, mode: .threeD, latitudeDegrees: 46.5, longitudeDegrees: 7.5,
                    fixTime: nil, receivedAt: MonotonicTime(seconds: seconds), trackDegrees: track)!)
    }

    static func heading(at seconds: Double) -> GPSEvent {
        .heading(HeadingReport(role: .onboard, device: device, headingDegrees: 90, receivedAt: MonotonicTime(seconds: seconds))!)
    }

    @Test("fixes at 5 Hz without a heading: one hint after 20 s naming ATT, gpspipe and mount_offset_deg; course over ground explained when sent")
    func saidOnceAfterTwentySeconds() throws {
        for track: Double? in [nil, 123.4] {
            // Given the watch, and a receiver giving fixes (with or without a TPV track) at 5 Hz for 60 s
            var watch = MissingHeadingWatch()
            var hints: [(at: Double, text: String)] = []
            for i in 0..<300 {
                let t = 1000 + Double(i) * 0.2
                if let hint = watch.observe(Self.fix(at: t, track: track)) { hints.append((t, hint)) }
            }
            // Then the hint came once, 20 s after the first fix
            #expect(hints.count == 1, "\(hints)")
            let hint = try #require(hints.first)
            #expect(abs(hint.at - 1020) < 0.3)
            #expect(hint.text.contains(Self.device) && hint.text.contains("20 s"))
            #expect(hint.text.contains("ATT") && hint.text.contains("gpspipe -w") && hint.text.contains("mount_offset_deg"))
            #expect(hint.text.contains("course over ground") == (track != nil), "\(hint.text)")
        }
    }

    @Test("a receiver that gives a heading is never told; a loss restarts the count")
    func headingOrLoss() {
        var withHeading = MissingHeadingWatch()
        var said = withHeading.observe(Self.heading(at: 1000)) != nil
        for i in 0..<300 { said = said || withHeading.observe(Self.fix(at: 1000 + Double(i) * 0.2)) != nil }
        #expect(!said)

        // Given 15 s of fixes, a loss, then 15 s more: no 20 s run of fixes yet
        var interrupted = MissingHeadingWatch()
        var hints = 0
        for i in 0..<75 where interrupted.observe(Self.fix(at: Double(i) * 0.2)) != nil { hints += 1 }
        _ = interrupted.observe(.lost(GPSLoss(role: .onboard, device: Self.device, reason: .noFix(mode: 1),
                                               at: MonotonicTime(seconds: 15))))
        for i in 0..<75 where interrupted.observe(Self.fix(at: 16 + Double(i) * 0.2)) != nil { hints += 1 }
        #expect(hints == 0)
    }

    @Test("through a real gpsd: an onboard receiver sending RMC+GGA only gets the hint logged once; one with HDT does not",
          .timeLimit(.minutes(1)))
    func throughGPSD() async throws {
        // Given two onboard-like sources at 10 Hz read by one gpsd: one without a heading, one with $HCHDT
        let bare = try ScriptedNMEAServer.walking(from: TestSources.onboardStart, withHeading: false)
        defer { bare.stop() }
        let compass = try ScriptedNMEAServer.walking(from: TestSources.targetStart, withHeading: true)
        defer { compass.stop() }
        try await GPSDProcesses.withGPSD(label: "no-heading", devices: [bare.gpsdSource(), compass.gpsdSource()]) { _, gpsd in
            // When a client expecting a heading from both (hint after 1 s) reads them for a while
            let log = CapturedLog()
            let client = GPSClient(
                subscriptions: [
                    ReceiverSubscription(role: .onboard, endpoint: GPSDAddress(host: "127.0.0.1", port: gpsd.port),
                                         device: bare.gpsdSource()),
                    ReceiverSubscription(role: .target, endpoint: GPSDAddress(host: "127.0.0.1", port: gpsd.port),
                                         device: compass.gpsdSource(), expectsHeading: true),
                ],
                logger: log.logger(label: "MissingHeadingWatchTests"), missingHeadingAfterSeconds: 1)
            let recorder = EventRecorder(client.events)
            client.start()
            defer { client.stop() }
            let hinted = await log.recorder.waitUntil(timeoutSeconds: 20) { entries in
                entries.contains { $0.message == "no heading from the receiver" }
            }
            // and both have delivered fixes for well over the second (headings too, from the compass)
            let enough = await recorder.waitUntil(timeoutSeconds: 20) { events in
                events.of(.onboard).fixes.count >= 40 && events.of(.target).headings.count >= 40
            }
            #expect(hinted && enough, "gpsd output:\n\(gpsd.process.output())")

            // Then the bare receiver's hint was logged once, as a warning naming it and what to do; the compass got none
            let hints = log.entries("no heading from the receiver")
            #expect(hints.count == 1, "\(hints)")
            let hint = try #require(hints.first)
            #expect(hint.level == .warning)
            #expect(hint.metadata["role"] == "onboard" && hint.metadata["device"] == bare.gpsdSource())
            #expect(hint.metadata["fix"]?.contains("gpspipe -w") == true)
            #expect(hint.metadata["fix"]?.contains("course over ground") == true, "RMC carries a track: \(hint)")
        }
    }
}
