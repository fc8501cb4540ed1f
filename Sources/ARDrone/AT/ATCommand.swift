/// One AR.Drone 2.0 AT command, as a value without a sequence number.
///
/// Sequence numbers are assigned when commands are encoded (`ATEncoder`), never when they are
/// created, so the same desired state can be re-sent every tick (node-ar-drone `Client` +
/// `AtCommand.serialize`). Wire grammar per Parrot SDK 2.0.1 `ARDroneLib/Soft/Common/at_msgs.h`
/// (see `Tests/ARDroneProtocolTests/Fixtures/at-commands.md`).
public enum ATCommand: Sendable, Equatable {
    /// `AT*REF=<seq>,<input>`: take off / land / emergency toggle.
    case ref(REFInput)
    /// `AT*PCMD=<seq>,<flag>,<roll>,<pitch>,<gaz>,<yaw>`: progressive (attitude) command.
    case pcmd(ProgressiveCommand)
    /// `AT*PCMD_MAG=<seq>,<flag>,<roll>,<pitch>,<gaz>,<yaw>,<psi>,<psi_accuracy>`: progressive
    /// command plus the controlling device's heading (what the SDK sends on an AR.Drone 2).
    case pcmdMag(ProgressiveCommand, ControllerHeading)
    /// `AT*FTRIM=<seq>`: flat trim; the drone must be landed on a level surface.
    case ftrim
    /// `AT*CALIB=<seq>,<device>`: sensor calibration; magnetometer only while flying.
    case calib(CalibrationDevice)
    /// `AT*CONFIG=<seq>,"<key>","<value>"`: one configuration key.
    ///
    /// Both strings must be printable ASCII (0x20...0x7E) without `"`; the encoder rejects
    /// anything else with `ATEncodingError.invalidStringArgument`.
    case config(key: String, value: String)
    /// `AT*CONFIG_IDS=<seq>,"<session>","<user>","<application>"`: configuration context,
    /// sent by the SDK immediately before every `AT*CONFIG`. Same string rules as `config`.
    case configIDs(sessionID: String, userID: String, applicationID: String)
    /// `AT*CTRL=<seq>,<mode>,0`: control-thread mode; `.acknowledgeCommand` (5) clears state bit 6.
    case ctrl(ControlMode)
    /// `AT*COMWDG=<seq>`: reset the communication watchdog.
    case comwdg

    /// The command's wire name (the text between `AT*` and `=`).
    public var name: ATCommandName {
        switch self {
        case .ref: .ref
        case .pcmd: .pcmd
        case .pcmdMag: .pcmdMag
        case .ftrim: .ftrim
        case .calib: .calib
        case .config: .config
        case .configIDs: .configIDs
        case .ctrl: .ctrl
        case .comwdg: .comwdg
        }
    }

    /// `AT*CONFIG` for a boolean key, sent as `"TRUE"` / `"FALSE"`.
    ///
    /// SDK `ARDRONE_CONFIG_KEY_IMM` macro in `ardrone_at_mutex.c`; pyardrone `tests/test_at.py`.
    public static func config(key: String, boolValue: Bool) -> ATCommand {
        .config(key: key, value: boolValue ? "TRUE" : "FALSE")
    }

    /// `AT*CONFIG` for an integer key, sent as decimal text (`%d` in the SDK).
    public static func config(key: String, intValue: Int) -> ATCommand {
        .config(key: key, value: String(intValue))
    }
}

/// AT command names understood by this codec (Parrot SDK `at_msgs.h`).
///
/// `LED`, `ANIM`, `PMODE` and `MISC` exist but are not needed for follow-me; the decoder
/// rejects them as unknown.
public enum ATCommandName: String, Sendable, CaseIterable, Hashable {
    case ref = "REF"
    case pcmd = "PCMD"
    case pcmdMag = "PCMD_MAG"
    case ftrim = "FTRIM"
    case calib = "CALIB"
    case config = "CONFIG"
    case configIDs = "CONFIG_IDS"
    case ctrl = "CTRL"
    case comwdg = "COMWDG"

    /// `AT*<NAME>=` as static bytes, so encoding never allocates.
    var wirePrefix: StaticString {
        switch self {
        case .ref: "AT*REF="
        case .pcmd: "AT*PCMD="
        case .pcmdMag: "AT*PCMD_MAG="
        case .ftrim: "AT*FTRIM="
        case .calib: "AT*CALIB="
        case .config: "AT*CONFIG="
        case .configIDs: "AT*CONFIG_IDS="
        case .ctrl: "AT*CTRL="
        case .comwdg: "AT*COMWDG="
        }
    }
}

