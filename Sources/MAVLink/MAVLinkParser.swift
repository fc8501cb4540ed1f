/// Streaming MAVLink parser: feed it byte chunks as they arrive (UDP datagrams holding one or more
/// frames, or a serial stream cut anywhere), get back the frames, with counts of what was dropped
/// (docs/mavlink.md §2.6).
///
/// Never traps on any input. Bytes before a magic byte are skipped as garbage; a frame with a bad
/// checksum is dropped and the search resumes one byte after its magic; a frame whose id this codec
/// does not know is skipped by its length and handed back as `.unknown` (unchecked); an incomplete
/// frame waits for the next chunk. At most one frame's worth (280 bytes) is ever held.
public struct MAVLinkParser: Sendable {
    /// What one chunk yielded.
    public enum Item: Sendable, Equatable {
        /// A frame whose checksum matched (its id is one of `MAVLinkMessages.all`).
        case frame(MAVLinkFrame)
        /// A well-formed frame with an unknown id: its checksum could not be checked, so treat the
        /// contents as untrusted (useful for logging which ids a peer sends).
        case unknown(MAVLinkFrame)
    }

    /// Running totals since the parser was made.
    public struct Counters: Sendable, Equatable {
        /// Frames returned as `.frame`.
        public var frames = 0
        /// Frames dropped for a bad checksum.
        public var badChecksums = 0
        /// Frames returned as `.unknown`.
        public var unknownMessages = 0
        /// Checked frames dropped for an incompat flag other than "signed".
        public var unsupportedFlags = 0
        /// Bytes skipped while looking for a magic byte.
        public var garbageBytes = 0
    }

    public private(set) var counters = Counters()
    private var buffer: [UInt8] = []
    private let crcExtra: @Sendable (UInt32) -> UInt8?

    /// `crcExtra` maps a message id to its CRC_EXTRA (default: the messages of this module).
    public init(crcExtra: @escaping @Sendable (UInt32) -> UInt8? = { MAVLinkMessages.crcExtra($0) }) {
        self.crcExtra = crcExtra
    }

    /// Bytes held back waiting for the rest of a frame.
    public var pendingByteCount: Int { buffer.count }

    /// Appends `chunk` and returns every frame completed by it, in order.
    public mutating func parse(_ chunk: some Sequence<UInt8>) -> [Item] {
        buffer.append(contentsOf: chunk)
        var items: [Item] = []
        var start = 0
        scanning: while start < buffer.count {
            guard let magic = buffer[start...].firstIndex(where: { $0 == MAVLinkFrame.magicV2 || $0 == MAVLinkFrame.magicV1 }) else {
                counters.garbageBytes += buffer.count - start
                start = buffer.count
                break
            }
            counters.garbageBytes += magic - start
            start = magic
            switch MAVLinkFrame.scan(buffer, from: start, crcExtra: crcExtra) {
            case .needMore:
                break scanning
            case .frame(let frame, let length):
                counters.frames += 1
                items.append(.frame(frame))
                start += length
            case .unknown(let frame, let length):
                counters.unknownMessages += 1
                items.append(.unknown(frame))
                start += length
            case .rejected(let error, let skip):
                if error.kind == .unsupportedIncompatibilityFlags { counters.unsupportedFlags += 1 } else { counters.badChecksums += 1 }
                start += skip
            }
        }
        buffer.removeFirst(start)
        return items
    }
}
