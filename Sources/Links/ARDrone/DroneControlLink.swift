import ARDrone
import FollowCore
import Logging
import NIOCore
import NIOPosix

extension DroneLink: DroneControlLink {
    /// The link as a flight drives it: each `DroneLinkEvent` reaches `linkEventHandler` as the
    /// `LinkEvent` it means (`LinkEvent.init?(_:)`; a navdata packet without a demo option is not
    /// telemetry and is not delivered), on the link's loop. Must not block.
    ///
    /// `follow` and `tuning`: the flight's, as its core's controller has them (`FollowController.parameters`,
    /// `.tuning`): the link's tilt loop (`TiltLoop`, run by a `PCMDTranslator` at every `send`) turns the
    /// core's motion into PCMD with them.
    public convenience init(
        configuration: DroneLinkConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "followme.dronelink"),
        follow: FollowParameters, tuning: ControllerTuning,
        linkEventHandler: @escaping @Sendable (LinkEvent) -> Void,
        tickHandler: (@Sendable (MonotonicTime) -> Void)? = nil
    ) {
        self.init(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger,
                  eventHandler: { event in LinkEvent(event).map(linkEventHandler) }, tickHandler: tickHandler)
        pcmdTranslator.withLock { $0 = PCMDTranslator(parameters: follow, tuning: tuning) }
    }

    /// REF bit 9 = `flying`; PCMD = the link's tilt loop run on `motion` and its context
    /// (`PCMDTranslator`), as progressive fractions, or hover (DroneCommand+AT.swift,
    /// docs/ardrone-protocol.md §2.3). Returns `.commandSent`: the tilt that PCMD commands and the PCMD
    /// (nil: the link was built without the flight's parameters, and hovers whatever the motion).
    @discardableResult
    public func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) -> LinkEvent? {
        let translated = pcmdTranslator.withLock { translator -> (pilot: PilotCommand?, report: LinkEvent)? in
            translator?.translate(command, at: SystemClock.now())
        }
        setDesired(flying: command.flying, pilot: ProgressiveCommand(pilot: translated?.pilot),
                   sendImmediately: immediately, reflecting: fixReceivedAt)
        return translated?.report
    }

    /// `statistics()` in the neutral vocabulary (`LinkStatistics.init(_:)`).
    public func linkStatistics() async -> LinkStatistics? {
        await statistics().map(LinkStatistics.init)
    }

    public var peerDescription: String {
        "\(configuration.address):\(configuration.atPort)/\(configuration.navdataPort)"
    }
}
