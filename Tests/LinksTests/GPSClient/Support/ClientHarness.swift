@testable import Links
import Logging
@testable import FollowCore
@testable import Simulation
import TestSupport

/// A started `GPSClient` with an `EventRecorder` draining its events.
/// Call `stop()` in a `defer`; it returns at once (the reader threads exit within ~250 ms).
struct ClientHarness: Sendable {
    let client: GPSClient
    let recorder: EventRecorder<GPSEvent>
    /// When `start()` was called (CLOCK_MONOTONIC, the clock of event timestamps).
    let startedAt: MonotonicTime

    /// Starts a client for `subscriptions` with a no-op logger.
    static func start(_ subscriptions: [ReceiverSubscription]) -> ClientHarness {
        let logger = Logger(label: "GPSClientTests") { _ in SwiftLogNoOpLogHandler() }
        let client = GPSClient(subscriptions: subscriptions, logger: logger)
        let recorder = EventRecorder(client.events)
        let startedAt = TestClock.now()
        client.start()
        return ClientHarness(client: client, recorder: recorder, startedAt: startedAt)
    }

    func stop() { client.stop() }

    /// Waits until both roles delivered at least `fixes` fixes and the onboard role at least
    /// `onboardHeadings` headings; false when `timeoutSeconds` pass first.
    func waitForBothRoles(fixes: Int, onboardHeadings: Int = 0, timeoutSeconds: Double) async -> Bool {
        await recorder.waitUntil(timeoutSeconds: timeoutSeconds) { events in
            events.of(.target).fixes.count >= fixes && events.of(.onboard).fixes.count >= fixes
                && events.of(.onboard).headings.count >= onboardHeadings
        }
    }

    var events: [GPSEvent] { recorder.events }
}

extension ReceiverSubscription {
    /// A subscription to the gpsd on 127.0.0.1:`port`; anything but `latencySource` `.config` also
    /// watches gpsd's TOFF reports (`"pps":true`).
    static func local(_ role: ReceiverRole, port: Int, device: String?,
                      latencySource: FixAgeMeter.Policy = .auto) -> ReceiverSubscription {
        ReceiverSubscription(role: role, endpoint: GPSDAddress(host: "127.0.0.1", port: port), device: device,
                             latencySource: latencySource)
    }
}

/// Prints a measured timing so it shows in the test log (collected for the report).
func reportTiming(_ what: String, _ seconds: Double) {
    print("[timing] \(what): \(NMEASentence.decimal(seconds * 1000, fractionDigits: 0)) ms")
}
