import Logging
import NIOCore
import FollowCore

/// A link's run: it runs once (idle → starting → running → stopped); `Runtime` is its mutable state.
package enum LinkLifecycle<Runtime> {
    case idle, starting, running(Runtime), stopped
}

/// What a drone link (`DroneLink`, `MAVLinkLink`) keeps besides its protocol: the one event loop
/// its sockets, tick and state live on, its lifecycle (only touched on that loop), its logger and
/// the owner's tick hook.
package struct LinkLoop<Runtime>: Sendable {
    package let eventLoop: any EventLoop
    package let lifecycle: NIOLoopBoundBox<LinkLifecycle<Runtime>>
    package let logger: Logger
    /// Called on the loop after every periodic tick with the tick's time. Must not block.
    package let tickHandler: (@Sendable (MonotonicTime) -> Void)?

    /// Pins the link to one loop of `group`, idle.
    package init(group: any EventLoopGroup, logger: Logger, tickHandler: (@Sendable (MonotonicTime) -> Void)?) {
        let eventLoop = group.next()
        self.eventLoop = eventLoop
        lifecycle = NIOLoopBoundBox.makeBoxSendingValue(.idle, eventLoop: eventLoop)
        self.logger = logger
        self.tickHandler = tickHandler
    }
}
