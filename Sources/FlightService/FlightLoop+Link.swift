import FollowCore
import FlightRecords
import Logging
import Links

/// The log and the flight log of the drone link's telemetry and events (any link: docs/architecture.md
/// §3.2). What they mean to the flight is `FlightLoopCore`'s (DroneControl); this only says so.
extension FlightLoop {
    /// A navdata line at most twice a second.
    mutating func noteTelemetry(_ telemetry: DroneTelemetry, sequence: Int?, now: MonotonicTime) {
        guard now.seconds(since: lastNavdataLog) >= 0.5 else { return }
        lastNavdataLog = now
        record(FlightNavdataRecord {
            ($0.t, $0.seq, $0.flight) = (now.seconds, sequence, "\(telemetry.flightState)")
            ($0.battery, $0.alt, $0.yaw) = (telemetry.batteryPercent, telemetry.altitudeMeters, telemetry.yawDegrees)
            ($0.vx, $0.vy) = (telemetry.velocityBody?.forwardMetersPerSecond, telemetry.velocityBody?.rightMetersPerSecond)
            $0.emergency = telemetry.emergency
        }, now)
    }

    /// Logs and records `event`, which the core has handled (`step` is what it made of it).
    mutating func noteLink(_ event: LinkEvent, step: FlightLoopCore.Step, now: MonotonicTime) {
        /// A link line: `event` and what `fill` adds.
        func link(_ name: String, _ fill: (inout FlightLinkRecord) -> Void = { _ in }) {
            guard recorder != nil else { return }
            var r = FlightLinkRecord(t: now.seconds, event: name)
            fill(&r)
            record(r, now)
        }
        switch event {
        case .telemetry(let telemetry, let sequence):
            noteTelemetry(telemetry, sequence: sequence, now: now)
        case .onboard(let gps):
            guard gps.role == .onboard else {
                logger.error("link reported a non-onboard GPS event; dropped", metadata: ["role": "\(gps.role.rawValue)"])
                return
            }
            noteGPS(gps, step: step, now: now)
        case .connected(let wasFlying, let desiredFlying, _):
            logger.info("drone link connected", metadata: ["was-flying": "\(wasFlying)", "desired-flying": "\(desiredFlying)"])
            link("connected") { $0.wasFlying = wasFlying }
        case .telemetryLost:
            logger.warning("navdata lost")
            link("navdata-lost")
        case .telemetryRestored(let silence, _):
            logger.notice("navdata restored", metadata: ["silence-s": "\(silence)"])
            link("navdata-restored") { $0.silenceSeconds = silence }
        case .configurationAcknowledged(let key, let value, let attempts, _):
            link("config-ack") { ($0.key, $0.value, $0.attempts) = (key, value, attempts) }
        case .configurationFailed(let key, let value, let reason, _):
            // A write the drone did not acknowledge (AR.Drone) or a setting read and refused (an
            // autopilot's failsafe parameters): either way nothing flies until it passes.
            logger.error("drone configuration refused: no take-off until it passes",
                         metadata: ["key": "\(key)", "value": "\(value)", "reason": "\(reason)"])
            link("config-failed") { ($0.key, $0.reason) = (key, reason) }
        case .flyingCleared(let reason, _):
            link("flying-cleared") { $0.reason = reason }
        case .vehicleBraking(let acceleration, let jerk, _):
            let shortest = machine.shortestDefensibleStandoffMeters ?? 0
            logger.info("vehicle braking read", metadata: [
                "acceleration-mps2": "\(acceleration.map { "\($0)" } ?? "default")", "jerk-mps3": "\(jerk.map { "\($0)" } ?? "default")",
                "shortest-standoff-m": "\(shortest)"])
            if machine.followParameters.standoffMeters < shortest {
                logger.error("the vehicle brakes too softly for follow.standoff_m: no take-off", metadata: [
                    "standoff-m": "\(machine.followParameters.standoffMeters)", "needed-m": "\(shortest)"])
            }
            link("vehicle-braking") { $0.reason = "acceleration \(acceleration.map { "\($0)" } ?? "default") m/s², jerk \(jerk.map { "\($0)" } ?? "default") m/s³, shortest standoff \(shortest) m" }
        case .control(let inControl, let reason, _):
            if inControl {
                logger.notice("vehicle in control again", metadata: ["reason": "\(reason)"])
            } else {
                logger.error("vehicle not in control: holding, then landing", metadata: ["reason": "\(reason)"])
            }
            link(inControl ? "in-control" : "not-in-control") { $0.reason = reason }
        case .released(let mode, let reason, _):
            logger.warning("vehicle released: FollowMe commands nothing more", metadata: ["mode": "\(mode)", "reason": "\(reason)"])
            link("released") { $0.reason = reason }
        case .flightResumed(let frame, _):
            let rise = frame.personRiseMeters.map { "\($0)" } ?? "unknown"
            logger.notice("flight resumed: the previous run's home and the person's rise since take-off",
                          metadata: ["home": "\(frame.home)", "person-rise-m": "\(rise)"])
            link("flight-resumed") { $0.reason = "home \(frame.home), person rise \(rise) m" }
        case .socketClosed(let socket, let error, _):
            link("socket-closed") { ($0.socket, $0.error) = (socket, error) }
        case .socketReopened(let socket, let port, let samePort, let attempts, let down, _):
            link("socket-reopened") {
                ($0.socket, $0.localPort, $0.samePort, $0.attempts, $0.downSeconds) = (socket, port, samePort, attempts, down)
            }
        case .configurationPending(let reason, _):
            logger.warning("drone fell back to bootstrap navdata; configuring it again", metadata: ["reason": "\(reason)"])
            // The flight log's name for it since the AR.Drone link (docs/architecture.md §3.2).
            link("bootstrap-fallback") { $0.reason = reason }
        case .configurationComplete(let failedKeys, _):
            link("config-complete") { $0.failed = failedKeys.joined(separator: ",") }
        case .camera(let state, let reason, let at):
            // Said once per change by the link: "no camera" once, recording and stopped as they happen.
            statusTracker.noteCamera(state, reason: reason, at: at)
            let level: Logger.Level = state == .refused ? .warning : .notice
            logger.log(level: level, "camera \(state.rawValue)", metadata: ["camera": "\(state.rawValue)", "reason": "\(reason)"])
            link("camera") { ($0.value, $0.reason) = (state.rawValue, reason) }
        case .notice(let text, let severity, _):
            logger.log(level: Self.logLevel(severity: severity), "drone notice",
                       metadata: ["text": "\(text)", "severity": "\(severity.map(String.init) ?? "none")"])
            link("notice") { $0.reason = text }
        case .statistics(let statistics):
            statusTracker.note(statistics, now: now)
            let dropped = Self.droppedLogLines(recorder: recorder, logWriter: options.logWriter)
            let navigator = machine.navigator
            let target = machine.target.statistics, onboard = machine.drone.statistics
            link("statistics") { r in
                r.link = LinkStatisticsRecord(statistics)
                r.dropped = dropped
                r.headingReportsRejected = navigator.rejectedHeadingReports
                r.headingReanchored = navigator.reanchoredHeadings
                if machine.followParameters.altitudeMode == .person {
                    r.targetAltitudeSpikesRejected = machine.personAltitude.spikesRejected
                }
                r.targetFixes = FixScreenRecord(target)
                r.onboardFixes = FixScreenRecord(onboard)
            }
        }
    }

