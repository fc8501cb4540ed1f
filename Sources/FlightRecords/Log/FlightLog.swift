import Foundation
import FollowCore

/// One GPS fix read back from a flight log (a `"kind":"gps"` line whose event has lat/lon).
public struct FlightLogFix: Sendable, Hashable {
    public var role: ReceiverRole
    public var coordinate: GeoCoordinate
    /// The line's `t`: monotonic seconds when the service logged it.
    public var logSeconds: Double?
    /// The receiver's own UTC time (`time`), seconds since the Unix epoch, if it sent one.
    public var unixSeconds: Double?
    /// `alt_hae`, metres.
    public var altitudeHAEMeters: Double?
    /// What the follow core made of it (the line's `verdict`: `accepted`, `initialised`,
    /// `rejected-outlier`, `ignored-out-of-order`, `ignored-duplicate`), if logged.
    public var verdict: String? = nil

    /// Whether the follow core refused it (an outlier, out of order or a duplicate).
    public var wasRefused: Bool { FlightGPSRecord.refuses(verdict) }
}

/// Why a flight log could not be turned into a track.
public enum FlightLogError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// The log holds no GPS fix at all (nothing to draw or export).
    case noFixes(lines: Int)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): cannot read: \(reason)"
        case let .noFixes(lines): "no GPS fixes in \(lines) log line\(lines == 1 ? "" : "s")"
        }
    }
}

/// The fixes of a JSONL flight log (`followme run --flight-log`, written by `FlightRecorder`):
/// the person's receiver (`target`) and the drone's (`onboard`), in log order.
///
/// Every line is `{"t":…,"kind":…}` (FlightLogRecord.swift); GPS lines carry `"event"`, a `GPSEventRecord`
/// (`{"role":"target","device":…,"mode":3,"lat":…,"lon":…,"time":…,"alt_hae":…,…}`), and fix lines
/// may carry the follow core's `"verdict"`. Every fix is kept, refused ones too. Other kinds,
/// heading/lost/connected events, and fixes with an out-of-range position are skipped; a line that
/// is not a JSON object is counted in `malformedLines` and skipped (the recorder writes whole
/// lines, so this means a foreign or edited file).
public struct FlightLog: Sendable, Hashable {
    public var fixes: [FlightLogFix]
    /// Non-empty lines read.
    public var lineCount: Int
    /// 1-based numbers of lines that were not JSON objects.
    public var malformedLines: [Int]

    public var targetFixes: [FlightLogFix] { fixes.filter { $0.role == .target } }
    public var onboardFixes: [FlightLogFix] { fixes.filter { $0.role == .onboard } }

    /// Parses log text.
    public init(text: String) {
        fixes = []
        malformedLines = []
        lineCount = 0
        let decoder = JSONDecoder()
        var number = 0
        // Character.isNewline also splits "\r\n", which Swift treats as one Character.
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            lineCount += 1
            let data = Data(line.utf8)
            guard let head = FlightLogHead.decode(data, with: decoder) else {
                malformedLines.append(number)
                continue
            }
            guard head.kind == FlightGPSRecord.kind, let gps = try? decoder.decode(FlightGPSRecord.self, from: data),
                  let event = gps.event,
                  let role = event.role.flatMap(ReceiverRole.init(rawValue:)),
                  let lat = event.lat, let lon = event.lon,
                  let coordinate = GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon)
            else { continue }
            fixes.append(FlightLogFix(role: role, coordinate: coordinate, logSeconds: head.t,
                                      unixSeconds: event.time.flatMap { unixSeconds(iso8601: $0) },
                                      altitudeHAEMeters: event.altitudeHAEMeters, verdict: gps.verdict))
        }
    }

    /// Reads and parses the log at `path`.
    public init(contentsOf path: String) throws(FlightLogError) {
        let data = try TrackFile.contents(ofFile: path, unreadable: FlightLogError.unreadable(path:reason:))
        self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// A GPX 1.1 document with two tracks, `person` (target fixes) and `drone` (onboard fixes),
    /// each one segment; points carry the receiver's time and height when the fix had them.
    /// `<ele>` is gpsd's `altHAE`, height above the WGS84 ellipsoid, not above sea level (GPX does
    /// not say which; the log has no geoid separation to convert with).
    public func gpx() -> String {
        GPXDocument(tracks: tracks()).rendered()
    }

    /// A GeoJSON FeatureCollection (RFC 7946) of the same two tracks as `gpx()`, `person` and
    /// `drone`, each a LineString with its points' times (`GeoJSONTracks`).
    public func geoJSON() -> String {
        GeoJSONTracks(tracks: tracks()).rendered()
    }

    /// The two tracks every export writes: `person` (target fixes) and `drone` (onboard fixes), one
    /// segment each, in log order; points carry the receiver's time and `alt_hae` when the fix had them.
    public func tracks() -> [GPXTrack] {
        func points(_ role: ReceiverRole) -> [GPXPoint] {
            fixes.filter { $0.role == role }.map {
                GPXPoint(coordinate: $0.coordinate, unixSeconds: $0.unixSeconds, elevationMeters: $0.altitudeHAEMeters)
            }
        }
        return [GPXTrack(name: "person", segments: [points(.target)]), GPXTrack(name: "drone", segments: [points(.onboard)])]
    }

    /// The plan-view plot: both receivers' fixes projected on a `LocalPlane` anchored at the log's
    /// first fix (as the follow core's `Navigator` anchors its plane). Throws if there is no fix.
    public func plot(title: String) throws(FlightLogError) -> TrackPlot {
        guard let first = fixes.first else { throw .noFixes(lines: lineCount) }
        let plane = LocalPlane(origin: first.coordinate)
        let target = targetFixes, onboard = onboardFixes
        let times = fixes.compactMap(\.logSeconds)
        var notes = ["\(target.count) target fixes, \(onboard.count) onboard fixes"
            + (times.count >= 2 ? String(format: " over %.0f s", (times.max() ?? 0) - (times.min() ?? 0)) : "")
            + String(format: "; origin %.6f, %.6f (first fix)", first.coordinate.latitudeDegrees, first.coordinate.longitudeDegrees)]
        let refused = fixes.filter(\.wasRefused).count
        if refused > 0 { notes.append("\(refused) fix(es) refused by the follow core (outlier, out of order, duplicate), drawn anyway") }
        if !malformedLines.isEmpty { notes.append("\(malformedLines.count) malformed line(s) skipped") }
        return TrackPlot(title: title, notes: notes, series: [
            .init(name: "person (target fixes)", color: TrackPlot.personColor, pointsPlane: target.map { plane.project($0.coordinate) }),
            .init(name: "drone (onboard fixes)", color: TrackPlot.droneColor, pointsPlane: onboard.map { plane.project($0.coordinate) }),
        ])
    }
}
