import NIOCore
import NIOPosix

/// A drone link's UDP socket, bound on the link's own event loop: the one bootstrap and inbound
/// handler `DroneLink` (AT and navdata sockets) and `MAVLinkLink` (one socket) share, for the start
/// and every re-bind.
package enum UDPSocket {
    /// Binds a datagram socket to `host:port` (0 = any free port) on `eventLoop`, reading at most
    /// `receiveBufferBytes` per datagram. Every datagram goes to `onDatagram` (nil: the socket only
    /// sends, and what arrives is left to the pipeline's end) and every socket error to `onError`,
    /// both on `eventLoop`.
    ///
    /// The socket is created on `eventLoop` itself (so a test can put that thread in a private
    /// network namespace, and a re-bind happens where the start did). `so_reuseaddr` lets a re-bind
    /// take the port of the socket that just closed even if the kernel has not released it yet
    /// (UDP has no TIME_WAIT; only our own sockets use the port).
    package static func bind(
        on eventLoop: any EventLoop, host: String, port: Int, receiveBufferBytes: Int,
        onDatagram: (@Sendable (AddressedEnvelope<ByteBuffer>) -> Void)?,
        onError: @escaping @Sendable (any Error) -> Void
    ) -> EventLoopFuture<any Channel> {
        eventLoop.flatSubmit {
            DatagramBootstrap(group: eventLoop)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: receiveBufferBytes))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Handler(onDatagram: onDatagram, onError: onError))
                    }
                }
                .bind(host: host, port: port)
        }
    }

    /// Where a link's socket binds to reach `remote`: any local address of its family.
    package static func bindHost(for remote: SocketAddress) -> String {
        remote.protocol == .inet6 ? "::" : "0.0.0.0"
    }

    /// Hands every datagram and socket error to the link (on the loop), so none reaches the
    /// pipeline's tail.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        private let onDatagram: (@Sendable (AddressedEnvelope<ByteBuffer>) -> Void)?
        private let onError: @Sendable (any Error) -> Void

        init(
            onDatagram: (@Sendable (AddressedEnvelope<ByteBuffer>) -> Void)?, onError: @escaping @Sendable (any Error) -> Void
        ) {
            self.onDatagram = onDatagram
            self.onError = onError
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard let onDatagram else { return context.fireChannelRead(data) }
            onDatagram(Self.unwrapInboundIn(data))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            onError(error)
        }
    }
}
