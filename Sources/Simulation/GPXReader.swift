import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import FlightRecords
import FollowCore

/// Reading GPX (Foundation's XMLParser; FoundationXML on Linux): only the development tools replay
/// recorded tracks, so the XML parser (and libxml2, ICU) stays out of the flight's binary.
extension GPXDocument {
    /// Parses GPX text (Foundation's XMLParser; FoundationXML on Linux).
    public init(data: Data) throws(GPXError) {
        let delegate = GPXParserDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok else {
            throw .malformed(line: parser.lineNumber, reason: parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown")
        }
        // FoundationXML on Linux accepts a document that ends inside an element; we do not.
        if let open = delegate.openElements.last {
            throw .malformed(line: parser.lineNumber, reason: "the document ends inside <\(open)>")
        }
        guard delegate.root == "gpx" else { throw .notGPX(root: delegate.root ?? "none") }
        self.init(tracks: delegate.tracks)
    }

    /// Reads and parses a GPX file.
    public init(contentsOf path: String) throws(GPXError) {
        try self.init(data: TrackFile.contents(ofFile: path, unreadable: GPXError.unreadable(path:reason:)))
    }
}

extension TrackFile {
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
}

/// Collects tracks while XMLParser walks the document. Used synchronously by one parse.
private final class GPXParserDelegate: NSObject, XMLParserDelegate {
    var root: String?
    var tracks: [GPXTrack] = []
    var error: GPXError?

    /// Elements opened and not yet closed, outermost first.
    private(set) var openElements: [String] = []
    private var text = ""
    private var point: GPXPoint?

    private static func localName(_ qualified: String) -> String {
        qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = Self.localName(elementName)
        if root == nil { root = name }
        openElements.append(name)
        text = ""
        guard error == nil else { return }
        switch name {
        case "trk" where openElements.count == 2:
            tracks.append(GPXTrack(name: nil, segments: []))
        case "trkseg" where openElements.dropLast().last == "trk":
            tracks[tracks.count - 1].segments.append([])
        case "trkpt" where openElements.dropLast().last == "trkseg":
            let lat = attributes["lat"], lon = attributes["lon"]
            guard let latitude = lat.flatMap(Double.init), let longitude = lon.flatMap(Double.init),
                  let coordinate = GeoCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude)
            else {
                fail(parser, .badPoint(line: parser.lineNumber, lat: lat, lon: lon))
                return
            }
            point = GPXPoint(coordinate: coordinate)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let name = Self.localName(elementName)
        defer {
            openElements.removeLast()
            text = ""
        }
        guard error == nil else { return }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = openElements.dropLast().last
        switch name {
        case "name" where parent == "trk" && openElements.count == 3:
            tracks[tracks.count - 1].name = value
        case "time" where parent == "trkpt" && point != nil:
            guard let seconds = unixSeconds(iso8601: value) else {
                fail(parser, .badTime(line: parser.lineNumber, value: value))
                return
            }
            point?.unixSeconds = seconds
        case "ele" where parent == "trkpt" && point != nil:
            guard let e = Double(value), e.isFinite else {
                fail(parser, .badElevation(line: parser.lineNumber, value: value))
                return
            }
            point?.elevationMeters = e
        case "trkpt":
            if let point, !tracks.isEmpty, !tracks[tracks.count - 1].segments.isEmpty {
                tracks[tracks.count - 1].segments[tracks[tracks.count - 1].segments.count - 1].append(point)
            }
            point = nil
        default:
            break
        }
    }

    private func fail(_ parser: XMLParser, _ e: GPXError) {
        error = e
        parser.abortParsing()
    }
}
