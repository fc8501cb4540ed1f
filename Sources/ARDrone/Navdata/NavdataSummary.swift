/// What the control path reads from one navdata packet — the header and the demo option —
/// decoded without allocating, whatever options the packet carries.
///
/// `DroneLink` decodes every datagram into this at 15 Hz (demo mode) or 200 Hz (full mode); the
/// full `Navdata` (every option, byte-exact) is for tools, the simulator and tests. Both decoders
/// run the same checks (`NavdataPacketLayout`, then each option's minimum size in wire order), so a
/// datagram is accepted by one exactly when it is accepted by the other, with the same error, and
/// the fields here equal `Navdata`'s (tested over the fuzz corpus).
public struct NavdataSummary: Sendable, Equatable {
    /// Header magic.
    public var magic: NavdataMagic = .standard
    /// The drone state word.
    public var state: DroneState
    /// Packet counter.
    public var sequenceNumber: UInt32
    /// `vision_defined` as sent.
    public var visionFlag: UInt32 = 0
    /// The first demo option (tag 0), if present (not in bootstrap packets).
    public var demo: NavdataDemo? = nil
    /// Number of options before the checksum option.
    public var optionCount: Int = 0

    /// Whether the vision flag is non-zero.
    public var isVisionDefined: Bool { visionFlag != 0 }
}

extension NavdataSummary {
    /// The summary of a decoded packet.
    public init(_ navdata: Navdata) {
        self.init(magic: navdata.magic, state: navdata.state, sequenceNumber: navdata.sequenceNumber,
                  visionFlag: navdata.visionFlag, demo: navdata.demo, optionCount: navdata.options.count)
    }

    /// Decodes one navdata datagram; accepts and rejects exactly what `Navdata(bytes:)` does.
    /// Allocates nothing unless the demo option is longer than its fixed 148 bytes.
    public init(bytes: UnsafeRawBufferPointer) throws(NavdataDecodingError) {
        let layout = try NavdataPacketLayout(validating: bytes)
        var demo: NavdataDemo?
        var optionCount = 0
        var offset = Navdata.headerByteCount
        while offset < layout.checksumOffset {
            var reader = LittleEndianReader(bytes, offset: offset)
            let tag = reader.uint16()
            let size = reader.uint16()
            if let minimum = Navdata.minimumOptionByteCount(tag: tag), Int(size) < minimum {
                throw .optionTooShort(tag: tag, offset: offset, size: size, minimumSize: minimum)
            }
            if tag == NavdataOptionTag.demo.rawValue && demo == nil {
                var option = LittleEndianReader(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(size))]),
                                                offset: 4)
                demo = Navdata.decodeDemo(&option)
            }
            optionCount += 1
            offset += Int(size)
        }
        self.init(magic: layout.magic, state: layout.state, sequenceNumber: layout.sequenceNumber,
                  visionFlag: layout.visionFlag, demo: demo, optionCount: optionCount)
    }

    /// Decodes one navdata datagram. See `init(bytes: UnsafeRawBufferPointer)`.
    public init(bytes: [UInt8]) throws(NavdataDecodingError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(NavdataDecodingError) in try NavdataSummary(bytes: raw) }
        }
        self = try result.get()
    }
}
