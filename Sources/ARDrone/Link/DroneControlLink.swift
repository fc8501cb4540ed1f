import ARDrone
import FollowCore
import Logging
import NIOCore
import NIOPosix

extension DroneLink: DroneControlLink {
    /// The link as a flight drives it: each `DroneLinkEvent` reaches `linkEventHandler` as the
    /// `LinkEvent` it means (`LinkEvent.init?(_:)`; a navdata packet without a demo option is not
    /// telemetry and is not delivered), on the link's loop. Must not block.
    public convenience init(
        configuration: DroneLinkConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "followme.dronelink"),
        linkEventHandler: @escaping @Sendable (LinkEvent) -> Void,
        tickHandler: (@Sendable (MonotonicTime) -> Void)? = nil
    ) {
        self.init(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger,
                  eventHandler: { event in LinkEvent(event).map(linkEventHandler) }, tickHandler: tickHandler)
    }

    /// REF bit 9 = `flying`; PCMD = the set-point `TiltVehicleModel` made (`VehicleSetpoint.pilot`), as
    /// progressive fractions, or hover without one (DroneCommand+AT.swift, docs/ardrone-protocol.md §2.3).
    public func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) {
        setDesired(flying: command.flying, pilot: ProgressiveCommand(pilot: command.setpoint?.pilot),
                   sendImmediately: immediately, reflecting: fixReceivedAt)
    }

    /// `statistics()` in the neutral vocabulary (`LinkStatistics.init(_:)`).
    public func linkStatistics() async -> LinkStatistics? {
        await statistics().map(LinkStatistics.init)
    }

    public var peerDescription: String {
        "\(configuration.address):\(configuration.atPort)/\(configuration.navdataPort)"
    }
}
