import Foundation
import FollowCore

extension FlightTimeline {
    /// The timeline of a JSONL flight log (`followme run --flight-log`), for `followme report`.
    ///
    /// The scores, the distance series and the flight states are `FlightLogReport`'s (so the page
    /// says what `followme log report` says: distance = latest person fix to latest drone fix,
    /// RMS over `following` after `settleSeconds`, closest approach while airborne). The rest is
    /// read from the same record types (FlightLogRecord.swift): fixes (positions on a `LocalPlane`
    /// anchored at the first fix, as `FlightLog.plot` does; gpsd's speed, else the change of
    /// position), navdata (altitude, battery), commands (PCMD; a hover is 0 on every axis), and the
    /// shutdown and link events as markers. Times are seconds since the log's first line.
    ///
    /// Fix age is drawn as its peaks: at each fix, the seconds since that receiver's previous fix
    /// (how stale it had become), and at the end, the age of the last fix.
    ///
    /// Throws `FlightTimelineError.notAFlightLog` if no line is a flight-log record (`t` and `kind`).
    public init(flightLogText text: String, title: String, settleSeconds: Double = 10) throws(FlightTimelineError) {
        var reader = FlightLogTimelineReader()
        reader.read(text)
        guard reader.recordCount > 0 else {
            throw .notAFlightLog(lines: reader.lineCount, malformedLines: reader.malformedLines.count)
        }
        let report = FlightLogReport(text: text, settleSeconds: settleSeconds)
        let t0 = reader.firstSeconds ?? 0
        func rel(_ t: Double) -> Double { t - t0 }
        let end = rel(reader.lastSeconds ?? t0)

        self.init(title: title)
        endSeconds = end
        logStartSeconds = t0
        standoffMeters = report.standoffMeters
        minSeparationMeters = report.minSeparationLimitMeters
        scores = Scores(
            rmsStandoffErrorMeters: report.rmsStandoffErrorMeters, rmsSamples: report.samples,
            closestApproachMeters: report.minSeparationMeters, closestApproachAtSeconds: report.minSeparationAtSeconds.map(rel),
            followingSeconds: report.followingSeconds,
            method: "As `followme log report`: distance between the latest person fix and the latest drone fix "
                + "(what the two receivers say, their errors included); RMS of |distance − standoff| while following, "
                + "from \(fixedOne(settleSeconds)) s after each start of following; closest approach while airborne.")
        states = Self.stateSpans(transitions: report.transitions.map { (rel($0.t), $0.to, $0.reason) }, endSeconds: end)
        markers = reader.markers.map { Marker(t: rel($0.t), label: $0.label) }
        distance = report.distances.map { Sample(t: rel($0.t), value: $0.meters) }

        let plane = reader.fixes.first.map { LocalPlane(origin: $0.coordinate) }
        for role in ["target", "onboard"] {
            let fixes = reader.fixes.filter { $0.role == role }
            let track = plane.map { plane in fixes.map { TrackPoint(t: rel($0.t), plane: plane.project($0.coordinate)) } } ?? []
            var speeds: [Sample] = [], ages: [Sample] = []
            for (i, fix) in fixes.enumerated() {
                if let speed = fix.speedMetersPerSecond {
                    speeds.append(Sample(t: rel(fix.t), value: speed))
                } else if i > 0, fix.t - fixes[i - 1].t > 0 {
                    let moved = (track[i].plane - track[i - 1].plane).length
                    speeds.append(Sample(t: rel(fix.t), value: moved / (fix.t - fixes[i - 1].t)))
                }
                if i > 0 { ages.append(Sample(t: rel(fix.t), value: fix.t - fixes[i - 1].t)) }
            }
            if let last = fixes.last { ages.append(Sample(t: end, value: max(0, end - rel(last.t)))) }
            if role == "target" {
                (personTrack, personSpeed, targetFixAge) = (track, speeds, ages)
            } else {
                (droneTrack, droneSpeed, onboardFixAge) = (track, speeds, ages)
            }
        }
        altitude = reader.altitude.map { Sample(t: rel($0.t), value: $0.value) }
        battery = reader.battery.map { Sample(t: rel($0.t), value: $0.value) }
        pcmdRoll = reader.pcmd.map { Sample(t: rel($0.t), value: $0.roll) }
        pcmdPitch = reader.pcmd.map { Sample(t: rel($0.t), value: $0.pitch) }
        pcmdGaz = reader.pcmd.map { Sample(t: rel($0.t), value: $0.gaz) }
        pcmdYaw = reader.pcmd.map { Sample(t: rel($0.t), value: $0.yaw) }
        wind = reader.wind.map { Sample(t: rel($0.t), value: $0.value) }
        windAuthorityMetersPerSecond = reader.windAuthorityMetersPerSecond
        let series = reader.quality
        let fixTimes = { (role: String) in reader.fixes.filter { $0.role == role }.map { (t: $0.t, ephMeters: $0.ephMeters) } }
        targetQuality = series.receiverQuality(role: "target", fixes: fixTimes("target"), start: t0, end: t0 + end)
        onboardQuality = series.receiverQuality(role: "onboard", fixes: fixTimes("onboard"), start: t0, end: t0 + end)
        linkRates = series.linkRates(start: t0, end: t0 + end)

        let target = reader.fixes.filter { $0.role == "target" }.count
        notes = [
            "\(reader.lineCount) log lines, \(fixedOne(end)) s; \(target) person fixes, "
                + "\(reader.fixes.count - target) drone fixes, \(reader.altitude.count) navdata, \(reader.pcmd.count) commands",
            "standoff \(fixedOne(report.standoffMeters)) m, min separation \(fixedOne(report.minSeparationLimitMeters)) m"
                + (reader.start?.dryRun == true ? "; DRY RUN (nothing flew)" : ""),
        ]
        if let first = reader.firstFixTime {
            notes.append("first fix \(first.utc) (receiver time) at \(fixedOne(rel(first.t))) s")
        }
        if let version = reader.start?.softwareVersion {
            notes.append("followme \(version)" + (reader.start?.configPath.map { ", config \($0)" } ?? ""))
        }
        configurationText = reader.start?.config
        if !reader.malformedLines.isEmpty {
            notes.append("\(reader.malformedLines.count) malformed line(s) skipped, first at line \(reader.malformedLines[0])")
        }
    }
}

