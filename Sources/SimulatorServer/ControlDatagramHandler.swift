import NIOCore
import ShellSupport

/// Control datagrams → the core (on its loop); each reply goes back to the sender.
final class ControlDatagramHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private let core: NIOLoopBound<SimulatorCore>

    init(core: NIOLoopBound<SimulatorCore>) {
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = Self.unwrapInboundIn(data)
        let reply: String
        do {
            let command = try SimulatorControlCommand(json: Array(envelope.data.readableBytesView))
            reply = core.value.control(command, from: envelope.remoteAddress, now: SystemClock.now())
        } catch {
            var j = JSONLine()
            j.add("ok", false)
            j.add("error", error.description)
            reply = j.string
        }
        let buffer = context.channel.allocator.buffer(string: reply + "\n")
        context.writeAndFlush(Self.wrapOutboundOut(AddressedEnvelope(remoteAddress: envelope.remoteAddress, data: buffer)),
                              promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A client that went away (ICMP unreachable) must not close the control port.
    }
}
