import NIOCore
import FollowCore
import Links
import FlightRecords

/// Datagrams on one of the simulator's UDP ports → the core (on its loop), stamped with their
/// arrival time; a port with replies (control) answers the sender. A socket error — a client that
/// went away surfaces as ICMP unreachable / ECONNREFUSED — never closes the port.
final class SimulatorDatagramHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>
    /// What the port does with one datagram; returns the reply line, if any.
    typealias Receive = (SimulatorCore, AddressedEnvelope<ByteBuffer>, MonotonicTime) -> String?

    private let core: NIOLoopBound<SimulatorCore>
    private let receive: Receive

    private init(core: NIOLoopBound<SimulatorCore>, receive: @escaping Receive) {
        self.core = core
        self.receive = receive
    }

    /// A port whose datagrams are a drone protocol's bytes, answered (if at all) by the core itself:
    /// `deliver` picks the core's receiver for them.
    private static func protocolBytes(
        core: NIOLoopBound<SimulatorCore>,
        _ deliver: @escaping (SimulatorCore) -> ([UInt8], SocketAddress, MonotonicTime) -> Void
    ) -> SimulatorDatagramHandler {
        SimulatorDatagramHandler(core: core) { core, envelope, now in
            deliver(core)(Array(envelope.data.readableBytesView), envelope.remoteAddress, now)
            return nil
        }
    }

    /// AT port: every datagram is AT commands.
    static func at(core: NIOLoopBound<SimulatorCore>) -> SimulatorDatagramHandler {
        protocolBytes(core: core) { $0.receiveAT }
    }

    /// Navdata port: any datagram registers its source as the navdata client.
    static func navdataTrigger(core: NIOLoopBound<SimulatorCore>) -> SimulatorDatagramHandler {
        SimulatorDatagramHandler(core: core) { core, envelope, now in
            core.receiveNavdataTrigger(from: envelope.remoteAddress, now: now)
            return nil
        }
    }

    /// MAVLink port (`--protocol mavlink`): MAVLink frames for the Copter; it replies itself.
    static func mavlink(core: NIOLoopBound<SimulatorCore>) -> SimulatorDatagramHandler {
        protocolBytes(core: core) { $0.receiveMAVLink }
    }

    /// Control port: one JSON command per datagram, one JSON reply line back.
    static func control(core: NIOLoopBound<SimulatorCore>) -> SimulatorDatagramHandler {
        SimulatorDatagramHandler(core: core) { core, envelope, now in
            do throws(SimulatorControlError) {
                let command = try SimulatorControlCommand(json: Array(envelope.data.readableBytesView))
                return core.control(command, from: envelope.remoteAddress, now: now)
            } catch {
                var j = JSONLine()
                j.add("ok", false)
                j.add("error", error.description)
                return j.string
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = Self.unwrapInboundIn(data)
        guard let reply = receive(core.value, envelope, SystemClock.now()) else { return }
        let buffer = context.channel.allocator.buffer(string: reply + "\n")
        context.writeAndFlush(Self.wrapOutboundOut(AddressedEnvelope(remoteAddress: envelope.remoteAddress, data: buffer)),
                              promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {}
}
