import ArgumentParser
import Foundation
import FlightService
import FlightRecords
import Links

import FollowCore
import Logging

/// `followme gps`: watch both receivers live, like `cgps` for our two roles.
struct GPSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Show the target and onboard receivers live (through gpsd).",
        discussion: """
            Text mode shows one line per role (mode, position, eph, speed, track, heading, age, the fix
            rate the receiver delivers, the receiver's latency — how old its fixes are on arrival — and
            its source: "clock" (measured: gpsd TOFF or the fix time against a synchronised host clock)
            or "config" (latency_s, with why), what gpsd answered to the rate asked by rate_hz, and from
            gpsd's SKY the satellites used/in view and the HDOP).
            --json prints one JSON object per event:
              {"role":"target","device":…,"mode":3,"lat":…,"lon":…,"time":…,…,"age_s":…,"age_source":…,
               "age_reason":…,"rate_hz":…}
              {"role":"onboard","device":…,"heading":…}
              {"role":…,"event":"sky","device":…,"uSat":…,"nSat":…,"hdop":…,"vdop":…,"pdop":…}
              {"role":…,"event":"lost"|"connected"|"reconnected",…}
              {"role":…,"event":"rate","requested":"max","control":"accepted"|"not-supported"|…,
               "detail":…,"driver":…,"cycle_s":…,"mincycle_s":…,"rate_hz":…}
            "rate_hz" is the delivered rate (fixes per second, median of the last 20 intervals), present
            once 3 intervals were measured; a "rate" line comes whenever gpsd's answer changes and when
            the delivered rate is first known.
            """
    )

    @OptionGroup var configOption: ConfigOption

    @OptionGroup var output: LiveOutputOptions<GPSCommand>
    var json: Bool { output.json }
    var count: Int? { output.count }
    var timeout: Double? { output.timeout }

    func run() async throws {
        let config = loadConfigurationOrExit(path: configOption.config)
        var logger = Logger(label: "followme.gps")
        logger.logLevel = json ? .error : .warning
        let client = GPSClient(subscriptions: Self.subscriptions(for: config), logger: logger)
        client.start()
        defer { client.stop() }

        let board = StatusBoard(mountOffsetDegrees: config.follow.mountOffsetDegrees,
                                endpoints: Dictionary(uniqueKeysWithValues: Self.subscriptions(for: config).map { ($0.role, $0.endpoint) }),
                                interactive: !json && isatty(STDOUT_FILENO) == 1)
        let deadline = timeout.map { SystemClock.now().adding(seconds: $0) }
        let json = self.json, limit = count

        let reached: Bool = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                var fixes = 0
                var shownRates: [ReceiverRole: ReceiverRateReport] = [:]
                for await event in client.events {
                    let rate = client.rateReport(for: event.role)
                    let rateNews = Self.isNews(rate, after: shownRates[event.role])
                    shownRates[event.role] = rate
                    if json {
                        print(Self.jsonLine(event, deliveredHertz: rate.deliveredHertz))
                        if rateNews { print(Self.rateJSONLine(rate, role: event.role, at: SystemClock.now())) }
                        flushStandardOutput()
                    } else {
                        await board.update(event, rate: rate)
                    }
                    if case .fix = event {
                        fixes += 1
                        if let limit, fixes >= limit { return true }
                    }
                }
                return false
            }
            if !json {
                group.addTask {
                    while !Task.isCancelled {
                        await board.render()
                        try await Task.sleep(for: .milliseconds(200))
                    }
                    return false
                }
            }
            if let deadline {
                group.addTask {
                    let wait = max(0, deadline.seconds(since: SystemClock.now()))
                    try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                    return false
                }
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !json { await board.render(final: true) }
        if limit != nil && !reached {
            printError("followme gps: stopped before \(limit!) fixes arrived")
            throw ExitCode(1)
        }
    }

    /// True when `report` says something `previous` did not: gpsd's answer changed, or the
    /// delivered rate became known.
    static func isNews(_ report: ReceiverRateReport, after previous: ReceiverRateReport?) -> Bool {
        guard let previous else { return report.control != .notRequested || report.deliveredHertz != nil }
        return previous.control != report.control || (previous.deliveredHertz == nil && report.deliveredHertz != nil)
    }

    /// The event's JSON line, with the role's delivered rate added to fix lines (`"rate_hz"`).
    static func jsonLine(_ event: GPSEvent, deliveredHertz: Double?) -> String {
        let line = event.jsonLine()
        guard case .fix = event, let deliveredHertz, line.hasSuffix("}") else { return line }
        var extra = JSONLine()
        extra.add("rate_hz", (deliveredHertz * 100).rounded() / 100)
        return String(line.dropLast()) + "," + String(extra.string.dropFirst())
    }

    /// `{"role":…,"event":"rate",…}`: what was asked of gpsd, its answer, and the delivered rate.
    static func rateJSONLine(_ r: ReceiverRateReport, role: ReceiverRole, at: MonotonicTime) -> String {
        var j = JSONLine()
        j.add("role", role.rawValue)
        j.add("event", "rate")
        j.add("requested", "\(r.requested)")
        j.add("control", r.control.name)
        j.add("detail", r.control.detail)
        j.add("device", r.device)
        j.add("driver", r.driver)
        j.add("cycle_s", r.gpsdCycleSeconds)
        j.add("mincycle_s", r.gpsdMinCycleSeconds)
        j.add("rate_hz", r.deliveredHertz.map { ($0 * 100).rounded() / 100 })
        j.add("intervals", r.intervalsMeasured)
        j.add("rx", at.seconds)
        return j.string
    }

    /// One subscription per role, from `[target]` / `[onboard]` (each defaulting to `[gpsd]`), with how
    /// each ages its fixes (`latency_s`, `latency_source`).
    static func subscriptions(for config: FollowMeConfiguration) -> [ReceiverSubscription] {
        let (target, onboard) = config.receiverSubscriptions
        return [target, onboard]
    }
}

