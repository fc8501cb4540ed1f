import Foundation
import Testing
import TestSupport

/// `followme log geojson LOG [-o FILE]` beside `log gpx`: the same two tracks, as GeoJSON.
@Suite struct LogGeoJSONCommandTests {
    /// Three target fixes walking north, two onboard fixes, one heading line, in the recorder's format.
    static let log = """
        {"t":0.0,"kind":"start","standoff_m":11.0}
        {"t":1.0,"kind":"gps","event":{"role":"target","device":"/dev/gpstarget","mode":3,"lat":46.5,"lon":7.5,"time":"2026-11-23T10:15:00.000Z","alt_hae":1390.5}}
        {"t":1.1,"kind":"gps","event":{"role":"onboard","device":"/dev/gpsonboard","mode":2,"lat":46.4999,"lon":7.5,"time":"2026-11-23T10:15:00.100Z"}}
        {"t":1.2,"kind":"gps","event":{"role":"onboard","device":"/dev/gpsonboard","heading":10.0}}
        {"t":2.0,"kind":"gps","event":{"role":"target","device":"/dev/gpstarget","mode":3,"lat":46.50001,"lon":7.5,"time":"2026-11-23T10:15:01.000Z","alt_hae":1390.6}}
        {"t":2.1,"kind":"gps","event":{"role":"onboard","device":"/dev/gpsonboard","mode":2,"lat":46.49991,"lon":7.5,"time":"2026-11-23T10:15:01.100Z"}}
        {"t":3.0,"kind":"gps","event":{"role":"target","device":"/dev/gpstarget","mode":3,"lat":46.50002,"lon":7.5,"time":"2026-11-23T10:15:02.000Z","alt_hae":1390.7}}

        """

    @Test("writes LOG.geojson (or -o FILE): person and drone LineStrings in [lon, lat] order with their times")
    func writesGeoJSON() throws {
        let dir = try scratchDirectory(label: "geojson")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("flight.jsonl")
        try Self.log.write(to: log, atomically: true, encoding: .utf8)

        // When exported with the default name and with -o
        let r = try FollowMeBinary.run(["log", "geojson", log.path])
        let other = dir.appendingPathComponent("other.json")
        let o = try FollowMeBinary.run(["log", "geojson", log.path, "-o", other.path])

        // Then both wrote the same document, and said what they wrote
        #expect(r.exitCode == 0 && o.exitCode == 0, "\(r.both)\(o.both)")
        #expect(r.stderr.contains("wrote \(dir.appendingPathComponent("flight.geojson").path) (3 target fixes, 2 onboard fixes)"), "\(r.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("flight.geojson"), encoding: .utf8)
        #expect(try String(contentsOf: other, encoding: .utf8) == text)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        let names = features.map { ($0["properties"] as? [String: Any])?["name"] as? String }
        #expect(names == ["person", "drone"])
        let person = try #require((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(person == [[7.5, 46.5, 1390.5], [7.5, 46.50001, 1390.6], [7.5, 46.50002, 1390.7]])
        let drone = try #require((features[1]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(drone == [[7.5, 46.4999], [7.5, 46.49991]])
        let times = (features[1]["properties"] as? [String: Any])?["times"] as? [String]
        #expect(times == ["2026-11-23T10:15:00.100Z", "2026-11-23T10:15:01.100Z"])
    }

    @Test("a log without fixes exits 1 and writes nothing")
    func noFixes() throws {
        let dir = try scratchDirectory(label: "geojson")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("empty.jsonl")
        try "{\"t\":0.0,\"kind\":\"start\"}\n".write(to: log, atomically: true, encoding: .utf8)
        let r = try FollowMeBinary.run(["log", "geojson", log.path])
        #expect(r.exitCode == 1, "\(r.both)")
        #expect(r.stderr.contains("followme log geojson:") && r.stderr.contains("no GPS fixes"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("empty.geojson").path))
    }
}
