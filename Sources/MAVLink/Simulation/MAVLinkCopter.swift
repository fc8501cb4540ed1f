import FollowCore
import MAVLink

/// A simulated ArduPilot-like Copter that speaks MAVLink: modes, arming checks, GUIDED take-off,
/// velocity set-points, LAND with auto-disarm, and the telemetry a ground station reads
/// (docs/mavlink.md §8). With `parameters.autopilot` `.px4` it speaks PX4 instead: PX4's modes and
/// parameters, NAV_TAKEOFF in AUTO.TAKEOFF to an AMSL altitude, set-points flown only in OFFBOARD, the
/// offboard-loss failsafe, and a home altitude that moves after take-off (MAVLinkCopter+PX4.swift).
///
/// Pure: time is an argument. Feed it the frames a ground station sent with `receive(_:at:)`
/// (it answers COMMAND_ACK and STATUSTEXT at once) and move time with `advance(to:)` (it returns
/// the telemetry due); the shell numbers and sends what both return. Like `DroneSimulator`, the
/// state sits on a fixed step grid (`DroneDynamics.stepSeconds`) at the last boundary ≤ the latest `now`.
///
/// The airframe is `DroneSimulator`'s (docs/dynamics-and-follow.md §1.4): v̇ = c1·(c2·sin(tilt) −
/// (v − wind)), yaw rate first-order with c5. Who chooses the tilt is ArduCopter's GUIDED velocity
/// path (`GuidedVelocityController`, docs/mavlink.md §8.4): the set-point shaped with the
/// acceleration and jerk limits into a path whose integrated position and velocity a square-root
/// position P and a velocity PID track, the demand cut at the lean limit, the lean shaped by
/// `ATC_INPUT_TC`; the tilt follows that target first-order (`attitudeTrackingTimeConstantSeconds`).
/// Vertical speed follows its target first-order with `verticalTimeConstantSeconds`.
public struct MAVLinkCopter: Sendable {
    /// Where the copter is in its flight, as its land detector sees it.
    public enum Phase: Sendable, Hashable {
        /// On the ground (armed or not).
        case onGround
        /// Climbing to `targetAltitudeMeters` after NAV_TAKEOFF.
        case takingOff(targetAltitudeMeters: Double)
        /// Airborne (in LAND mode this is the descent: `landedState` says LANDING).
        case flying
    }

    /// The stages of RTL as the model flies them (ArduCopter `mode_rtl.cpp`: climb, return, loiter,
    /// final descent; the model skips the loiter above home, `RTL_LOIT_TIME`).
    public enum RTLStage: Sendable, Hashable {
        /// Climbing to `RTL_ALT` (`rtlAltitudeMeters`) where it is; skipped when already that high.
        case climb
        /// Flying back over home at the height reached.
        case returnHome
        /// Descending at `LAND_SPEED` onto home; disarms on touch-down.
        case descend
    }

    // MARK: Parameters

    public internal(set) var parameters: MAVLinkCopterParameters
    public let dynamics: DroneDynamics
    /// The local plane whose origin is home (GLOBAL_POSITION_INT lat/lon come from it).
    public let plane: LocalPlane

    // MARK: State

