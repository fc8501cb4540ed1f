/// A navdata datagram's header and the offset of its checksum option, after the structural checks
/// both decoders (`Navdata`, `NavdataSummary`) share: length, magic, the option chain, the checksum.
/// Option contents are not looked at. Allocates nothing.
struct NavdataPacketLayout {
    let magic: NavdataMagic
    let state: DroneState
    let sequenceNumber: UInt32
    let visionFlag: UInt32
    /// Offset of the checksum option; options lie in `[Navdata.headerByteCount, checksumOffset)`.
    let checksumOffset: Int

    init(validating bytes: UnsafeRawBufferPointer) throws(NavdataDecodingError) {
        let count = bytes.count
        guard count >= Navdata.minimumByteCount else {
            throw .packetTooShort(byteCount: count, minimumByteCount: Navdata.minimumByteCount)
        }
        guard count <= Navdata.maximumByteCount else {
            throw .packetTooLong(byteCount: count, maximumByteCount: Navdata.maximumByteCount)
        }
        var header = LittleEndianReader(bytes)
        let magicValue = header.uint32()
        guard let magic = NavdataMagic(rawValue: magicValue) else { throw .badMagic(found: magicValue) }
        self.magic = magic
        state = DroneState(rawValue: header.uint32())
        sequenceNumber = header.uint32()
        visionFlag = header.uint32()

        // Structure and checksum, so a corrupted packet is reported as such before any option
        // content is interpreted.
        let checksumOffset = try Navdata.validateOptionChain(bytes)
        let stored = bytes.loadUnaligned(fromByteOffset: checksumOffset + 4, as: UInt32.self).littleEndian
        let computed = Navdata.checksum(of: UnsafeRawBufferPointer(rebasing: bytes[0..<checksumOffset]))
        guard stored == computed else { throw .checksumMismatch(stored: stored, computed: computed) }
        self.checksumOffset = checksumOffset
    }
}
