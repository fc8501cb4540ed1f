import FlightService
import FollowCore
import Foundation
import MAVLink
import Links
import FlightRecords

/// `followme drone status` on a MAVLink vehicle: prints the session's events (JSON lines, or the
/// live line at most once a second when not on a terminal) until the link stops or `limit`
/// telemetry packets arrived. Nothing is sent to the vehicle but the link's heartbeats and message
/// rates (it never arms, and it adopts a flying vehicle: `MAVLinkDroneSession`).
func printMAVLinkEvents(of session: MAVLinkDroneSession, json: Bool, interactive: Bool, limit: Int?) async -> StatusOutcome {
    var outcome = StatusOutcome()
    var printer = LiveLinePrinter(interactive: interactive)
    var statistics = LinkStatistics()
    var linkState = "waiting for telemetry"
    for await event in session.events {
        if case .telemetry = event {
            outcome.navdataCount += 1
            await session.refresh()
        }
        if json, let line = event.statusJSON(vehicle: session.snapshot.vehicle, modeName: session.modeName) {
            print(line)
            flushStandardOutput()
        }
        switch event {
        case .statistics(let snapshot): statistics = snapshot
        case .connected: linkState = "connected"
        case .telemetryLost: linkState = "TELEMETRY LOST"
        case .telemetryRestored: linkState = "restored"
        default: break
        }
        let observed = session.snapshot
        if !json {
            printer.show(hasData: observed.telemetry != nil) {
                mavlinkStatusLine(observed, mode: session.modeName(observed.vehicle), statistics: statistics,
                                  linkState: linkState, now: $0)
            }
        }
        if outcome.reached(limit) { return outcome }
    }
    return outcome
}

/// The live line: state, mode, armed, battery, attitude, telemetry rate and age, drops, alarms, link state.
private func mavlinkStatusLine(_ observed: MAVLinkDroneSession.Observed, mode: String, statistics: LinkStatistics,
                               linkState: String, now: MonotonicTime) -> String {
    guard let t = observed.telemetry else { return "[\(linkState)]" }
    var line = t.flightState.statusName.padding(toLength: 10, withPad: " ", startingAt: 0)
    line += " \(mode) \(observed.vehicle.isArmed ? "armed" : "disarmed")"
    line += observed.vehicle.batteryPercent.map { String(format: " bat %3.0f%%", $0) } ?? " bat   ?%"
    line += String(format: " alt %5.2f m pitch %6.2f° roll %6.2f° yaw %7.2f°", t.altitudeMeters, t.pitchDegrees ?? .nan,
                   t.rollDegrees ?? .nan, t.yawDegrees ?? .nan)
    line += String(format: "  telemetry %4.1f Hz age %.1fs", statistics.telemetryRateHz, now.seconds(since: t.receivedAt))
    line += "  drops src \(statistics.counts[.droppedUnexpectedSource]) seq \(statistics.counts[.droppedSequence]) bad \(statistics.counts[.droppedMalformed])"
    if t.emergency { line += "  [EMERGENCY]" }
    if linkState != "connected" && linkState != "restored" { line += "  [\(linkState)]" }
    return line
}

