import Foundation

/// The full-screen text of `followme watch`: a status (or why there is none) and a terminal size
/// in, the exact lines out. Pure (no clock, no terminal): the shell adds cursor movement and the
/// ages it measured, the tests compare lines.
public enum FlightStatusScreen {
    /// What the watcher knows.
    public enum View: Sendable, Hashable {
        /// No status to show: the flight is not running, or it went away. `problem` says why
        /// (`connect: No such file or directory`), `waitingSeconds` how long the watcher has waited,
        /// `lastSeen` the last status of a flight that went away.
        case waiting(socketPath: String, problem: String, waitingSeconds: Double, lastSeen: FlightStatus? = nil)
        /// The latest status, which arrived `receivedSecondsAgo` ago.
        case live(FlightStatus, socketPath: String, receivedSecondsAgo: Double)
    }

    /// A status older than this is marked stale on the screen, seconds: our choice, eight missed
    /// updates at the publisher's 4 Hz (a flight loop busy for that long is worth seeing).
    public static let staleAfterSeconds = 2.0
    /// The width of the label column.
    static let labelWidth = 10

    /// The screen for `view` on a terminal of `columns` × `rows`: at most `rows` lines, none wider
    /// than `columns` (longer ones are cut), the transitions list shortened first to fit.
    public static func lines(_ view: View, columns: Int, rows: Int) -> [String] {
        let body: [String]
        let footer = "L lands · H holds · R resumes · q or Ctrl-C quits · the flight does not depend on this view"
        switch view {
        case .waiting(let path, let problem, let waiting, let last):
            body = [
                header(path: path, right: "", columns: columns),
                "",
                row("WAITING", "for `followme run` to publish its status on"),
                row("", path),
                row("", problem),
                row("", "retrying every 0.5 s · waiting " + duration(waiting)),
            ] + (last.map { [
                "",
                row("LAST SEEN", "\(pad($0.state, 32))at flight time \(clock($0.flightSeconds))" + ($0.reason.map { " · \($0)" } ?? "")),
            ] } ?? []) + [
                "",
                row("", "(start the flight, or point --socket at its [status] socket)"),
            ]
        case .live(let status, let path, let ago):
            body = liveLines(status, path: path, receivedSecondsAgo: ago, columns: columns, rows: rows - 2)
        }
        let all = body + ["", footer]
        // Keep the header and the footer; cut the body from the bottom if the terminal is short.
        let fitted = all.count <= rows ? all : Array(body.prefix(max(rows - 1, 1))) + (rows > 1 ? [footer] : [])
        return fitted.prefix(max(rows, 0)).map { cut($0, to: columns) }
    }

