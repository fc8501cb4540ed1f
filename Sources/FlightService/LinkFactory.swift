import DroneControl
import DroneLink
import Logging
import MAVLinkLink
import NIOCore
import Observations

extension FlightConfiguration.LinkSettings {
    /// The drone link `[drone] protocol` names, built on `eventLoop` (the flight's executor, so its
    /// events and ticks reach the flight loop without a thread hop): `DroneLink` for the AR.Drone,
    /// `MAVLinkLink` for a PX4 or ArduPilot vehicle (docs/mavlink.md §7).
    func makeLink(
        eventLoop: any EventLoop, logger: Logger,
        eventHandler: @escaping @Sendable (LinkEvent) -> Void, tickHandler: @escaping @Sendable (MonotonicTime) -> Void
    ) -> any DroneControlLink {
        switch self {
        case .ardrone(let configuration):
            DroneLink(configuration: configuration, eventLoopGroup: eventLoop, logger: logger,
                      linkEventHandler: eventHandler, tickHandler: tickHandler)
        case .mavlink(let configuration):
            MAVLinkLink(configuration: configuration, eventLoopGroup: eventLoop, logger: logger,
                        eventHandler: eventHandler, tickHandler: tickHandler)
        }
    }
}
