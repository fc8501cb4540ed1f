@testable import FlightRecords
import Foundation
@testable import Simulation
import Testing

/// `followme log geojson`: the flight log's two tracks as GeoJSON (RFC 7946), checked by parsing
/// the document back and comparing it with the GPX export of the same log.
@Suite("Flight-log tools: GeoJSON export")
struct GeoJSONExportTests {
    /// The parsed FeatureCollection's features.
    static func features(_ text: String) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        return try #require(root["features"] as? [[String: Any]])
    }

    @Test("two LineStrings, person and drone: [lon, lat] positions and times equal to the GPX export's")
    func matchesGPX() throws {
        // Given the synthetic log (10 target fixes with height, 10 onboard fixes without)
        let log = FlightLog(text: FlightLogToolsTests.logText)

        // When it is exported both ways
        let features = try Self.features(log.geoJSON())
        let gpx = try GPXDocument(data: Data(log.gpx().utf8))

        // Then GeoJSON has GPX's tracks, in order, each point in the same order at the same place and time
        #expect(features.map { ($0["properties"] as? [String: Any])?["name"] as? String } == gpx.tracks.map(\.name))
        for (feature, track) in zip(features, gpx.tracks) {
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "LineString")
            let positions = try #require(geometry["coordinates"] as? [[Double]])
            let times = try #require((feature["properties"] as? [String: Any])?["times"] as? [String])
            #expect(positions.count == track.points.count && times.count == track.points.count)
            #expect(positions.count == 10)
            for (i, point) in track.points.enumerated() {
                // RFC 7946: longitude first
                #expect(positions[i][0] == point.coordinate.longitudeDegrees)
                #expect(positions[i][1] == point.coordinate.latitudeDegrees)
                #expect(positions[i].count == (point.elevationMeters == nil ? 2 : 3))
                if let e = point.elevationMeters { #expect(positions[i][2] == e) }
                #expect(unixSeconds(iso8601: times[i]) == point.unixSeconds)
            }
        }
        // And the person walks east: longitudes increase along the line
        let person = try #require((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(zip(person, person.dropFirst()).allSatisfy { $1[0] > $0[0] })
    }

    @Test("a track of one point is a Point, an empty one has a null geometry; missing times are null")
    func shortTracks() throws {
        let a = FlightLogToolsTests.origin
        let document = GeoJSONTracks(tracks: [
            GPXTrack(name: "one", segments: [[GPXPoint(coordinate: a)]]),
            GPXTrack(name: "none", segments: [[]]),
        ]).rendered()
        let features = try Self.features(document)
        #expect((features[0]["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [a.longitudeDegrees, a.latitudeDegrees])
        #expect(((features[0]["properties"] as? [String: Any])?["times"] as? [Any])?.first is NSNull)
        #expect(features[1]["geometry"] is NSNull)
    }
}
