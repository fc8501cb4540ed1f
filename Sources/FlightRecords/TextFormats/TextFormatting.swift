/// Number and text formatting shared by every text format FollowMe writes (JSON lines, SVG, GPX,
/// TOML, tables): pure functions, no Foundation, the same output on every platform.

/// `x` rounded to `decimals` (0…6) places, e.g. fixed(-1.25, 1) = "-1.3"; "nan"/"inf" spelled out.
public func fixed(_ x: Double, decimals: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    let d = min(max(decimals, 0), 6)
    var scale: Int64 = 1
    for _ in 0..<d { scale *= 10 }
    let scaled = (abs(x) * Double(scale)).rounded()
    guard scaled < 9e18 else { return "\(x)" }
    let n = Int64(scaled)
    let sign = x < 0 && n != 0 ? "-" : ""
    let whole = n / scale
    guard d > 0 else { return sign + String(whole) }
    let frac = String(n % scale)
    return sign + String(whole) + "." + String(repeating: "0", count: d - frac.count) + frac
}

/// Escapes the five XML special characters (SVG plots, GPX files).
public func xmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for character in text {
        if let entity = xmlEntities[character] { out += entity } else { out.append(character) }
    }
    return out
}

/// The XML 1.0 predefined entities (W3C XML 1.0 §4.6).
private let xmlEntities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"]

/// Appends `text` double-quoted, with `"`, `\`, newline, return, tab and the other control
/// characters escaped (`\uXXXX`): the common core of a JSON string (RFC 8259 §7) and a TOML basic
/// string (toml.io v1.0.0, "Basic strings"). TOML also escapes DEL (0x7F); both accept either hex case.
public func appendQuoted(_ text: String, to out: inout String, uppercaseHex: Bool = false, escapeDelete: Bool = false) {
    out += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || (escapeDelete && scalar.value == 0x7F):
            let hex = String(scalar.value, radix: 16, uppercase: uppercaseHex)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
}
