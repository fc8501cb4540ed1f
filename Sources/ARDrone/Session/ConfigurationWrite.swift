
/// One `AT*CONFIG` key/value pair the link writes and confirms (state bit 6 ACK).
public struct ConfigurationWrite: Sendable, Hashable, CustomStringConvertible {
    /// `category:name`, e.g. `control:altitude_max`.
    public let key: String
    /// The value as the drone expects it: always a string (docs/ardrone-protocol.md §2.3).
    public let value: String

    /// `general:navdata_demo = TRUE`: leaves bootstrap mode, demo navdata at ≈15 Hz (docs/ardrone-protocol.md §1.2).
    public static let navdataDemo = ConfigurationWrite(key: "general:navdata_demo", value: "TRUE")

    /// `general:navdata_options = <mask>` (INI_INT, docs/ardrone-protocol.md §1.3).
    public static func navdataOptions(_ mask: UInt32) -> ConfigurationWrite {
        ConfigurationWrite(key: "general:navdata_options", value: ConfigurationValue.integer(Int(mask)))
    }

    /// Whether `ATEncoder` can send both strings (printable ASCII without `"`).
    public var isEncodable: Bool {
        func ok(_ s: String) -> Bool { s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 } }
        return ok(key) && ok(value)
    }

    public var description: String { "\(key)=\(value)" }
}

/// Formats configuration values the way the SDK does (`ARDRONE_CONFIG_KEY_IMM` in
/// `ardrone_at_mutex.c`: booleans `"TRUE"`/`"FALSE"`, ints `%d`, floats `%f`).
public enum ConfigurationValue {
    /// `"TRUE"` / `"FALSE"`.
    public static func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// Decimal, like `%d`.
    public static func integer(_ value: Int) -> String { String(value) }

    /// Like C's `%f` for a `float` (promoted to double): six decimals, rounded, e.g.
    /// 0.35 → "0.350000", 700 → "700.000000". Hand-formatted, no Foundation.
    public static func float(_ value: Float) -> String {
        let wide = Double(value)
        guard wide.isFinite else { return wide.isNaN ? "nan" : (wide < 0 ? "-inf" : "inf") }
        let scaled = (wide.magnitude * 1_000_000).rounded()
        guard scaled < 9.0e18 else { return String(wide) }
        let micro = UInt64(scaled)
        let whole = micro / 1_000_000
        let fraction = String(micro % 1_000_000)
        let sign = wide < 0 && micro != 0 ? "-" : ""
        return sign + String(whole) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
