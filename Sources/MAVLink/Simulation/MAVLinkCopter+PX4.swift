import FollowCore
import MAVLink

/// The copter as PX4 (`parameters.autopilot` `.px4`; docs/mavlink.md §8.6): the same airframe and
/// behaviours under PX4's modes, commands and parameters, read from PX4's commander and navigator
/// (src/modules/commander/Commander.cpp `handle_command`, navigator/takeoff.cpp, commander_params.c):
///
/// - modes: OFFBOARD flies the set-points (GUIDED's behaviour), AUTO.LOITER ("Hold") holds, AUTO.TAKEOFF
///   climbs to NAV_TAKEOFF's AMSL altitude and then holds in AUTO.LOITER, POSCTL is the RC pilot's,
///   AUTO.LAND and AUTO.RTL as LAND and RTL. A refused mode change or arming is TEMPORARILY_REJECTED.
/// - OFFBOARD is entered only while the offboard signal is there (a set-point within `COM_OF_LOSS_T`), and
///   losing it in OFFBOARD starts the offboard-loss failsafe: `COM_OBL_ACT` where the version has it (the
///   action without RC: the simulation has no RC), else `COM_OBL_RC_ACT`; Position, Altitude and Manual
///   need the RC the simulation lacks and hold instead (our simplification).
/// - parameters answered as PX4 does: integers bytewise in the float (`MAV_PARAM_TYPE_INT32`), reals as REAL32.
/// - the home altitude moves after lift-off (`homeAltitudeSteps`): `relative_alt` jumps, `alt` does not.
extension MAVLinkCopter {
    var isPX4: Bool { parameters.autopilot == .px4 }

    /// PX4's mode for a behaviour.
    public static func px4Mode(of mode: ArduCopterMode) -> PX4Mode {
        switch mode {
        case .stabilize: PX4Mode(mainMode: 1)                   // MANUAL
        case .loiter: PX4Mode(mainMode: 3)                      // POSCTL
        case .guided: .offboard
        case .brake: .autoLoiter                                // Hold
        case .auto: .autoTakeoff
        case .rtl: PX4Mode(mainMode: PX4Mode.mainAuto, subMode: 5)
        case .land: .autoLand
        }
    }

    /// HEARTBEAT `custom_mode` of `mode` on this copter's firmware.
    func customMode(of mode: ArduCopterMode) -> UInt32 {
        isPX4 ? Self.px4Mode(of: mode).customMode : mode.rawValue
    }

    /// The name of `mode` as this copter's ground station shows it ("GUIDED"; "OFFBOARD", "AUTO.LOITER").
    public func modeName(of mode: ArduCopterMode) -> String {
        isPX4 ? MAVLinkLinkConfiguration.Autopilot.px4.modeName(customMode(of: mode)) : Self.name(of: mode)
    }

    /// PX4's DO_SET_MODE (`handle_command`): custom main and sub mode → the behaviour; one not simulated,
    /// or one that cannot be entered now, is TEMPORARILY_REJECTED.
    mutating func px4SetMode(_ p: [Float]) -> (MAVResult, [any MAVLinkMessage]) {
        guard UInt8(exactly: p[0]).map({ $0 & MAVModeFlag.customModeEnabled.rawValue != 0 }) ?? false else {
            return (.unsupported, [])
        }
        let requested = PX4Mode(mainMode: UInt8(clamping: Int(p[1].isFinite ? p[1] : 0)),
                                subMode: UInt8(clamping: Int(p[2].isFinite ? p[2] : 0)))
        guard let wanted = ArduCopterMode.allCases.first(where: { Self.px4Mode(of: $0) == requested }) else {
            return (.temporarilyRejected, [Self.text(.critical, "Switching to mode \(requested.mainMode).\(requested.subMode) is currently not possible")])
        }
        if let refusal = modeRefusal(wanted) {
            return (.temporarilyRejected, [Self.text(.critical, "Switching to \(modeName(of: wanted)) is currently not possible: \(refusal)")])
        }
        return (.accepted, changeMode(to: wanted, reason: "GCS"))
    }

    /// PX4 has the offboard signal: a set-point arrived within `COM_OF_LOSS_T`.
    var hasOffboardSignal: Bool {
        guard let last = lastSetpointAt else { return false }
        return time.seconds(since: last) <= parameters.offboardLossTimeoutSeconds
    }

    /// PX4's NAV_TAKEOFF: AUTO.TAKEOFF to `p7` metres above mean sea level (NaN: `MIS_TAKEOFF_ALT`, 2.5 m
    /// above home); armed, the climb starts now, disarmed at arming. Airborne, or an altitude not above
    /// the copter: TEMPORARILY_REJECTED.
    mutating func px4TakeOff(amslMeters: Float) -> (MAVResult, [any MAVLinkMessage]) {
        let target = amslMeters.isFinite ? Double(amslMeters) - parameters.homeAltitudeMSLMeters : 2.5
        if isAirborne || !(target > altitudeMeters) || !hasGPSFix {
            return (.temporarilyRejected, [Self.text(.critical, "Takeoff denied: \(isAirborne ? "already flying" : "bad altitude \(target)")")])
        }
        var out = changeMode(to: .auto, reason: "GCS")
        out.append(Self.text(.info, "Takeoff to \(Int(target.rounded())) m above home"))
        if isArmed {
            phase = .takingOff(targetAltitudeMeters: target)
            pendingTakeoffMeters = nil
        } else {
            pendingTakeoffMeters = target
        }
        return (.accepted, out)
    }

