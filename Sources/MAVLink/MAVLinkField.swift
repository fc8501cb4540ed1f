/// A MAVLink wire type (docs/mavlink.md §4.1): its size sets the field order on the wire.
public enum MAVLinkFieldType: String, Sendable, Hashable, CaseIterable {
    case uint8 = "uint8_t", int8 = "int8_t", uint16 = "uint16_t", int16 = "int16_t"
    case uint32 = "uint32_t", int32 = "int32_t", uint64 = "uint64_t", int64 = "int64_t"
    case float, double, char

    /// Bytes per element.
    public var size: Int {
        switch self {
        case .uint8, .int8, .char: 1
        case .uint16, .int16: 2
        case .uint32, .int32, .float: 4
        case .uint64, .int64, .double: 8
        }
    }
}

/// A value that sits in one wire element: integers, `Float`, and the open enums of `MAVLinkEnums`.
///
/// `wireBits` is the element's bit pattern, zero-extended to 64 bits (a negative `Int16` is
/// 0xFFFF…, a `Float` its IEEE bits, NaN payloads kept): what the layout writes little-endian.
public protocol MAVLinkWireValue: Sendable {
    static var wireType: MAVLinkFieldType { get }
    var wireBits: UInt64 { get }
    init(wireBits: UInt64)
}

extension MAVLinkWireValue where Self: FixedWidthInteger {
    public var wireBits: UInt64 { UInt64(truncatingIfNeeded: self) & mask(Self.wireType) }
    public init(wireBits: UInt64) { self.init(truncatingIfNeeded: wireBits) }
}

/// A MAVLink enum or bitmask as a struct over its raw value: every raw value is a value (a receiver
/// must not lose, or crash on, an enum value it does not know; docs/mavlink.md §5).
public protocol MAVLinkOpenEnum: MAVLinkWireValue, RawRepresentable, Hashable where RawValue: MAVLinkWireValue {
    init(rawValue: RawValue)
}

extension MAVLinkOpenEnum {
    public static var wireType: MAVLinkFieldType { RawValue.wireType }
    public var wireBits: UInt64 { rawValue.wireBits }
    public init(wireBits: UInt64) { self.init(rawValue: RawValue(wireBits: wireBits)) }
}

/// The low `type.size` bytes set.
func mask(_ type: MAVLinkFieldType) -> UInt64 { type.size == 8 ? .max : (1 << (8 * UInt64(type.size))) - 1 }

extension UInt8: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .uint8 } }
extension Int8: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .int8 } }
extension UInt16: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .uint16 } }
extension Int16: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .int16 } }
extension UInt32: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .uint32 } }
extension Int32: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .int32 } }
extension UInt64: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .uint64 } }
extension Int64: MAVLinkWireValue { public static var wireType: MAVLinkFieldType { .int64 } }
extension Float: MAVLinkWireValue {
    public static var wireType: MAVLinkFieldType { .float }
    public var wireBits: UInt64 { UInt64(bitPattern) }
    public init(wireBits: UInt64) { self.init(bitPattern: UInt32(truncatingIfNeeded: wireBits)) }
}

/// One field of a message's layout: its common.xml name, wire type, element count, and how to read
/// and write it in the Swift struct. A message's layout lists these in wire order (docs/mavlink.md §4.2).
///
/// `@unchecked Sendable`: the closures capture only key paths, counts and indices, all immutable, so
/// one table (`MAVLinkLayout`, built once per message type) serves every thread.
public struct MAVLinkField<Message>: @unchecked Sendable {
    /// The field's name in common.xml (and pymavlink).
    public let name: String
    public let type: MAVLinkFieldType
    /// 1 for a scalar, N for `type name[N]`.
    public let count: Int
    /// Each element's `wireBits`, `count` of them.
    public let get: (Message) -> [UInt64]
    /// Sets the field from `count` elements' bits.
    public let set: (inout Message, [UInt64]) -> Void
    /// Writes the field's wire bytes (little-endian, `size` of them) into a buffer of exactly `size`
    /// bytes; allocates nothing (the encoder's path, `MAVLinkLayout.write`).
    public let write: (Message, UnsafeMutableRawBufferPointer) -> Void

    /// Bytes on the wire.
    public var size: Int { type.size * count }

