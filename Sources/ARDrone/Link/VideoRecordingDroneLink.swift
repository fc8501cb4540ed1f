import ARDrone
import FollowCore
import Logging
import NIOCore
import NIOPosix

/// The AR.Drone link of a flight that records video (`[video] record`, docs/video.md §3): the link's
/// configuration (with the video stream's `AT*CONFIG` writes) and the recorder's settings.
public struct ARDroneRecordingSettings: DroneLinkSettings {
    public let link: DroneLinkConfiguration
    public let video: VideoRecorderSettings

    public init(link: DroneLinkConfiguration, video: VideoRecorderSettings) {
        (self.link, self.video) = (link, video)
    }

    /// A `VideoRecordingDroneLink`: the `DroneLink` of `link`, and the recorder beside it.
    public func makeLink(
        eventLoop: any EventLoop, logger: Logger, dryRun: Bool,
        eventHandler: @escaping @Sendable (LinkEvent) -> Void, tickHandler: @escaping @Sendable (MonotonicTime) -> Void
    ) -> any DroneControlLink {
        VideoRecordingDroneLink(configuration: link, video: video, eventLoop: eventLoop, logger: logger,
                           eventHandler: eventHandler, tickHandler: tickHandler)
    }
}

/// A `DroneLink` with a `VideoRecorder` beside it: the recording opens when telemetry first shows the
/// drone airborne (taking off, or adopted in the air) and closes when telemetry shows it landed, or
/// when the link stops (SIGTERM included).
///
/// The flight sees the link unchanged: every event passes through as it came, commands and ticks go
/// straight to the `DroneLink`; the recorder runs on its own thread and only ever adds `.notice`
/// events (recording started, closed, stopped for space) and `.camera` events (the recording's state,
/// which the flight's status shows), handed to the flight's loop with one `execute`. Nothing the
/// recorder does can delay a tick.
public final class VideoRecordingDroneLink: DroneControlLink {
    public let link: DroneLink
    public let recorder: VideoRecorder
    /// Whether telemetry last showed the drone airborne; touched on the flight's loop only.
    private let airborne: NIOLoopBoundBox<Bool>

    public init(configuration: DroneLinkConfiguration, video: VideoRecorderSettings, eventLoop: any EventLoop,
                logger: Logger, eventHandler: @escaping @Sendable (LinkEvent) -> Void,
                tickHandler: (@Sendable (MonotonicTime) -> Void)? = nil) {
        let recorder = VideoRecorder(settings: video, logger: logger, notice: { text, severity in
            eventLoop.execute { eventHandler(.notice(text: text, severity: severity, at: SystemClock.now())) }
        }, camera: { state, reason in
            eventLoop.execute { eventHandler(.camera(state: state, reason: reason, at: SystemClock.now())) }
        })
        let airborne = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: eventLoop)
        self.recorder = recorder
        self.airborne = airborne
        link = DroneLink(configuration: configuration, eventLoopGroup: eventLoop, logger: logger, linkEventHandler: { event in
            if case .telemetry(let telemetry, _) = event {
                if telemetry.flightState.isAirborne, !airborne.value {
                    airborne.value = true
                    recorder.begin()
                } else if telemetry.flightState == .landed, airborne.value {
                    airborne.value = false
                    recorder.endSoon()
                }
            }
            eventHandler(event)
        }, tickHandler: tickHandler)
    }

    public func start() async throws {
        try await link.start()
    }

    /// Closes the recording (socket and files, at once) and stops the recorder's thread, then the link.
    public func stop() async {
        await recorder.shutdown()
        await link.stop()
    }

    public func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) {
        link.send(command, immediately: immediately, reflecting: fixReceivedAt)
    }

    public func linkStatistics() async -> LinkStatistics? { await link.linkStatistics() }
    public func fixLatency() async -> LatencyHistogram? { await link.fixLatency() }
    public var peerDescription: String { link.peerDescription + " video \(recorder.settings.host):\(recorder.settings.port)" }
}
