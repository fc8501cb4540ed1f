/// Bounds-checked little-endian reader over raw bytes; all loads are unaligned.
///
/// Navdata options have odd sizes (65, 75), so later fields sit at odd offsets
/// (`navdata_common.h`: options are packed). Callers validate lengths before reading; the
/// `precondition` here turns a logic error into a trap instead of an out-of-bounds read.
struct LittleEndianReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remainingCount: Int { bytes.count - offset }

    @inline(__always)
    private mutating func load<T: FixedWidthInteger>(_: T.Type) -> T {
        let size = MemoryLayout<T>.size
        precondition(offset >= 0 && size <= bytes.count - offset, "navdata read out of bounds")
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return T(littleEndian: value)
    }

    mutating func uint8() -> UInt8 { load(UInt8.self) }
    mutating func uint16() -> UInt16 { load(UInt16.self) }
    mutating func int16() -> Int16 { load(Int16.self) }
    mutating func uint32() -> UInt32 { load(UInt32.self) }
    mutating func int32() -> Int32 { load(Int32.self) }
    mutating func float32() -> Float { Float(bitPattern: load(UInt32.self)) }
    mutating func float64() -> Double { Double(bitPattern: load(UInt64.self)) }

    mutating func float32Vector() -> NavdataVector3 {
        let x = float32()
        let y = float32()
        let z = float32()
        return NavdataVector3(x: x, y: y, z: z)
    }

    /// The next `count` bytes, copied out.
    mutating func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= remainingCount, "navdata read out of bounds")
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        offset += count
        return Array(slice)
    }

    mutating func remainingBytes() -> [UInt8] { bytes(count: remainingCount) }

    /// The rest of the buffer, not copied (valid as long as the buffer is).
    mutating func remainingRawBytes() -> UnsafeRawBufferPointer {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        offset = bytes.count
        return rest
    }
}

/// Little-endian appends for the navdata encoder.
extension Array where Element == UInt8 {
    @inline(__always)
    package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var little = value.littleEndian
        Swift.withUnsafeBytes(of: &little) { append(contentsOf: $0) }
    }

    mutating func appendFloat32(_ value: Float) { appendLittleEndian(value.bitPattern) }
    mutating func appendFloat64(_ value: Double) { appendLittleEndian(value.bitPattern) }

    mutating func appendVector(_ vector: NavdataVector3) {
        appendFloat32(vector.x)
        appendFloat32(vector.y)
        appendFloat32(vector.z)
    }

    mutating func appendVector<Scalar: FixedWidthInteger>(_ vector: NavdataTriple<Scalar>) {
        appendLittleEndian(vector.x)
        appendLittleEndian(vector.y)
        appendLittleEndian(vector.z)
    }

    /// Overwrites 2 bytes at `offset` with `value` little-endian.
    package mutating func storeLittleEndian(_ value: UInt16, at offset: Int) {
        self[offset] = UInt8(truncatingIfNeeded: value)
        self[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    /// Overwrites 4 bytes at `offset` with `value` little-endian.
    package mutating func storeLittleEndian(_ value: UInt32, at offset: Int) {
        for index in 0..<4 {
            self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))
        }
    }
}
