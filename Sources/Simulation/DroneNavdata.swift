/// Navdata state bits the simulator models (ARDroneLib `Soft/Common/config.h`
/// `def_ardrone_state_mask_t`; docs/ardrone-protocol.md §3.2).
public struct DroneStateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Bit 0 FLY: motors running and airborne (set from takeoff to touchdown).
    public static let flying = DroneStateFlags(rawValue: 1 << 0)
    /// Bit 6 COMMAND: config write acknowledged; cleared by `AT*CTRL=…,5,0`.
    public static let commandAck = DroneStateFlags(rawValue: 1 << 6)
    /// Bit 10 NAVDATA_DEMO: `general:navdata_demo` is TRUE.
    public static let navdataDemo = DroneStateFlags(rawValue: 1 << 10)
    /// Bit 15 VBAT_LOW: battery below `DroneDynamics.lowBatteryPercent`.
    public static let batteryLow = DroneStateFlags(rawValue: 1 << 15)
    /// Bit 30 COM_WATCHDOG: no AT command for `general:com_watchdog` seconds (or none yet).
    public static let comWatchdog = DroneStateFlags(rawValue: 1 << 30)
    /// Bit 31 EMERGENCY: motors cut.
    public static let emergency = DroneStateFlags(rawValue: 1 << 31)
}

/// Major control states (ARDroneLib `Soft/Common/control_states.h` CTRL_STATES; docs/ardrone-protocol.md §3.4).
public enum ControlStateMajor: UInt16, Sendable, Hashable {
    /// CTRL_DEFAULT. The SDK has no emergency control state; we report DEFAULT during an
    /// emergency (our choice, so that it can never be mistaken for LANDED/FLYING). Clients must
    /// key off state bit 31, not this.
    case `default` = 0
    /// CTRL_INIT.
    case initializing = 1
    case landed = 2
    /// Progressive commands (PCMD flag bit 0 = 1) in force.
    case flying = 3
    /// Auto-hover (PCMD flag bit 0 = 0, or lost com).
    case hovering = 4
    case test = 5
    case transTakeoff = 6
    case transGotofix = 7
    case transLanding = 8
    case transLooping = 9
}

/// Minor control states the simulator reports (control_states.h HOVERING_STATES).
public enum ControlStateMinor {
    /// FLYING_OK / HOVERING_OK / the only minor of the other majors.
    public static let ok: UInt16 = 0
    /// HOVERING_LOST_COM: hovering because the com watchdog tripped.
    public static let hoveringLostCom: UInt16 = 8
}

/// What the simulated drone would put in a navdata packet's header state and demo option
/// (docs/ardrone-protocol.md §3.4), in the drone's own units and frames.
public struct SimulatedNavdata: Sendable, Hashable {
    /// Header `ardrone_state`.
    public var state: DroneStateFlags
    public var controlStateMajor: ControlStateMajor
    public var controlStateMinor: UInt16
    /// `vbat_flying_percentage`, percent 0–100.
    public var batteryPercent: UInt32
    /// Pitch, millidegrees, positive = nose up (negative while flying forward).
    public var thetaMillidegrees: Float
    /// Roll, millidegrees, positive = right side down.
    public var phiMillidegrees: Float
    /// Yaw, millidegrees in [−180000, 180000), clockwise positive from true north (an ideal
    /// magnetometer-fused heading).
    public var psiMillidegrees: Float
    /// Altitude above ground, mm.
    public var altitudeMillimeters: Int32
    /// Ground velocity in the body frame, mm/s: x forward, y right, z down.
    public var vxMillimetersPerSecond: Float
    public var vyMillimetersPerSecond: Float
    public var vzMillimetersPerSecond: Float

    /// The demo option's `ctrl_state` word: major << 16 | minor.
    public var ctrlState: UInt32 { UInt32(controlStateMajor.rawValue) << 16 | UInt32(controlStateMinor) }
}