    /// Simulated time of the state (a step boundary).
    public internal(set) var time: MonotonicTime
    /// When the copter "booted" (`time_boot_ms` counts from here).
    public let bootTime: MonotonicTime
    /// The flight mode, as ArduCopter numbers it. A PX4 copter flies the same behaviours under PX4's
    /// names (`px4Mode(of:)`: GUIDED is OFFBOARD, BRAKE is AUTO.LOITER, AUTO is AUTO.TAKEOFF, LOITER is POSCTL).
    public internal(set) var mode: ArduCopterMode = .stabilize
    public internal(set) var isArmed = false
    public internal(set) var phase: Phase = .onGround
    /// Whether the copter has a 3D GPS fix (arming check; modes needing a position). A
    /// fault-injection hook; default true.
    public var hasGPSFix = true
    /// How far the autopilot's home altitude has moved since arming, metres (up positive), beside the
    /// moves `parameters.homeAltitudeSteps` schedules: what `relative_alt` is measured from beside the
    /// true height. 0 for ArduPilot (home is set at arming); PX4 re-estimates its home altitude in the
    /// first minutes of a flight (`relative_alt` = −(lpos.z − home.z), its mavlink GLOBAL_POSITION_INT
    /// stream; docs/mavlink.md §7.2). A fault-injection hook; `alt` (MSL) never moves with it.
    public var homeAltitudeShiftMeters = 0.0
    /// When the copter last left the ground since it was armed (`homeAltitudeSteps` count from here); nil
    /// while it has not.
    public internal(set) var liftOffAt: MonotonicTime?
    /// When the last well-formed velocity set-point arrived, whatever the mode: PX4's "offboard signal",
    /// which OFFBOARD needs to be entered and to stay in (`COM_OF_LOSS_T`).
    public internal(set) var lastSetpointAt: MonotonicTime?
    /// PX4: the take-off altitude above home NAV_TAKEOFF asked for while still disarmed (the climb
    /// starts when armed in AUTO.TAKEOFF).
    var pendingTakeoffMeters: Double?
    /// When a LAND (or RTL) that touched down disarms (`parameters.landedDisarmSeconds` after touch-down).
    var landedDisarmAt: MonotonicTime?
    /// Wind in force, m/s ENU: starts as `dynamics.windENU`; a caller may change it between
    /// `advance` calls (e.g. from a `WindModel`).
    public var windENU: PlaneVector
    /// Battery charge, percent 0–100 (drains with `DroneDynamics`' rates: flying while armed).
    public internal(set) var batteryPercent: Double

    /// The GUIDED velocity set-point in force, m/s ENU + climb (up) + yaw rate, and when it came.
    public internal(set) var setpoint: VelocitySetpoint?
    /// Seconds the copter has been armed on the ground without taking off (auto-disarm).
    var idleOnGroundSeconds = 0.0
    /// The horizontal position/velocity controller while airborne (nil on the ground), and the mode
    /// it was started in: a mode change starts it again from the airframe's state, as each Copter
    /// mode's init does (`init_xy_controller`).
    public internal(set) var horizontalController: GuidedVelocityController?
    var horizontalControllerMode: ArduCopterMode?

    // GCS failsafe and the modes it enters (docs/mavlink.md §8.5)

    /// When the last HEARTBEAT from the ground station whose system id is `SYSID_MYGCS`
    /// (`parameters.groundStationSystemID`) arrived; nil = never (the GCS failsafe waits for one).
    public internal(set) var groundStationHeartbeatAt: MonotonicTime?
    /// Whether the GCS failsafe is in force (`failsafe.gcs` of ArduCopter).
    public internal(set) var isGCSFailsafeActive = false
    /// Until when LAND holds its height before descending (a failsafe's "land with pause"), or nil.
    var landPauseUntil: MonotonicTime?
    /// Home in the plane, where RTL returns to: the start position, then wherever the copter was
    /// armed (ArduCopter sets home on arming).
    public internal(set) var homePlane: PlaneVector
    /// Where RTL is in its flight (nil outside RTL).
    public internal(set) var rtlStage: RTLStage?
    /// Where DO_SET_ROI_LOCATION last told the camera (and ArduCopter's yaw) to look: latitude,
    /// longitude (degrees), altitude (m); nil before one, and after DO_SET_ROI_NONE.
    public internal(set) var regionOfInterest: (latitudeDegrees: Double, longitudeDegrees: Double, altitudeMeters: Double)?
    /// ArduCopter's auto-yaw mode is ROI: the nose turns to `regionOfInterest` (autoyaw.cpp `set_roi`, no
    /// mount that pans: `parameters.mountType` 0). Ended by the next GUIDED set-point whatever its yaw bits
    /// (mode_guided.cpp `set_yaw_state`), by DO_SET_ROI_NONE and by a mode change.
    public internal(set) var yawsToRegionOfInterest = false
    /// The camera records video (`parameters.cameraType` 6, after an accepted VIDEO_START_CAPTURE), and since when.
    public internal(set) var isRecordingVideo = false
    public internal(set) var videoRecordingStartedAt: MonotonicTime?
    /// Camera-protocol commands received (REQUEST_MESSAGE, VIDEO_START_CAPTURE, VIDEO_STOP_CAPTURE), whatever their
    /// result, by the sending system id.
    public internal(set) var cameraCommandsBySystem: [UInt8: Int] = [:]

