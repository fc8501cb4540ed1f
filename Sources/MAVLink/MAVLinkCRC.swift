/// CRC-16/MCRF4XX, the checksum MAVLink calls X.25 (docs/mavlink.md §2.3).
///
/// Polynomial 0x1021 reflected, initial value 0xFFFF, no final XOR: the byte-at-a-time form of
/// mavlink's `checksum.h` (`crc_accumulate`). A frame's checksum covers every byte after the magic
/// up to the end of the payload, then the message's CRC_EXTRA byte.
package struct MAVLinkCRC: Sendable, Equatable {
    /// `X25_INIT_CRC` in `checksum.h`.
    package private(set) var value: UInt16 = 0xFFFF

    package init() {}

    @inline(__always)
    package mutating func accumulate(_ byte: UInt8) {
        var tmp = byte ^ UInt8(truncatingIfNeeded: value)
        tmp ^= tmp << 4
        let wide = UInt16(tmp)
        value = (value >> 8) ^ (wide << 8) ^ (wide << 3) ^ (wide >> 4)
    }

    package mutating func accumulate(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { accumulate(byte) }
    }

    /// The checksum of `bytes` followed by `crcExtra`.
    package static func checksum(_ bytes: some Sequence<UInt8>, crcExtra: UInt8) -> UInt16 {
        var crc = MAVLinkCRC()
        crc.accumulate(bytes)
        crc.accumulate(crcExtra)
        return crc.value
    }
}
