import ARDrone
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The faults the simulated drone's video port can show (docs/video.md §4); any mix, changed at any time.
public struct SimulatedVideoFaults: Sendable, Equatable {
    /// Each frame is written in pieces of at most this many bytes, each flushed on its own (separate
    /// TCP segments, `TCP_NODELAY`); 0 = a frame in one write.
    public var segmentBytes = 0
    /// This many bytes of garbage before every `garbageEvery`-th frame; 0 = none.
    public var garbageBytes = 0
    public var garbageEvery = 1
    /// Each connection is closed after this many frames (a dropped link); 0 = never.
    public var dropAfterFrames = 0
    /// No frame is sent while set, the connections staying open (a camera or link that goes silent).
    public var paused = false

    public init() {}
}

/// What the video server has sent.
public struct SimulatedVideoStatistics: Sendable, Equatable {
    public var connections = 0
    /// Frames handed whole to the kernel, over all connections.
    public var framesSent: UInt64 = 0
    /// Frames not written because a client's send buffer was full (a reader that does not read).
    public var framesSkippedUnwritable: UInt64 = 0
    /// Frame numbers handed whole to the kernel on each connection, in order (the first 100 000 per connection).
    public var sentFrameNumbers: [[UInt32]] = []
    public var garbageBytesSent: UInt64 = 0
    public var connectionsDropped = 0
}

/// The simulated AR.Drone's TCP video port: PaVE-wrapped access units of a real H.264 stream at a fixed
/// frame rate, looped, to every connected client (docs/video.md §4).
///
/// Runs on its own thread (a one-loop event loop group), so nothing here can delay the simulator's
/// navdata or AT handling. A client that stops reading costs nothing: once its send buffer passes
/// 256 kB its frames are skipped (counted), as a live camera would.
public final class SimulatedVideoServer: Sendable {
    public let port: Int
    let group: MultiThreadedEventLoopGroup
    let channel: any Channel
    let state: SimulatedVideoState

    /// Binds `host:port` (0 = any free port) and starts the frame clock.
    public static func start(host: String = "127.0.0.1", port: Int, units: [H264AccessUnits.Unit], width: Int = 1280,
                             height: Int = 720, framesPerSecond: Double = 30, logger: Logger) async throws -> SimulatedVideoServer {
        precondition(!units.isEmpty, "a video needs at least one access unit")
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let state = SimulatedVideoState(units: units, width: width, height: height, framesPerSecond: framesPerSecond, loop: loop)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture { state.accept(child) }
                }
                .bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            logger.info("simulated video stream", metadata: ["bind": "\(host):\(bound)", "units": "\(units.count)"])
            state.startClock()
            return SimulatedVideoServer(port: bound, group: group, channel: channel, state: state)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel, state: SimulatedVideoState) {
        (self.port, self.group, self.channel, self.state) = (port, group, channel, state)
    }

    public var faults: SimulatedVideoFaults {
        get { state.shared.withLock { $0.faults } }
        set { state.shared.withLock { $0.faults = newValue } }
    }

    public var statistics: SimulatedVideoStatistics { state.shared.withLock { $0.statistics } }

    /// Closes every connection and the port, and stops the thread.
    public func stop() async {
        try? await channel.close()
        try? await group.next().submit { self.state.closeAll() }.get()
        try? await group.shutdownGracefully()
    }
}

/// The server's state: the clients and the frame clock live on its loop; faults and statistics are shared.
final class SimulatedVideoState: Sendable {
    struct Shared {
        var faults = SimulatedVideoFaults()
        var statistics = SimulatedVideoStatistics()
    }

    final class Client {
        let channel: any Channel
        let number: Int
        var frames = 0
        init(channel: any Channel, number: Int) { (self.channel, self.number) = (channel, number) }
    }

    let units: [H264AccessUnits.Unit]
    let width: Int, height: Int, framesPerSecond: Double
    let loop: any EventLoop
    let shared = Mutex(Shared())
    let clients: NIOLoopBoundBox<ClientList>

    final class ClientList {
        var clients: [ObjectIdentifier: Client] = [:]
        var frame: UInt32 = 0
        var clock: RepeatedTask?
        /// When the camera's clock started: the PaVE time stamps count from it.
        var startedAt: NIODeadline?
    }

