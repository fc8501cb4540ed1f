import FollowCore
import MAVLink

/// The pilot and the GCS failsafe (docs/mavlink.md §8.5): a mode switch on the RC transmitter, and
/// what ArduCopter does when its ground station (`SYSID_MYGCS`) falls silent — LAND, RTL or BRAKE
/// as `FS_GCS_ENABLE` says (`ArduCopter/events.cpp` `failsafe_gcs_check`, `failsafe_gcs_on_event`).
extension MAVLinkCopter {
    /// A HEARTBEAT from system `systemID` arrived now: it feeds the GCS failsafe when it is
    /// `SYSID_MYGCS`'s (`GCS_MAVLINK::handle_heartbeat`, `libraries/GCS_MAVLink/GCS_Common.cpp`).
    mutating func noteHeartbeat(from systemID: UInt8) {
        if systemID == parameters.groundStationSystemID { groundStationHeartbeatAt = time }
    }

    /// The pilot moves the transmitter's mode switch to `wanted` at `now` (advancing first), as an
    /// RC pilot takes a Copter out of GUIDED: the mode changes if the Copter can enter it
    /// (`modeRefusal`; STABILIZE stays refused in the air: the simulated pilot has no sticks).
    /// Returns what is due, the mode STATUSTEXT, and why the switch was refused (nil = done).
    public mutating func pilotModeSwitch(to wanted: ArduCopterMode, at now: MonotonicTime)
        -> (messages: [any MAVLinkMessage], refusal: String?) {
        var out = advance(to: now)
        if let refusal = modeRefusal(wanted) {
            out.append(Self.text(.warning, "Mode change to \(Self.name(of: wanted)) failed: \(refusal)"))
            return (out, refusal)
        }
        counters[.pilotModeChanges] += 1
        out += changeMode(to: wanted, reason: "RC")
        return (out, nil)
    }

    /// Modes the autopilot flies by itself (ArduCopter `Mode::is_autopilot()` true: GUIDED, AUTO,
    /// RTL, LAND); the others are the pilot's, which `FS_OPTIONS` bit 4 leaves alone on a GCS failsafe.
    static func isAutopilotMode(_ mode: ArduCopterMode) -> Bool {
        switch mode {
        case .guided, .auto, .rtl, .land: true
        case .stabilize, .loiter, .brake: false
        }
    }

    /// `failsafe_gcs_check` (`ArduCopter/events.cpp`), run every physics step (ArduCopter runs it at
    /// 3 Hz from `three_hz_loop`): nothing while `FS_GCS_ENABLE` is 0 or no HEARTBEAT from
    /// `SYSID_MYGCS` has arrived yet; more than `FS_GCS_TIMEOUT` since the last one → the failsafe
    /// triggers once; a HEARTBEAT again clears it (the mode it chose stays).
    mutating func checkGCSFailsafe() -> [any MAVLinkMessage] {
        guard parameters.gcsFailsafeAction != 0, let seen = groundStationHeartbeatAt else { return [] }
        let silent = time.seconds(since: seen) > parameters.gcsFailsafeTimeoutSeconds
        switch (silent, isGCSFailsafeActive) {
        case (false, true):
            isGCSFailsafeActive = false
            return [Self.text(.warning, "GCS Failsafe Cleared")]
        case (true, false):
            isGCSFailsafeActive = true
            counters[.gcsFailsafes] += 1
            return gcsFailsafeOnEvent()
        default:
            return []
        }
    }

    /// `failsafe_gcs_on_event`: the action `FS_GCS_ENABLE` asks for, unless the Copter is disarmed
    /// (nothing), on the ground (disarm), landing with `FS_OPTIONS` bit 3 (keep landing), or in a
    /// pilot's mode with `FS_OPTIONS` bit 4 (the default: the pilot keeps it).
    private mutating func gcsFailsafeOnEvent() -> [any MAVLinkMessage] {
        guard isArmed else { return [Self.text(.warning, "GCS Failsafe")] }
        guard isAirborne else { return [Self.text(.warning, "GCS Failsafe - Disarming")] + disarm(reason: "GCS failsafe") }
        let options = parameters.failsafeOptions
        if mode == .land, options & 8 != 0 { return [Self.text(.warning, "GCS Failsafe - Continuing Landing")] }
        if options & 16 != 0, !Self.isAutopilotMode(mode) {
            return [Self.text(.warning, "GCS Failsafe - Continuing Pilot Control")]
        }
        var out: [any MAVLinkMessage] = [Self.text(.warning, "GCS Failsafe")]
        switch parameters.gcsFailsafeAction {
        case 4, 5:
            out += landWithPause()
        case 7:
            // set_mode_brake_or_land_with_pause
            out += modeRefusal(.brake) == nil ? changeMode(to: .brake, reason: "GCS failsafe") : landWithPause()
        default:
            // 1, 2, 3 (no SmartRTL here), 6 (no mission) and unknown values: set_mode_RTL_or_land_with_pause
            out += modeRefusal(.rtl) == nil ? changeMode(to: .rtl, reason: "GCS failsafe") : landWithPause()
        }
        return out
    }

    /// `set_mode_land_with_pause`: LAND, holding height for `landPauseSeconds` before descending.
    private mutating func landWithPause() -> [any MAVLinkMessage] {
        let out = changeMode(to: .land, reason: "GCS failsafe")
        landPauseUntil = time.adding(seconds: parameters.landPauseSeconds)
        return out
    }

    /// The climb rate LAND asks for now, m/s (0 during a failsafe's pause).
    mutating func landClimbReference() -> Double {
        if let until = landPauseUntil {
            if time < until { return 0 }
            landPauseUntil = nil
        }
        return -parameters.landDescentMetersPerSecond
    }

    /// RTL's velocity target now: climb to `RTL_ALT` where it is, fly home at up to `WPNAV_SPEED`
    /// (position P `PSC_POSXY_P`, so it slows over home), then descend at `LAND_SPEED`. Each stage
    /// ends once reached: height within 0.2 m, home within 1 m at under 0.5 m/s. Our simplification of
    /// `mode_rtl.cpp` (no loiter over home, no RTL cone, no terrain).
    mutating func rtlReference() -> (velocityENU: PlaneVector, climb: Double) {
        let stage = rtlStage ?? .climb
        let toHome = homePlane - positionPlane
        switch stage {
        case .climb:
            let target = max(parameters.rtlAltitudeMeters, altitudeMeters)
            if altitudeMeters >= target - 0.2 {
                rtlStage = .returnHome
                return rtlReference()
            }
            return (.zero, parameters.maxClimbMetersPerSecond)
        case .returnHome:
            if toHome.length < 1, velocityENU.length < 0.5 {
                rtlStage = .descend
                return rtlReference()
            }
            let speed = min(parameters.positionGainPerSecond * toHome.length, parameters.maxHorizontalSpeedMetersPerSecond)
            return (toHome.length > 0 ? toHome * (speed / toHome.length) : .zero, 0)
        case .descend:
            return (toHome * parameters.positionGainPerSecond, -parameters.landDescentMetersPerSecond)
        }
    }
}