    // MARK: Ground truth

    /// Position, velocity, height, nose and tilt (`AirframeTruth`), read as this type's own through
    /// `SimulatedAirframe` (`positionPlane`, `velocityENU`, …).
    public internal(set) var truth: AirframeTruth

    /// Telemetry streams in message-id order: interval (nil = off) and next send time (an array, not
    /// a dictionary: it is walked every physics step).
    var streams: [TelemetryStream]
    /// What happened so far (for status lines and tests).
    public internal(set) var counters = Counts<MAVLinkCopterCounter>()
    /// COMMAND_LONG and COMMAND_INT addressed to this copter, by the system id of the frame that carried
    /// them (whatever the result): who asked the vehicle to do something.
    public internal(set) var commandsBySystem: [UInt8: Int] = [:]
    /// SET_POSITION_TARGET_LOCAL_NED addressed to this copter, by the sending system id, flown or ignored.
    public internal(set) var setpointsBySystem: [UInt8: Int] = [:]

    // Step constants.
    let physicsStep: PhysicsStep
    let verticalAlpha: Double
    let attitudeTrackingAlpha: Double

    /// A disarmed copter in STABILIZE on the ground at `positionPlane` of `plane`, nose at
    /// `noseHeadingDegrees`, booted at `start`.
    public init(
        parameters: MAVLinkCopterParameters = MAVLinkCopterParameters(),
        dynamics: DroneDynamics = .standard,
        plane: LocalPlane,
        start: MonotonicTime = .zero,
        positionPlane: PlaneVector = .zero,
        noseHeadingDegrees: Double = 0
    ) {
        self.parameters = parameters
        self.dynamics = dynamics
        self.plane = plane
        time = start
        bootTime = start
        truth = AirframeTruth(positionPlane: positionPlane, noseHeadingDegrees: noseHeadingDegrees)
        homePlane = positionPlane
        windENU = dynamics.windENU
        batteryPercent = min(max(dynamics.initialBatteryPercent, 0), 100)
        // PX4 without RC starts in Hold (AUTO.LOITER), ArduPilot in STABILIZE.
        if parameters.autopilot == .px4 { mode = .brake }
        physicsStep = PhysicsStep(dynamics)
        verticalAlpha = 1 - _exp(-physicsStep.seconds / parameters.verticalTimeConstantSeconds)
        attitudeTrackingAlpha = parameters.attitudeTrackingTimeConstantSeconds > 0
            ? 1 - _exp(-physicsStep.seconds / parameters.attitudeTrackingTimeConstantSeconds) : 1
        streams = parameters.defaultIntervalsSeconds.sorted { $0.key < $1.key }
            .map { TelemetryStream(messageID: $0.key, intervalSeconds: $0.value,
                                   nextAt: start.adding(seconds: Self.firstSlotDelaySeconds($0.key, interval: $0.value))) }
    }

    /// How long after a stream starts (boot, SET_MESSAGE_INTERVAL) its first message goes out, seconds:
    /// 0, but half an interval for SYS_STATUS. ArduPilot sends it in its EXT_STAT group, after the
    /// position (SRn_EXT_STAT defaults 0 on Copter: libraries/GCS_MAVLink/GCS_MAVLink_Parameters.cpp), so a
    /// ground station that starts listening hears GLOBAL_POSITION_INT (10 Hz) before any SYS_STATUS
    /// (2 Hz): FollowMe must read "no battery value yet" as unknown, not as empty (docs/mavlink.md §7.2).
    static func firstSlotDelaySeconds(_ messageID: UInt32, interval: Double?) -> Double {
        messageID == SysStatus.messageID ? (interval ?? 0) / 2 : 0
    }

    // MARK: Derived state

