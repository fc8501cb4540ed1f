import ARDrone
import Logging
import NIOCore
import NIOPosix
import FollowCore

/// The link's two UDP sockets: binding them, and re-binding one that closed under the link.
extension DroneLink {
    // MARK: - Socket recovery

    /// Backoff before a re-bind: doubles from `reopenInitialDelay` up to `reopenMaximumDelay` with
    /// every failed bind and every re-bound socket that closes again before it carried a datagram
    /// (a route that stays down), and starts over once one went through. Our choice: the first retry
    /// after 50 ms (an ENOBUFS or a flapping route is usually gone by then), at most 1 s apart so a
    /// retry falls inside every 2 s com-watchdog period (docs/ardrone-protocol.md §2.2).
    static let reopenInitialDelay = TimeAmount.milliseconds(50)
    static let reopenMaximumDelay = TimeAmount.seconds(1)

    /// On the loop: reports it when `channel` closes while it is still the running link's socket
    /// (not after `stop()`), and starts re-binding it.
    func watchClose(of channel: any Channel, socket: DroneLinkSocket, runtime: LinkRuntime) {
        let id = ObjectIdentifier(runtime)
        // Read now: a closed channel may no longer report its local address.
        let localPort = channel.localAddress?.port ?? 0
        channel.closeFuture.whenComplete { [self] _ in
            guard let runtime = currentRuntime(id), runtime.channel(socket) === channel,
                  runtime[socket].reopen == nil else { return }
            let now = SystemClock.now()
            runtime[socket].reopen = LinkRuntime.Reopen(previousPort: localPort, closedAt: now)
            runtime.effects.reset()
            runtime.core.socketClosed(socket, error: runtime[socket].lastError, now: now, effects: &runtime.effects)
            runtime[socket].lastError = nil
            perform(runtime)
            scheduleReopen(socket, runtime: runtime)
        }
    }

    func scheduleReopen(_ socket: DroneLinkSocket, runtime: LinkRuntime) {
        let id = ObjectIdentifier(runtime)
        let delay = runtime[socket].nextReopenDelay
        runtime[socket].nextReopenDelay = min(delay * 2, Self.reopenMaximumDelay)
        runtime[socket].reopen?.scheduled = eventLoop.scheduleTask(in: delay) { [self] in
            guard let runtime = currentRuntime(id), var reopen = runtime[socket].reopen else { return }
            reopen.attempts += 1
            runtime[socket].reopen = reopen
            let host = UDPSocket.bindHost(for: runtime.atAddress)
            // The same local port first (a drone or firewall that learnt it keeps working), else any.
            let previousPort = reopen.previousPort
            bindFuture(socket, host: host, port: previousPort)
                .flatMapError { [self] error in
                    logger.warning("drone link socket: its previous local port is taken; binding a new one", metadata: [
                        "socket": "\(socket.rawValue)", "port": "\(previousPort)", "error": "\(error)",
                    ])
                    return bindFuture(socket, host: host, port: 0)
                }
                .whenComplete { [self] result in
                    guard let runtime = currentRuntime(id), let reopen = runtime[socket].reopen else {
                        if case .success(let channel) = result { channel.close(promise: nil) }
                        return
                    }
                    switch result {
                    case .success(let channel):
                        reopened(socket, channel: channel, reopen: reopen, runtime: runtime)
                    case .failure(let error):
                        logger.warning("drone link socket re-bind failed", metadata: [
                            "socket": "\(socket.rawValue)", "attempt": "\(reopen.attempts)", "error": "\(error)",
                        ])
                        scheduleReopen(socket, runtime: runtime)
                    }
                }
        }
    }

    /// On the loop: the running runtime if it is still the one identified by `id`.
    func currentRuntime(_ id: ObjectIdentifier) -> LinkRuntime? {
        guard case .running(let runtime) = lifecycle.value, ObjectIdentifier(runtime) == id else { return nil }
        return runtime
    }

    func reopened(_ socket: DroneLinkSocket, channel: any Channel, reopen: LinkRuntime.Reopen,
                          runtime: LinkRuntime) {
        switch socket {
        case .at: runtime.atChannel = channel
        case .navdata: runtime.navdataChannel = channel
        }
        runtime[socket].reopen = nil
        watchClose(of: channel, socket: socket, runtime: runtime)
        let now = SystemClock.now()
        let port = channel.localAddress?.port ?? 0
        runtime.effects.reset()
        runtime.core.socketReopened(socket, localPort: port, samePort: port == reopen.previousPort && port != 0,
                                    attempts: reopen.attempts, downSeconds: now.seconds(since: reopen.closedAt),
                                    now: now, effects: &runtime.effects)
        perform(runtime)
    }

    // MARK: - Socket setup

    static func resolve(_ host: String, port: Int) throws(DroneLinkError) -> SocketAddress {
        if let literal = try? SocketAddress(ipAddress: host, port: port) { return literal }
        do {
            return try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw .addressResolution(address: host, port: port, reason: "\(error)")
        }
    }

    /// Binds one socket of the link on its loop (`UDPSocket.bind`: the start and every re-bind).
    func bindFuture(_ socket: DroneLinkSocket, host: String, port: Int) -> EventLoopFuture<any Channel> {
        // Only the navdata socket reads; the AT socket's errors are logged all the same.
        let onDatagram: (@Sendable (AddressedEnvelope<ByteBuffer>) -> Void)? = switch socket {
        case .at: nil
        case .navdata: { [self] in receiveNavdata($0) }
        }
        return UDPSocket.bind(on: eventLoop, host: host, port: port, receiveBufferBytes: Self.navdataReceiveBufferBytes,
                              onDatagram: onDatagram, onError: { [self] in socketError($0, socket: socket) })
    }
}

extension EventLoopFuture where Value == any Channel {
    func getDroneLinkResult(socket: String) async throws(DroneLinkError) -> any Channel {
        do {
            return try await get()
        } catch {
            throw .bind(socket: socket, reason: "\(error)")
        }
    }
}
