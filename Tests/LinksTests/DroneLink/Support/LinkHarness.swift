@testable import ARDrone
@testable import Links
import Logging
import NIOCore
import NIOPosix
import Synchronization
@testable import FollowCore
import TestSupport

/// A `DroneLink` talking to a `DronePeer` over loopback, with its events recorded.
struct LinkHarness {
    let peer: DronePeer
    let link: DroneLink
    let recorder: EventRecorder<DroneLinkEvent>
    private let consumer: Task<Void, Never>

    /// Limits used by most tests: outdoor, 20° tilt, 700 mm/s, 120°/s, 10 m.
    static let testLimits: FlightLimits = try! FlightLimits(
        outdoor: true, flightWithoutShell: true,
        eulerAngleMaxRadians: 20 * Double.pi / 180,
        controlVzMaxMillimetersPerSecond: 700,
        controlYawRadiansPerSecond: 120 * Double.pi / 180,
        altitudeMaxMillimeters: 10_000)

    static func start(
        peer: DronePeer,
        limits: FlightLimits = LinkHarness.testLimits,
        configAcknowledgementTimeoutSeconds: Double = 0.5,
        configMaxAttempts: Int = 3,
        navdataSilenceSeconds: Double = 1.0,
        statisticsIntervalSeconds: Double = 1.0,
        address: String = "127.0.0.1",
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LinkHarness {
        let configuration = try DroneLinkConfiguration(
            address: address, atPort: peer.atPort, navdataPort: peer.navdataPort,
            navdataSilenceSeconds: navdataSilenceSeconds,
            configAcknowledgementTimeoutSeconds: configAcknowledgementTimeoutSeconds,
            configMaxAttempts: configMaxAttempts, limits: limits,
            statisticsIntervalSeconds: statisticsIntervalSeconds)
        var logger = Logger(label: "test.dronelink")
        logger.logLevel = .warning
        let link = DroneLink(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger)
        let recorder = EventRecorder<DroneLinkEvent>()
        let events = link.events
        let consumer = Task {
            for await event in events { recorder.append(event) }
        }
        try await link.start()
        return LinkHarness(peer: peer, link: link, recorder: recorder, consumer: consumer)
    }

    func shutdown() async {
        await link.stop()
        await consumer.value
        await peer.shutdown()
    }

    func statistics() async -> DroneLinkStatistics {
        await link.statistics() ?? DroneLinkStatistics()
    }
}

extension EventRecorder where Event == DroneLinkEvent {
    var navdata: [ReceivedNavdata] {
        events.compactMap { if case .navdata(let received) = $0 { received } else { nil } }
    }

    var acknowledged: [(write: ConfigurationWrite, attempts: Int)] {
        events.compactMap {
            if case .configurationAcknowledged(let write, let attempts, _) = $0 { (write, attempts) } else { nil }
        }
    }

    var failed: [(write: ConfigurationWrite, reason: ConfigurationFailure)] {
        events.compactMap {
            if case .configurationFailed(let write, let reason, _) = $0 { (write, reason) } else { nil }
        }
    }

    var connected: (droneWasFlying: Bool, desiredFlying: Bool)? {
        for case .connected(let was, let desired, _) in events { return (was, desired) }
        return nil
    }
}

extension ATCommand {
    var configKey: String? {
        if case .config(let key, _) = self { key } else { nil }
    }
}
