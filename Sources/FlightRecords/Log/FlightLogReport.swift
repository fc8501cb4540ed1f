import Foundation
import FollowCore

/// The scored summary of a flight log: how well the drone kept its standoff while following.
///
/// Distances are between the latest target fix and the latest onboard fix at each fix, i.e. what
/// the two receivers say (on a simulated flight with clean GPS that is the truth; in the field it
/// includes both receivers' errors). Only time spent in `following`, after `settleSeconds`, counts
/// for the standoff error; the minimum separation counts every fix pair while airborne.
public struct FlightLogReport: Sendable {
    public var standoffMeters: Double
    public var minSeparationLimitMeters: Double
    public var followingSeconds: Double
    public var samples: Int
    public var rmsStandoffErrorMeters: Double?
    public var p95StandoffErrorMeters: Double?
    public var minSeparationMeters: Double?
    /// When `minSeparationMeters` was first reached: the fix line's `t`, monotonic seconds.
    public var minSeparationAtSeconds: Double?
    /// Every fix pair's distance (latest target fix to latest onboard fix, metres) at the fix line's
    /// `t`, and whether the drone was airborne then (the pairs the minimum separation is taken over).
    public var distances: [(t: Double, meters: Double, airborne: Bool)] = []
    public var transitions: [(t: Double, to: String, reason: String)]
    public var finalState: String?

    /// Builds the report from the JSONL text of a flight log.
    public init(text: String, settleSeconds: Double = 10, defaultStandoffMeters: Double = 6,
                defaultMinSeparationMeters: Double = 3)
    {
        standoffMeters = defaultStandoffMeters
        minSeparationLimitMeters = defaultMinSeparationMeters
        transitions = []
        var plane: LocalPlane?
        var target: PlaneVector?, drone: PlaneVector?
        var state = "preflight"
        var followingSince: Double?
        var followingTotal = 0.0
        var errors: [Double] = []
        var minSep: Double?
        var lastT = 0.0
        let decoder = JSONDecoder()
        for line in text.split(separator: "\n") {
            let data = Data(line.utf8)
            guard let head = FlightLogHead.decode(data, with: decoder), let kind = head.kind, let t = head.t else { continue }
            lastT = t
            switch kind {
            case FlightStartRecord.kind:
                let start = try? decoder.decode(FlightStartRecord.self, from: data)
                standoffMeters = start?.standoffMeters ?? standoffMeters
                minSeparationLimitMeters = start?.minSeparationMeters ?? minSeparationLimitMeters
            case FlightTransitionRecord.kind:
                let transition = try? decoder.decode(FlightTransitionRecord.self, from: data)
                let to = transition?.to ?? "?"
                transitions.append((t, to, transition?.reason ?? "?"))
                if state == "following", let since = followingSince { followingTotal += t - since }
                state = to
                followingSince = to == "following" ? t : nil
            case FlightGPSRecord.kind:
                guard let gps = try? decoder.decode(FlightGPSRecord.self, from: data), let e = gps.event,
                      let role = e.role, let lat = e.lat, let lon = e.lon,
                      let c = GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon) else { continue }
                if gps.wasRefused { continue }
                if plane == nil { plane = LocalPlane(origin: c) }
                let p = plane!.project(c)
                if role == "target" { target = p } else { drone = p }
                guard let target, let drone else { continue }
                let d = (target - drone).length
                let airborne = ["taking-off", "climbing", "following"].contains(state) || state.hasPrefix("holding")
                    || state.hasPrefix("landing")
                distances.append((t, d, airborne))
                if airborne, d < (minSep ?? .infinity) { minSep = d; minSeparationAtSeconds = t }
                if state == "following", let since = followingSince, t - since >= settleSeconds {
                    errors.append(abs(d - standoffMeters))
                }
            default:
                break
            }
        }
        if state == "following", let since = followingSince { followingTotal += lastT - since }
        followingSeconds = followingTotal
        samples = errors.count
        minSeparationMeters = minSep
        finalState = transitions.last?.to
        if !errors.isEmpty {
            rmsStandoffErrorMeters = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
            let sorted = errors.sorted()
            p95StandoffErrorMeters = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.down)))]
        }
    }

    /// A few human-readable lines.
    public var text: String {
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f m", $0) } ?? "n/a" }
        var s = "flight report\n"
        s += "  following:          \(String(format: "%.1f", followingSeconds)) s (\(samples) fix pairs after settling)\n"
        s += "  standoff:           \(String(format: "%.1f", standoffMeters)) m\n"
        s += "  RMS standoff error: \(f(rmsStandoffErrorMeters))   p95: \(f(p95StandoffErrorMeters))\n"
        s += "  min separation:     \(f(minSeparationMeters)) (limit \(String(format: "%.1f", minSeparationLimitMeters)) m)"
        if let m = minSeparationMeters, m < minSeparationLimitMeters { s += "  ← BELOW THE LIMIT" }
        s += "\n  transitions:        " + transitions.map { "\($0.to) (\($0.reason))" }.joined(separator: " → ") + "\n"
        return s
    }
}
