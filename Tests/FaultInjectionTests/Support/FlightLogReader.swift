import Foundation
import TestSupport

/// One state change from the flight log (`"kind":"transition"`).
struct Transition: CustomStringConvertible {
    let t: Double
    let from: String
    let to: String
    let reason: String
    var description: String { "t=\(t) \(from) → \(to) (\(reason))" }
}

/// One position fix from the flight log (`"kind":"gps"` with lat/lon), with the estimator's verdict.
struct LoggedFix {
    let t: Double
    let role: String
    let latitudeDegrees: Double
    let longitudeDegrees: Double
    /// The receiver's UTC time as gpsd reported it (ISO 8601).
    let time: String?
    let verdict: String?
}

/// Reads `followme run --flight-log FILE` while it is being written (JSONL, whole lines per flush).
struct FlightLogReader {
    let url: URL

    /// Every complete line parsed as a JSON object (a torn last line is skipped).
    func objects() -> [[String: Any]] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        var out: [[String: Any]] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { out.append(object) }
        }
        return out
    }

    var text: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    func transitions() -> [Transition] {
        objects().compactMap { o in
            guard o["kind"] as? String == "transition", let t = o["t"] as? Double,
                  let from = o["from"] as? String, let to = o["to"] as? String, let reason = o["reason"] as? String
            else { return nil }
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

    /// Position fixes of one role (`target` / `onboard`).
    func fixes(role: String, after t0: Double = 0) -> [LoggedFix] {
        gpsEvents(after: t0).compactMap { e in
            guard e.event["role"] as? String == role, let lat = e.event["lat"] as? Double,
                  let lon = e.event["lon"] as? Double else { return nil }
            return LoggedFix(t: e.t, role: role, latitudeDegrees: lat, longitudeDegrees: lon,
                             time: e.event["time"] as? String, verdict: e.verdict)
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
