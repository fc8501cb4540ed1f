import Foundation
import FollowCore

/// Reads a recorded track file (GPX or an NMEA 0183 log) into timed positions.
public enum TrackFile {
    /// The valid RMC fixes of the NMEA log at `path`; nil when the file does not exist.
    public static func nmeaPoints(path: String) throws -> [TimedCoordinate]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try contents(ofFile: path, unreadable: TrackFileError.unreadable(path:reason:))
        return NMEATrack.points(text: String(decoding: data, as: UTF8.self))
    }

    /// The bytes of the file at `path`; when it cannot be read, the error `unreadable` makes of the
    /// path and the system's reason (every reader's "PATH: cannot read: REASON").
    package static func contents<E: Error>(
        ofFile path: String, unreadable: (_ path: String, _ reason: String) -> E
    ) throws(E) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(path, error.localizedDescription)
        }
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
