import ArgumentParser
import FlightRecords

/// `followme log geojson LOG`: the person's and the drone's fixes as a GeoJSON FeatureCollection.
struct LogGeoJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geojson",
        abstract: "Write a GeoJSON file (RFC 7946) with two LineStrings: person (target fixes) and drone (onboard fixes).",
        discussion: """
            Positions are [lon, lat] (plus height above the WGS 84 ellipsoid when every fix of a track has one);
            each feature's properties hold its name and a `times` array, one ISO 8601 UTC time (or null) per position.
            Exit codes: 0 written; 1 unreadable log, no fixes, or output not writable; 2 bad options.
            """
    )

    @OptionGroup var options: LogToolOptions

    func run() throws {
        let flightLog = try options.readLog(tool: "geojson")
        try options.write(flightLog.geoJSON(), extension: "geojson", tool: "geojson", log: flightLog)
    }
}
