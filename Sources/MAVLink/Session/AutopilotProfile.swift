/// One flight mode as DO_SET_MODE sets it and HEARTBEAT reports it (docs/mavlink.md §5.3–5.4).
public struct AutopilotMode: Sendable, Hashable, CustomStringConvertible {
    /// HEARTBEAT `custom_mode` while the vehicle is in this mode.
    public let customMode: UInt32
    /// DO_SET_MODE param2 and param3: ArduPilot's mode number and 0, or PX4's main and sub mode.
    let parameters: (Float, Float)
    public let description: String

    public static func == (a: Self, b: Self) -> Bool { a.customMode == b.customMode }
    public func hash(into hasher: inout Hasher) { hasher.combine(customMode) }

    static func ardupilot(_ mode: ArduCopterMode) -> Self {
        Self(customMode: mode.rawValue, parameters: (Float(mode.rawValue), 0), description: "\(mode)".uppercased())
    }

    static func px4(_ mode: PX4Mode) -> Self {
        Self(customMode: mode.customMode, parameters: (Float(mode.mainMode), Float(mode.subMode)),
             description: AutopilotProfile.px4Name(mode))
    }
}

/// What differs between ArduPilot Copter and PX4 for a follow (docs/mavlink.md §7.3): the mode the
/// set-points fly in, the landing mode, the take-off altitude's reference, the HEARTBEAT `autopilot`.
struct AutopilotProfile: Sendable {
    let autopilot: MAVLinkLinkConfiguration.Autopilot
    /// Where velocity set-points are obeyed: ArduPilot GUIDED (4), PX4 OFFBOARD (main 6).
    let control: AutopilotMode
    /// ArduPilot LAND (9), PX4 AUTO.LAND (main 4, sub 6).
    let land: AutopilotMode
    /// HEARTBEAT `autopilot` of the vehicle: ARDUPILOTMEGA (3) or PX4 (12).
    let heartbeatAutopilot: MAVAutopilot

    init(_ autopilot: MAVLinkLinkConfiguration.Autopilot) {
        self.autopilot = autopilot
        switch autopilot {
        case .ardupilot:
            (control, land, heartbeatAutopilot) = (.ardupilot(.guided), .ardupilot(.land), .ardupilotmega)
        case .px4:
            (control, land, heartbeatAutopilot) = (.px4(.offboard), .px4(.autoLand), .px4)
        }
    }

    /// PX4 AUTO.TAKEOFF and AUTO.LOITER: the modes PX4 flies a NAV_TAKEOFF in and holds after it.
    static let px4Takeoff = AutopilotMode.px4(.autoTakeoff)
    static let px4Loiter = AutopilotMode.px4(.autoLoiter)

    /// The DO_SET_MODE for `mode`: param1 = MAV_MODE_FLAG_CUSTOM_MODE_ENABLED (1) (docs/mavlink.md §5.1).
    func setModeParameters(_ mode: AutopilotMode) -> [Float] {
        [Float(MAVModeFlag.customModeEnabled.rawValue), mode.parameters.0, mode.parameters.1, 0, 0, 0, 0]
    }

    /// NAV_TAKEOFF param7. ArduPilot: metres above home (`ArduCopter/takeoff.cpp`, "altitude above
    /// home"); PX4: metres above mean sea level (`navigator/takeoff.cpp`, `takeoff_altitude_amsl`),
    /// so the home altitude (current MSL minus height above home) is added (docs/mavlink.md §7.3).
    func takeoffAltitudeParameter(aboveHomeMeters: Double, vehicle: VehicleState) -> Float {
        switch autopilot {
        case .ardupilot:
            return Float(aboveHomeMeters)
        case .px4:
            let mslMeters = Double(vehicle.position?.altitudeMSLMillimeters ?? 0) / 1000
            return Float(mslMeters - vehicle.relativeAltitudeMeters + aboveHomeMeters)
        }
    }

    /// NAV_TAKEOFF's seven parameters: NaN for every one the autopilot does not use (MAVLink: NaN =
    /// "use the current value"), param7 the altitude.
    ///
    /// PX4 takes finite param5/param6 as the take-off's latitude/longitude and NaN as "here"
    /// (src/modules/navigator/navigator_main.cpp, VEHICLE_CMD_NAV_TAKEOFF: `PX4_ISFINITE(cmd.param5)
    /// && PX4_ISFINITE(cmd.param6)`), so 0/0 would aim the take-off at 0° N 0° E; param4 NaN keeps the
    /// heading. ArduCopter reads only param3 and param7 (ArduCopter/GCS_Mavlink.cpp
    /// `handle_MAV_CMD_NAV_TAKEOFF`: "param3 : horizontal navigation by pilot acceptable",
    /// `is_zero(packet.param3)` → must navigate; param4–6 "not supported"): param3 0 = the vehicle
    /// holds its horizontal position itself.
    func takeoffParameters(altitude: Float) -> [Float] {
        switch autopilot {
        case .ardupilot: [.nan, .nan, 0, .nan, .nan, .nan, altitude]
        case .px4: [.nan, .nan, .nan, .nan, .nan, .nan, altitude]
        }
    }

    /// The mode a HEARTBEAT `custom_mode` names, for notices ("GUIDED", "AUTO.LAND", "mode 42").
    func modeName(_ customMode: UInt32) -> String {
        switch autopilot {
        case .ardupilot: ArduCopterMode(rawValue: customMode).map { "\($0)".uppercased() } ?? "mode \(customMode)"
        case .px4: Self.px4Name(PX4Mode(customMode: customMode))
        }
    }

    /// PX4's names (`px4_custom_mode.h`, docs/mavlink.md §5.4).
    static func px4Name(_ mode: PX4Mode) -> String {
        let main = [1: "MANUAL", 2: "ALTCTL", 3: "POSCTL", 4: "AUTO", 5: "ACRO", 6: "OFFBOARD"][Int(mode.mainMode)]
        guard let main else { return "main mode \(mode.mainMode)" }
        guard mode.mainMode == PX4Mode.mainAuto else { return main }
        let sub = [1: "READY", 2: "TAKEOFF", 3: "LOITER", 4: "MISSION", 5: "RTL", 6: "LAND"][Int(mode.subMode)]
        return "AUTO." + (sub ?? "\(mode.subMode)")
    }
}

extension MAVLinkLinkConfiguration.Autopilot {
    /// The name of HEARTBEAT `custom_mode` on this autopilot ("GUIDED", "AUTO.LAND"; "mode 42" when unknown).
    public func modeName(_ customMode: UInt32) -> String { AutopilotProfile(self).modeName(customMode) }
}
