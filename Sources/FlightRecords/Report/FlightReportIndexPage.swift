/// The index of a set of report pages (`followme bench --report DIR` writes `index.html`): one row
/// per page with its link and headline numbers. Self-contained like the pages (inline CSS, no
/// script, only relative links to the pages beside it).
public struct FlightReportIndexPage: Sendable {
    /// One linked page: its file name (relative to the index) and its timeline.
    public struct Entry: Sendable {
        public var fileName: String
        public var timeline: FlightTimeline

        public init(fileName: String, timeline: FlightTimeline) {
            self.fileName = fileName
            self.timeline = timeline
        }
    }

    public var title: String
    public var notes: [String]
    public var entries: [Entry]

    public init(title: String, notes: [String] = [], entries: [Entry]) {
        self.title = title
        self.notes = notes
        self.entries = entries
    }

    /// The HTML document (well-formed XML, like `FlightReportPage`).
    public func html() -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        out += "<title>\(xmlEscaped(title))</title>\n<style>\n\(FlightReportStyle.css)\n</style>\n</head>\n<body>\n"
        out += "<header>\n<h1>\(xmlEscaped(title))</h1>\n"
        for note in notes { out += "<p>\(xmlEscaped(note))</p>\n" }
        out += "</header>\n<main>\n<section class=\"card\">\n<table id=\"runs\">\n"
        out += "<tr><th>run</th><th>RMS standoff error</th><th>closest approach</th><th>holds</th>"
        out += "<th>landing</th><th>final state</th></tr>\n"
        for entry in entries {
            let t = entry.timeline
            let below = zip(t.scores.closestApproachMeters.map { [$0] } ?? [], t.minSeparationMeters.map { [$0] } ?? [])
                .contains { $0 < $1 }
            out += "<tr><td><a href=\"\(xmlEscaped(entry.fileName))\">\(xmlEscaped(t.title))</a></td>"
            out += "<td class=\"num\">\(t.scores.rmsStandoffErrorMeters.map { fixed($0, decimals: 2) + " m" } ?? "—")</td>"
            out += "<td class=\"num\(below ? " warn" : "")\">"
            out += "\(t.scores.closestApproachMeters.map { fixed($0, decimals: 2) + " m" } ?? "—")</td>"
            out += "<td>\(xmlEscaped(t.holds.isEmpty ? "none" : t.holds.map(\.reason).joined(separator: ", ")))</td>"
            out += "<td>\(xmlEscaped(t.landingReason ?? "—"))</td><td>\(xmlEscaped(t.finalState ?? "—"))</td></tr>\n"
        }
        out += "</table>\n</section>\n</main>\n</body>\n</html>\n"
        return out
    }
}