    /// The take-off reached its altitude: PX4's navigator holds in AUTO.LOITER.
    mutating func px4TakeoffComplete() -> [any MAVLinkMessage] {
        guard mode == .auto else { return [] }
        return changeMode(to: .brake, reason: "takeoff complete")
    }

    /// The offboard-loss failsafe, once per physics step: in OFFBOARD, armed, without the offboard signal
    /// → the action `COM_OBL_ACT` (where present) or `COM_OBL_RC_ACT` names; on the ground, Hold.
    mutating func checkOffboardLoss() -> [any MAVLinkMessage] {
        guard isPX4, mode == .guided, isArmed, !hasOffboardSignal else { return [] }
        counters[.offboardLosses] += 1
        var out: [any MAVLinkMessage] = [Self.text(.critical, "Failsafe: no offboard signal")]
        guard isAirborne else { return out + changeMode(to: .brake, reason: "offboard loss") }
        let action: ArduCopterMode
        if let withoutRC = parameters.offboardLossActionWithoutRC {
            action = switch withoutRC { case 0: .land; case 2: .rtl; default: .brake }
        } else {
            action = switch parameters.offboardLossAction { case 3: .rtl; case 4, 6, 7: .land; default: .brake }
        }
        out += changeMode(to: modeRefusal(action) == nil ? action : .land, reason: "offboard loss")
        return out
    }

    /// How far PX4's home altitude has moved now: the hook plus every scheduled step reached since lift-off.
    var reportedHomeShiftMeters: Double {
        guard let liftOffAt else { return homeAltitudeShiftMeters }
        let airborneSeconds = time.seconds(since: liftOffAt)
        return parameters.homeAltitudeSteps.reduce(homeAltitudeShiftMeters) {
            airborneSeconds >= $1.afterLiftOffSeconds ? $0 + $1.meters : $0
        }
    }

    // MARK: Parameters

    /// The parameters a PX4 copter answers PARAM_REQUEST_READ for (`COM_OBL_ACT` only where the version has it).
    var px4ParameterNames: [String] {
        ["COM_OF_LOSS_T", "COM_OBL_RC_ACT"] + (parameters.offboardLossActionWithoutRC == nil ? [] : ["COM_OBL_ACT"])
            + ["MPC_ACC_HOR", "MPC_JERK_AUTO"]
    }

    /// PX4's PARAM_VALUE for `name`: integers bytewise (`MAV_PARAM_TYPE_INT32`), reals as REAL32; nil for
    /// a name this version lacks (it answers nothing).
    func px4ParameterReport(_ name: String) -> ParamValue? {
        let integer: Int?, real: Double?
        switch name {
        case "COM_OF_LOSS_T": (integer, real) = (nil, parameters.offboardLossTimeoutSeconds)
        case "COM_OBL_RC_ACT": (integer, real) = (parameters.offboardLossAction, nil)
        case "COM_OBL_ACT":
            guard let value = parameters.offboardLossActionWithoutRC else { return nil }
            (integer, real) = (value, nil)
        case "MPC_ACC_HOR": (integer, real) = (nil, parameters.maxHorizontalAccelerationMetersPerSecondSquared)
        case "MPC_JERK_AUTO": (integer, real) = (nil, parameters.horizontalJerkMetersPerSecondCubed)
        default: return nil
        }
        var report = ParamValue()
        if let integer {
            report.value = Float(bitPattern: UInt32(bitPattern: Int32(clamping: integer)))
            report.type = 6 // MAV_PARAM_TYPE_INT32
        } else {
            report.value = Float(real ?? 0)
            report.type = ParamValue.real32Type
        }
        report.parameterID = MAVLinkText(name)
        report.count = UInt16(px4ParameterNames.count)
        return report
    }

    /// A ground station sets PX4's `name` (`COM_OF_LOSS_T`, `COM_OBL_RC_ACT`, `COM_OBL_ACT` where present):
    /// in force at once; the PARAM_VALUE reporting it, or nil for another name or a non-finite value.
    mutating func setPX4Parameter(_ name: String, to value: Float) -> ParamValue? {
        guard value.isFinite else { return nil }
        switch name {
        case "COM_OF_LOSS_T" where value >= 0: parameters.offboardLossTimeoutSeconds = Double(value)
        case "COM_OBL_RC_ACT": parameters.offboardLossAction = Int(value)
        case "COM_OBL_ACT" where parameters.offboardLossActionWithoutRC != nil: parameters.offboardLossActionWithoutRC = Int(value)
        default: return nil
        }
        return px4ParameterReport(name)
    }
}