    /// A scalar field.
    public static func scalar<Value: MAVLinkWireValue>(_ name: String, _ keyPath: WritableKeyPath<Message, Value>) -> Self {
        Self(name: name, type: Value.wireType, count: 1, get: { [$0[keyPath: keyPath].wireBits] },
             set: { message, bits in message[keyPath: keyPath] = Value(wireBits: bits[0]) },
             write: { message, bytes in bytes.storeWire(message[keyPath: keyPath].wireBits, element: 0, size: Value.wireType.size) })
    }

    /// An array field of `count` elements; a shorter Swift array is sent zero-padded, a longer one cut.
    public static func array<Value: MAVLinkWireValue>(
        _ name: String, _ keyPath: WritableKeyPath<Message, [Value]>, count: Int, type: MAVLinkFieldType = Value.wireType
    ) -> Self {
        Self(name: name, type: type, count: count,
             get: { message in
                 let values = message[keyPath: keyPath].prefix(count).map(\.wireBits)
                 return values + Array(repeating: 0, count: count - values.count)
             },
             set: { message, bits in message[keyPath: keyPath] = bits.map(Value.init(wireBits:)) },
             write: { message, bytes in
                 let values = message[keyPath: keyPath]
                 for index in 0..<count {
                     bytes.storeWire(index < values.count ? values[index].wireBits : 0, element: index, size: type.size)
                 }
             })
    }

    /// One scalar wire field kept as element `index` of a Swift array (x, y, z as one vector):
    /// a shorter array reads as zero there and is zero-padded when set.
    public static func element<Value: MAVLinkWireValue>(_ name: String, _ keyPath: WritableKeyPath<Message, [Value]>, index: Int) -> Self {
        Self(name: name, type: Value.wireType, count: 1,
             get: { message in
                 let values = message[keyPath: keyPath]
                 return [index < values.count ? values[index].wireBits : 0]
             },
             set: { message, bits in
                 var values = message[keyPath: keyPath]
                 while values.count <= index { values.append(Value(wireBits: 0)) }
                 values[index] = Value(wireBits: bits[0])
                 message[keyPath: keyPath] = values
             },
             write: { message, bytes in
                 let values = message[keyPath: keyPath]
                 bytes.storeWire(index < values.count ? values[index].wireBits : 0, element: 0, size: Value.wireType.size)
             })
    }


    /// A `char[N]` field, kept as its N raw bytes (`MAVLinkText`).
    public static func text(_ name: String, _ keyPath: WritableKeyPath<Message, MAVLinkText>, count: Int) -> Self {
        Self(name: name, type: .char, count: count,
             get: { message in
                 let bytes = message[keyPath: keyPath].bytes.prefix(count).map(UInt64.init)
                 return bytes + Array(repeating: 0, count: count - bytes.count)
             },
             set: { message, bits in
                 // Trailing NULs are padding: dropped here, written back by `get` (same wire bytes).
                 var bytes = bits.map { UInt8(truncatingIfNeeded: $0) }
                 while bytes.last == 0 { bytes.removeLast() }
                 message[keyPath: keyPath] = MAVLinkText(bytes: bytes)
             },
             write: { message, bytes in
                 let text = message[keyPath: keyPath].bytes
                 for index in 0..<count { bytes[index] = index < text.count ? text[index] : 0 }
             })
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Stores the low `size` bytes of `bits` little-endian as element `element` (at byte `element * size`).
    @inline(__always)
    func storeWire(_ bits: UInt64, element: Int, size: Int) {
        let start = element * size
        for index in 0..<size { self[start + index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))) }
    }
}

extension Array {
    /// `names.count` consecutive scalar wire fields kept as one Swift array, in order.
    public static func elements<Message, Value: MAVLinkWireValue>(
        _ names: [String], _ keyPath: WritableKeyPath<Message, [Value]>
    ) -> Self where Element == MAVLinkField<Message> {
        names.enumerated().map { MAVLinkField.element($0.element, keyPath, index: $0.offset) }
    }
}

/// A `char[N]` field: its bytes as sent but for trailing NULs, so any frame re-encodes exactly and a
/// decoded text equals the one that was encoded (docs/mavlink.md §4.3).
///
/// MAVLink strings are NUL-terminated only when shorter than the field; `string` reads up to the
/// first NUL (or the whole field) as UTF-8, replacing invalid sequences. Bytes past N are not sent.
public struct MAVLinkText: Sendable, Hashable, ExpressibleByStringLiteral {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    /// The UTF-8 bytes of `string` (cut to the field's length when encoded).
    public init(_ string: String) { bytes = Array(string.utf8) }
    public init(stringLiteral value: String) { self.init(value) }

    public var string: String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
