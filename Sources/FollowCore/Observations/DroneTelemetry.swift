/// The drone's flight state as telemetry reports it (AR.Drone `ctrl_state >> 16`, docs/ardrone-protocol.md §3.4).
public enum DroneFlightState: Sendable, Hashable {
    /// On the ground, motors off (CTRL_STATES 2 LANDED).
    case landed
    /// Taking off (6 TRANS_TAKEOFF).
    case takingOff
    /// Flying under commands (3 FLYING, and 7 TRANS_GOTOFIX).
    case flying
    /// Hovering on its own (4 HOVERING).
    case hovering
    /// Landing (8 TRANS_LANDING).
    case landing
    /// Anything else (0 DEFAULT, 1 INIT, 5 TEST, 9 TRANS_LOOPING, unknown values).
    case unknown

    /// Whether the drone is in the air (or on its way up) according to telemetry.
    @inlinable public var isAirborne: Bool {
        switch self {
        case .takingOff, .flying, .hovering: return true
        case .landed, .landing, .unknown: return false
        }
    }
}

/// Horizontal velocity in the drone's body frame, m/s: telemetry demo `vx` (forward), `vy` (right).
public struct BodyVelocity: Sendable, Hashable {
    /// Along the nose, m/s.
    public var forwardMetersPerSecond: Double
    /// To starboard, m/s.
    public var rightMetersPerSecond: Double

    @inlinable public init(forwardMetersPerSecond: Double, rightMetersPerSecond: Double) {
        self.forwardMetersPerSecond = forwardMetersPerSecond
        self.rightMetersPerSecond = rightMetersPerSecond
    }
}

/// One telemetry packet's worth of what the follower uses; non-finite optional values are nil.
public struct DroneTelemetry: Sendable, Hashable {
    /// Major control state.
    public var flightState: DroneFlightState
    /// State bit 31 EMERGENCY (docs/ardrone-protocol.md §3.2).
    public var emergency: Bool
    /// Battery, percent 0…100 (demo `vbat_flying_percentage`).
    public var batteryPercent: Double
    /// Height above ground, metres (demo `altitude`, millimetres in practice).
    public var altitudeMeters: Double
    /// Body-frame horizontal velocity, if the packet carried a finite one.
    public var velocityBody: BodyVelocity?
    /// Attitude, degrees, if finite: pitch (`theta`, positive = nose up), roll (`phi`, positive = right down).
    public var pitchDegrees: Double?
    public var rollDegrees: Double?
    /// Vehicle yaw `psi`, degrees clockwise, arbitrary zero: used only for how the heading changes.
    public var yawDegrees: Double?
    /// The drone says the wind is too strong (AR.Drone state bit 20, docs/ardrone-protocol.md §3.2); else false.
    public var windWarning: Bool
    /// The autopilot stopped reporting battery (MAVLink `battery_remaining` −1 after a value): `batteryPercent` is stale.
    public var batteryUnknown: Bool
    /// The autopilot reports a failure it still flies with (MAVLink HEARTBEAT MAV_STATE_CRITICAL).
    public var critical: Bool
    /// The autopilot's arming checks pass (MAVLink PREARM_CHECK); nil when it does not say.
    public var readyToArm: Bool?
    /// When the shell received the packet.
    public var receivedAt: MonotonicTime

    public init(
        flightState: DroneFlightState, emergency: Bool = false,
        batteryPercent: Double, batteryUnknown: Bool = false, critical: Bool = false, readyToArm: Bool? = nil,
        altitudeMeters: Double,
        velocityBody: BodyVelocity? = nil, yawDegrees: Double? = nil,
        pitchDegrees: Double? = nil, rollDegrees: Double? = nil, windWarning: Bool = false,
        receivedAt: MonotonicTime
    ) {
        self.batteryUnknown = batteryUnknown
        self.critical = critical
        self.readyToArm = readyToArm
        self.windWarning = windWarning
        self.pitchDegrees = pitchDegrees.flatMap { $0.isFinite ? $0 : nil }
        self.rollDegrees = rollDegrees.flatMap { $0.isFinite ? $0 : nil }
        self.flightState = flightState
        self.emergency = emergency
        self.batteryPercent = batteryPercent
        self.altitudeMeters = altitudeMeters
        self.velocityBody = velocityBody
        self.yawDegrees = yawDegrees
        self.receivedAt = receivedAt
    }
}
