#if canImport(Glibc)
import Glibc
#endif
import ARDrone
import FollowCore
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// What the recorder has done so far (a snapshot; counters run across recordings).
public struct VideoRecorderStatistics: Sendable, Equatable {
    /// A recording is open (files created; connected or reconnecting).
    public var recording = false
    /// The current or last recording's id and raw file.
    public var recordingID: String?
    public var rawPath: String?
    public var indexPath: String?
    /// Frames and payload bytes written to the raw file.
    public var framesWritten: UInt64 = 0
    public var bytesWritten: Int64 = 0
    /// Frames read but not written: before the first key frame of a connection, or not H.264.
    public var framesBeforeKeyframe: UInt64 = 0
    public var framesOtherCodec: UInt64 = 0
    /// Connections made, lost, closed for silence, and attempts that failed.
    public var connections: UInt64 = 0
    public var disconnects: UInt64 = 0
    public var stalls: UInt64 = 0
    public var connectFailures: UInt64 = 0
    /// The PaVE reader's counters, summed over connections.
    public var reader = PaVEReader.Counters()
    /// Older recordings deleted for the budget.
    public var recordingsDeleted: UInt64 = 0
    /// Why the last recording stopped before it was asked to ("free space …", "budget …", "write failed …").
    public var stoppedReason: String?

    public init() {}
}

/// Records one AR.Drone video stream (docs/video.md §3): reads PaVE frames from the drone's TCP
/// video port and writes the H.264 payloads, as they come, to `<directory>/<id>.h264`, with one index
/// line per frame in `<id>.video.jsonl` (frame number, drone time stamp, host time on the flight log's
/// clock, byte offset, size, type).
///
/// Runs on its own thread (its own one-loop event loop group), never the flight's: a stalled or
/// hostile stream, a slow disk or a failed write delays nothing but the recording. Memory is bounded
/// by the reader's cap plus one socket read. While a recording is open a lost, refused or silent
/// connection is opened again with a doubling back-off; after each (re)connection frames are written
/// from the first key frame on (an IDR or I frame), as the SDK's TCP video stage waits for one, so the
/// file stays decodable. ``end()`` closes the socket and the files at once (each frame was handed to
/// the kernel with one `write(2)`: nothing is left to flush).
public final class VideoRecorder: Sendable {
    public let settings: VideoRecorderSettings
    let group: MultiThreadedEventLoopGroup
    let loop: any EventLoop
    let core: NIOLoopBoundBox<VideoRecorderCore>
    let published: VideoRecorderStatisticsBox

    /// - Parameters:
    ///   - clock: the host time written in the index: by default the flight log's (`SystemClock`, CLOCK_MONOTONIC).
    ///   - unixSeconds: the wall clock naming a recording (UTC).
    ///   - notice: what a person must know (a recording started, stopped, space ran out), with a
    ///     syslog-style severity; called on the recorder's thread, must not block.
    ///   - camera: the recording's state as the flight's status shows a camera's (`.recording` when one
    ///     opens, `.stopped` when it closes or stops for space, `.refused` when one cannot open), with the
    ///     reason; called on the recorder's thread, must not block.
    public init(settings: VideoRecorderSettings, logger: Logger,
                clock: @escaping @Sendable () -> MonotonicTime = { SystemClock.now() },
                unixSeconds: @escaping @Sendable () -> Int64 = { Int64(time(nil)) },
                notice: @escaping @Sendable (String, Int) -> Void = { _, _ in },
                camera: @escaping @Sendable (CameraRecordingState, String) -> Void = { _, _ in }) {
        self.settings = settings
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        let published = VideoRecorderStatisticsBox()
        self.published = published
        let core = VideoRecorderCore(settings: settings, logger: logger, clock: clock, unixSeconds: unixSeconds,
                                     notice: notice, camera: camera, publish: { stats in published.value.withLock { $0 = stats } })
        core.loop = loop
        self.core = NIOLoopBoundBox.makeBoxSendingValue(core, eventLoop: loop)
    }

    /// The counters now.
    public var statistics: VideoRecorderStatistics { published.value.withLock { $0 } }

    /// Starts a new recording (files named by the current UTC second) and connects; nothing if one is open.
    public func begin() {
        let core = core
        loop.execute { core.value.begin() }
    }

    /// Ends the open recording soon, on the recorder's thread (for a caller that must not wait).
    public func endSoon() {
        let core = core
        loop.execute { core.value.end(reason: nil) }
    }