/// Why a file cannot be drawn as a flight.
public enum FlightTimelineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not one line is a flight-log record (a JSON object with `t` and `kind`).
    case notAFlightLog(lines: Int, malformedLines: Int)

    public var description: String {
        switch self {
        case let .notAFlightLog(lines, malformed):
            "not a flight log: none of its \(lines) line\(lines == 1 ? "" : "s") is a record with \"t\" and \"kind\""
                + (malformed > 0 ? " (\(malformed) not JSON objects)" : "")
        }
    }
}

private func fixedOne(_ x: Double) -> String { String(format: "%.1f", x) }

/// One pass over a flight log's lines, decoding the record kinds the timeline draws.
struct FlightLogTimelineReader {
    struct Fix {
        var t: Double
        var role: String
        var coordinate: GeoCoordinate
        var speedMetersPerSecond: Double?
        /// gpsd's horizontal error estimate, metres.
        var ephMeters: Double? = nil
    }

    struct Value {
        var t: Double
        var value: Double
    }

    struct Command {
        var t: Double
        var roll = 0.0, pitch = 0.0, gaz = 0.0, yaw = 0.0
    }

    var firstSeconds: Double?
    var lastSeconds: Double?
    var lineCount = 0
    /// Lines with `t` and `kind`.
    var recordCount = 0
    var malformedLines: [Int] = []
    var fixes: [Fix] = []
    var altitude: [Value] = []
    var battery: [Value] = []
    var pcmd: [Command] = []
    /// The commands' `wind_mps`, and the tilt authority they imply (`wind_mps / wind_authority`,
    /// the same for every line of a flight: the last one with a wind of at least 0.1 m/s).
    var wind: [Value] = []
    var windAuthorityMetersPerSecond: Double?
    var markers: [(t: Double, label: String)] = []
    /// The start record (parameters, version, config), if the log has one.
    var start: FlightStartRecord?
    /// The first fix with a receiver time: its line's `t` and that UTC time (ISO 8601).
    var firstFixTime: (t: Double, utc: String)?
    /// The receivers' SKY reports and losses, and the link's statistics and navdata losses (for
    /// the GPS uncertainty and link charts: FlightLogQualitySeries.swift).
    var quality = FlightLogQualitySeries()