/// The `AT*REF` input bit field (SDK `ardrone_ui_bitfield_t`, `ARDroneLib/Soft/Common/config.h`).
///
/// The named constructors always include the SDK base `0x11540000` (bits 18, 20, 22, 24, 28 set:
/// `ardrone_tool_input_reset` in `ardrone_input.c`; docs/ardrone-protocol.md §2.3); REF values without those
/// bits were reported to corrupt stored trims (parrotsonjava.com 2011). `init(rawInput:)` exists only
/// to reproduce other clients' bytes (e.g. node-ar-drone's `AT*REF=n,512`, pyardrone's `AT*REF=100,20`)
/// and for decoding.
public struct REFInput: Sendable, Hashable {
    /// The 32 input bits, sent on the wire as the signed decimal of the same bit pattern (`%d`).
    public let rawValue: UInt32

    /// Bits 18, 20, 22, 24 and 28 (trim/x/y fields reset to 1) = 290717696.
    public static let sdkBaseBits: UInt32 = 0x1154_0000
    /// Bit 9, `ARDRONE_UI_BIT_START`: 1 = take off / stay flying, 0 = land.
    public static let startBit: UInt32 = 1 << 9
    /// Bit 8, `ARDRONE_UI_BIT_SELECT`: toggles the emergency state (cuts motors if flying).
    public static let selectBit: UInt32 = 1 << 8

    /// REF with the SDK base bits: `flying` sets bit 9, `emergencyToggle` sets bit 8.
    public init(flying: Bool, emergencyToggle: Bool = false) {
        rawValue = Self.sdkBaseBits
            | (flying ? Self.startBit : 0)
            | (emergencyToggle ? Self.selectBit : 0)
    }

    /// REF with exactly these bits and no base added. Prefer `init(flying:emergencyToggle:)`.
    public init(rawInput: UInt32) {
        rawValue = rawInput
    }

    /// Land / stay landed: 290717696 (0x11540000).
    public static let land = REFInput(flying: false)
    /// Take off / keep flying: 290718208 (0x11540200).
    public static let takeoff = REFInput(flying: true)
    /// Emergency toggle while landed: 290717952 (0x11540100).
    public static let emergencyToggle = REFInput(flying: false, emergencyToggle: true)

    /// Whether bit 9 (take off / stay flying) is set.
    public var requestsFlight: Bool { rawValue & Self.startBit != 0 }
    /// Whether bit 8 (emergency toggle) is set.
    public var togglesEmergency: Bool { rawValue & Self.selectBit != 0 }
    /// Whether all SDK base bits are present.
    public var hasSDKBaseBits: Bool { rawValue & Self.sdkBaseBits == Self.sdkBaseBits }
}

/// `AT*PCMD` flag bits (SDK `ardrone_api.h` `ARDRONE_PROGRESSIVE_CMD_FLAG`).
public struct PCMDFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Bit 0 `ARDRONE_PROGRESSIVE_CMD_ENABLE`: 1 = use the four values, 0 = hover on the spot.
    public static let progressive = PCMDFlags(rawValue: 1 << 0)
    /// Bit 1 `ARDRONE_PROGRESSIVE_CMD_COMBINED_YAW_ACTIVE`.
    public static let combinedYaw = PCMDFlags(rawValue: 1 << 1)
    /// Bit 2 `ARDRONE_MAGNETO_CMD_ENABLE` ("absolute control", pyardrone).
    public static let absoluteControl = PCMDFlags(rawValue: 1 << 2)

    /// Every bit defined by the SDK; the decoder rejects others.
    public static let allKnown: PCMDFlags = [.progressive, .combinedYaw, .absoluteControl]
}

/// The arguments of `AT*PCMD`: flags and four fractions of the configured maxima.
///
/// Each fraction is in [-1, 1] (SDK `ardrone_api.h`): roll × `control:euler_angle_max`,
/// pitch × `euler_angle_max`, gaz × `control:control_vz_max` (mm/s), yaw × `control:control_yaw`
/// (rad/s). Signs (SDK `ardrone_api.h`, node-ar-drone `PCMD_ALIASES`): **negative pitch = forward**,
/// positive roll = right, positive gaz = up, positive yaw = clockwise seen from above.
/// Sent as the Int32 bit pattern of each `Float` (guide §6.1).
///
/// The initializer guarantees only sendable values exist: finite values outside [-1, 1] are
/// clamped, and if any value is NaN or infinite the whole command becomes `.hover` (a controller
/// that produced garbage must not steer).
public struct ProgressiveCommand: Sendable, Equatable {
    /// Flag bits; without `.progressive` the drone hovers and ignores the four values.
    public let flags: PCMDFlags
    /// Roll ("phi"), fraction of the maximum bank angle; positive = bank right.
    public let rollFraction: Float
    /// Pitch ("theta"), fraction of the maximum bank angle; **negative = nose down, fly forward**.
    public let pitchFraction: Float
    /// Vertical speed, fraction of `control_vz_max`; positive = climb.
    public let gazFraction: Float
    /// Yaw rate, fraction of `control_yaw`; positive = clockwise seen from above.
    public let yawFraction: Float

