import Foundation
import FollowCore

/// One `<trkpt>` of a GPX track.
public struct GPXPoint: Sendable, Hashable {
    public var coordinate: GeoCoordinate
    /// `<time>` as UTC seconds since the Unix epoch, if present.
    public var unixSeconds: Double? = nil
    /// `<ele>`, metres.
    public var elevationMeters: Double? = nil

    public init(coordinate: GeoCoordinate, unixSeconds: Double? = nil, elevationMeters: Double? = nil) {
        self.coordinate = coordinate
        self.unixSeconds = unixSeconds
        self.elevationMeters = elevationMeters
    }

    /// `unixSeconds` as ISO 8601 UTC to the nearest millisecond (what `iso8601UTC` prints, so 0.6 s
    /// stays .600, not .599); nil without a time (or a non-finite or absurd one). GPX `<time>` and
    /// GeoJSON `times` both write it.
    public var iso8601Time: String? {
        guard let t = unixSeconds, t.isFinite, abs(t) < 1e15 else { return nil }
        let milliseconds = Int64((t * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let nanoseconds = Int32((milliseconds - seconds * 1000) * 1_000_000)
        return iso8601UTC(seconds: seconds, nanoseconds: nanoseconds)
    }
}

/// One `<trk>`: a name and its segments (`<trkseg>`) in file order.
public struct GPXTrack: Sendable, Hashable {
    public var name: String?
    public var segments: [[GPXPoint]]

    public init(name: String?, segments: [[GPXPoint]]) {
        self.name = name
        self.segments = segments
    }

    /// All points, segments joined in order.
    public var points: [GPXPoint] { segments.flatMap { $0 } }
}

/// Why a GPX file could not be read. Line numbers are the XML parser's (1-based).
public enum GPXError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Not well-formed XML.
    case malformed(line: Int, reason: String)
    /// Well-formed XML whose root element is not `<gpx>`.
    case notGPX(root: String)
    /// A `<trkpt>` without a valid `lat`/`lon` (finite, within ±90/±180).
    case badPoint(line: Int, lat: String?, lon: String?)
    /// A `<time>` that is not ISO 8601 (`2015-01-19T21:24:20Z`, optional fraction and offset).
    case badTime(line: Int, value: String)
    /// An `<ele>` that is not a finite number.
    case badElevation(line: Int, value: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): cannot read: \(reason)"
        case let .malformed(line, reason): "line \(line): not well-formed XML: \(reason)"
        case let .notGPX(root): "root element is <\(root)>, not <gpx>"
        case let .badPoint(line, lat, lon): "line \(line): <trkpt> needs lat/lon in range, got lat=\(lat ?? "none") lon=\(lon ?? "none")"
        case let .badTime(line, value): "line \(line): <time> '\(value)' is not ISO 8601"
        case let .badElevation(line, value): "line \(line): <ele> '\(value)' is not a number"
        }
    }
}

/// A GPX 1.0/1.1 document's tracks (waypoints and routes are skipped: the bench replays tracks).
/// Written here (`rendered`); read by the development tools only (`init(data:)` in Simulation, so the
/// flight's binary links no XML parser: PERFORMANCE.md "Footprint").
public struct GPXDocument: Sendable, Hashable {
    public var tracks: [GPXTrack]

    /// The first track named `name`, or the first track when `name` is nil.
    public func track(named name: String?) -> GPXTrack? {
        guard let name else { return tracks.first }
        return tracks.first { $0.name == name }
    }

    /// A GPX 1.1 document with these tracks (each one segment per `segments` entry).
    public func rendered(creator: String = "followme") -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"\(xmlEscaped(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        for track in tracks {
            out += "  <trk>\n"
            if let name = track.name { out += "    <name>\(xmlEscaped(name))</name>\n" }
            for segment in track.segments {
                out += "    <trkseg>\n"
                for p in segment {
                    out += "      <trkpt lat=\"\(p.coordinate.latitudeDegrees)\" lon=\"\(p.coordinate.longitudeDegrees)\">"
                    if let e = p.elevationMeters, e.isFinite { out += "<ele>\(e)</ele>" }
                    if let time = p.iso8601Time { out += "<time>\(time)</time>" }
                    out += "</trkpt>\n"
                }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        out += "</gpx>\n"
        return out
    }

    public init(tracks: [GPXTrack]) {
        self.tracks = tracks
    }
}

/// Parses an ISO 8601 / RFC 3339 timestamp to UTC seconds since the Unix epoch:
/// `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM|±HHMM]` (no zone = UTC). nil if malformed.
public func unixSeconds(iso8601 text: String) -> Double? {
    let s = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    func digits(_ at: Int, _ count: Int) -> Int? {
        guard at + count <= s.count else { return nil }
        var v = 0
        for i in at..<(at + count) {
            guard s[i] >= 48, s[i] <= 57 else { return nil }
            v = v * 10 + Int(s[i] - 48)
        }
        return v
    }
    guard s.count >= 19, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"),
          s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: " "), s[13] == UInt8(ascii: ":"), s[16] == UInt8(ascii: ":"),
          let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
          let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
          (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    var i = 19
    var fraction = 0.0
    if i < s.count, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",") {
        i += 1
        var scale = 0.1
        let start = i
        while i < s.count, s[i] >= 48, s[i] <= 57 {
            fraction += Double(s[i] - 48) * scale
            scale /= 10
            i += 1
        }
        guard i > start else { return nil }
    }
    var offsetSeconds = 0
    if i < s.count {
        if s[i] == UInt8(ascii: "Z") || s[i] == UInt8(ascii: "z") {
            i += 1
        } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2) else { return nil }
            var j = i + 3
            if j < s.count, s[j] == UInt8(ascii: ":") { j += 1 }
            guard let om = digits(j, 2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
            i = j + 2
        }
    }
    guard i == s.count else { return nil }
    return Double(daysFromCivil(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
        - offsetSeconds) + fraction
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level
/// Date Algorithms", `days_from_civil`).
func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}
