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

extension LinkLoop {
    /// On the loop: idle → starting; false when the link has already been started.
    package func claimIdle() async -> Bool {
        (try? await eventLoop.submit { [self] () -> Bool in
            guard case .idle = lifecycle.value else { return false }
            lifecycle.value = .starting
            return true
        }.get()) ?? false
    }

    /// On the loop: → stopped (a start that failed, a stop).
    package func markStopped() async {
        _ = try? await eventLoop.submit { [self] in lifecycle.value = .stopped }.get()
    }

    /// On the loop, unless a stop came first (the link is no longer starting): `makeRuntime` builds
    /// the runtime, the link is running on it, and `begin` takes its first steps. Whether it started.
    package func run(_ makeRuntime: @escaping @Sendable () -> Runtime,
                     begin: @escaping @Sendable (Runtime) -> Void) async -> Bool {
        (try? await eventLoop.submit { [self] () -> Bool in
            guard case .starting = lifecycle.value else { return false }
            let runtime = makeRuntime()
            lifecycle.value = .running(runtime)
            begin(runtime)
            return true
        }.get()) ?? false
    }
}