    /// Link events worth a marker on the charts.
    static let markedLinkEvents: Set<String> = ["navdata-lost", "navdata-restored", "socket-closed", "bootstrap-fallback"]

    mutating func read(_ text: String) {
        let decoder = JSONDecoder()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            lineCount += 1
            let data = Data(line.utf8)
            guard let head = FlightLogHead.decode(data, with: decoder) else { malformedLines.append(index + 1); continue }
            guard let t = head.t, let kind = head.kind else { continue }
            recordCount += 1
            firstSeconds = firstSeconds ?? t
            lastSeconds = max(lastSeconds ?? t, t)
            read(kind: kind, t: t, data: data, decoder: decoder)
        }
    }

    private mutating func read(kind: String, t: Double, data: Data, decoder: JSONDecoder) {
        switch kind {
        case FlightStartRecord.kind:
            start = try? decoder.decode(FlightStartRecord.self, from: data)
        case FlightGPSRecord.kind:
            guard let event = (try? decoder.decode(FlightGPSRecord.self, from: data))?.event, let role = event.role else { return }
            if event.event == "lost", !fixes.isEmpty { markers.append((t, "\(role) receiver lost (\(event.reason ?? "?"))")) }
            quality.note(event, role: role, t: t)
            guard let lat = event.lat, let lon = event.lon,
                  let coordinate = GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon) else { return }
            fixes.append(Fix(t: t, role: role, coordinate: coordinate, speedMetersPerSecond: event.speed, ephMeters: event.eph))
            if firstFixTime == nil, let time = event.time { firstFixTime = (t, time) }
        case FlightNavdataRecord.kind:
            guard let navdata = try? decoder.decode(FlightNavdataRecord.self, from: data) else { return }
            if let alt = navdata.alt { altitude.append(Value(t: t, value: alt)) }
            if let percent = navdata.battery { battery.append(Value(t: t, value: percent)) }
        case FlightCommandRecord.kind:
            guard let command = try? decoder.decode(FlightCommandRecord.self, from: data) else { return }
            pcmd.append(Command(t: t, roll: command.roll ?? 0, pitch: command.pitch ?? 0, gaz: command.gaz ?? 0,
                                yaw: command.yaw ?? 0))
            if let speed = command.windMetersPerSecond, speed.isFinite {
                wind.append(Value(t: t, value: speed))
                // Below 0.1 m/s the ratio is mostly rounding (our choice of cut-off).
                if let share = command.windAuthority, share > 0, speed >= 0.1 { windAuthorityMetersPerSecond = speed / share }
            }
        case FlightShutdownRecord.kind:
            markers.append((t, "SIGTERM/SIGINT: shutdown"))
        case FlightLinkRecord.kind:
            guard let link = try? decoder.decode(FlightLinkRecord.self, from: data), let event = link.event else { return }
            quality.note(link, t: t)
            guard Self.markedLinkEvents.contains(event) else { return }
            markers.append((t, "link: \(event)"))
        default:
            break
        }
    }
}
