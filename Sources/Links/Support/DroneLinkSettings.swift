import FollowCore
import Logging
import NIOCore

/// A family's link settings, validated, as a flight builds its link from them: each family's link
/// configuration conforms in the family's `Link/` folder (docs/architecture.md §4).
public protocol DroneLinkSettings: Sendable {
    /// The family's link on `eventLoop` (the flight's executor, so its events and ticks reach the
    /// flight loop without a thread hop). `dryRun` (`--no-takeoff`): a link that would command a
    /// flight on its own (an autopilot's take-off sequence) sends no flight command or set-point.
    func makeLink(
        eventLoop: any EventLoop, logger: Logger, dryRun: Bool,
        eventHandler: @escaping @Sendable (LinkEvent) -> Void, tickHandler: @escaping @Sendable (MonotonicTime) -> Void
    ) -> any DroneControlLink
}
