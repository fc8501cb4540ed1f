import ARDrone
import FollowCore
import Logging
import NIOCore

extension DroneLinkConfiguration: DroneLinkSettings {
    /// `DroneLink`; its dry run is the flight loop's (it never sends a take-off REF on its own).
    public func makeLink(
        eventLoop: any EventLoop, logger: Logger, dryRun: Bool,
        eventHandler: @escaping @Sendable (LinkEvent) -> Void, tickHandler: @escaping @Sendable (MonotonicTime) -> Void
    ) -> any DroneControlLink {
        DroneLink(configuration: self, eventLoopGroup: eventLoop, logger: logger,
                  linkEventHandler: eventHandler, tickHandler: tickHandler)
    }
}

extension LinkHint {
    /// No navdata from the AR.Drone `configuration` names: its Wi-Fi, the `[drone]` keys, another controller.
    public static func noNavdata(_ configuration: DroneLinkConfiguration) -> String {
        noNavdata(address: configuration.address, atPort: configuration.atPort, navdataPort: configuration.navdataPort)
    }
}