    /// The log level of a link notice: `severity` on the syslog scale (MAVLink's `MAV_SEVERITY`:
    /// 0 emergency … 3 error, 4 warning, 5 notice, 6 info, 7 debug); none = notice.
    static func logLevel(severity: Int?) -> Logger.Level {
        switch severity {
        case .some(...3): .error
        case 4: .warning
        case 6: .info
        case .some(7...): .debug
        default: .notice
        }
    }

    /// Log lines (stderr) and flight-log lines dropped because their writer could not keep up,
    /// and log lines still waiting for a stalled stderr.
    static func droppedLogLines(recorder: FlightRecorder?, logWriter: LogWriter?) -> DroppedLogLinesRecord {
        let log = logWriter?.counters
        return DroppedLogLinesRecord(
            logLines: log?[.dropped] ?? 0,
            logLinesWaiting: log.map { $0[.enqueued] - $0[.written] - $0[.writeErrors] } ?? 0,
            flightLogLines: recorder?.droppedLines ?? 0)
    }
}

extension LinkStatisticsRecord {
    /// The link counters a flight log reader needs (what was sent, what telemetry was dropped and
    /// why), under the log's historical navdata names (the JSON keys do not change).
    init(_ s: LinkStatistics) {
        self.init()
        datagramsSent = s.counts[.datagramsSent]
        commandsSent = s.counts[.commandsSent]
        navdataRead = s.counts[.telemetryDatagramsRead]
        navdataReceived = s.counts[.telemetryReceived]
        droppedUnexpectedSource = s.counts[.droppedUnexpectedSource]
        droppedMalformed = s.counts[.droppedMalformed]
        droppedSequence = s.counts[.droppedSequence]
        sequenceRestarts = s.counts[.sequenceRestarts]
        navdataLosses = s.counts[.telemetryLosses]
        navdataRateHz = s.telemetryRateHz
        ticksLate = s.counts[.ticksLate]
        maxTickLatenessSeconds = s.maxTickLatenessSeconds
        sendFailures = s.counts[.sendFailures]
        eventsDropped = s.counts[.eventsDropped]
        socketsClosed = s.counts[.socketsClosed]
        socketsReopened = s.counts[.socketsReopened]
        bootstrapRedos = s.counts[.bootstrapRedos]
    }
}

extension FixScreenRecord {
    /// What the fix screen refused so far, per receiver (`<role>_fixes_…`).
    init(_ s: FixStatistics) {
        self.init(counts: [s[.accepted], s[.rejectedOutliers], s[.rejectedFutureTimes], s[.ignoredStale], s[.refusedInaccurate],
                           s[.clockReanchors]])
    }
}
