/// Encodes an `Encodable` value as one `JSONLine`: the keys in the order the value encodes them
/// (a synthesized `encode(to:)` follows the property declarations), absent optionals omitted,
/// numbers written exactly as `JSONLine` writes them.
///
/// Why not `JSONEncoder`: the flight log's lines must stay byte-for-byte what users' scripts and
/// the tests read (key order, `1.0` not `1`, non-finite numbers as `null`), and the flight loop
/// writes many lines a second. One object per line; a nested `Encodable` becomes a nested object,
/// and a second `container(keyedBy:)` on the same encoder adds to the same object (how a record
/// flattens its parts into one line). Arrays are not supported (no flight-log line has one).
public struct JSONLineEncoder: Sendable {

    /// The value as one JSON object (or, for a single-value encodable, that value's JSON).
    public func encode(_ value: some Encodable) throws -> String {
        let encoder = LineEncoder(codingPath: [])
        try value.encode(to: encoder)
        if let failure = encoder.failure { throw failure }
        return encoder.single ?? encoder.line.string
    }
}

/// One nested level of `JSONLineEncoder`: an object being filled, or a single value.
private final class LineEncoder: Encoder {
    var line = JSONLine()
    /// Set when the value encoded itself as a single value instead of an object.
    var single: String?
    /// The first unsupported request (an array, a nested container); thrown by `encode`.
    var failure: EncodingError?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedLine<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fail("arrays are not supported in a JSON line")
        return UnsupportedUnkeyed(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleLine(encoder: self) }

    func fail(_ reason: String) {
        if failure == nil {
            failure = .invalidValue((), .init(codingPath: codingPath, debugDescription: reason))
        }
    }

    /// The JSON text of a nested value, or nil (with `failure` set) when it cannot be written.
    func nested(_ value: some Encodable, at key: any CodingKey) -> String? {
        let encoder = LineEncoder(codingPath: codingPath + [key])
        do { try value.encode(to: encoder) } catch { fail("\(error)"); return nil }
        if let failure = encoder.failure { self.failure = self.failure ?? failure; return nil }
        return encoder.single ?? encoder.line.string
    }

    /// A scalar as `JSONLine` writes it (nil: not a scalar).
    static func scalar(_ value: Any) -> String? {
        var j = JSONLine()
        switch value {
        case let v as String: j.add("", v)
        case let v as Bool: j.add("", v)
        case let v as Double: j.add("", v)
        case let v as Float: j.add("", Double(v))
        case let v as any BinaryInteger: return "\(v)"
        default: return nil
        }
        let object = j.string   // {"":VALUE}
        return String(object.dropFirst(4).dropLast())
    }
}

private struct KeyedLine<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: LineEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) { encoder.line.addRaw(key.stringValue, "null") }

    mutating func encode(_ value: some Encodable, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: String, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { add(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { add(value, key) }

    private func add(_ value: some Encodable, _ key: Key) {
        if let scalar = LineEncoder.scalar(value) ?? encoder.nested(value, at: key) {
            encoder.line.addRaw(key.stringValue, scalar)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.fail("nested containers are not supported in a JSON line (encode a nested value instead)")
        return KeyedEncodingContainer(KeyedLine<NestedKey>(encoder: LineEncoder(codingPath: codingPath + [key])))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.fail("arrays are not supported in a JSON line")
        return UnsupportedUnkeyed(codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

private struct SingleLine: SingleValueEncodingContainer {
    let encoder: LineEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.single = "null" }

    mutating func encode(_ value: some Encodable) { set(value) }
    mutating func encode(_ value: Bool) { set(value) }
    mutating func encode(_ value: String) { set(value) }
    mutating func encode(_ value: Double) { set(value) }
    mutating func encode(_ value: Float) { set(value) }
    mutating func encode(_ value: Int) { set(value) }
    mutating func encode(_ value: Int8) { set(value) }
    mutating func encode(_ value: Int16) { set(value) }
    mutating func encode(_ value: Int32) { set(value) }
    mutating func encode(_ value: Int64) { set(value) }
    mutating func encode(_ value: UInt) { set(value) }
    mutating func encode(_ value: UInt8) { set(value) }
    mutating func encode(_ value: UInt16) { set(value) }
    mutating func encode(_ value: UInt32) { set(value) }
    mutating func encode(_ value: UInt64) { set(value) }

    private func set(_ value: some Encodable) {
        if let scalar = LineEncoder.scalar(value) {
            encoder.single = scalar
        } else {
            // A wrapper encoding another value as its single value: that value's JSON.
            let inner = LineEncoder(codingPath: codingPath)
            do { try value.encode(to: inner) } catch { encoder.fail("\(error)"); return }
            encoder.single = inner.single ?? inner.line.string
            if let failure = inner.failure { encoder.failure = encoder.failure ?? failure }
        }
    }
}

/// Returned where an array was asked for; `encode` throws the recorded failure.
private struct UnsupportedUnkeyed: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count: Int { 0 }
    mutating func encodeNil() {}
    mutating func encode(_ value: some Encodable) {}
    mutating func encode(_ value: Bool) {}
    mutating func encode(_ value: String) {}
    mutating func encode(_ value: Double) {}
    mutating func encode(_ value: Float) {}
    mutating func encode(_ value: Int) {}
    mutating func encode(_ value: Int8) {}
    mutating func encode(_ value: Int16) {}
    mutating func encode(_ value: Int32) {}
    mutating func encode(_ value: Int64) {}
    mutating func encode(_ value: UInt) {}
    mutating func encode(_ value: UInt8) {}
    mutating func encode(_ value: UInt16) {}
    mutating func encode(_ value: UInt32) {}
    mutating func encode(_ value: UInt64) {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedLine<NestedKey>(encoder: LineEncoder(codingPath: codingPath)))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { LineEncoder(codingPath: codingPath) }
}
