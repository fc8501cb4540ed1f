import Foundation
import Geometry

/// Reads a recorded track file (GPX or an NMEA 0183 log) into timed positions.
public enum TrackFile {
    /// The timed points of the GPX track `trackName` (nil = the first) at `path`; nil when the file
    /// does not exist.
    public static func gpxPoints(path: String, trackName: String?) throws -> [TimedCoordinate]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let document = try GPXDocument(contentsOf: path)
        guard let track = document.track(named: trackName) else {
            throw TrackFileError.noSuchTrack(path: path, name: trackName)
        }
        return track.points.compactMap { p in p.unixSeconds.map { TimedCoordinate(timeSeconds: $0, coordinate: p.coordinate) } }
    }

    /// The valid RMC fixes of the NMEA log at `path`; nil when the file does not exist.
    public static func nmeaPoints(path: String) throws -> [TimedCoordinate]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TrackFileError.unreadable(path: path, reason: error.localizedDescription)
        }
        return NMEATrack.points(text: String(decoding: data, as: UTF8.self))
    }
}


/// Why a track file could not be used.
public enum TrackFileError: Error, CustomStringConvertible {
    case noSuchTrack(path: String, name: String?)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .noSuchTrack(path, name): "\(path): no track\(name.map { " named '\($0)'" } ?? "")"
        case let .unreadable(path, reason): "\(path): cannot read: \(reason)"
        }
    }
}