    /// EXTENDED_SYS_STATE `landed_state`: on ground, taking off, in air, or landing (airborne in LAND).
    public var landedState: MAVLandedState {
        switch phase {
        case .onGround: .onGround
        case .takingOff: .takeoff
        case .flying: mode == .land ? .landing : .inAir
        }
    }

    /// True while off the ground (taking off or flying).
    public var isAirborne: Bool { phase != .onGround }

    /// What the onboard receiver sees (`GPSPairSimulator`).
    public var gpsTruth: GPSTruthSample {
        GPSTruthSample(positionPlane: positionPlane, velocityENU: velocityENU, altitudeMeters: altitudeMeters,
                       noseHeadingDegrees: noseHeadingDegrees)
    }

    // MARK: Fault hooks

    /// Sets the battery charge at `now` (advancing first), percent, clamped to 0…100; non-finite ignored.
    public mutating func setBatteryPercent(_ percent: Double, at now: MonotonicTime) -> [any MAVLinkMessage] {
        let due = advance(to: now)
        if percent.isFinite { batteryPercent = min(max(percent, 0), 100) }
        return due
    }

    /// Switches to LAND on the copter's own initiative at `now` (a failsafe the model does not
    /// simulate; the `land` control command). Returns what is due, and false if not airborne.
    public mutating func beginAutomaticLanding(at now: MonotonicTime) -> (messages: [any MAVLinkMessage], started: Bool) {
        var out = advance(to: now)
        guard isAirborne else { return (out, false) }
        out += changeMode(to: .land, reason: "failsafe")
        return (out, true)
    }
}

/// A GUIDED velocity set-point as the copter holds it (SET_POSITION_TARGET_LOCAL_NED, rotated to
/// the world when it was sent in a body frame).
public struct VelocitySetpoint: Sendable, Hashable {
    /// Horizontal velocity, m/s east/north.
    public var velocityENU: PlaneVector
    /// Vertical speed, m/s, positive up (NED vz negated).
    public var climbMetersPerSecond: Double
    /// Yaw rate, degrees per second clockwise; nil = hold the heading (or turn to `yawDegrees`).
    public var yawRateDegreesPerSecond: Double?
    /// Heading to turn to, compass degrees; nil = none.
    public var yawDegrees: Double?
    /// When it arrived (the guided timeout counts from here).
    public var receivedAt: MonotonicTime
}

/// One telemetry stream: its message, interval (nil = stopped) and when it is next due.
struct TelemetryStream: Sendable, Hashable {
    let messageID: UInt32
    var intervalSeconds: Double?
    var nextAt: MonotonicTime
}

/// What `MAVLinkCopter` counts:
/// - `commands`: COMMAND_LONG for this copter; `commandsRefused`: answered with a result other than ACCEPTED;
/// - `setpoints`: velocity set-points flown; `setpointsIgnored`: set-points not flown (not GUIDED,
///   not airborne or armed, an unsupported frame or type mask);
/// - `guidedTimeouts`: times a set-point went stale and the copter stopped;
/// - `messagesIgnored`: frames for another system, or of a type the copter does not handle;
/// - `pilotModeChanges`: mode switches by the simulated RC pilot (`pilotModeSwitch`);
/// - `gcsFailsafes`: times the GCS failsafe triggered; `offboardLosses`: times PX4's offboard-loss failsafe did.
public enum MAVLinkCopterCounter: String, CaseIterable, Sendable, Hashable {
    case commands, commandsRefused = "commands_refused", setpoints, setpointsIgnored = "setpoints_ignored"
    case guidedTimeouts = "guided_timeouts", messagesIgnored = "messages_ignored"
    case pilotModeChanges = "pilot_mode_changes", gcsFailsafes = "gcs_failsafes"
    case offboardLosses = "offboard_losses"
}

/// The autopilot's own numbers (ArduPilot Copter parameters where one exists; docs/mavlink.md §8.1).
public struct MAVLinkCopterParameters: Sendable, Hashable {
    /// Whose firmware the copter runs: its HEARTBEAT, mode numbers, parameters and take-off (docs/mavlink.md §8.6).
    public var autopilot = SimulatedAutopilot.ardupilot
    /// MAVLink ids the copter sends with: system 1, component 1 (`MAV_COMP_ID_AUTOPILOT1`), the usual vehicle.
    public var systemID: UInt8 = 1
    public var componentID: UInt8 = 1

