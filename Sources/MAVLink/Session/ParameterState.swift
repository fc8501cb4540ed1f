import FollowCore

/// One autopilot parameter the session reads with PARAM_REQUEST_READ before take-off (docs/mavlink.md
/// §7.8): sent again after `commandAckTimeoutSeconds` without a PARAM_VALUE, `commandMaxAttempts`
/// sends at most, like the message-interval requests.
struct ParameterState: Sendable, Equatable {
    let name: String
    /// The value the vehicle reported; nil until a PARAM_VALUE for `name` arrives.
    var value: Double? = nil
    /// PARAM_REQUEST_READs sent since the last answer (or reset).
    var attempts: Int = 0
    var lastSentAt: MonotonicTime? = nil
    /// Every send went unanswered (a firmware without this name: `SYSID_MYGCS` became `MAV_GCS_SYSID`).
    var unanswered: Bool = false
    /// Read once more in a re-read round (after a failed verdict): the value or absence known so far
    /// stands until a PARAM_VALUE replaces it.
    var rereading: Bool = false

    /// Neither answered nor given up.
    var isPending: Bool { value == nil && !unanswered }

    /// What each autopilot must be set to for a FollowMe that dies to land or return the vehicle.
    ///
    /// ArduCopter: `FS_GCS_ENABLE` (ArduCopter/Parameters.cpp, default 0 = disabled) and the id of the
    /// ground station whose HEARTBEATs count, `SYSID_MYGCS` (ArduCopter/Parameters.cpp, default 255),
    /// renamed `MAV_GCS_SYSID` in current ArduPilot, where `MAV_GCS_SYSID_HI` ≥ it makes a range of GCS
    /// ids (libraries/GCS_MAVLink/GCS.cpp `var_info`): all three are asked, either name may answer.
    ///
    /// What keeps a released pilot in control once FollowMe's HEARTBEATs stop, and how long a dead
    /// FollowMe leaves the vehicle alone: ArduCopter `FS_OPTIONS` (bit 4, default 16) and
    /// `FS_GCS_TIMEOUT` (s, default 5, range 2–120) (ArduCopter/Parameters.cpp).
    /// PX4: `COM_OF_LOSS_T` (offboard loss timeout, s, default 1), `COM_OBL_RC_ACT` (the offboard
    /// loss action with RC, default 0 = Position mode) and, on the PX4 versions that have it,
    /// `COM_OBL_ACT` (the action without RC, default 0 = Land) (src/modules/commander/commander_params.c).
    /// With `pointCamera` on ArduPilot also the mount's type (`mountTypeNames`), which decides whether a
    /// region of interest is sent at all (docs/mavlink.md §7.13); it never holds up the configuration.
    static func checked(for autopilot: MAVLinkLinkConfiguration.Autopilot, pointCamera: Bool = false) -> [ParameterState] {
        switch autopilot {
        case .ardupilot: (["FS_GCS_ENABLE", "SYSID_MYGCS", "MAV_GCS_SYSID", "MAV_GCS_SYSID_HI", "FS_GCS_TIMEOUT", "FS_OPTIONS",
                           "WPNAV_ACCEL", "PSC_JERK_XY"]
                          + (pointCamera ? mountTypeNames : []))
            .map { ParameterState(name: $0) }
        case .px4: ["COM_OF_LOSS_T", "COM_OBL_RC_ACT", "COM_OBL_ACT", "MPC_ACC_HOR", "MPC_JERK_AUTO"].map { ParameterState(name: $0) }
        }
    }
}

/// The verdict on the GCS-failsafe parameters read so far.
enum ParameterVerdict: Sendable, Equatable {
    /// Still reading.
    case pending
    case passed
    /// `key` has `value`; `reason` says what to set (the operator's to-do).
    case failed(key: String, value: String, reason: String)
}

extension [ParameterState] {
    func state(_ name: String) -> ParameterState? { first { $0.name == name } }

