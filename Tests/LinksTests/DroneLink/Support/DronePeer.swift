@testable import ARDrone
import NIOCore
import NIOPosix
import Synchronization
@testable import Links
@testable import FollowCore

/// A fake AR.Drone on 127.0.0.1 for the link tests: real UDP, ephemeral ports.
///
/// It owns two sockets like the drone: the "AT port" receives AT datagrams (decoded with the
/// strict `ATDecoder` and fed to an `ATProtocolChecker`), the "navdata port" receives the trigger
/// and sends navdata (encoded by the codec) back to the trigger's source, at `navdataRateHz` while
/// streaming. It reacts like the drone: CONFIG raises state bit 6, `AT*CTRL=…,5,0` clears it,
/// `general:navdata_demo=TRUE` leaves bootstrap, REF bit 9 takes off / lands, REF bit 8 toggles
/// emergency, COMWDG clears the com watchdog bit. Knobs let a test ignore configs or stay silent.
final class DronePeer: Sendable {
    /// One AT datagram as the peer saw it.
    struct ReceivedDatagram: Sendable {
        let bytes: [UInt8]
        let commands: [SequencedATCommand]
        let receivedAt: MonotonicTime
        /// Peer drone state when the datagram arrived (before reacting to it).
        let stateBefore: DroneState
        /// The UDP source port (the link's AT socket).
        var sourcePort: Int? = nil
    }

    struct State: Sendable {
        var droneState: DroneState
        var controlState: ControlState
        var demoMode: Bool
        var sequenceNumber: UInt32 = 0
        var linkNavdataAddress: SocketAddress?
        var triggers: [MonotonicTime] = []
        var datagrams: [ReceivedDatagram] = []
        var checker = ATProtocolChecker()
        /// CONFIG writes the peer applied (acknowledged), in arrival order.
        var appliedConfigurations: [(key: String, value: String)] = []
        /// Every CONFIG received (applied or ignored).
        var receivedConfigurations: [(key: String, value: String)] = []
        /// Number of next CONFIGs to ignore (no ACK), whatever the key.
        var configurationsToIgnore = 0
        /// Keys never acknowledged.
        var ignoredKeys: Set<String> = []
        /// CONFIGs that arrived while bit 6 was still set (one-at-a-time violations).
        var configurationsWhileAcknowledgeBitSet = 0
        /// Start streaming when a trigger arrives.
        var respondToTriggers = true
        var streaming = false
        var firstNavdataSentAt: MonotonicTime?
        var navdataPacketsSent = 0
        var comWatchdogResetsReceived = 0
        var flatTrimsReceived = 0
        var emergencyTogglesReceived = 0
        /// REF bit 8 of the previous REF (emergency toggles on its rising edge).
        var previousSelectBit = false
    }

    let state: Mutex<State>
    let atChannel: any Channel
    let navdataChannel: any Channel
    let atPort: Int
    let navdataPort: Int
    private let streamTask: Mutex<RepeatedTask?> = Mutex(nil)

