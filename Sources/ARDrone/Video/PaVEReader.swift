/// An incremental reader of a PaVE stream (the AR.Drone 2.0's TCP video, docs/video.md §2): fed
/// byte chunks of any size, it returns each complete frame once.
///
/// - A frame split across chunks is reassembled.
/// - Bytes before a `"PaVE"` signature (garbage, a stream joined mid-frame) are skipped and counted.
/// - A header whose `header_size` is below 64 or above ``Limits/maxHeaderBytes``, or whose payload is
///   above ``Limits/maxPayloadBytes``, is refused and counted; reading resumes at the next signature.
/// - Memory is bounded whatever the input: the reader never holds more than ``Limits/maxBufferedBytes``
///   (one largest frame plus one header), because a chunk is taken in pieces that fit, and frames are
///   returned as soon as they are complete.
///
/// Invariant (checked by the fuzz property): every byte given is, exactly once, part of a returned
/// frame, counted as skipped, or still pending (``pendingByteCount``).
public struct PaVEReader: Sendable {
    /// What the reader accepts.
    public struct Limits: Sendable, Equatable {
        /// Largest `header_size` accepted, bytes (the SDK's header is 64; firmwares sending 68 or 76 are reported).
        public var maxHeaderBytes: Int = 256
        /// Largest `payload_size` accepted, bytes. Default 1 MiB: a 720p I-frame at the drone's
        /// highest bitrate (4 Mbit/s) is a few hundred kB.
        public var maxPayloadBytes: Int = 1 << 20

        public init(maxHeaderBytes: Int = 256, maxPayloadBytes: Int = 1 << 20) {
            self.maxHeaderBytes = max(PaVEHeader.fieldsSize, maxHeaderBytes)
            self.maxPayloadBytes = max(0, maxPayloadBytes)
        }

        /// The most bytes the reader ever holds.
        public var maxBufferedBytes: Int { maxHeaderBytes + maxPayloadBytes }
    }

    /// What the reader has seen so far.
    public struct Counters: Sendable, Equatable {
        /// Bytes given to ``read(_:)``.
        public var bytesRead: UInt64 = 0
        /// Frames returned.
        public var frames: UInt64 = 0
        /// Bytes of the frames returned, headers included.
        public var frameBytes: UInt64 = 0
        /// Bytes skipped while looking for a signature (garbage, refused headers' first bytes).
        public var bytesSkipped: UInt64 = 0
        /// Runs of skipped bytes (each time the reader had to look for the next signature).
        public var resyncs: UInt64 = 0
        /// Headers refused for an absurd header or payload size.
        public var headersRefused: UInt64 = 0

        public init() {}
    }

    public let limits: Limits
    public private(set) var counters = Counters()
    /// Unconsumed bytes are `buffer[start...]`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Stream offset of `buffer[start]`.
    private var offset: UInt64 = 0
    /// Whether the last bytes dropped were a skip still in progress (one resync per run of garbage).
    private var skipping = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes held, waiting for the rest of a frame or of a signature.
    public var pendingByteCount: Int { buffer.count - start }

    /// Feeds `bytes` and returns the frames they complete, in stream order.
    public mutating func read(_ bytes: some Collection<UInt8>) -> [PaVEFrame] {
        var frames: [PaVEFrame] = []
        read(bytes) { frames.append($0) }
        return frames
    }

    /// Feeds `bytes`, calling `frame` for each frame they complete, in stream order. Never holds more
    /// than ``Limits/maxBufferedBytes``, however large `bytes` is.
    public mutating func read(_ bytes: some Collection<UInt8>, frame: (PaVEFrame) -> Void) {
        counters.bytesRead += UInt64(bytes.count)
        var rest = bytes[...]
        while !rest.isEmpty {
            let room = limits.maxBufferedBytes - pendingByteCount
            let piece = rest.prefix(max(1, room))
            rest = rest.dropFirst(piece.count)
            compact(incoming: piece.count)
            buffer.append(contentsOf: piece)
            drain(frame)
        }
    }

    /// Forgets pending bytes (a new connection starts a new stream); the counters stay.
    /// Returns how many bytes were dropped (counted as skipped).
    @discardableResult
    public mutating func reset() -> Int {
        let dropped = pendingByteCount
        counters.bytesSkipped += UInt64(dropped)
        offset += UInt64(dropped)
        buffer.removeAll(keepingCapacity: true)
        start = 0
        skipping = false
        return dropped
    }

    private mutating func drain(_ frame: (PaVEFrame) -> Void) {
        let signature = PaVEHeader.signature
        while pendingByteCount > 0 {
            // 1. Align on a signature: skip to the first "PaVE", keeping a tail that may be its start.
            if let found = firstSignature() {
                skip(found - start)
            } else {
                var keep = 0
                for n in stride(from: min(3, pendingByteCount), through: 1, by: -1)
                where buffer[(buffer.count - n)...].elementsEqual(signature.prefix(n)) {
                    keep = n
                    break
                }
                skip(pendingByteCount - keep)
                return
            }
            // 2. The header's fields.
            guard pendingByteCount >= PaVEHeader.fieldsSize,
                  let header = PaVEHeader(bytes: buffer[start..<(start + PaVEHeader.fieldsSize)])
            else { return }
            let headerSize = Int(header.headerSize), payloadSize = Int(header.payloadSize)
            guard headerSize >= PaVEHeader.fieldsSize, headerSize <= limits.maxHeaderBytes,
                  payloadSize <= limits.maxPayloadBytes
            else {
                counters.headersRefused += 1
                skip(1)
                continue
            }
            // 3. The whole frame.
            let total = headerSize + payloadSize
            guard pendingByteCount >= total else { return }
            let payload = Array(buffer[(start + headerSize)..<(start + total)])
            let result = PaVEFrame(header: header, payload: payload, streamOffset: offset)
            start += total
            offset += UInt64(total)
            skipping = false
            counters.frames += 1
            counters.frameBytes += UInt64(total)
            frame(result)
        }
    }

    /// The index of the first complete signature in the pending bytes.
    private func firstSignature() -> Int? {
        var i = start
        let end = buffer.count - 3
        while i < end {
            if buffer[i] == 0x50, buffer[i + 1] == 0x61, buffer[i + 2] == 0x56, buffer[i + 3] == 0x45 { return i }
            i += 1
        }
        return nil
    }

    private mutating func skip(_ count: Int) {
        guard count > 0 else { return }
        if !skipping { counters.resyncs += 1 }
        skipping = true
        counters.bytesSkipped += UInt64(count)
        start += count
        offset += UInt64(count)
    }

    /// Moves the pending bytes to the front once the consumed part is at least half the buffer, or
    /// when `incoming` more bytes would take the array past ``Limits/maxBufferedBytes``.
    private mutating func compact(incoming: Int) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 0, start >= buffer.count / 2 || buffer.count + incoming > limits.maxBufferedBytes {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