    public init(
        flags: PCMDFlags = .progressive,
        rollFraction: Float = 0,
        pitchFraction: Float = 0,
        gazFraction: Float = 0,
        yawFraction: Float = 0
    ) {
        guard rollFraction.isFinite, pitchFraction.isFinite, gazFraction.isFinite, yawFraction.isFinite else {
            self.flags = []
            self.rollFraction = 0
            self.pitchFraction = 0
            self.gazFraction = 0
            self.yawFraction = 0
            return
        }
        self.flags = flags
        self.rollFraction = clampedToUnit(rollFraction)
        self.pitchFraction = clampedToUnit(pitchFraction)
        self.gazFraction = clampedToUnit(gazFraction)
        self.yawFraction = clampedToUnit(yawFraction)
    }

    /// Flag 0 and all values 0: hold position (`AT*PCMD=<seq>,0,0,0,0,0`).
    public static let hover = ProgressiveCommand(flags: [])

    /// Whether the drone will hover on the spot (progressive bit clear; values are ignored).
    public var isHover: Bool { !flags.contains(.progressive) }
}

/// The extra `AT*PCMD_MAG` arguments: the controlling device's heading and its accuracy.
///
/// Both are fractions in [-1, 1] (SDK `ardrone_api.h`: "floating value between -1 to +1");
/// non-finite values become 0 and finite ones are clamped. The SDK sends 0, 0 when unset.
public struct ControllerHeading: Sendable, Equatable {
    /// Controller heading ("psi") as a fraction in [-1, 1].
    public let psiFraction: Float
    /// Heading accuracy ("psi_accuracy") as a fraction in [-1, 1].
    public let psiAccuracyFraction: Float

    public init(psiFraction: Float = 0, psiAccuracyFraction: Float = 0) {
        self.psiFraction = psiFraction.isFinite ? clampedToUnit(psiFraction) : 0
        self.psiAccuracyFraction = psiAccuracyFraction.isFinite ? clampedToUnit(psiAccuracyFraction) : 0
    }

    /// Psi 0, accuracy 0: what the SDK sends when no device heading is known.
    public static let unknown = ControllerHeading()
}

/// `AT*CALIB` device (SDK `ardrone_api.h` `ARDRONE_CALIBRATION_DEVICE`).
public enum CalibrationDevice: Int32, Sendable, CaseIterable {
    /// `ARDRONE_CALIBRATION_DEVICE_MAGNETOMETER` = 0; the drone yaws a full turn while flying.
    case magnetometer = 0
}

/// `AT*CTRL` mode (SDK `ardrone_api.h` `ARDRONE_CONTROL_MODE`).
public enum ControlMode: Int32, Sendable, CaseIterable {
    /// `NO_CONTROL_MODE`: doing nothing.
    case none = 0
    /// `ARDRONE_UPDATE_CONTROL_MODE` (not used).
    case ardroneUpdate = 1
    /// `PIC_UPDATE_CONTROL_MODE` (not used).
    case picUpdate = 2
    /// `LOGS_GET_CONTROL_MODE` (not used).
    case logsGet = 3
    /// `CFG_GET_CONTROL_MODE`: send the configuration file on the control port (TCP 5559).
    case configurationGet = 4
    /// `ACK_CONTROL_MODE`: reset the command-ACK bit (state bit 6) after a CONFIG.
    case acknowledgeCommand = 5
    /// `CUSTOM_CFG_GET_CONTROL_MODE`: list the custom configuration IDs.
    case customConfigurationGet = 6
}

/// Clamps a finite value into [-1, 1], preserving -0.0 so bit patterns survive a round trip.
@inline(__always)
func clampedToUnit(_ value: Float) -> Float {
    if value > 1 { return 1 }
    if value < -1 { return -1 }
    return value
}
