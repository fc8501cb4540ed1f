import Foundation
import FollowCore
import Links
import Logging
import NIOCore

extension FlightConfiguration.LinkSettings {
    /// The drone link `[drone] protocol` names, built on `eventLoop` (the flight's executor, so its
    /// events and ticks reach the flight loop without a thread hop): `DroneLink` for the AR.Drone,
    /// `MAVLinkLink` for a PX4 or ArduPilot vehicle (docs/mavlink.md §7).
    /// `dryRun` (`--no-takeoff`): the MAVLink link sends no flight command or set-point at all
    /// (`MAVLinkLinkConfiguration.dryRun`); the AR.Drone link's dry run is the flight loop's.
    func makeLink(
        eventLoop: any EventLoop, logger: Logger, dryRun: Bool = false,
        eventHandler: @escaping @Sendable (LinkEvent) -> Void, tickHandler: @escaping @Sendable (MonotonicTime) -> Void
    ) -> any DroneControlLink {
        switch self {
        case .ardrone(let configuration):
            return DroneLink(configuration: configuration, eventLoopGroup: eventLoop, logger: logger,
                      linkEventHandler: eventHandler, tickHandler: tickHandler)
        case .mavlink(var configuration):
            configuration.dryRun = dryRun
            // systemd's StateDirectory= (the unit's /var/lib/followme): a restart in flight adopts the
            // flight in its own height frame (docs/mavlink.md §7.2).
            configuration.flightRecordPath = ProcessInfo.processInfo.environment["STATE_DIRECTORY"]
                .flatMap { $0.split(separator: ":").first.map(String.init) }.map { $0 + "/mavlink-flight.json" }
            return MAVLinkLink(configuration: configuration, eventLoopGroup: eventLoop, logger: logger,
                        eventHandler: eventHandler, tickHandler: tickHandler)
        }
    }
}
