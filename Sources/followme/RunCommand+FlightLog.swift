import FlightRecords
import FlightService
import Foundation
import Logging

extension RunCommand {
    /// Where this flight's log goes, in order: `--flight-log FILE`, then `[log] path` (a fixed
    /// file, appended to, retention not applied), then a new file in `[log] directory` named by the
    /// flight's UTC start second, the oldest logs there removed as `[log] max_flights` /
    /// `max_total_mb` say (never this one). nil: no flight log (`path` and `directory` both "", or
    /// the directory cannot be used). A directory that cannot be used is logged as an error and the
    /// flight goes on without a log: a default an older config never set (`out/flights`, relative,
    /// read-only under the unit's sandbox) must not keep a drone on the ground, nor stop a restarted
    /// followme from adopting one in the air. A fixed file that cannot be opened still fails the run.
    static func flightLogPath(flag: String?, config: FollowMeConfiguration.Log, logger: Logger) -> String? {
        if let flag { return flag }
        if let path = config.path { return path }
        guard let directory = config.directory else { return nil }
        let retention = FlightLogRetention(maxFlights: config.maxFlights,
                                           maxTotalBytes: Int64(config.maxTotalMegabytes) * 1_000_000)
        let started: FlightLogDirectory.Started
        do {
            started = try FlightLogDirectory.startFlight(directory: directory, startUnixSeconds: Int64(Date().timeIntervalSince1970),
                                                         retention: retention)
        } catch {
            logger.error("no flight log: \(error); flying without one")
            return nil
        }
        logger.info("flight log", metadata: ["path": "\(started.path)"])
        if !started.removed.isEmpty {
            logger.notice("old flight logs removed", metadata: [
                "directory": "\(directory)", "removed": "\(started.removed.joined(separator: ","))",
                "max-flights": "\(config.maxFlights)", "max-total-mb": "\(config.maxTotalMegabytes)",
            ])
        }
        for (file, reason) in started.failedRemovals.sorted(by: { $0.key < $1.key }) {
            logger.warning("old flight log not removed", metadata: ["file": "\(file)", "reason": "\(reason)"])
        }
        return started.path
    }
}
