@testable import FlightRecords
import Foundation
import TestSupport

/// One state change from the flight log (a `FlightTransitionRecord` with every field).
struct Transition: CustomStringConvertible {
    let t: Double
    let from: String
    let to: String
    let reason: String
    var description: String { "t=\(t) \(from) → \(to) (\(reason))" }
}

/// A position fix from the flight log, as the fault tests read it.
extension FlightGPSRecord {
    var latitudeDegrees: Double { event?.lat ?? .nan }
    var longitudeDegrees: Double { event?.lon ?? .nan }
    /// The receiver's UTC time as gpsd reported it (ISO 8601).
    var time: String? { event?.time }
}

/// Reads `followme run --flight-log FILE` while it is being written (JSONL, whole lines per flush),
/// through the flight log's own record types (FlightLogRecord.swift in the FlightLog module).
struct FlightLogReader {
    let url: URL

    /// Every complete line (a torn last line is skipped by the decoders).
    func lines() -> [Data] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
    }

    /// The lines of one kind, decoded as its record type (lines that do not decode are skipped).
    func records<Record: Decodable>(_ type: Record.Type, kind: String) -> [Record] {
        let decoder = JSONDecoder()
        return lines().compactMap { line in
            guard FlightLogHead.decode(line, with: decoder)?.kind == kind else { return nil }
            return try? decoder.decode(type, from: line)
        }
    }

    /// Every complete line parsed as a JSON object, for ad-hoc checks of one field.
    func objects() -> [[String: Any]] {
        lines().compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    var text: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    func transitions() -> [Transition] {
        records(FlightTransitionRecord.self, kind: FlightTransitionRecord.kind).compactMap { r in
            guard let t = r.t, let from = r.from, let to = r.to, let reason = r.reason else { return nil }
            return Transition(t: t, from: from, to: to, reason: reason)
        }
    }

    /// The first transition at or after `t0` that satisfies `predicate`.
    func firstTransition(after t0: Double, _ predicate: (Transition) -> Bool) -> Transition? {
        transitions().first { $0.t >= t0 && predicate($0) }
    }

    /// Waits (polling the file) for the first transition at or after `t0` satisfying `predicate`.
    func waitForTransition(after t0: Double, within seconds: Double, _ predicate: (Transition) -> Bool) async -> Transition? {
        await poll(seconds: seconds) { firstTransition(after: t0, predicate) }
    }

    /// Waits for the first transition into `state` at or after `t0`.
    func waitForTransition(to state: String, after t0: Double, within seconds: Double) async -> Transition? {
        await waitForTransition(after: t0, within: seconds) { $0.to == state }
    }

    /// Link events (`"kind":"link"`), e.g. "connected", "navdata-lost", "statistics".
    func linkEvents(_ event: String, after t0: Double = 0) -> [[String: Any]] {
        objects().filter {
            $0["kind"] as? String == "link" && $0["event"] as? String == event && ($0["t"] as? Double ?? 0) >= t0
        }
    }

    /// The newest link statistics line (periodic or final).
    func latestStatistics() -> [String: Any]? {
        objects().last {
            $0["kind"] as? String == "link"
                && ["statistics", "statistics-final"].contains($0["event"] as? String ?? "")
        }
    }

    /// GPS events (`"kind":"gps"`) as their inner `event` object, with the line's `t`.
    func gpsEvents(after t0: Double = 0) -> [(t: Double, event: [String: Any], verdict: String?)] {
        objects().compactMap { o in
            guard o["kind"] as? String == "gps", let t = o["t"] as? Double, t >= t0,
                  let event = o["event"] as? [String: Any] else { return nil }
            return (t, event, o["verdict"] as? String)
        }
    }

    /// Position fixes (with lat/lon) of one role (`target` / `onboard`), with the estimator's verdict.
    func fixes(role: String, after t0: Double = 0) -> [FlightGPSRecord] {
        records(FlightGPSRecord.self, kind: FlightGPSRecord.kind).filter { r in
            (r.t ?? -.infinity) >= t0 && r.event?.role == role && r.event?.lat != nil && r.event?.lon != nil
        }
    }

    /// The first `n` lines, for failure messages.
    func head(_ n: Int = 40) -> String {
        text.split(separator: "\n").prefix(n).joined(separator: "\n")
    }

    /// The last `n` lines, for failure messages.
    func tail(_ n: Int = 40) -> String {
        text.split(separator: "\n").suffix(n).joined(separator: "\n")
    }
}

/// Metres between two coordinates (equirectangular: exact enough over a few hundred metres).
func metersBetween(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
    let r = 6_371_008.8
    let dLat = (b.lat - a.lat) * .pi / 180
    let dLon = (b.lon - a.lon) * .pi / 180 * cos((a.lat + b.lat) / 2 * .pi / 180)
    return r * (dLat * dLat + dLon * dLon).squareRoot()
}