    /// Ends the open recording: the socket and both files are closed. Returns once done.
    public func end() async {
        let core = core
        try? await loop.submit { core.value.end(reason: nil) }.get()
    }

    /// Ends the open recording and stops the recorder's thread.
    public func shutdown() async {
        await end()
        try? await group.shutdownGracefully()
    }

    /// Blocks the recorder's thread for `seconds` (a disk that stops answering), for the fault tests.
    func blockThreadForTesting(seconds: Double) {
        loop.execute { usleep(UInt32(seconds * 1_000_000)) }
    }
}

/// The latest statistics, shared between the recorder's thread and its readers.
final class VideoRecorderStatisticsBox: Sendable {
    let value = Mutex(VideoRecorderStatistics())
}

/// The recorder's state, confined to its event loop.
final class VideoRecorderCore {
    let settings: VideoRecorderSettings
    let logger: Logger
    let clock: @Sendable () -> MonotonicTime
    let unixSeconds: @Sendable () -> Int64
    let notice: @Sendable (String, Int) -> Void
    let camera: @Sendable (CameraRecordingState, String) -> Void
    let publish: @Sendable (VideoRecorderStatistics) -> Void
    var loop: (any EventLoop)!

    var stats = VideoRecorderStatistics()
    var reader: PaVEReader
    var raw: VideoOutputFile?
    var index: VideoOutputFile?
    var channel: (any Channel)?
    var reconnect: Scheduled<Void>?
    var spaceCheck: RepeatedTask?
    var backoffSeconds: Double
    var waitingForKeyframe = true
    /// Bumped on every connection and every end: callbacks of an older one are ignored.
    var generation = 0
    var readerBase = PaVEReader.Counters()

    init(settings: VideoRecorderSettings, logger: Logger, clock: @escaping @Sendable () -> MonotonicTime,
         unixSeconds: @escaping @Sendable () -> Int64, notice: @escaping @Sendable (String, Int) -> Void,
         camera: @escaping @Sendable (CameraRecordingState, String) -> Void,
         publish: @escaping @Sendable (VideoRecorderStatistics) -> Void) {
        (self.settings, self.logger, self.clock, self.unixSeconds, self.notice, self.camera, self.publish) =
            (settings, logger, clock, unixSeconds, notice, camera, publish)
        reader = PaVEReader(limits: settings.readerLimits)
        backoffSeconds = settings.reconnectSeconds
    }

    var isRecording: Bool { raw != nil }

