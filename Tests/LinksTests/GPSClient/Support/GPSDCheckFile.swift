import Foundation

/// The reports in a gpsd regression `.chk` file (one JSON object per line, gpsd_json(5)),
/// reduced to what the client tests compare: TPV mode, position, speed and track, ATT heading.
struct GPSDCheckFile: Sendable {
    struct TPV: Sendable, Hashable {
        var mode: Int
        var latitudeDegrees: Double?
        var longitudeDegrees: Double?
        /// Speed over ground, m/s, and course, degrees (the receiver's Doppler velocity when it has one).
        var speedMetersPerSecond: Double? = nil
        var trackDegrees: Double? = nil

        var hasPosition: Bool { mode >= 2 && latitudeDegrees != nil && longitudeDegrees != nil }
    }

    enum ParseError: Error, CustomStringConvertible {
        case unreadable(String)
        case badLine(file: String, line: Int, text: String)

        var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .badLine(let file, let line, let text): return "\(file):\(line): not a gpsd JSON report: \(text.prefix(80))"
            }
        }
    }

    /// A SKY report: satellites marked used and listed (gpsd's `satellites` array), and the HDOP.
    struct Sky: Sendable, Hashable {
        var used: Int
        var visible: Int
        var hdop: Double?
    }

    var tpvs: [TPV] = []
    var attHeadingsDegrees: [Double] = []
    var skies: [Sky] = []

    /// TPVs with mode ≥ 2 (what the client must turn into fixes).
    var fixTPVs: [TPV] { tpvs.filter { $0.mode >= 2 } }
    /// TPVs with mode 0 or 1 (what the client must report as `.lost(.noFix)`).
    var noFixTPVs: [TPV] { tpvs.filter { $0.mode < 2 } }

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ParseError.unreadable(path) }
        // Split on LF bytes: the JSON lines end in CR LF, and in Swift "\r\n" is one Character.
        // The file also holds the raw NMEA echoed by gpsd; only `{` lines are reports.
        for (number, bytes) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard line.hasPrefix("{") else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let cls = object["class"] as? String
            else { throw ParseError.badLine(file: path, line: number + 1, text: String(line)) }
            switch cls {
            case "TPV":
                guard let mode = (object["mode"] as? NSNumber)?.intValue else {
                    throw ParseError.badLine(file: path, line: number + 1, text: String(line))
                }
                tpvs.append(TPV(mode: mode, latitudeDegrees: (object["lat"] as? NSNumber)?.doubleValue,
                                longitudeDegrees: (object["lon"] as? NSNumber)?.doubleValue,
                                speedMetersPerSecond: (object["speed"] as? NSNumber)?.doubleValue,
                                trackDegrees: (object["track"] as? NSNumber)?.doubleValue))
            case "SKY":
                let satellites = object["satellites"] as? [[String: Any]] ?? []
                skies.append(Sky(used: satellites.filter { ($0["used"] as? Bool) == true }.count, visible: satellites.count,
                                 hdop: (object["hdop"] as? NSNumber)?.doubleValue))
            case "ATT":
                if let heading = (object["heading"] as? NSNumber)?.doubleValue { attHeadingsDegrees.append(heading) }
            default:
                break
            }
        }
    }
}