    // GUIDED horizontal velocity path (`GuidedVelocityController`; docs/mavlink.md §8.4). Defaults are
    // ArduCopter 4.1–4.6's; each names the parameter and where its default is defined.

    /// Largest acceleration of the shaped path, m/s²: `WPNAV_ACCEL` default 250 cm/s²
    /// (`libraries/AC_WPNav/AC_WPNav.h` `WPNAV_ACCELERATION`; 2.5 m/s² as `WP_ACC` in newer master),
    /// which `ModeGuided::pva_control_start` hands to the position controller.
    public var maxHorizontalAccelerationMetersPerSecondSquared = 2.5
    /// Jerk limit of the shaped path, m/s³: `PSC_JERK_XY` default 5 (`AC_PosControl.h`
    /// `POSCONTROL_JERK_XY`; `POSCONTROL_JERK_NE` in master). `set_max_speed_accel_xy` lowers it only
    /// below the attitude controller's limits: with `ATC_RATE_R_MAX` 0 and `ATC_ACCEL_R_MAX` 110000 cdeg/s²
    /// that bound is ½·√(2.5·19.2·g) ≈ 10.9 m/s³, so 5 stands.
    public var horizontalJerkMetersPerSecondCubed = 5.0
    /// Largest position-correction speed, m/s: `WPNAV_SPEED` default 1000 cm/s (`AC_WPNav.h`
    /// `WPNAV_WP_SPEED`, Copter 4.1+), set as the correction speed by `pva_control_start`. It caps the
    /// position error the P controller keeps (≈ 21 m with the defaults); GUIDED velocity set-points
    /// themselves are not limited (`input_vel_accel_xy(…, limit_output: false)`).
    public var maxHorizontalSpeedMetersPerSecond = 10.0
    /// Position P gain, s⁻¹: `PSC_POSXY_P` default 1.0 (`AC_PosControl.cpp` `POSCONTROL_POS_XY_P`).
    public var positionGainPerSecond = 1.0
    /// Velocity PID: `PSC_VELXY_P` 2.0 s⁻¹, `PSC_VELXY_I` 1.0 s⁻², `PSC_VELXY_D` 0.5 (dimensionless),
    /// `PSC_VELXY_IMAX` 1000 cm/s², `PSC_VELXY_FLTE` and `_FLTD` 5 Hz (`AC_PosControl.cpp`
    /// `POSCONTROL_VEL_XY_*` for Copter; FF 0).
    public var velocityPPerSecond = 2.0
    public var velocityIPerSecond = 1.0
    public var velocityD = 0.5
    public var velocityIMaxMetersPerSecondSquared = 10.0
    public var velocityErrorFilterHertz = 5.0
    public var velocityDerivativeFilterHertz = 5.0
    /// Whether the integrated position target corrects the velocity: `GUID_OPTIONS` default 0
    /// (`ArduCopter/Parameters.cpp`) leaves bit 4 "do not stabilize position XY" clear, so
    /// `ModeGuided::stabilizing_pos_xy()` is true and `velaccel_control_run` keeps the position error.
    public var stabilizesPosition = true
    /// Attitude input time constant, seconds: `ATC_INPUT_TC` default 0.15
    /// (`AC_AttitudeControl.h` `AC_ATTITUDE_CONTROL_INPUT_TC_DEFAULT`).
    public var attitudeInputTimeConstantSeconds = 0.15
    /// Largest roll/pitch angular acceleration of the attitude target, rad/s²: `ATC_ACCEL_R_MAX` and
    /// `ATC_ACCEL_P_MAX` default 110000 cdeg/s² (`AC_AttitudeControl.h`
    /// `AC_ATTITUDE_CONTROL_ACCEL_RP_MAX_DEFAULT_CDSS`), 1100 °/s².
    public var maxLeanAngularAccelerationRadiansPerSecondSquared = 1100 * Double.pi / 180
    /// How fast the airframe's tilt follows the attitude target: a first-order lag, seconds. Our
    /// choice (0.05 s): with rate feed-forward on (`ATC_RATE_FF_ENAB` 1) the rate loops track the
    /// shaped target closely; ArduPilot has no such parameter. The AR.Drone tilt lag c3 of
    /// `DroneDynamics` is not used by this copter.
    public var attitudeTrackingTimeConstantSeconds = 0.05
    /// A pure delay between the attitude target and the airframe, seconds. 0 (ArduCopter has none to
    /// speak of); the off-model preset sets one.
    public var actuationDelaySeconds = 0.0
    /// Time constant of the vertical speed loop, seconds. Our choice.
    public var verticalTimeConstantSeconds = 0.3
    /// Largest lean angle, radians: ArduPilot `ANGLE_MAX` default 3000 cdeg (30°; `ArduCopter/config.h`
    /// `DEFAULT_ANGLE_MAX` of Copter 3.x–4.x, newer master uses 45°).
    public var maxLeanAngleRadians = 30 * Double.pi / 180
    /// Largest climb and descent speeds in GUIDED and take-off, m/s: `WPNAV_SPEED_UP` 250 cm/s and
    /// `WPNAV_SPEED_DN` 150 cm/s defaults (`AC_WPNav.h`).
    public var maxClimbMetersPerSecond = 2.5
    public var maxDescentMetersPerSecond = 1.5
    /// Descent speed in LAND, m/s: `LAND_SPEED` default 50 cm/s (`ArduCopter/config.h`).
    public var landDescentMetersPerSecond = 0.5
    /// Seconds from touch-down in LAND to the disarm: the land detector's confirmation and the spool-down
    /// to ground idle. 2 s: a real ArduCopter SITL (4.7.0-dev) disarmed 2.1 s after touch-down.
    public var landedDisarmSeconds = 2.0
    /// `MNT1_TYPE` (libraries/AP_Mount/AP_Mount_Params.cpp): 0 = no mount (the default; a region of interest
    /// turns the vehicle), anything else = a mount that pans (a region of interest turns the mount only).
    public var mountType = 0
    /// `CAM1_TYPE` (libraries/AP_Camera/AP_Camera.h): 0 = no camera (ArduCopter's default: REQUEST_MESSAGE
    /// CAMERA_INFORMATION is ACCEPTED and nothing is sent, VIDEO_START_CAPTURE FAILED); 6 = a MAVLink camera
    /// (MAVLinkCamV2) that records video; the others as ArduPilot's own back-ends answered on a real SITL (1 servo,
    /// 2 relay, 4 servo mount, 5 the older MAVLink camera, 7 scripting, 8 RunCam; none says CAPTURE_VIDEO):
    /// MAVLinkCopter+Camera.swift, docs/mavlink.md §8.7.
    public var cameraType = 0
    /// Largest yaw rate, degrees per second. Our choice (ArduPilot's `ATC_RATE_Y_MAX` 0 = no limit).
    public var maxYawRateDegreesPerSecond = 90.0
    /// A GUIDED velocity set-point older than this stops the copter, seconds: ArduPilot
    /// `mode_guided.cpp` `GUIDED_POSVEL_TIMEOUT_MS` 3000 (the `GUID_TIMEOUT` parameter, 3 s, in newer versions).
    public var guidedTimeoutSeconds = 3.0
    /// Armed on the ground without taking off this long → disarm, seconds: `DISARM_DELAY` default 10
    /// (`AUTO_DISARMING_DELAY`, `ArduCopter/config.h`).
    public var autoDisarmSeconds = 10.0
    /// GCS failsafe action, `FS_GCS_ENABLE` (`ArduCopter/Parameters.cpp`; `failsafe_gcs_on_event` in
    /// `ArduCopter/events.cpp`): 0 disabled, 1 and 2 RTL, 3 SmartRTL or RTL, 4 SmartRTL or LAND, 5 LAND,
    /// 6 AUTO DO_LAND_START or RTL, 7 BRAKE or LAND; any other value RTL. The model has no SmartRTL and
    /// no mission, so 3 and 6 fly RTL and 4 LAND (the fallbacks ArduCopter takes when those modes
    /// cannot be entered). ArduCopter ships 0; this simulation defaults to 5 (LAND), what
    /// docs/mavlink.md §10 asks of a vehicle FollowMe flies (`followme sim --fs-gcs-enable`).
    public var gcsFailsafeAction = 5
    /// Seconds without a HEARTBEAT from `SYSID_MYGCS` before the GCS failsafe: `FS_GCS_TIMEOUT` default
    /// 5 s (`ArduCopter/Parameters.cpp`, range 2–120).
    public var gcsFailsafeTimeoutSeconds = 5.0
    /// The ground station whose HEARTBEAT the GCS failsafe watches, `SYSID_MYGCS` (ArduPilot default
    /// 255; here FollowMe's default 245, as docs/mavlink.md §10 asks). Only HEARTBEATs count
    /// (`GCS_MAVLINK::handle_heartbeat` in `libraries/GCS_MAVLink/GCS_Common.cpp`).
    public var groundStationSystemID: UInt8 = 245
    /// The name this firmware gives `groundStationSystemID`: `MAV_GCS_SYSID` in current ArduPilot (the
    /// ArduCopter SITL flown for docs/mavlink.md §7.8 has it, and neither `SYSID_MYGCS` nor
    /// `MAV_GCS_SYSID_HI`), `SYSID_MYGCS` before. The other name gets no answer, as on ArduPilot.
    public var groundStationIDParameterName = "MAV_GCS_SYSID"
    /// `FS_OPTIONS` bitmask (`ArduCopter/Parameters.cpp`): default 16, bit 4 "continue if in pilot
    /// controlled modes on GCS failsafe" (`FailsafeOption::GCS_CONTINUE_IF_PILOT_CONTROL`); bit 3 (8)
    /// "continue if landing". The model reads these two bits.
    public var failsafeOptions: UInt32 = 16
    /// RTL's return height, metres: `RTL_ALT` default 1500 cm (`ArduCopter/config.h`); a copter
    /// already higher returns at its height.
    public var rtlAltitudeMeters = 15.0
    /// How long a failsafe's LAND holds its height before descending, seconds: `LAND_WITH_DELAY_MS`
    /// 4000 (`set_mode_land_with_pause`, `ArduCopter/events.cpp`; "pause 4 seconds before beginning
    /// land descent", `ArduCopter/mode_land.cpp`).
    public var landPauseSeconds = 4.0
    /// Height of home above mean sea level, metres (GLOBAL_POSITION_INT `alt`). Our round figure
    /// for central Paris, as `SimulatorConfiguration.groundHAEMeters`.
    public var homeAltitudeMSLMeters = 35.0
    /// Battery voltage full and empty (a 4S pack: 4.2 and 3.5 V per cell), millivolts. Our choice,
    /// linear in the charge.
    public var batteryFullMillivolts = 16_800.0
    public var batteryEmptyMillivolts = 14_000.0
    /// Default telemetry intervals by message id, seconds: HEARTBEAT 1 Hz; GLOBAL_POSITION_INT
    /// and ATTITUDE 4 Hz; SYS_STATUS and EXTENDED_SYS_STATE 1 Hz (docs/mavlink.md §8.1;
    /// SET_MESSAGE_INTERVAL changes them, 0 restores these). Each stream's first message goes out at
    /// once, SYS_STATUS's half an interval later (`MAVLinkCopter.firstSlotDelaySeconds`).
    public var defaultIntervalsSeconds: [UInt32: Double] = [
        Heartbeat.messageID: 1, GlobalPositionInt.messageID: 0.25, Attitude.messageID: 0.25,
        SysStatus.messageID: 1, ExtendedSysState.messageID: 1,
    ]

