import ARDrone
import Links
import FollowCore
import FlightRecords

/// `followme drone status --json`: one JSON object per `DroneLinkEvent` ({"event":"navdata",…},
/// {"event":"statistics",…}, {"event":"navdata-lost",…}, …), written with ShellSupport's `JSONLine`.
extension DroneLinkEvent {
    /// The event as one JSON object for `status --json` (nil for nothing to print).
    func jsonLine() -> String? {
        var j = JSONLine()
        switch self {
        case .navdata(let received):
            let navdata = received.navdata
            j.add("event", "navdata")
            j.add("rx", received.receivedAt.seconds)
            j.add("seq", Int(navdata.sequenceNumber))
            j.add("state", NavdataJSON.hex(navdata.state.rawValue))
            j.addRaw("flags", NavdataJSON.array(navdata.state.setBitNames.map { NavdataJSON.string($0) }))
            if let demo = navdata.demo {
                j.add("ctrl_state", demo.controlStateName.lowercased())
                j.add("battery_pct", Int(demo.batteryPercent))
                j.add("alt_m", demo.altitudeMeters)
                j.add("pitch_deg", demo.thetaDegrees)
                j.add("roll_deg", demo.phiDegrees)
                j.add("yaw_deg", demo.psiDegrees)
                let v = demo.bodyVelocityMetersPerSecond
                j.add("vx_mps", v.x)
                j.add("vy_mps", v.y)
                j.add("vz_mps", v.z)
            }
        case .statistics(let s):
            j.add("event", "statistics")
            j.add("navdata_hz", s.navdataRateHz)
            // The link's counters, under the names `status --json` has always printed (the flight
            // log's differ: FlightService's `addStatistics`). Integers and one Bool, written as JSON.
            let counters: [(String, any CustomStringConvertible)] = [
                ("navdata_received", s.counts[.navdataReceived]), ("dropped_source", s.counts[.droppedUnexpectedSource]),
                ("dropped_sequence", s.counts[.droppedSequenceNotIncreasing]), ("dropped_malformed", s.counts[.droppedMalformed]),
                ("navdata_lost", s.telemetryLost), ("navdata_losses", s.counts[.navdataLosses]),
                ("datagrams_sent", s.counts[.datagramsSent]), ("commands_sent", s.counts[.commandsSent]),
                ("send_failures", s.counts[.sendFailures]), ("ticks_late", s.counts[.ticksLate]),
                ("config_pending", s.configurationsPending), ("config_failed", s.counts[.configurationFailures]),
            ]
            for (key, value) in counters { j.addRaw(key, value.description) }
        case .connected(let wasFlying, let desiredFlying, _):
            j.add("event", "connected")
            j.add("drone_was_flying", wasFlying)
            j.add("desired_flying", desiredFlying)
        case .telemetryLost(let last, let at):
            j.add("event", "navdata-lost")
            j.add("silence_s", at.seconds(since: last))
        case .navdataRestored(let silence, _):
            j.add("event", "navdata-restored")
            j.add("silence_s", silence)
        case .configurationAcknowledged(let write, let attempts, _):
            j.add("event", "config-ack")
            j.add("key", write.key)
            j.add("value", write.value)
            j.add("attempts", attempts)
        case .configurationFailed(let write, let reason, _):
            j.add("event", "config-failed")
            j.add("key", write.key)
            j.add("value", write.value)
            j.add("reason", reason.description)
        case .desiredFlyingCleared(let reason, _):
            j.add("event", "desired-flying-cleared")
            j.add("reason", reason == .emergency ? "emergency" : "cutoff")
        case .socketClosed(let socket, _, _):
            j.add("event", "socket-closed"); j.add("socket", socket.rawValue)
        case .socketReopened(let socket, let port, _, _, _, _):
            j.add("event", "socket-reopened"); j.add("socket", socket.rawValue); j.add("local_port", port)
        case .bootstrapFallback(let reason, _):
            j.add("event", "bootstrap-fallback"); j.add("reason", reason.rawValue)
        case .configurationComplete(let failedKeys, _):
            j.add("event", "config-complete"); j.add("failed", failedKeys.joined(separator: ","))
        }
        // Every other event ends with when it happened (navdata has it second, statistics not at all).
        if let at = occurredAt { j.add("rx", at.seconds) }
        return j.string
    }

    /// When the link saw the event, for every event but `navdata` (its `rx` comes second) and
    /// `statistics` (no `rx`).
    private var occurredAt: MonotonicTime? {
        switch self {
        case .navdata, .statistics: nil
        case .connected(_, _, let at), .telemetryLost(_, let at), .navdataRestored(_, let at),
             .configurationAcknowledged(_, _, let at), .configurationFailed(_, _, let at),
             .desiredFlyingCleared(_, let at), .socketClosed(_, _, let at), .socketReopened(_, _, _, _, _, let at),
             .bootstrapFallback(_, let at), .configurationComplete(_, let at):
            at
        }
    }
}
