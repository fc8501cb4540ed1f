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

    /// Neither answered nor given up.
    var isPending: Bool { value == nil && !unanswered }

    /// What each autopilot must be set to for a FollowMe that dies to land or return the vehicle.
    ///
    /// ArduCopter: `FS_GCS_ENABLE` (ArduCopter/Parameters.cpp, default 0 = disabled) and the id of the
    /// ground station whose HEARTBEATs count, `SYSID_MYGCS` (ArduCopter/Parameters.cpp, default 255),
    /// renamed `MAV_GCS_SYSID` in current ArduPilot, where `MAV_GCS_SYSID_HI` ≥ it makes a range of GCS
    /// ids (libraries/GCS_MAVLink/GCS.cpp `var_info`): all three are asked, either name may answer.
    /// PX4: `COM_OF_LOSS_T` (offboard loss timeout, s, default 1) and `COM_OBL_RC_ACT` (the offboard
    /// loss action, default 0 = Position mode) (src/modules/commander/commander_params.c).
    /// With `pointCamera` on ArduPilot also the mount's type (`mountTypeNames`), which decides whether a
    /// region of interest is sent at all (docs/mavlink.md §7.13); it never holds up the configuration.
    static func checked(for autopilot: MAVLinkLinkConfiguration.Autopilot, pointCamera: Bool = false) -> [ParameterState] {
        switch autopilot {
        case .ardupilot: (["FS_GCS_ENABLE", "SYSID_MYGCS", "MAV_GCS_SYSID", "MAV_GCS_SYSID_HI", "WPNAV_ACCEL", "PSC_JERK_XY"]
                          + (pointCamera ? mountTypeNames : []))
            .map { ParameterState(name: $0) }
        case .px4: ["COM_OF_LOSS_T", "COM_OBL_RC_ACT", "MPC_ACC_HOR", "MPC_JERK_AUTO"].map { ParameterState(name: $0) }
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
    /// HEARTBEATs from that system as the GCS (`GCS_MAVLINK::handle_heartbeat`).
    /// PX4 `COM_OBL_RC_ACT` (src/modules/commander/commander_params.c): 3 Return, 4 Land pass; 0
    /// Position, 1 Altitude, 2 Stabilized (a pilot's modes), 5 Hold, 6 Terminate, 7 Disarm fail;
    /// `COM_OF_LOSS_T` at most `ParameterState.maximumOffboardLossSeconds`.
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
                guard answered.name == "MAV_GCS_SYSID", let high = state("MAV_GCS_SYSID_HI") else { return .passed }
                if high.isPending { return .pending }
                // A range (HI > MAV_GCS_SYSID) lets other stations' HEARTBEATs (QGroundControl's 255)
                // keep the failsafe quiet after FollowMe died.
                if let top = high.value, top > id {
                    return .failed(key: "MAV_GCS_SYSID_HI", value: text(top),
                                   reason: "systems \(text(id))–\(text(top)) all count as the GCS, so another station keeps the failsafe quiet; set MAV_GCS_SYSID_HI to \(systemID) or below")
                }
                return .passed
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
            return .passed
        }
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
}
