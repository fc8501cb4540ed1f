@testable import FlightRecords
import FollowCore

/// A small flight log for the GPS uncertainty and link charts, every line encoded through the
/// flight log's own record types (`FlightGPSRecord`, `FlightLinkRecord` with `LinkStatisticsRecord`).
///
/// t0 = 50, last line at 70 (the timeline's 0…20 s).
/// - Person's receiver (target): fixes at 51…60 and 64…66 (1 Hz, eph 2.0, 2.1, …), a no-fix loss
///   at 60.5; SKY at 51.5…65.5 (used 4 + i mod 3, in view 12, HDOP 0.8 + 0.05 i).
/// - Drone's receiver (onboard): fixes at 51…54 and 58…69, eph 3 m, silent 54–58; no SKY.
/// - Link: statistics at 52, 53, 55, 55.5 (cumulative counters below), navdata lost at 56 and
///   restored at 58, a final statistics line at 69 (not a periodic one: not differentiated).
enum QualityChartLog {
    static let t0 = 50.0
    static let end = 70.0
    static let targetFixTimes = Array(51...60).map(Double.init) + [64, 65, 66]
    static let onboardFixTimes = Array(51...54).map(Double.init) + Array(58...69).map(Double.init)
    static let skyTimes = stride(from: 51.5, through: 65.5, by: 1).map { $0 }
    static func targetEph(_ i: Int) -> Double { 2 + 0.1 * Double(i) }
    static func satellitesUsed(_ i: Int) -> Int { 4 + i % 3 }
    static func hdop(_ i: Int) -> Double { 0.8 + 0.05 * Double(i) }

    /// The statistics lines' times and counters: navdata received, datagrams sent, and the three
    /// drop counters (unexpected source, malformed, sequence).
    static let statistics: [(t: Double, received: Int, sent: Int, dropped: (Int, Int, Int))] = [
        (52, 0, 10, (0, 0, 0)),
        (53, 15, 40, (0, 0, 1)),
        (55, 45, 100, (2, 0, 1)),
        (55.5, 52, 115, (2, 1, 4)),
    ]

    static func line(_ record: some Encodable) -> String { (try? JSONLineEncoder().encode(record)) ?? "" }

    static func gps(_ t: Double, _ event: GPSEvent) -> String {
        line(FlightGPSRecord { ($0.t, $0.event) = (t, GPSEventRecord(event)) })
    }

    static func fix(_ role: ReceiverRole, t: Double, eph: Double?) -> GPSEvent {
        .fix(GPSFix(role: role, device: "/dev/gps\(role.rawValue)", mode: .threeD, latitudeDegrees: 48.1,
                    longitudeDegrees: 11.5 + t * 1e-6, fixTime: FixTime(seconds: 1_700_000_000 + Int64(t), nanoseconds: 0),
                    receivedAt: MonotonicTime(seconds: t), ephMeters: eph)!)
    }

    static func statisticsLine(_ s: (t: Double, received: Int, sent: Int, dropped: (Int, Int, Int)), event: String = "statistics") -> String {
        var counters = LinkStatisticsRecord()
        (counters.navdataReceived, counters.datagramsSent) = (s.received, s.sent)
        (counters.droppedUnexpectedSource, counters.droppedMalformed, counters.droppedSequence) = s.dropped
        var record = FlightLinkRecord(t: s.t, event: event)
        record.link = counters
        return line(record)
    }

    /// The log; `sky` and `statistics` false give an older log without those lines, `eph` false
    /// fixes without an error estimate.
    static func text(sky: Bool = true, statistics withStatistics: Bool = true, eph: Bool = true) -> String {
        var lines: [(Double, String)] = [(t0, line(FlightStartRecord { ($0.t, $0.standoffMeters) = (t0, 10) }))]
        for (i, t) in targetFixTimes.enumerated() { lines.append((t, gps(t, fix(.target, t: t, eph: eph ? targetEph(i) : nil)))) }
        for t in onboardFixTimes { lines.append((t, gps(t, fix(.onboard, t: t, eph: eph ? 3 : nil)))) }
        lines.append((60.5, gps(60.5, .lost(GPSLoss(role: .target, device: "/dev/gpstarget", reason: .noFix(mode: 1),
                                                   at: MonotonicTime(seconds: 60.5))))))
        if sky {
            for (i, t) in skyTimes.enumerated() {
                lines.append((t, gps(t, .sky(SkyReport(role: .target, device: "/dev/gpstarget", satellitesUsed: satellitesUsed(i),
                                                       satellitesVisible: 12, hdop: hdop(i), vdop: 1.5, pdop: 1.7,
                                                       receivedAt: MonotonicTime(seconds: t))))))
            }
        }
        if withStatistics {
            for s in statistics { lines.append((s.t, statisticsLine(s))) }
            lines.append((69, statisticsLine((69, 300, 600, (9, 9, 9)), event: "statistics-final")))
        }
        lines.append((56, line(FlightLinkRecord(t: 56, event: "navdata-lost"))))
        lines.append((58, line(FlightLinkRecord(t: 58, event: "navdata-restored"))))
        lines.append((end, line(FlightShutdownRecord { $0.t = end })))
        return lines.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n") + "\n"
    }
}
