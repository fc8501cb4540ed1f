import Geometry
import MAVLink
import Observations

/// A simulated ArduPilot-like Copter that speaks MAVLink: modes, arming checks, GUIDED take-off,
/// velocity set-points, LAND with auto-disarm, and the telemetry a ground station reads
/// (docs/mavlink.md §8).
///
/// Pure: time is an argument. Feed it the frames a ground station sent with `receive(_:at:)`
/// (it answers COMMAND_ACK and STATUSTEXT at once) and move time with `advance(to:)` (it returns
/// the telemetry due); the shell numbers and sends what both return. Like `DroneSimulator`, the
/// state sits on a fixed step grid (`DroneDynamics.stepSeconds`) at the last boundary ≤ the latest `now`.
///
/// The plant is `DroneSimulator`'s (docs/dynamics-and-follow.md §1.4): the world tilt follows its
/// reference first-order with c3, v̇ = c1·(c2·sin(tilt) − (v − wind)), yaw rate first-order with c5.
/// What differs is who chooses the tilt: here the autopilot's velocity loop, which asks for the
/// acceleration (v_target − v)/τ (τ = `Parameters.velocityTimeConstantSeconds`) and leans the
/// tilt that gives it, up to `maxLeanAngleRadians` — a first-order velocity response with its own
/// time constant, not the AR.Drone's (1/c1 ≈ 1.7 s) nor the follow controller's model of it.
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

    // MARK: Parameters

    public let parameters: MAVLinkCopterParameters
    public let dynamics: DroneDynamics
    /// The local plane whose origin is home (GLOBAL_POSITION_INT lat/lon come from it).
    public let plane: LocalPlane

    // MARK: State

    /// Simulated time of the state (a step boundary).
    public internal(set) var time: MonotonicTime
    /// When the copter "booted" (`time_boot_ms` counts from here).
    public let bootTime: MonotonicTime
    public internal(set) var mode: ArduCopterMode = .stabilize
    public internal(set) var isArmed = false
    public internal(set) var phase: Phase = .onGround
    /// Whether the copter has a 3D GPS fix (arming check; modes needing a position). A
    /// fault-injection hook; default true.
    public var hasGPSFix = true
    /// Wind in force, m/s ENU: starts as `dynamics.windENU`; a caller may change it between
    /// `advance` calls (e.g. from a `WindModel`).
    public var windENU: PlaneVector
    /// Battery charge, percent 0–100 (drains with `DroneDynamics`' rates: flying while armed).
    public internal(set) var batteryPercent: Double

    /// The GUIDED velocity set-point in force, m/s ENU + climb (up) + yaw rate, and when it came.
    public internal(set) var setpoint: VelocitySetpoint?
    /// Seconds the copter has been armed on the ground without taking off (auto-disarm).
    var idleOnGroundSeconds = 0.0

    // MARK: Ground truth

    /// Position, velocity, height, nose and tilt (`AirframeTruth`), read as this type's own through
    /// `SimulatedAirframe` (`positionPlane`, `velocityENU`, …).
    public internal(set) var truth: AirframeTruth

    /// Telemetry streams in message-id order: interval (nil = off) and next send time (an array, not
    /// a dictionary: it is walked every physics step).
    var streams: [TelemetryStream]
    /// What happened so far (for status lines and tests).
    public internal(set) var counters = Counts<MAVLinkCopterCounter>()

    // Step constants.
    let physicsStep: PhysicsStep
    let verticalAlpha: Double

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
        windENU = dynamics.windENU
        batteryPercent = min(max(dynamics.initialBatteryPercent, 0), 100)
        physicsStep = PhysicsStep(dynamics)
        verticalAlpha = 1 - _exp(-physicsStep.seconds / parameters.verticalTimeConstantSeconds)
        streams = parameters.defaultIntervalsSeconds.sorted { $0.key < $1.key }
            .map { TelemetryStream(messageID: $0.key, intervalSeconds: $0.value, nextAt: start) }
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
/// - `messagesIgnored`: frames for another system, or of a type the copter does not handle.
public enum MAVLinkCopterCounter: String, CaseIterable, Sendable, Hashable {
    case commands, commandsRefused = "commands_refused", setpoints, setpointsIgnored = "setpoints_ignored"
    case guidedTimeouts = "guided_timeouts", messagesIgnored = "messages_ignored"
}

/// The autopilot's own numbers (ArduPilot Copter parameters where one exists; docs/mavlink.md §8.1).
public struct MAVLinkCopterParameters: Sendable, Hashable {
    /// MAVLink ids the copter sends with: system 1, component 1 (`MAV_COMP_ID_AUTOPILOT1`), the usual vehicle.
    public var systemID: UInt8 = 1
    public var componentID: UInt8 = 1
    /// Time constant of the horizontal velocity loop, seconds. Our choice (0.5 s): a tuned copter
    /// reaches a velocity step in about a second, and it must differ from the AR.Drone plant's
    /// 1.7 s so the follow controller is tested against a plant that is not its model.
    public var velocityTimeConstantSeconds = 0.5
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
    /// Largest yaw rate, degrees per second. Our choice (ArduPilot's `ATC_RATE_Y_MAX` 0 = no limit).
    public var maxYawRateDegreesPerSecond = 90.0
    /// A GUIDED velocity set-point older than this stops the copter, seconds: ArduPilot
    /// `mode_guided.cpp` `GUIDED_POSVEL_TIMEOUT_MS` 3000 (the `GUID_TIMEOUT` parameter, 3 s, in newer versions).
    public var guidedTimeoutSeconds = 3.0
    /// Armed on the ground without taking off this long → disarm, seconds: `DISARM_DELAY` default 10
    /// (`AUTO_DISARMING_DELAY`, `ArduCopter/config.h`).
    public var autoDisarmSeconds = 10.0
    /// Height of home above mean sea level, metres (GLOBAL_POSITION_INT `alt`). Our round figure
    /// for central Paris, as `SimulatorConfiguration.groundHAEMeters`.
    public var homeAltitudeMSLMeters = 35.0
    /// Battery voltage full and empty (a 4S pack: 4.2 and 3.5 V per cell), millivolts. Our choice,
    /// linear in the charge.
    public var batteryFullMillivolts = 16_800.0
    public var batteryEmptyMillivolts = 14_000.0
    /// Default telemetry intervals by message id, seconds: HEARTBEAT 1 Hz; GLOBAL_POSITION_INT
    /// and ATTITUDE 4 Hz; SYS_STATUS and EXTENDED_SYS_STATE 1 Hz (issue 16's shared design, C;
    /// SET_MESSAGE_INTERVAL changes them, 0 restores these).
    public var defaultIntervalsSeconds: [UInt32: Double] = [
        Heartbeat.messageID: 1, GlobalPositionInt.messageID: 0.25, Attitude.messageID: 0.25,
        SysStatus.messageID: 1, ExtendedSysState.messageID: 1,
    ]

    public init() {}
}

extension MAVLinkCopter: SimulatedAirframe {}
