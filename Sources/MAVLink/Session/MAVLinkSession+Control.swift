import FollowCore

/// Whether the link controls the airborne vehicle (docs/mavlink.md §7.12): the
/// core must not "follow" a vehicle whose autopilot ignores the set-points.
extension MAVLinkSession {
    /// Airborne, ours and not in our mode for this long → `.control(inControl: false)`, seconds (our
    /// choice: PX4 switches AUTO.LOITER → OFFBOARD within a second or two after its take-off; ArduPilot
    /// flies the whole flight in GUIDED).
    static let controlTimeoutSeconds = 5.0
    /// Refusals of our control mode before it is no longer asked for (DENIED, FAILED: a condition that
    /// does not clear by asking again every 2 s).
    static let maxControlRefusals = 3
    /// Refusals of our LAND mode before the link falls back to MAV_CMD_NAV_LAND (both autopilots land
    /// on it where they are: ArduCopter GCS_Mavlink.cpp `handle_command_long_packet`, PX4 navigator).
    static let landRefusalsBeforeNavLand = 2

    /// Once per tick: is the vehicle, airborne after our take-off and wanted flying, in our mode?
    /// Reports a change (`.control`), never while released (a pilot or a failsafe flies it).
    mutating func checkControl(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        let wanted = desired.flying && !desired.released && !flight.released && owner.isOurs && vehicle.isArmed
            && vehicle.landedState == .inAir
        // PX4 flies its own take-off (AUTO.TAKEOFF) before OFFBOARD is asked: not a loss of control.
        let px4TakingOff = profile.autopilot == .px4 && isIn(AutopilotProfile.px4Takeoff)
        guard wanted, !isIn(profile.control), !px4TakingOff else {
            notInControlSince = nil
            if wanted, isIn(profile.control), !reportedInControl {
                reportedInControl = true
                controlRefusals = 0
                output.events.append(.control(inControl: true, reason: "in \(profile.control)", at: now))
            }
            return
        }
        let since = notInControlSince ?? now
        notInControlSince = since
        let refusedForGood = controlRefusals >= Self.maxControlRefusals
        guard reportedInControl, refusedForGood || now.seconds(since: since) >= Self.controlTimeoutSeconds else { return }
        reportedInControl = false
        let mode = profile.modeName(vehicle.customMode ?? 0)
        output.events.append(.control(
            inControl: false,
            reason: refusedForGood ? "\(profile.control) refused \(controlRefusals) times; the vehicle stays in \(mode)"
                : "airborne in \(mode), not \(profile.control), for \(Int(Self.controlTimeoutSeconds)) s",
            at: now))
    }

    /// A refusal of `request` (not an unanswered one): our control mode is asked at most
    /// `maxControlRefusals` times; LAND falls back to NAV_LAND after `landRefusalsBeforeNavLand`.
    mutating func noteRefusal(_ request: VehicleRequest, now: MonotonicTime) {
        switch request {
        case .setMode(let mode) where mode == profile.control:
            // On the ground a refusal (no position yet, a pre-arm check) clears by itself: the usual
            // back-off, and the next take-off asks again. Airborne, three end the asking for this flight.
            guard vehicle.mightBeAirborne else { return }
            controlRefusals += 1
            if controlRefusals >= Self.maxControlRefusals { notBefore[request] = .distantFuture }
        case .setMode(let mode) where mode == profile.land:
            landRefusals += 1
        default:
            break
        }
    }
}

extension MonotonicTime {
    /// Later than any time a run reaches (a request never asked again).
    static let distantFuture = MonotonicTime(nanoseconds: .max / 2)
}