/// The live two-line display of `followme gps`.
actor StatusBoard {
    private struct Row {
        var fix: GPSFix?
        var heading: HeadingReport?
        var sky: SkyReport?
        var status = "waiting for gpsd"
        var rate: ReceiverRateReport?
    }

    private var rows: [ReceiverRole: Row] = [:]
    private var drawn = false
    private let mountOffsetDegrees: Double
    private let interactive: Bool

    /// Where each role's gpsd is, for the hint beside a lost connection.
    private let endpoints: [ReceiverRole: GPSDAddress]

    init(mountOffsetDegrees: Double, endpoints: [ReceiverRole: GPSDAddress], interactive: Bool) {
        self.endpoints = endpoints
        self.mountOffsetDegrees = mountOffsetDegrees
        self.interactive = interactive
    }

    func update(_ event: GPSEvent, rate: ReceiverRateReport? = nil) {
        var row = rows[event.role] ?? Row()
        if let rate { row.rate = rate }
        switch event {
        case .fix(let f):
            row.fix = f
            row.status = "fix"
        case .heading(let h):
            row.heading = h
        case .lost(let loss):
            switch loss.reason {
            case .noFix(let mode): row.status = "NO FIX (mode \(mode))"
            case .deviceDeactivated: row.status = "DEVICE GONE"
            case .connectionLost(let why): row.status = "GPSD LOST: \(why) — \(GPSDHint.unreachable(endpoints[event.role] ?? GPSDAddress(host: "127.0.0.1")))"
            }
        case .connected(_, let endpoint, let again, _):
            row.status = again ? "reconnected to \(endpoint)" : "connected to \(endpoint)"
        case .gpsdError(_, let message, _):
            row.status = "gpsd: \(message)" + (GPSDHint.forError(message).map { " — \($0)" } ?? "")
        case .sky(let sky):
            row.sky = sky
        }
        rows[event.role] = row
        if !interactive, case .fix = event { print(line(for: event.role, now: SystemClock.now())) }
        else if !interactive, case .lost = event { print(line(for: event.role, now: SystemClock.now())) }
    }

    /// `latency 150ms clock (gpsd TOFF)`, `latency 300ms config (host clock not synchronised)`.
    static func latencyText(_ age: FixAge) -> String {
        "latency \(Int((age.seconds * 1000).rounded()))ms \(age.source.name) (\(age.source.reason))"
    }

    func render(final: Bool = false) {
        guard interactive else { return }
        let now = SystemClock.now()
        var out = drawn ? "\u{1B}[2F" : ""
        for role in ReceiverRole.allCases { out += "\u{1B}[2K" + line(for: role, now: now) + "\n" }
        drawn = true
        print(out, terminator: "")
        flushStandardOutput()
    }

    private func line(for role: ReceiverRole, now: MonotonicTime) -> String {
        let row = rows[role] ?? Row()
        var s = role.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        if let f = row.fix {
            s += "mode \(f.mode.rawValue)D"
            s += String(format: " %11.7f %12.7f", f.coordinate.latitudeDegrees, f.coordinate.longitudeDegrees)
            s += f.ephMeters.map { String(format: " eph %5.1fm", $0) } ?? " eph    ? "
            s += f.speedMetersPerSecond.map { String(format: " %5.2fm/s", $0) } ?? "    ?m/s"
            s += f.trackDegrees.map { String(format: " trk %5.1f°", $0) } ?? " trk     ?"
            s += String(format: " age %4.1fs", now.seconds(since: f.receivedAt))
            s += row.rate?.deliveredHertz.map { String(format: " %4.1fHz", $0) } ?? "     ?Hz"
            if let age = f.age { s += " " + Self.latencyText(age) }
        } else {
            s += "no position"
        }
        if let h = row.heading {
            let nose = normalizedDegrees360(h.headingDegrees + mountOffsetDegrees)
            s += String(format: " hdg %5.1f° (nose %5.1f°, age %.1fs)", h.headingDegrees, nose,
                        now.seconds(since: h.receivedAt))
        }
        if let sky = row.sky,
           let quality = FlightStatusScreen.skyText(used: sky.satellitesUsed, visible: sky.satellitesVisible, hdop: sky.hdop) {
            s += " " + quality
        }
        if row.status != "fix" { s += "  [\(row.status)]" }
        if let rate = row.rate, rate.control != .notRequested {
            s += "  [rate \(rate.requested): \(rate.control.detail)]"
        }
        return s
    }
}

extension GPSCommand: LiveOutputHelp {
    static let jsonHelp = "Print one JSON object per event instead of the live display."
    static let countHelp = "Exit after this many position fixes (both roles together)."
    static let timeoutHelp = "Give up after this many seconds (exit 1 if --count was not reached)."
}
