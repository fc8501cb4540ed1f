#if canImport(Glibc)
import Glibc
#endif

/// One JSON object written on one line, keys in insertion order (for logs and `--json` output).
///
/// Hand-rolled because key order matters to people reading the stream (`role` first) and the
/// flight recorder writes many lines a second. Non-finite numbers are written as `null`.
public struct JSONLine: Sendable {
    private var text = "{"
    private var first = true

    public init() {}

    private mutating func key(_ k: String) {
        if !first { text += "," }
        first = false
        Self.appendString(k, to: &text)
        text += ":"
    }

    public mutating func add(_ k: String, _ v: String) { key(k); Self.appendString(v, to: &text) }
    public mutating func add(_ k: String, _ v: Int) { key(k); text += String(v) }
    public mutating func add(_ k: String, _ v: Bool) { key(k); text += v ? "true" : "false" }
    public mutating func add(_ k: String, _ v: Double) { key(k); text += v.isFinite ? "\(v)" : "null" }
    /// Adds the key only when the value is present.
    public mutating func add(_ k: String, _ v: Double?) { if let v { add(k, v) } }
    public mutating func add(_ k: String, _ v: String?) { if let v { add(k, v) } }
    /// Adds a pre-encoded JSON value (object or array) verbatim.
    public mutating func addRaw(_ k: String, _ json: String) { key(k); text += json }

    /// The finished object.
    public var string: String { text + "}" }

    /// Appends `s` as a JSON string (quoted, escaped: `appendQuoted`).
    public static func appendString(_ s: String, to out: inout String) {
        appendQuoted(s, to: &out)
    }
}

/// Formats a receiver timestamp as ISO 8601 UTC with milliseconds, like gpsd (`2017-07-19T08:50:01.000Z`).
public func iso8601UTC(seconds: Int64, nanoseconds: Int32) -> String {
    var t = time_t(seconds)
    var tmv = tm()
    gmtime_r(&t, &tmv)
    func pad(_ v: Int32, _ n: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, n - s.count)) + s
    }
    return "\(pad(tmv.tm_year + 1900, 4))-\(pad(tmv.tm_mon + 1, 2))-\(pad(tmv.tm_mday, 2))T"
        + "\(pad(tmv.tm_hour, 2)):\(pad(tmv.tm_min, 2)):\(pad(tmv.tm_sec, 2)).\(pad(nanoseconds / 1_000_000, 3))Z"
}