    /// Whether losing FollowMe lands or returns the vehicle (docs/mavlink.md §7.8).
    ///
    /// ArduCopter `FS_GCS_ENABLE` (ArduCopter/Parameters.cpp `@Values`): 1 RTL, 3 SmartRTL or RTL,
    /// 4 SmartRTL or Land, 5 Land, 6 Auto DO_LAND_START or RTL pass; 0 disabled, 2 (removed in 4.0),
    /// 7 Brake or Land (BRAKE hovers) fail. The GCS id must be our system id: ArduPilot counts only
    /// HEARTBEATs from that system as the GCS (`GCS_MAVLINK::handle_heartbeat`). Then `FS_GCS_TIMEOUT`
    /// and `FS_OPTIONS` (`leavingVerdict`).
    /// PX4 `COM_OBL_RC_ACT` (src/modules/commander/commander_params.c): 3 Return, 4 Land pass; 0
    /// Position, 1 Altitude, 2 Stabilized (a pilot's modes), 5 Hold, 6 Terminate, 7 Disarm fail;
    /// `COM_OF_LOSS_T` at most `ParameterState.maximumOffboardLossSeconds`; `COM_OBL_ACT`, where it
    /// exists, 0 Land or 2 Return. One failure at a time, in this order.
    func verdict(autopilot: MAVLinkLinkConfiguration.Autopilot, systemID: UInt8) -> ParameterVerdict {
        func text(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        switch autopilot {
        case .ardupilot:
            // A computed name, not a `let`: the verdict is asked on every tick until resolved, and
            // only a failure needs the text.
            var fix: String { "set FS_GCS_ENABLE to 1 (RTL), 3, 4, 5 (LAND) or 6 and SYSID_MYGCS (MAV_GCS_SYSID on current ArduPilot) to \(systemID)" }
            guard let enable = state("FS_GCS_ENABLE"), !enable.isPending else { return .pending }
            guard let action = enable.value else {
                return .failed(key: "FS_GCS_ENABLE", value: "unanswered", reason: "the vehicle did not answer; " + fix)
            }
            guard [1, 3, 4, 5, 6].contains(action) else {
                return .failed(key: "FS_GCS_ENABLE", value: text(action),
                               reason: "if FollowMe stops, the vehicle would hover until its battery is empty; " + fix)
            }
            let ids = ["SYSID_MYGCS", "MAV_GCS_SYSID"].compactMap { state($0) }
            if let answered = ids.first(where: { $0.value != nil }), let id = answered.value {
                guard id == Double(systemID) else {
                    return .failed(key: answered.name, value: text(id),
                                   reason: "the GCS failsafe counts HEARTBEATs from system \(text(id)), not FollowMe's \(systemID); " + fix)
                }
                if answered.name == "MAV_GCS_SYSID", let high = state("MAV_GCS_SYSID_HI") {
                    if high.isPending { return .pending }
                    // A range (HI > MAV_GCS_SYSID) lets other stations' HEARTBEATs (QGroundControl's 255)
                    // keep the failsafe quiet after FollowMe died.
                    if let top = high.value, top > id {
                        return .failed(key: "MAV_GCS_SYSID_HI", value: text(top),
                                       reason: "systems \(text(id))–\(text(top)) all count as the GCS, so another station keeps the failsafe quiet; set MAV_GCS_SYSID_HI to \(systemID) or below")
                    }
                }
                return leavingVerdict()
            }
            if ids.contains(where: \.isPending) { return .pending }
            return .failed(key: "SYSID_MYGCS", value: "unanswered", reason: "neither SYSID_MYGCS nor MAV_GCS_SYSID answered; " + fix)
        case .px4:
            var fix: String { "set COM_OBL_RC_ACT to 3 (Return) or 4 (Land) and COM_OF_LOSS_T to at most \(text(ParameterState.maximumOffboardLossSeconds)) s" }
            guard let action = state("COM_OBL_RC_ACT"), let timeout = state("COM_OF_LOSS_T") else { return .pending }
            if action.isPending || timeout.isPending { return .pending }
            guard let actionValue = action.value else {
                return .failed(key: "COM_OBL_RC_ACT", value: "unanswered", reason: "the vehicle did not answer; " + fix)
            }
            guard [3, 4].contains(actionValue) else {
                return .failed(key: "COM_OBL_RC_ACT", value: text(actionValue),
                               reason: "if FollowMe stops, the vehicle would not return or land; " + fix)
            }
            guard let seconds = timeout.value else {
                return .failed(key: "COM_OF_LOSS_T", value: "unanswered", reason: "the vehicle did not answer; " + fix)
            }
            guard seconds <= ParameterState.maximumOffboardLossSeconds else {
                return .failed(key: "COM_OF_LOSS_T", value: text(seconds), reason: "too long without set-points; " + fix)
            }
            // Older PX4 only (absent = its one read unanswered: not refused). Values: -1 Disabled, 0 Land,
            // 1 Hold, 2 Return, 3 Terminate, 4 Lockdown; 0 Land, 1 Loiter, 2 Return in older ones.
            guard let withoutRC = state("COM_OBL_ACT") else { return .passed }
            if withoutRC.isPending { return .pending }
            if let value = withoutRC.value, ![0, 2].contains(value) {
                return .failed(key: "COM_OBL_ACT", value: text(value),
                               reason: "without RC (FollowMe's usual flight), losing FollowMe would not land or return the vehicle; set COM_OBL_ACT to 0 (Land) or 2 (Return)")
            }
            return .passed
        }
    }

    /// ArduCopter, once the GCS failsafe is on and watches FollowMe: it must fire soon enough
    /// (`FS_GCS_TIMEOUT` at most `ParameterState.maximumGCSFailsafeSeconds`; absent on versions
    /// with a fixed 5 s) and leave a pilot who took over in control (`FS_OPTIONS` bit 4, 16:
    /// `failsafe_gcs_on_event` does nothing in a mode that is not `is_autopilot()`, ArduCopter/events.cpp).
    private func leavingVerdict() -> ParameterVerdict {
        func text(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        guard let timeout = state("FS_GCS_TIMEOUT"), let options = state("FS_OPTIONS") else { return .passed }
        if timeout.isPending || options.isPending { return .pending }
        let maximum = ParameterState.maximumGCSFailsafeSeconds
        if let seconds = timeout.value, !(seconds <= maximum) {
            return .failed(key: "FS_GCS_TIMEOUT", value: text(seconds),
                           reason: "a FollowMe that stops would leave the vehicle in GUIDED with nobody commanding it for \(text(seconds)) s before the GCS failsafe; set FS_GCS_TIMEOUT to at most \(text(maximum))")
        }
        let bit = ParameterState.continueInPilotModesBit
        guard let bits = options.value else {
            return .failed(key: "FS_OPTIONS", value: "unanswered",
                           reason: "the vehicle did not answer, so a pilot who takes over may lose the vehicle to the GCS failsafe once FollowMe stops; set FS_OPTIONS bit 4 (\(bit): continue if in pilot controlled modes on GCS failsafe)")
        }
        let mask = bits.isFinite && bits >= 0 && bits < 0x1p31 ? Int(bits) : nil
        guard let mask, mask & bit != 0 else {
            return .failed(key: "FS_OPTIONS", value: bits.isFinite ? text(bits) : "\(bits)",
                           reason: "once FollowMe stops, the GCS failsafe would take a pilot's LOITER or POSHOLD into RTL or LAND; set FS_OPTIONS to \((mask ?? 0) | bit) (bit 4, \(bit): continue if in pilot controlled modes on GCS failsafe)")
        }
        return .passed
    }
}

extension [ParameterState] {
    /// The autopilot's own horizontal shaping limits, once every braking parameter is answered or given
    /// up (nil before): ArduCopter `WPNAV_ACCEL` (cm/s², libraries/AC_WPNav/AC_WPNav.cpp, default 250)
    /// and `PSC_JERK_XY` (m/s³, AC_PosControl.cpp, default 5); PX4 `MPC_ACC_HOR` (m/s², default 3) and
    /// `MPC_JERK_AUTO` (m/s³, default 4; src/modules/mc_pos_control/multicopter_autonomous_params.c).
    /// An unanswered one keeps its default; a non-positive or non-finite one is ignored (the default).
    func brakingLimits(autopilot: MAVLinkLinkConfiguration.Autopilot)
        -> (accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?)? {
        let (accel, jerk, scale) = switch autopilot {
        case .ardupilot: ("WPNAV_ACCEL", "PSC_JERK_XY", 0.01)
        case .px4: ("MPC_ACC_HOR", "MPC_JERK_AUTO", 1.0)
        }
        guard let a = state(accel), let j = state(jerk), !a.isPending, !j.isPending else { return nil }
        func usable(_ value: Double?) -> Double? { value.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }
        return (usable(a.value).map { $0 * scale }, usable(j.value))
    }
}

extension ParameterState {
    /// ArduPilot's first mount's type: `MNT1_TYPE` (libraries/AP_Mount/AP_Mount_Params.cpp, 4.3 and later)
    /// or `MNT_TYPE` (AP_Mount.cpp, earlier); 0 = none (the default). Either may answer.
    static let mountTypeNames = ["MNT1_TYPE", "MNT_TYPE"]

    /// The longest PX4 offboard-loss timeout FollowMe accepts, seconds. Our choice: 5 s, ArduCopter's
    /// fixed GCS-failsafe delay (ArduCopter/Parameters.cpp, FS_GCS_ENABLE "lost for at least 5
    /// seconds"); PX4's default is 1 s.
    static let maximumOffboardLossSeconds = 5.0
    /// The longest ArduCopter `FS_GCS_TIMEOUT` FollowMe accepts, seconds (its range 2–120, default 5).
    /// Our choice: 5 s, the default and the same bound as PX4's offboard loss. A FollowMe that dies
    /// leaves the Copter in GUIDED with nobody commanding it: its last velocity set-point is flown
    /// for up to 3 s (GUIDED's set-point timeout), then it hovers where it is, near people, until the
    /// failsafe fires; at 120 s that is two minutes of a vehicle nobody flies.
    static let maximumGCSFailsafeSeconds = 5.0
    /// `FS_OPTIONS` bit 4 (16), `FailsafeOption::GCS_CONTINUE_IF_PILOT_CONTROL`: "Continue if in pilot
    /// controlled modes on GCS failsafe" (ArduCopter/Parameters.cpp `@Bitmask`; the default value).
    static let continueInPilotModesBit = 16
}