    /// The lines of a live status; the transition list takes what `rows` leaves.
    static func liveLines(_ s: FlightStatus, path: String, receivedSecondsAgo ago: Double, columns: Int, rows: Int) -> [String] {
        let updated = ago > staleAfterSeconds
            ? "NO UPDATE for \(duration(ago))" : "updated \(seconds(ago, 1)) ago"
        var out = [header(path: path, right: "flight \(clock(s.flightSeconds)) · \(updated)", columns: columns), ""]
        var state = s.state + (s.dryRun ? "   [dry run: nothing that moves the drone is sent]" : "")
        if let since = s.stateSinceT { state = pad(state, 44) + "for " + duration(s.t - since) }
        out.append(row("STATE", state))
        out.append(row("REASON", s.reason ?? "-"))
        if let waiting = s.waiting, !waiting.isEmpty { out.append(row("WAITING", waiting.joined(separator: ", "))) }
        if let o = s.operatorCommand {
            let outcome = o.outcome.hasPrefix("refused") || o.outcome == "rate-limited" || o.outcome == "no-flight"
                ? o.outcome.uppercased() : o.outcome
            out.append(row("OPERATOR", "\(o.command.uppercased()) \(outcome) · from \(o.source) · \(duration(max(0, s.t - o.t))) ago"))
        }
        if let follow = s.follow { out.append(row("MODE", follow.summary)) }
        out += pairRows("PERSON", columns: columns, [
            ("distance", s.person.map { meters($0.distanceMeters) } ?? "-"),
            ("standoff", s.standoffMeters.map { meters($0) } ?? "-"),
            ("bearing", s.person.map { compass($0.bearingDegrees) } ?? "-"),
            ("off nose", s.person?.relativeBearingDegrees.map(signedDegrees) ?? "-"),
        ])
        out += pairRows("DRONE", columns: columns, [
            ("heading", s.headingDegrees.map(compass) ?? "-"),
            ("altitude", s.altitudeMeters.map { meters($0) } ?? "-"),
            ("battery", s.batteryPercent.map { String(format: "%.0f %%", $0) } ?? "-"),
            ("navdata", (s.droneState ?? "-") + (s.emergency == true ? " EMERGENCY" : "")),
        ])
        if let wind = s.wind { out.append(row("WIND", windText(wind))) }
        out += pairRows("LINK", columns: columns, [
            ("navdata", s.navdataHertz.map { String(format: "%.1f Hz", $0) } ?? "-"),
            ("commands", s.commandsPerSecond.map { String(format: "%.1f /s", $0) } ?? "-"),
            ("navdata age", s.navdataAgeSeconds.map { seconds($0, 1) } ?? "-"),
            ("heading age", s.headingAgeSeconds.map { seconds($0, 1) } ?? "-"),
        ])
        out.append("")
        out.append(row("RECEIVER", pad("mode", 6) + pad("eph", 10) + pad("age", 10) + "position"))
        out.append(receiverRow("target", s.target, latency: latencyText(s.targetLatencyMilliseconds, s.targetLatencySource)))
        out.append(receiverRow("onboard", s.onboard, latency: latencyText(s.onboardLatencyMilliseconds, s.onboardLatencySource)))
        out.append("")
        // What is left for the transitions (the footer and its blank line take 2).
        let room = rows - out.count - 1
        let shown = room > 0 ? Array(s.transitions.suffix(room)) : []
        out.append(row("CHANGES", shown.isEmpty && s.transitions.isEmpty ? "none yet" : "flight    ago       state                           reason"))
        let stateWidth = 32
        for t in shown {
            let to = t.to.count > stateWidth - 2 ? String(t.to.prefix(stateWidth - 3)) + "…" : t.to
            out.append(String(repeating: " ", count: labelWidth) + pad(clock(t.t - s.t + s.flightSeconds), 10)
                       + pad(duration(s.t - t.t), 10) + pad(to, stateWidth) + t.reason)
        }
        return out
    }

    /// `4.2 m/s → 090° E, 70 % of tilt`, and in capitals, as the screen's other warnings, when it
    /// is near the tilt limit (`FlightStatus.Wind.isWarning`) or the saturation clock runs.
    static func windText(_ w: FlightStatus.Wind) -> String {
        let text = String(format: "%.1f m/s → ", w.windMetersPerSecond) + compass(w.windTowardsDegrees)
            + String(format: ", %.0f %% of tilt", w.windAuthority * 100)
        if w.saturatedSeconds > 0 { return text + "   SATURATED " + seconds(w.saturatedSeconds, 1) }
        return text + (w.isWarning ? "   NEAR THE TILT LIMIT" : "")
    }

    /// `latency 150 ms (clock)`: how old the receiver's fixes are on arrival and where that comes from; nil without it.
    static func latencyText(_ milliseconds: Double?, _ source: String?) -> String? {
        guard let milliseconds else { return nil }
        return String(format: "latency %.0f ms", milliseconds) + (source.map { " (\($0))" } ?? "")
    }

    static func receiverRow(_ role: String, _ r: FlightStatus.ReceiverStatus?, latency: String? = nil) -> String {
        guard let r else { return row(role, "no fix yet") }
        var text = pad(r.mode.map { "\($0)D" } ?? "-", 6) + pad(r.ephMeters.map { meters($0) } ?? "-", 10)
            + pad(r.ageSeconds.map { seconds($0, 1) } ?? "-", 10)
        if let lat = r.latitudeDegrees, let lon = r.longitudeDegrees {
            text += String(format: "%.6f° %@  %.6f° %@", abs(lat), lat < 0 ? "S" : "N", abs(lon), lon < 0 ? "W" : "E")
        }
        if let lost = r.lost { text += (r.latitudeDegrees == nil ? "" : "   ") + "LOST: \(lost)" }
        if let quality = skyText(used: r.satellitesUsed, visible: r.satellitesVisible, hdop: r.hdop) { text += "   " + quality }
        if let latency { text += "   " + latency }
        return row(role, text)
    }

