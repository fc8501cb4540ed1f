import FollowCore
import FlightRecords

extension SimulatorConfiguration {
    public enum TrackError: Error, CustomStringConvertible {
        case tooShort(path: String)
        case invalid(path: String, reason: String)
        public var description: String {
            switch self {
            case .tooShort(let path): "\(path): the track needs at least two timestamped points"
            case .invalid(let path, let reason): "\(path): \(reason)"
            }
        }
    }

    /// Makes the person replay a recorded GPX track (its first track with timestamps; duplicate
    /// timestamps dropped). The drone's home moves to `personStartDistanceMeters` (10 m) behind the
    /// track's first point, so the take-off happens clear of the person, who then walks the
    /// recording in real time.
    public mutating func usePersonTrack(gpxPath: String) throws {
        let document = try GPXDocument(contentsOf: gpxPath)
        guard let track = document.track(named: nil) else { throw TrackError.tooShort(path: gpxPath) }
        var points: [(timeSeconds: Double, coordinate: GeoCoordinate)] = []
        for p in track.points {
            guard let t = p.unixSeconds else { continue }
            if let last = points.last, t <= last.timeSeconds { continue }
            points.append((t, p.coordinate))
        }
        guard points.count >= 2, let first = points.first else { throw TrackError.tooShort(path: gpxPath) }
        // The drone starts `personStartDistanceMeters` behind the person (opposite the track's
        // initial direction, taken from the first point at least 10 m away), so the take-off is
        // clear (outside the shipped protected radius) and nobody is run into.
        let startPlane = LocalPlane(origin: first.coordinate)
        let ahead = points.lazy.map { startPlane.project($0.coordinate) }.first { $0.length >= 10 }
            ?? PlaneVector(east: 0, north: -1)
        let behind = Self.personStartDistanceMeters
        guard let home = startPlane.unproject(-(ahead / ahead.length) * behind) else {
            throw TrackError.invalid(path: gpxPath, reason: "no home \(behind) m behind the first point")
        }
        self.home = home
        let plane = LocalPlane(origin: home)
        let t0 = first.timeSeconds
        do {
            personTrack = try TrackScenario(coordinates: points.map { ($0.timeSeconds - t0, $0.coordinate) }, plane: plane)
        } catch {
            throw TrackError.invalid(path: gpxPath, reason: "\(error)")
        }
        personOffsetPlane = plane.project(first.coordinate)
        person = .track
    }
}