    // PX4 (`autopilot` .px4; src/modules/commander/commander_params.c, docs/mavlink.md §8.6)

    /// `COM_OF_LOSS_T`: seconds without a set-point before the offboard signal counts as lost (default 1).
    public var offboardLossTimeoutSeconds = 1.0
    /// `COM_OBL_RC_ACT`: what offboard loss does (0 Position, 1 Altitude, 2 Manual, 3 Return, 4 Land,
    /// 5 Hold, 6 Terminate, 7 Disarm; PX4's default 0).
    public var offboardLossAction = 0
    /// `COM_OBL_ACT`, the action without RC, on the PX4 versions that have it (v1.13 and older: 0 Land,
    /// 1 Hold, 2 Return); nil = this version has no such parameter (it answers nothing for it).
    public var offboardLossActionWithoutRC: Int?
    /// How PX4's home altitude moves after lift-off (`homeAltitudeShiftMeters`): each step adds its
    /// metres once `afterLiftOffSeconds` have passed since the copter left the ground.
    public var homeAltitudeSteps: [HomeAltitudeStep] = []

    public init() {}

    /// A PX4 multicopter as docs/mavlink.md §10 asks FollowMe's vehicle to be set up: PX4's defaults
    /// (`MPC_ACC_HOR` 3 m/s², `MPC_JERK_AUTO` 4 m/s³, `COM_OF_LOSS_T` 1 s, no GCS-loss failsafe:
    /// `NAV_DLL_ACT` 0) but `COM_OBL_RC_ACT` 4 (Land), on a version without `COM_OBL_ACT`, whose home
    /// altitude moves 2.5 m up 15 s after lift-off and 2.4 m down 45 s after: the size of the jumps a
    /// PX4 SITL (SIH) showed between two GLOBAL_POSITION_INT (docs/mavlink.md §7.2). Our choice of times.
    public static let px4: MAVLinkCopterParameters = {
        var p = MAVLinkCopterParameters()
        p.autopilot = .px4
        p.maxHorizontalAccelerationMetersPerSecondSquared = 3
        p.horizontalJerkMetersPerSecondCubed = 4
        p.gcsFailsafeAction = 0
        p.offboardLossAction = 4
        p.homeAltitudeSteps = [HomeAltitudeStep(afterLiftOffSeconds: 15, meters: 2.5),
                               HomeAltitudeStep(afterLiftOffSeconds: 45, meters: -2.4)]
        return p
    }()

