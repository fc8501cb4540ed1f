import ARDrone
import Logging
import NIOCore
import NIOPosix
import FollowCore

/// The link's loop-confined internals: ticks, sends, navdata and the events they raise.
extension DroneLink {
    // MARK: - Loop-confined internals

    /// On the loop: the running runtime with the owner's latest `setDesired` applied, or nil if
    /// not running. Every loop entry point goes through here, so owner calls keep their order.
    var runningRuntime: LinkRuntime? {
        guard case .running(let runtime) = lifecycle.value else { return nil }
        let desired = pendingDesired.withLock { $0 }
        if desired.generation != runtime.appliedDesiredGeneration {
            runtime.appliedDesiredGeneration = desired.generation
            runtime.core.setDesired(flying: desired.flying, pilot: desired.pilot, heading: desired.heading)
        }
        return runtime
    }

    /// Runs `body` on the loop with the running runtime; nil if not running.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (LinkRuntime) -> T) async -> T? {
        try? await eventLoop.submit { [self] () -> T? in
            guard let runtime = runningRuntime else { return nil }
            return body(runtime)
        }.get()
    }

    func markStopped() async {
        await loop.markStopped()
        continuation.finish()
    }

    /// The periodic tick (`runtime.ticks`, fixed rate); false once the link is no longer running.
    func tick(_ latenessSeconds: Double) -> Bool {
        guard let runtime = runningRuntime else { return false }
        runtime.core.recordTickLateness(seconds: latenessSeconds)
        performTick(runtime, immediate: false)
        remindIfSilent(runtime)
        tickHandler?(SystemClock.now())
        return true
    }

    func performTick(_ runtime: LinkRuntime, immediate: Bool, reflecting fixReceivedAt: MonotonicTime? = nil) {
        runtime.effects.reset()
        let hasDatagram = runtime.core.tick(now: SystemClock.now(), datagram: &runtime.datagram,
                                            effects: &runtime.effects)
        if hasDatagram {
            if immediate { runtime.core.countImmediateSend() }
            sendATDatagram(runtime)
            if let fixReceivedAt {
                runtime.fixLatency.record(nanoseconds: SystemClock.now().nanoseconds - fixReceivedAt.nanoseconds)
            }
        }
        perform(runtime)
    }

    /// While no navdata has come since start: what to check, logged after five silence periods, then every 30 s.
    func remindIfSilent(_ runtime: LinkRuntime) {
        guard let waited = runtime.silenceReminder.due(now: SystemClock.now(), since: runtime.core.startedAt,
                                                       arrived: runtime.core.isConnected) else { return }
        logger.warning("no navdata from the drone yet", metadata: [
            "drone": "\(configuration.address):\(configuration.navdataPort)",
            "waitedSeconds": "\(Int(waited))", "fix": "\(LinkHint.noNavdata(configuration))",
        ])
    }

    /// Copies the encoded datagram into the reused `ByteBuffer` (no allocation once the previous
    /// write has completed, which for UDP is almost always synchronous) and writes it.
    func sendATDatagram(_ runtime: LinkRuntime) {
        guard runtime.at.reopen == nil else {
            // The AT socket is being re-bound: nothing can go out (the drone's com watchdog holds it).
            runtime.core.countSendFailure()
            return
        }
        runtime.atBuffer.clear()
        runtime.atBuffer.writeBytes(runtime.datagram)
        let promise = eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [self] result in
            guard case .running(let runtime) = lifecycle.value else { return }
            switch result {
            case .success:
                runtime.at.worked()
            case .failure(let error):
                runtime.core.countSendFailure()
                runtime.at.lastError = "\(error)"
                logger.debug("AT datagram not sent", metadata: ["error": "\(error)"])
            }
        }
        runtime.atChannel.writeAndFlush(
            AddressedEnvelope(remoteAddress: runtime.atAddress, data: runtime.atBuffer), promise: promise)
    }

    /// Carries out the core's effects: the navdata trigger and the events.
    func perform(_ runtime: LinkRuntime) {
        if runtime.effects.sendNavdataTrigger, runtime.navdata.reopen == nil {
            runtime.navdataChannel.writeAndFlush(
                AddressedEnvelope(remoteAddress: runtime.navdataAddress, data: runtime.triggerBuffer), promise: nil)
        }
        for event in runtime.effects.events {
            log(event)
            if let eventHandler {
                eventHandler(event)
            } else if case .dropped = continuation.yield(event) {
                runtime.core.countDroppedEvent()
            }
        }
        runtime.effects.reset()
    }

    /// Called on the loop for every navdata datagram (`UDPSocket.bind`).
    func receiveNavdata(_ envelope: AddressedEnvelope<ByteBuffer>) {
        guard let runtime = runningRuntime else { return }
        let now = SystemClock.now()
        runtime.navdata.worked()
        runtime.effects.reset()
        let dropped = envelope.data.withUnsafeReadableBytes { bytes in
            runtime.core.receiveNavdata(bytes, fromDrone: envelope.remoteAddress == runtime.navdataAddress, now: now,
                                         effects: &runtime.effects)
        }
        if let dropped {
            logger.debug("navdata dropped", metadata: [
                "reason": "\(dropped)", "source": "\(envelope.remoteAddress)", "bytes": "\(envelope.data.readableBytes)",
            ])
        }
        perform(runtime)
    }

    /// Called by the channel handlers on the loop (e.g. ICMP port unreachable surfaced by the kernel).
    func socketError(_ error: any Error, socket: DroneLinkSocket) {
        logger.warning("drone link socket error", metadata: ["socket": "\(socket.rawValue)", "error": "\(error)"])
        if case .running(let runtime) = lifecycle.value { runtime[socket].lastError = "\(error)" }
    }

    func log(_ event: DroneLinkEvent) {
        switch event {
        case .navdata, .statistics:
            break
        case .connected(let wasFlying, let desiredFlying, _):
            logger.info("first navdata", metadata: ["droneWasFlying": "\(wasFlying)", "desiredFlying": "\(desiredFlying)"])
        case .telemetryLost(let last, let at):
            logger.warning("navdata lost; re-sending trigger", metadata: ["silenceSeconds": "\(at.seconds(since: last))"])
        case .navdataRestored(let silence, _):
            logger.notice("navdata restored", metadata: ["silenceSeconds": "\(silence)"])
        case .configurationAcknowledged(let write, let attempts, _):
            logger.info("configuration acknowledged", metadata: ["key": "\(write.key)", "value": "\(write.value)", "attempts": "\(attempts)"])
        case .configurationFailed(let write, let reason, _):
            logger.error("configuration failed", metadata: ["key": "\(write.key)", "value": "\(write.value)", "reason": "\(reason)"])
        case .desiredFlyingCleared(let reason, _):
            logger.warning("desired flying cleared", metadata: ["reason": "\(reason)"])
        case .socketClosed(let socket, let error, _):
            logger.error("drone link socket closed; re-binding", metadata: [
                "socket": "\(socket.rawValue)", "error": "\(error ?? "?")",
            ])
        case .socketReopened(let socket, let port, let samePort, let attempts, let down, _):
            logger.notice("drone link socket re-bound", metadata: [
                "socket": "\(socket.rawValue)", "localPort": "\(port)", "samePort": "\(samePort)",
                "attempts": "\(attempts)", "downSeconds": "\(down)",
            ])
        case .bootstrapFallback(let reason, _):
            logger.warning("navdata fell back to bootstrap; redoing bootstrap and config writes",
                           metadata: ["reason": "\(reason.rawValue)"])
        case .configurationComplete(let failedKeys, _):
            if failedKeys.isEmpty {
                logger.info("configuration complete")
            } else {
                logger.error("configuration incomplete", metadata: ["failedKeys": "\(failedKeys.joined(separator: ","))"])
            }
        }
    }
}
