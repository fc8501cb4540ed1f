import Foundation

/// One gpsd TOFF report: a fix's epoch (`real`) and gpsd's host clock when it read the cycle's first
/// time-stamped sentence (`clock`), gpsd_json(5) "TOFF" (docs/gps-latency.md §1).
///
/// Parsed from the raw JSON line: libgps 3.13 … 3.24 cannot decode TOFF (docs/gps-latency.md §1.2).
public struct GPSDTimeOffsetReport: Sendable, Hashable {
    /// The device the report is about (gpsd's path), "" when gpsd left it out.
    public var device: String
    /// The fix's epoch: UTC seconds and nanoseconds (`real_sec`, `real_nsec`).
    public var realSeconds: Int64
    public var realNanoseconds: Int64
    /// gpsd's `CLOCK_REALTIME` when it read the sentence (`clock_sec`, `clock_nsec`).
    public var clockSeconds: Int64
    public var clockNanoseconds: Int64

    /// `clock − real`, seconds: the receiver's output delay, the transmission and gpsd's parse.
    public var delaySeconds: Double {
        (Double(clockSeconds) - Double(realSeconds)) + Double(clockNanoseconds - realNanoseconds) / 1e9
    }

    /// The report in a gpsd JSON line, or nil for any other line, a field missing, a field that is not
    /// a whole number, or nanoseconds outside 0 … 999 999 999.
    public static func parse(line: String) -> GPSDTimeOffsetReport? {
        guard line.hasPrefix(#"{"class":"TOFF""#), let data = line.data(using: .utf8),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        func integer(_ key: String) -> Int64? {
            guard let number = object[key] as? NSNumber, number.doubleValue.isFinite else { return nil }
            return Int64(exactly: number.doubleValue)
        }
        guard let realSeconds = integer("real_sec"), let realNanoseconds = integer("real_nsec"),
              let clockSeconds = integer("clock_sec"), let clockNanoseconds = integer("clock_nsec"),
              (0..<1_000_000_000).contains(realNanoseconds), (0..<1_000_000_000).contains(clockNanoseconds)
        else { return nil }
        return GPSDTimeOffsetReport(device: object["device"] as? String ?? "", realSeconds: realSeconds,
                                    realNanoseconds: realNanoseconds, clockSeconds: clockSeconds,
                                    clockNanoseconds: clockNanoseconds)
    }
}
