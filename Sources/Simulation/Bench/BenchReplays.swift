import FollowCore

/// A recorded track the bench replays as a person scenario, if its file is present.
public struct BenchTrackSource: Sendable, Hashable {
    public enum Format: Sendable, Hashable {
        /// GPX 1.0/1.1; `trackName` picks the `<trk>` (nil = the first).
        case gpx(trackName: String?)
        /// An NMEA 0183 log; its valid RMC fixes.
        case nmea
    }

    /// File name inside the directory given to `load`.
    public var file: String
    public var format: Format
    /// The scenario's name in tables, JSON and plot file names.
    public var scenarioName: String
    public var summary: String
}

/// The real tracks of the benchmark (provenance and licences: `tracks/PROVENANCE.md`).
public enum BenchReplays {
    /// Reads the points of a track file in `format` at a path; nil when the file does not exist.
    public typealias TrackReader = (_ format: BenchTrackSource.Format, _ path: String) throws -> [TimedCoordinate]?

    /// BSD-2-Clause / Apache-2.0 GPX tracks vendored in `tracks/`.
    public static let gpxTracks: [BenchTrackSource] = [
        BenchTrackSource(file: "togeojson-run_gpxtpx.gpx", format: .gpx(trackName: nil), scenarioName: "track-jog-sf",
                         summary: "recorded jog, San Francisco (Strava, 1 s, median 3.2 m/s)"),
        BenchTrackSource(file: "togeojson-run.gpx", format: .gpx(trackName: nil), scenarioName: "track-run-dc",
                         summary: "recorded run, Washington DC (Garmin, ~4 s, median 3.9 m/s)"),
        // Only segment "ACTIVE LOG #2" is a clean walk (tracks/PROVENANCE.md).
        BenchTrackSource(file: "gpxpy-cerknicko-jezero.gpx", format: .gpx(trackName: "ACTIVE LOG #2"),
                         scenarioName: "track-walk-cerknica", summary: "recorded walk, Lake Cerknica (Garmin, ~9 s, 1.2 m/s)"),
    ]

    /// GPL-3.0 NMEA walks (serialc/gnss_accuracy_and_error_oer), never copied into this repository:
    /// read at run time from the directory `followme bench --walks DIR` names, when given.
    public static let nmeaWalks: [BenchTrackSource] = [
        BenchTrackSource(file: "belval.txt", format: .nmea, scenarioName: "walk-belval",
                         summary: "recorded walk, Belval (logger, 1 s, 2022-05-19)"),
        BenchTrackSource(file: "SD00262-GPS-0197_BelvalWT.txt", format: .nmea, scenarioName: "walk-belval-logger",
                         summary: "recorded walk, Belval (logger, 1 s, 2022-10-27)"),
        BenchTrackSource(file: "20221027-Crosscall-nmea.txt", format: .nmea, scenarioName: "walk-belval-phone",
                         summary: "recorded walk, Belval (phone, 2022-10-27)"),
    ]

    /// The benchmark's scenarios in table order: the synthetic ones, the vendored GPX tracks found
    /// in `tracksDirectory`, then the GPL NMEA walks found in `walksDirectory` (nil = skip them).
    /// `read` is the shell's file reader (TrackFiles): the points of one source at a path, nil if the
    /// file does not exist.
    public static func allScenarios(
        tracksDirectory: String?, walksDirectory: String?, read: TrackReader
    ) -> (scenarios: [BenchScenario], notes: [String]) {
        var scenarios = BenchScenario.standard()
        var notes: [String] = []
        if let tracksDirectory {
            let loaded = load(gpxTracks, directory: tracksDirectory, read: read)
            scenarios += loaded.scenarios
            notes += loaded.notes
        }
        if let walksDirectory {
            let loaded = load(nmeaWalks, directory: walksDirectory, read: read)
            scenarios += loaded.scenarios
            notes += loaded.notes
        }
        return (scenarios, notes)
    }

    /// The scenarios for the sources whose files exist in `directory`, and a note for each one that
    /// is missing or unusable (the bench runs without it).
    public static func load(
        _ sources: [BenchTrackSource], directory: String, read: TrackReader
    ) -> (scenarios: [BenchScenario], notes: [String]) {
        var scenarios: [BenchScenario] = []
        var notes: [String] = []
        for source in sources {
            let path = directory.hasSuffix("/") ? directory + source.file : directory + "/" + source.file
            do {
                guard let points = try read(source.format, path) else {
                    notes.append("\(source.scenarioName): \(path) not found, skipped")
                    continue
                }
                scenarios.append(try BenchScenario.replay(name: source.scenarioName, summary: source.summary, points: points))
            } catch {
                notes.append("\(source.scenarioName): \(error), skipped")
            }
        }
        return (scenarios, notes)
    }
}
