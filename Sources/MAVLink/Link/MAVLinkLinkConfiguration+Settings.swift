import Foundation
import FollowCore
import Logging
import MAVLink
import NIOCore

extension MAVLinkLinkConfiguration: DroneLinkSettings {
    /// `MAVLinkLink` (docs/mavlink.md §7); `dryRun` sets `MAVLinkLinkConfiguration.dryRun`. The flight
    /// record goes to systemd's StateDirectory= (the unit's /var/lib/followme), so a restart in flight
    /// adopts the flight in its own height frame (docs/mavlink.md §7.2).
    public func makeLink(
        eventLoop: any EventLoop, logger: Logger, dryRun: Bool,
        eventHandler: @escaping @Sendable (LinkEvent) -> Void, tickHandler: @escaping @Sendable (MonotonicTime) -> Void
    ) -> any DroneControlLink {
        var configuration = self
        configuration.dryRun = dryRun
        configuration.flightRecordPath = ProcessInfo.processInfo.environment["STATE_DIRECTORY"]
            .flatMap { $0.split(separator: ":").first.map(String.init) }.map { $0 + "/mavlink-flight.json" }
        return MAVLinkLink(configuration: configuration, eventLoopGroup: eventLoop, logger: logger,
                           eventHandler: eventHandler, tickHandler: tickHandler)
    }
}