    init(units: [H264AccessUnits.Unit], width: Int, height: Int, framesPerSecond: Double, loop: any EventLoop) {
        (self.units, self.width, self.height, self.framesPerSecond, self.loop) = (units, width, height, framesPerSecond, loop)
        clients = NIOLoopBoundBox.makeBoxSendingValue(ClientList(), eventLoop: loop)
    }

    func accept(_ channel: any Channel) {
        let number = shared.withLock { s in
            s.statistics.connections += 1
            s.statistics.sentFrameNumbers.append([])
            return s.statistics.connections - 1
        }
        let list = clients.value
        list.clients[ObjectIdentifier(channel)] = Client(channel: channel, number: number)
        let clients = clients
        channel.closeFuture.whenComplete { _ in clients.value.clients[ObjectIdentifier(channel)] = nil }
    }

    func startClock() {
        let period = TimeAmount.nanoseconds(Int64(1e9 / framesPerSecond))
        let clients = clients
        loop.execute {
            clients.value.startedAt = .now()
            clients.value.clock = self.loop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in self.tick() }
        }
    }

    func closeAll() {
        let list = clients.value
        list.clock?.cancel()
        for client in list.clients.values { client.channel.close(promise: nil) }
        list.clients.removeAll()
    }

    /// One frame to every client.
    private func tick() {
        let list = clients.value
        let n = list.frame
        list.frame &+= 1
        let unit = units[Int(n) % units.count]
        var header = PaVEHeader()
        header.payloadSize = UInt32(unit.bytes.count)
        (header.encodedWidth, header.encodedHeight) = (UInt16(width), UInt16((height + 15) / 16 * 16))
        (header.displayWidth, header.displayHeight) = (UInt16(width), UInt16(height))
        header.frameNumber = n
        // The camera's own clock when the frame is sent, as a drone stamps a frame with its capture time: a
        // thread running late sends fewer frames, and the stamps still say how long the recording lasted.
        let elapsed = list.startedAt.map { NIODeadline.now() - $0 } ?? .zero
        header.timestampMilliseconds = UInt32(truncatingIfNeeded: max(elapsed.nanoseconds, 0) / 1_000_000)
        header.frameType = (unit.isIDR ? PaVEFrameType.idr : .pFrame).rawValue
        header.streamID = height >= 720 ? 2 : 1
        let frame = header.encoded + unit.bytes
        let faults = shared.withLock { $0.faults }
        guard !faults.paused else { return }
        for client in list.clients.values {
            guard client.channel.isActive else { continue }
            guard client.channel.isWritable else {
                shared.withLock { $0.statistics.framesSkippedUnwritable += 1 }
                continue
            }
            var garbage = 0
            if faults.garbageBytes > 0, client.frames % max(1, faults.garbageEvery) == 0, client.frames > 0 {
                garbage = faults.garbageBytes
                write([UInt8]((0..<garbage).map { i in [0x50, 0x61, 0x56, 0x13, 0xAB][i % 5] }), to: client.channel, pieces: 0)
            }
            client.frames += 1
            let last = faults.dropAfterFrames > 0 && client.frames >= faults.dropAfterFrames
            let written = write(frame, to: client.channel, pieces: faults.segmentBytes)
            // Counted once the kernel has the whole frame (a frame still queued when the connection closes is not sent).
            written.whenSuccess { [self, garbage, number = client.number] in
                shared.withLock { s in
                    s.statistics.framesSent += 1
                    s.statistics.garbageBytesSent += UInt64(garbage)
                    if s.statistics.sentFrameNumbers[number].count < 100_000 {
                        s.statistics.sentFrameNumbers[number].append(n)
                    }
                }
            }
            if last {
                written.whenComplete { _ in client.channel.close(promise: nil) }
                shared.withLock { $0.statistics.connectionsDropped += 1 }
            }
        }
    }

    /// Writes `bytes` in pieces of `pieces` bytes (0 = one), each flushed; the future of the last.
    @discardableResult
    private func write(_ bytes: [UInt8], to channel: any Channel, pieces: Int) -> EventLoopFuture<Void> {
        let size = pieces > 0 ? pieces : bytes.count
        var future = loop.makeSucceededVoidFuture()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            future = channel.writeAndFlush(channel.allocator.buffer(bytes: bytes[start..<end]))
            start = end
        }
        return future
    }
}