    /// Binds both sockets on `host`:0 and starts the navdata timer. The sockets are created on
    /// `loop`'s thread (which may live in a private network namespace, see `PrivateNetwork`).
    static func start(
        droneState: DroneState = DronePeer.landedState,
        controlState: ControlState = .landed,
        demoMode: Bool = false,
        navdataRateHz: Double = 15,
        host: String = "127.0.0.1",
        loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    ) async throws -> DronePeer {
        let relay = PeerRelay()
        func bind(_ port: PeerHandler.Port) async throws -> any Channel {
            try await loop.flatSubmit {
                DatagramBootstrap(group: loop)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(PeerHandler(relay: relay, port: port))
                        }
                    }
                    .bind(host: host, port: 0)
            }.get()
        }
        let atChannel = try await bind(.at)
        let navdataChannel = try await bind(.navdata)
        let peer = DronePeer(
            state: State(droneState: droneState, controlState: controlState, demoMode: demoMode),
            atChannel: atChannel, navdataChannel: navdataChannel)
        relay.peer.withLock { $0 = peer }
        let periodMilliseconds = Int64((1000 / navdataRateHz).rounded())
        let task = loop.scheduleRepeatedTask(
            initialDelay: .milliseconds(periodMilliseconds), delay: .milliseconds(periodMilliseconds)
        ) { _ in peer.streamTick() }
        peer.streamTask.withLock { $0 = task }
        return peer
    }

    private init(state: State, atChannel: any Channel, navdataChannel: any Channel) {
        self.state = Mutex(state)
        self.atChannel = atChannel
        self.navdataChannel = navdataChannel
        atPort = atChannel.localAddress?.port ?? 0
        navdataPort = navdataChannel.localAddress?.port ?? 0
    }

    func shutdown() async {
        streamTask.withLock { $0?.cancel(); $0 = nil }
        try? await atChannel.close()
        try? await navdataChannel.close()
    }

    /// Threads normally on in a landed, booted drone (fixture state 0x4F8000D0 without ACK/watchdog).
    static let landedState: DroneState = [
        .altitudeControlActive, .cameraReady, .picVersionOK, .atCodecThreadOn, .navdataThreadOn,
        .videoThreadOn, .acquisitionThreadOn,
    ]

    // MARK: Reading

    var snapshot: State { state.withLock { $0 } }

    /// All AT commands received so far, in order.
    var commands: [SequencedATCommand] { state.withLock { $0.datagrams.flatMap(\.commands) } }

    // MARK: Navdata

    /// The packet the drone would send now (bootstrap or demo), consuming a sequence number.
    func nextPacket() -> [UInt8] {
        state.withLock { s in
            s.sequenceNumber += 1
            return Self.packet(for: s, sequenceNumber: s.sequenceNumber)
        }
    }

    static func packet(for s: State, sequenceNumber: UInt32) -> [UInt8] {
        let navdata: Navdata
        if s.demoMode {
            let airborne = s.controlState == .hovering || s.controlState == .flying
            let demo = NavdataDemo(controlState: s.controlState, batteryPercent: 80,
                                   thetaMillidegrees: 1500, phiMillidegrees: -500, psiMillidegrees: 90_000,
                                   altitudeMillimeters: airborne ? 1200 : 0)
            navdata = .demoPacket(state: s.droneState, sequenceNumber: sequenceNumber, demo: demo)
        } else {
            navdata = .bootstrap(state: s.droneState, sequenceNumber: sequenceNumber)
        }
        // Test peer: encoding a well-formed packet cannot fail.
        return (try? navdata.encoded()) ?? []
    }

    /// Sends `bytes` from the navdata port to the link's navdata socket (known after a trigger).
    func sendToLink(_ bytes: [UInt8]) {
        guard let address = state.withLock({ s -> SocketAddress? in
            if s.linkNavdataAddress != nil, s.firstNavdataSentAt == nil { s.firstNavdataSentAt = SystemClock.now() }
            if s.linkNavdataAddress != nil { s.navdataPacketsSent += 1 }
            return s.linkNavdataAddress
        }) else { return }
        navdataChannel.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: ByteBuffer(bytes: bytes)),
                                     promise: nil)
    }

    /// Sends `navdata` as-is (a test controls the sequence number).
    func send(_ navdata: Navdata) {
        if let bytes = try? navdata.encoded() { sendToLink(bytes) }
    }

    fileprivate func streamTick() {
        guard state.withLock({ $0.streaming && $0.linkNavdataAddress != nil }) else { return }
        sendToLink(nextPacket())
    }

    // MARK: Reacting

    fileprivate func receivedTrigger(_ bytes: [UInt8], from address: SocketAddress) {
        state.withLock { s in
            guard bytes == [1, 0, 0, 0] else { return }
            s.triggers.append(SystemClock.now())
            s.linkNavdataAddress = address
            if s.respondToTriggers { s.streaming = true }
        }
    }

    fileprivate func receivedAT(_ bytes: [UInt8], from address: SocketAddress? = nil) {
        let now = SystemClock.now()
        let decoded = Result { () throws(ATDecodingError) in try ATDecoder.decode(bytes) }
        state.withLock { s in
            s.checker.check(bytes, decoded: decoded)
            let commands = (try? decoded.get()) ?? []
            s.datagrams.append(ReceivedDatagram(bytes: bytes, commands: commands, receivedAt: now,
                                                stateBefore: s.droneState, sourcePort: address?.port))
            for command in commands { Self.react(to: command.command, state: &s) }
        }
    }

    private static func react(to command: ATCommand, state s: inout State) {
        switch command {
        case .config(let key, let value):
            s.receivedConfigurations.append((key, value))
            if s.droneState.contains(.commandAcknowledged) { s.configurationsWhileAcknowledgeBitSet += 1 }
            if s.configurationsToIgnore > 0 {
                s.configurationsToIgnore -= 1
                return
            }
            guard !s.ignoredKeys.contains(key) else { return }
            s.appliedConfigurations.append((key, value))
            s.droneState.insert(.commandAcknowledged)
            if key == "general:navdata_demo" {
                s.demoMode = value == "TRUE"
                s.droneState.subtract(.navdataBootstrap)
                if s.demoMode { s.droneState.insert(.navdataDemo) }
            }
        case .ctrl(.acknowledgeCommand):
            s.droneState.remove(.commandAcknowledged)
        case .comwdg:
            s.comWatchdogResetsReceived += 1
            s.droneState.remove(.communicationWatchdog)
        case .ftrim:
            s.flatTrimsReceived += 1
        case .ref(let input):
            let select = input.togglesEmergency
            if select && !s.previousSelectBit {
                s.emergencyTogglesReceived += 1
                s.droneState.formSymmetricDifference(.emergency)
                if s.droneState.contains(.emergency) {
                    s.droneState.remove(.flying)
                    s.controlState = .landed
                }
            }
            s.previousSelectBit = select
            guard !s.droneState.contains(.emergency) else { return }
            if input.requestsFlight, s.controlState == .landed {
                s.controlState = .hovering
                s.droneState.insert(.flying)
            } else if !input.requestsFlight, s.controlState == .hovering || s.controlState == .flying {
                s.controlState = .landed
                s.droneState.remove(.flying)
            }
        default:
            break
        }
    }
}

/// Lets handlers created before the peer exists reach it.
private final class PeerRelay: Sendable {
    let peer = Mutex<DronePeer?>(nil)
}

private final class PeerHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    enum Port { case at, navdata }
    private let relay: PeerRelay
    private let port: Port

    init(relay: PeerRelay, port: Port) {
        self.relay = relay
        self.port = port
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = Self.unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        guard let peer = relay.peer.withLock({ $0 }) else { return }
        switch port {
        case .at: peer.receivedAT(bytes, from: envelope.remoteAddress)
        case .navdata: peer.receivedTrigger(bytes, from: envelope.remoteAddress)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {}
}

/// A third socket on 127.0.0.1 that is not the drone's navdata port.
final class Spoofer: Sendable {
    let channel: any Channel

    static func start() async throws -> Spoofer {
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton.next())
            .bind(host: "127.0.0.1", port: 0).get()
        return Spoofer(channel: channel)
    }

    private init(channel: any Channel) { self.channel = channel }

    var address: SocketAddress? { channel.localAddress }

    func send(_ bytes: [UInt8], to address: SocketAddress) async throws {
        try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: ByteBuffer(bytes: bytes)))
    }

    func shutdown() async { try? await channel.close() }
}
