/// Tracks as a GeoJSON FeatureCollection (RFC 7946): one Feature per track, its points as a
/// `LineString` in file order, with the track's name and each point's time in the properties.
///
/// Positions are `[longitude, latitude]` (RFC 7946 §3.1.1: longitude first), with the height as a
/// third element only when every point of the track has one: RFC 7946 §4 defines it as metres
/// above the WGS 84 ellipsoid, which is what the flight log's `alt_hae` is. `properties.times`
/// holds one ISO 8601 UTC time (millisecond, as in the GPX export) or `null` per position. A track
/// with a single point is a `Point`, one with none has a `null` geometry (a `LineString` needs two
/// or more positions, §3.1.4). GPX segments are joined: the flight log's tracks have one each.
public struct GeoJSONTracks: Sendable, Hashable {
    public var tracks: [GPXTrack]

    /// The document: one line per feature, so a diff or `grep` shows a track per line.
    public func rendered() -> String {
        let features = tracks.map(Self.feature)
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    private static func feature(_ track: GPXTrack) -> String {
        let points = track.points
        let withHeight = !points.isEmpty && points.allSatisfy { $0.elevationMeters?.isFinite == true }
        let positions = points.map { p in
            var position = [p.coordinate.longitudeDegrees, p.coordinate.latitudeDegrees]
            if withHeight, let e = p.elevationMeters { position.append(e) }
            return "[" + position.map { "\($0)" }.joined(separator: ",") + "]"
        }
        let geometry = switch positions.count {
        case 0: "null"
        case 1: "{\"type\":\"Point\",\"coordinates\":\(positions[0])}"
        default: "{\"type\":\"LineString\",\"coordinates\":[" + positions.joined(separator: ",") + "]}"
        }
        var name = ""
        if let trackName = track.name { JSONLine.appendString(trackName, to: &name) } else { name = "null" }
        let times = points.map { p in p.iso8601Time.map { "\"\($0)\"" } ?? "null" }.joined(separator: ",")
        return "{\"type\":\"Feature\",\"properties\":{\"name\":\(name),\"times\":[\(times)]},\"geometry\":\(geometry)}"
    }
}