extension LinkEvent {
    /// The event as one JSON object for `status --json` on a MAVLink vehicle: the AR.Drone's event
    /// names and fields where they mean the same (`DroneLinkEvent.jsonLine`; telemetry is "navdata",
    /// as in the flight log), plus the autopilot's own (mode, armed, system and landed state, notices).
    /// nil for the autopilot's onboard fixes (their position is in the telemetry line).
    func statusJSON(vehicle: VehicleState, modeName: (VehicleState) -> String) -> String? {
        var j = JSONLine()
        switch self {
        case .telemetry(let t, let sequence):
            j.add("event", "navdata")
            j.add("rx", t.receivedAt.seconds)
            if let sequence { j.add("seq", sequence) }
            j.add("ctrl_state", t.flightState.statusName.lowercased())
            // The last known SYS_STATUS level; none yet: left out (the core reads unknown as 0 %, docs/mavlink.md §7.2).
            if let battery = vehicle.batteryPercent { j.add("battery_pct", Int(battery.rounded())) }
            j.add("alt_m", t.altitudeMeters)
            if let pitch = t.pitchDegrees { j.add("pitch_deg", pitch) }
            if let roll = t.rollDegrees { j.add("roll_deg", roll) }
            if let yaw = t.yawDegrees { j.add("yaw_deg", yaw) }
            if let v = t.velocityBody {
                j.add("vx_mps", v.forwardMetersPerSecond)
                j.add("vy_mps", v.rightMetersPerSecond)
            }
            j.add("mode", modeName(vehicle))
            j.add("armed", vehicle.isArmed)
            j.add("system_status", MAVLinkDroneSession.systemStatusName(vehicle))
            j.add("landed_state", MAVLinkDroneSession.landedStateName(vehicle))
            j.add("emergency", t.emergency)
            if let position = vehicle.position {
                j.add("lat", position.latitudeLongitude.latitudeDegrees)
                j.add("lon", position.latitudeLongitude.longitudeDegrees)
            }
            return j.string
        case .statistics(let s):
            j.add("event", "statistics")
            j.add("navdata_hz", s.telemetryRateHz)
            // The AR.Drone's counter names for the same counters (DroneLinkEvent+JSON.swift).
            let counters: [(String, LinkStatistics.Counter)] = [
                ("navdata_received", .telemetryReceived), ("dropped_source", .droppedUnexpectedSource),
                ("dropped_sequence", .droppedSequence), ("dropped_malformed", .droppedMalformed),
                ("navdata_losses", .telemetryLosses), ("datagrams_sent", .datagramsSent), ("commands_sent", .commandsSent),
                ("send_failures", .sendFailures), ("ticks_late", .ticksLate),
            ]
            for (key, counter) in counters { j.add(key, s.counts[counter]) }
            return j.string
        case .onboard:
            return nil
        case .connected(let wasFlying, let desiredFlying, let at):
            j.add("event", "connected"); j.add("drone_was_flying", wasFlying); j.add("desired_flying", desiredFlying)
            j.add("rx", at.seconds)
        case .telemetryLost(let last, let at):
            j.add("event", "navdata-lost"); j.add("silence_s", at.seconds(since: last)); j.add("rx", at.seconds)
        case .telemetryRestored(let silence, let at):
            j.add("event", "navdata-restored"); j.add("silence_s", silence); j.add("rx", at.seconds)
        case .configurationAcknowledged(let key, let value, let attempts, let at):
            j.add("event", "config-ack"); j.add("key", key); j.add("value", value); j.add("attempts", attempts)
            j.add("rx", at.seconds)
        case .configurationFailed(let key, let value, let reason, let at):
            j.add("event", "config-failed"); j.add("key", key); j.add("value", value); j.add("reason", reason)
            j.add("rx", at.seconds)
        case .configurationPending(let reason, let at):
            j.add("event", "config-pending"); j.add("reason", reason); j.add("rx", at.seconds)
        case .configurationComplete(let failedKeys, let at):
            j.add("event", "config-complete"); j.add("failed", failedKeys.joined(separator: ",")); j.add("rx", at.seconds)
        case .flyingCleared(let reason, let at):
            j.add("event", "desired-flying-cleared"); j.add("reason", reason); j.add("rx", at.seconds)
        case .vehicleBraking(let acceleration, let jerk, let at):
            j.add("event", "vehicle-braking"); j.add("acceleration_mps2", acceleration); j.add("jerk_mps3", jerk); j.add("rx", at.seconds)
        case .control(let inControl, let reason, let at):
            j.add("event", inControl ? "in-control" : "not-in-control"); j.add("reason", reason); j.add("rx", at.seconds)
        case .released(let mode, let reason, let at):
            j.add("event", "released"); j.add("mode", mode); j.add("reason", reason); j.add("rx", at.seconds)
        case .flightResumed(let frame, let at):
            j.add("event", "flight-resumed"); j.add("home_lat", frame.home.latitudeDegrees); j.add("home_lon", frame.home.longitudeDegrees)
            j.add("person_rise_m", frame.personRiseMeters); j.add("rx", at.seconds)
        case .socketClosed(let socket, let error, let at):
            j.add("event", "socket-closed"); j.add("socket", socket); j.add("error", error); j.add("rx", at.seconds)
        case .socketReopened(let socket, let localPort, _, _, _, let at):
            j.add("event", "socket-reopened"); j.add("socket", socket); j.add("local_port", localPort); j.add("rx", at.seconds)
        case .camera(let state, let reason, let at):
            j.add("event", "camera"); j.add("camera", state.rawValue); j.add("reason", reason); j.add("rx", at.seconds)
        case .notice(let text, let severity, let at):
            j.add("event", "notice"); j.add("text", text); if let severity { j.add("severity", severity) }
            j.add("rx", at.seconds)
        }
        return j.string
    }
}