    func begin() {
        guard !isRecording else { return }
        let directory = settings.directory
        guard VideoRecordingFiles.makeDirectory(directory) else {
            return refuse("video not recorded: cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        if settings.minFreeBytes > 0, let free = VideoRecordingFiles.freeBytes(at: directory), free < settings.minFreeBytes {
            return refuse("video not recorded: \(free / 1_000_000) MB free on \(directory), below [video] min_free_mb "
                + "\(settings.minFreeBytes / 1_000_000)")
        }
        applyBudget(current: nil)
        let base = VideoRecordingFiles.stamp(unixSeconds: unixSeconds())
        var id = base, n = 1
        let taken = Set(VideoRecordingFiles.sizes(in: directory).keys)
        while taken.contains(id) {
            n += 1
            id = "\(base)-\(n)"
        }
        let rawPath = "\(directory)/\(id)\(VideoRecordingFiles.rawExtension)"
        let indexPath = "\(directory)/\(id)\(VideoRecordingFiles.indexExtension)"
        guard let raw = VideoOutputFile(creating: rawPath), let index = VideoOutputFile(creating: indexPath) else {
            return refuse("video not recorded: cannot create \(rawPath): \(String(cString: strerror(errno)))")
        }
        // Held until the file closes: the cockpit never offers a recording still being written.
        raw.lockExclusive()
        (self.raw, self.index) = (raw, index)
        (stats.recording, stats.recordingID, stats.rawPath, stats.indexPath, stats.stoppedReason) = (true, id, rawPath, indexPath, nil)
        let now = clock()
        index.write(Array(("{\"video\":\"ardrone-pave\",\"stream\":\"\(settings.stream.rawValue)\",\"port\":\(settings.port),"
            + "\"raw\":\"\(id)\(VideoRecordingFiles.rawExtension)\",\"t\":\(Self.seconds(now)),\"unix\":\(unixSeconds())}\n").utf8))
        logger.notice("video recording started", metadata: ["path": "\(rawPath)", "stream": "\(settings.stream.rawValue)",
                                                          "from": "\(settings.host):\(settings.port)"])
        notice("video recording started: \(rawPath)", 6)
        camera(.recording, "video recording \(rawPath)")
        backoffSeconds = settings.reconnectSeconds
        spaceCheck = loop.scheduleRepeatedTask(initialDelay: .nanoseconds(Int64(settings.spaceCheckSeconds * 1e9)),
                                               delay: .nanoseconds(Int64(settings.spaceCheckSeconds * 1e9))) { [self] _ in
            checkSpace()
        }
        connect()
        publish(stats)
    }

    func end(reason: String?) {
        guard isRecording else { return }
        generation += 1
        channel?.close(promise: nil)
        channel = nil
        reconnect?.cancel()
        reconnect = nil
        spaceCheck?.cancel()
        spaceCheck = nil
        dropPending()
        raw?.close()
        index?.close()
        (raw, index) = (nil, nil)
        stats.recording = false
        stats.stoppedReason = reason
        let metadata: Logger.Metadata = ["path": "\(stats.rawPath ?? "")", "frames": "\(stats.framesWritten)",
                                         "bytes": "\(stats.bytesWritten)"]
        if let reason {
            logger.error("video recording stopped: \(reason)", metadata: metadata)
            notice("video recording stopped: \(reason)", 3)
            camera(.stopped, "video recording stopped: \(reason)")
        } else {
            logger.notice("video recording closed", metadata: metadata)
            notice("video recording closed: \(stats.rawPath ?? "") (\(stats.framesWritten) frames)", 6)
            camera(.stopped, "video recording closed: \(stats.framesWritten) frames")
        }
        publish(stats)
    }

    private func refuse(_ text: String) {
        stats.stoppedReason = text
        logger.error("\(text)")
        notice(text, 3)
        camera(.refused, text)
        publish(stats)
    }

    // MARK: The connection

    func connect() {
        guard isRecording else { return }
        generation += 1
        let generation = generation
        let core = NIOLoopBound(self, eventLoop: loop)
        let stall = TimeAmount.nanoseconds(Int64(settings.stallSeconds * 1e9))
        ClientBootstrap(group: loop)
            .connectTimeout(.seconds(1))
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: stall))
                    try channel.pipeline.syncOperations.addHandler(VideoStreamHandler(core: core, generation: generation))
                }
            }
            .connect(host: settings.host, port: settings.port)
            .whenComplete { result in
                let core = core.value
                guard core.generation == generation, core.isRecording else {
                    if case .success(let channel) = result { channel.close(promise: nil) }
                    return
                }
                switch result {
                case .success(let channel):
                    core.channel = channel
                    core.stats.connections += 1
                    core.waitingForKeyframe = true
                    core.logger.info("video stream connected", metadata: ["from": "\(core.settings.host):\(core.settings.port)"])
                    core.publish(core.stats)
                case .failure(let error):
                    core.stats.connectFailures += 1
                    core.logger.debug("video stream connection failed", metadata: ["error": "\(error)"])
                    core.scheduleReconnect()
                }
            }
    }

    func scheduleReconnect() {
        guard isRecording, reconnect == nil else { return }
        let delay = backoffSeconds
        backoffSeconds = min(settings.maxReconnectSeconds, backoffSeconds * 2)
        reconnect = loop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { [self] in
            reconnect = nil
            connect()
        }
        publish(stats)
    }

    /// Bytes from the connection of `generation`.
    func received(_ bytes: UnsafeRawBufferPointer, generation: Int) {
        guard generation == self.generation, isRecording else { return }
        reader.read(bytes) { frame in write(frame) }
        stats.reader = total(reader.counters)
        publish(stats)
    }

    /// The connection of `generation` went away (closed by the drone, reset, or closed for silence).
    func disconnected(generation: Int, stalled: Bool) {
        guard generation == self.generation, isRecording else { return }
        channel = nil
        stats.disconnects += 1
        if stalled { stats.stalls += 1 }
        dropPending()
        logger.warning("video stream lost; reconnecting", metadata: ["stalled": "\(stalled)", "retry-s": "\(backoffSeconds)"])
        scheduleReconnect()
    }

    /// A new connection starts a new stream: the bytes of an unfinished frame are dropped (counted as skipped).
    private func dropPending() {
        reader.reset()
        stats.reader = total(reader.counters)
    }

    private func total(_ c: PaVEReader.Counters) -> PaVEReader.Counters { c }

    // MARK: Writing

    func write(_ frame: PaVEFrame) {
        guard let raw, let index else { return }
        backoffSeconds = settings.reconnectSeconds
        let h = frame.header
        guard h.videoCodec == PaVECodec.h264.rawValue else {
            stats.framesOtherCodec += 1
            return
        }
        if waitingForKeyframe {
            guard h.frameType == PaVEFrameType.idr.rawValue || h.frameType == PaVEFrameType.iFrame.rawValue else {
                stats.framesBeforeKeyframe += 1
                return
            }
            waitingForKeyframe = false
        }
        let offset = raw.bytesWritten
        let now = clock()
        guard raw.write(frame.payload) else {
            return end(reason: "write failed on \(raw.path): \(String(cString: strerror(errno)))")
        }
        let line = "{\"frame\":\(h.frameNumber),\"drone_ms\":\(h.timestampMilliseconds),\"t\":\(Self.seconds(now)),"
            + "\"offset\":\(offset),\"size\":\(frame.payload.count),\"type\":\"\(h.frameTypeName)\","
            + "\"width\":\(h.displayWidth),\"height\":\(h.displayHeight),\"connection\":\(stats.connections)}\n"
        guard index.write(Array(line.utf8)) else {
            return end(reason: "write failed on \(index.path): \(String(cString: strerror(errno)))")
        }
        stats.framesWritten += 1
        stats.bytesWritten = raw.bytesWritten
    }

    // MARK: Space

    func checkSpace() {
        guard isRecording else { return }
        let directory = settings.directory
        if settings.minFreeBytes > 0, let free = VideoRecordingFiles.freeBytes(at: directory), free < settings.minFreeBytes {
            return end(reason: "free space \(free / 1_000_000) MB on \(directory) below [video] min_free_mb "
                + "\(settings.minFreeBytes / 1_000_000)")
        }
        applyBudget(current: stats.recordingID)
        if settings.maxTotalBytes > 0, let id = stats.recordingID,
           let own = VideoRecordingFiles.sizes(in: directory)[id], own > settings.maxTotalBytes {
            end(reason: "the recording alone reached [video] max_total_mb \(settings.maxTotalBytes / 1_000_000)")
        }
    }

    /// Deletes the oldest recordings until the directory fits the budget, never `current`; one log line per file.
    func applyBudget(current: String?) {
        let directory = settings.directory
        let sizes = VideoRecordingFiles.sizes(in: directory)
        for id in VideoRecordingFiles.recordingsToRemove(sizes: sizes, current: current, maxTotalBytes: settings.maxTotalBytes) {
            for file in VideoRecordingFiles.files(of: id, in: directory) {
                let path = "\(directory)/\(file)"
                if unlink(path) == 0 {
                    logger.notice("old video recording removed", metadata: [
                        "file": "\(path)", "max-total-mb": "\(settings.maxTotalBytes / 1_000_000)"])
                } else {
                    logger.warning("old video recording not removed", metadata: [
                        "file": "\(path)", "reason": "\(String(cString: strerror(errno)))"])
                }
            }
            stats.recordingsDeleted += 1
        }
    }

    /// `t` as the index writes it: seconds with microseconds, like the flight log's clock.
    static func seconds(_ t: MonotonicTime) -> String {
        let micros = t.nanoseconds / 1000
        let whole = micros / 1_000_000, fraction = String(abs(micros % 1_000_000))
        return "\(micros < 0 && whole == 0 ? "-" : "")\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// Hands a connection's bytes and its end to the recorder core.
final class VideoStreamHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let core: NIOLoopBound<VideoRecorderCore>
    let generation: Int
    var stalled = false
    var silentOnce = false

    init(core: NIOLoopBound<VideoRecorderCore>, generation: Int) {
        (self.core, self.generation) = (core, generation)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        silentOnce = false
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { core.value.received($0, generation: generation) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Two silent periods in a row: the first may only mean this thread was held up (a slow disk)
        // while bytes waited in the socket; they are read before the next period ends.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            if silentOnce {
                stalled = true
                context.close(promise: nil)
            }
            silentOnce = true
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        core.value.disconnected(generation: generation, stalled: stalled)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