    /// ArduCopter's defaults, as `init()` gives them.
    public static let standard = MAVLinkCopterParameters()

    /// A copter that is *not* ArduCopter's defaults nor the follow controller's model (our choice of
    /// factors, the same spirit as `DroneDynamics.offModel`): a softer attitude (`ATC_INPUT_TC` 0.3 s,
    /// tracking lag 0.12 s, 1/2 the angular acceleration), lower path limits (1.8 m/s², 3 m/s³),
    /// a weaker velocity PID (P 1.5, I 0.6, D 0.3) and a 60 ms actuation delay.
    public static let offModel: MAVLinkCopterParameters = {
        var p = MAVLinkCopterParameters()
        p.attitudeInputTimeConstantSeconds = 0.3
        p.attitudeTrackingTimeConstantSeconds = 0.12
        p.maxLeanAngularAccelerationRadiansPerSecondSquared /= 2
        p.maxHorizontalAccelerationMetersPerSecondSquared = 1.8
        p.horizontalJerkMetersPerSecondCubed = 3
        p.velocityPPerSecond = 1.5
        p.velocityIPerSecond = 0.6
        p.velocityD = 0.3
        p.actuationDelaySeconds = 0.06
        return p
    }()
}

extension MAVLinkCopter: SimulatedAirframe {}

/// The firmware a simulated copter runs.
public enum SimulatedAutopilot: String, Sendable, Hashable, CaseIterable {
    case ardupilot, px4
}

/// One move of PX4's home altitude after lift-off (`MAVLinkCopterParameters.homeAltitudeSteps`).
public struct HomeAltitudeStep: Sendable, Hashable {
    public var afterLiftOffSeconds: Double
    /// Up positive.
    public var meters: Double

    public init(afterLiftOffSeconds: Double, meters: Double) {
        self.afterLiftOffSeconds = afterLiftOffSeconds
        self.meters = meters
    }
}
