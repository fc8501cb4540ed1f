@testable import ARDrone
@testable import FollowCore
import Testing

/// What the AR.Drone link's own events and counters mean to a flight (docs/architecture.md §3.3).
@Suite("DroneLink → LinkEvent and LinkStatistics")
struct LinkEventMappingTests {
    static let at = MonotonicTime(seconds: 10)
    static let altitude = ConfigurationWrite(key: "control:altitude_max", value: "10000")

    @Test("each link event maps to its neutral event, the same facts under the neutral names", arguments: [
        (DroneLinkEvent.connected(droneWasFlying: true, desiredFlying: false, at: at),
         LinkEvent.connected(droneWasFlying: true, desiredFlying: false, at: at)),
        (.telemetryLost(lastReceivedAt: MonotonicTime(seconds: 9), at: at),
         .telemetryLost(lastReceivedAt: MonotonicTime(seconds: 9), at: at)),
        (.navdataRestored(silenceSeconds: 1.5, at: at), .telemetryRestored(silenceSeconds: 1.5, at: at)),
        (.configurationAcknowledged(altitude, attempts: 2, at: at),
         .configurationAcknowledged(key: "control:altitude_max", value: "10000", attempts: 2, at: at)),
        (.configurationFailed(altitude, reason: .notAcknowledged(attempts: 3), at: at),
         .configurationFailed(key: "control:altitude_max", value: "10000", reason: "not acknowledged after 3 attempts", at: at)),
        (.desiredFlyingCleared(reason: .emergency, at: at), .flyingCleared(reason: "emergency", at: at)),
        (.socketClosed(.at, error: "ENETUNREACH", at: at), .socketClosed(socket: "at", error: "ENETUNREACH", at: at)),
        (.socketReopened(.navdata, localPort: 5000, samePort: false, attempts: 3, downSeconds: 0.5, at: at),
         .socketReopened(socket: "navdata", localPort: 5000, samePort: false, attempts: 3, downSeconds: 0.5, at: at)),
        (.bootstrapFallback(.demoOptionMissing, at: at), .configurationPending(reason: "demo-option-missing", at: at)),
        (.configurationComplete(failedKeys: ["control:outdoor"], at: at),
         .configurationComplete(failedKeys: ["control:outdoor"], at: at)),
        (.statistics(DroneLinkStatistics()), .statistics(LinkStatistics())),
    ])
    func events(event: DroneLinkEvent, expected: LinkEvent) {
        #expect(LinkEvent(event) == expected)
    }

    @Test("navdata with the demo option is telemetry with its sequence number; without it, nothing")
    func navdata() throws {
        // Given a demo packet (hovering, 70 %) and a bootstrap packet without the demo option
        let demo = NavdataSummary(state: [.navdataDemo], sequenceNumber: 42,
                                  demo: NavdataDemo(controlState: .hovering, batteryPercent: 70), optionCount: 1)
        let bootstrap = NavdataSummary(state: [.navdataBootstrap], sequenceNumber: 43)

        // When the link maps them
        let mapped = LinkEvent(.navdata(ReceivedNavdata(navdata: demo, receivedAt: Self.at)))
        let none = LinkEvent(.navdata(ReceivedNavdata(navdata: bootstrap, receivedAt: Self.at)))

        // Then the first is the drone's telemetry (ARDroneAdapter's mapping) and the second is not delivered
        guard case .telemetry(let telemetry, let sequence)? = mapped else {
            Issue.record("not telemetry: \(String(describing: mapped))")
            return
        }
        #expect(sequence == 42)
        #expect(telemetry.flightState == .hovering && telemetry.batteryPercent == 70 && telemetry.receivedAt == Self.at)
        #expect(none == nil)
    }
}
