import NIOCore

/// A link's periodic tick on its event loop, at a fixed rate: each deadline follows the previous one
/// by `interval`, not "now"; after a stall of more than one interval it restarts from now instead of
/// bursting to catch up. Only touched on that loop (both drone links keep theirs in their runtime).
package final class FixedRateTimer {
    package let interval: TimeAmount
    private var deadline = NIODeadline.now()
    private var scheduled: Scheduled<Void>?
    /// Runs at each deadline with how late it runs, seconds; false stops the timer.
    private var tick: ((Double) -> Bool)?

    package init(intervalSeconds: Double) {
        interval = .nanoseconds(Int64((intervalSeconds * 1e9).rounded()))
    }

    /// Ticks on `eventLoop` from one interval after now until `tick` returns false or `cancel()`.
    package func start(on eventLoop: any EventLoop, _ tick: @escaping (_ latenessSeconds: Double) -> Bool) {
        self.tick = tick
        deadline = .now() + interval
        schedule(on: eventLoop)
    }

    package func cancel() {
        scheduled?.cancel()
        scheduled = nil
        tick = nil
    }

    private func schedule(on eventLoop: any EventLoop) {
        let timer = NIOLoopBound(self, eventLoop: eventLoop)
        scheduled = eventLoop.scheduleTask(deadline: deadline) { timer.value.fire(on: eventLoop) }
    }

    private func fire(on eventLoop: any EventLoop) {
        let now = NIODeadline.now()
        guard let tick, tick(Double((now - deadline).nanoseconds) / 1e9), self.tick != nil else { return }
        deadline = deadline + interval
        if deadline < now { deadline = now + interval }
        schedule(on: eventLoop)
    }
}
