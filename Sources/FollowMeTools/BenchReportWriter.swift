import FlightService
import ArgumentParser
import FlightRecords
import Simulation
import Foundation
import Links

/// `followme bench --report DIR`: one report page per run (named like its plot, `.html`) and an
/// `index.html` linking them.
enum BenchReportWriter {
    /// Writes the pages into `directory` (created if missing); returns the index's path.
    static func write(_ results: [BenchResult], to directory: String, minSeparationMeters: Double,
                      notes: [String]) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var entries: [FlightReportIndexPage.Entry] = []
        for result in results {
            let timeline = FlightTimeline(benchResult: result, minSeparationMeters: minSeparationMeters)
            let name = (BenchOutput.plotFileName(result) as NSString).deletingPathExtension + ".html"
            try FlightReportPage(timeline: timeline).html()
                .write(toFile: (directory as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
            entries.append(.init(fileName: name, timeline: timeline))
        }
        let index = (directory as NSString).appendingPathComponent("index.html")
        try FlightReportIndexPage(title: "followme bench: \(results.count) runs", notes: notes, entries: entries).html()
            .write(toFile: index, atomically: true, encoding: .utf8)
        return index
    }
}