    /// `sats 7/12 hdop 1.1` (used/in view; `?` for what the receiver did not say), nil without a SKY.
    public static func skyText(used: Int?, visible: Int?, hdop: Double?) -> String? {
        guard used != nil || visible != nil || hdop != nil else { return nil }
        let count = { (n: Int?) in n.map(String.init) ?? "?" }
        return "sats \(count(used))/\(count(visible)) hdop " + (hdop.map { String(format: "%.1f", $0) } ?? "?")
    }

    /// `FollowMe watch · PATH`, and `right` (flight time, freshness) at the right edge; a long path
    /// is shortened from its start so `right` stays visible.
    static func header(path: String, right: String, columns: Int) -> String {
        let title = "FollowMe watch · "
        guard !right.isEmpty else { return title + path }
        let room = max(columns, 60) - right.count - 2 - title.count
        let shown = path.count <= room ? path : "…" + path.suffix(max(room - 1, 0))
        return pad(title + shown, max(columns, 60) - right.count - 1) + " " + right
    }

    /// `LABEL     text`, the label in a column of `labelWidth`.
    static func row(_ label: String, _ text: String) -> String { pad(label, labelWidth) + text }

    /// `LABEL     name value  name value …`: label/value pairs in fixed columns (each name 9 wide,
    /// each value 12), as many to a line as fit in `columns`, the rest on indented lines below.
    static func pairRows(_ label: String, columns: Int, _ pairs: [(String, String)]) -> [String] {
        var lines: [String] = []
        var line = ""
        for (name, value) in pairs {
            let field = pad(name, 9) + " " + pad(value, 12)
            let candidate = line.isEmpty ? field : line + " " + field
            if !line.isEmpty, labelWidth + candidate.trimmingTrailingSpaces.count > columns {
                lines.append(line)
                line = field
            } else {
                line = candidate
            }
        }
        lines.append(line)
        return lines.enumerated().map { row($0.offset == 0 ? label : "", $0.element).trimmingTrailingSpaces }
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    static func cut(_ s: String, to columns: Int) -> String {
        let trimmed = s.trimmingTrailingSpaces
        return trimmed.count <= columns ? trimmed : String(trimmed.prefix(max(columns, 0)))
    }

    /// `+12°`, `-3°`, `0°` (never `-0°`).
    static func signedDegrees(_ d: Double) -> String {
        let whole = Int(d.rounded())
        return whole == 0 ? "0°" : String(format: "%+d°", whole)
    }

    static func meters(_ m: Double) -> String { String(format: "%.1f m", m) }
    static func seconds(_ s: Double, _ digits: Int) -> String { String(format: "%.\(digits)f s", max(s, 0)) }

    /// `12 s`, `3 min 04 s`, `1 h 02 min`: how long, to the second.
    static func duration(_ s: Double) -> String {
        let whole = Int(max(s, 0).rounded(.down))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, (whole % 3600) / 60)
    }

    /// Flight time as `mm:ss` (`h:mm:ss` from an hour on).
    static func clock(_ s: Double) -> String {
        let whole = Int(max(s, 0).rounded(.down))
        return whole < 3600 ? String(format: "%02d:%02d", whole / 60, whole % 60)
            : String(format: "%d:%02d:%02d", whole / 3600, (whole % 3600) / 60, whole % 60)
    }

    /// `213° SW`: a compass bearing with its eight-wind point.
    static func compass(_ degrees: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let whole = ((Int(degrees.rounded()) % 360) + 360) % 360
        return String(format: "%03d° ", whole) + points[((whole * 2 + 45) / 90) % 8]
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
