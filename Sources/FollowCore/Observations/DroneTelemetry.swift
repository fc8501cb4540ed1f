/// The drone's flight state as navdata reports it (demo option `ctrl_state >> 16`,
/// docs/ardrone-protocol.md §3.4 CTRL_STATES), reduced to what the follower needs.
public enum DroneFlightState: Sendable, Hashable {
    /// On the ground, motors off (CTRL_STATES 2 LANDED).
    case landed
    /// Taking off (6 TRANS_TAKEOFF).
    case takingOff
    /// Flying under PCMD (3 FLYING, and 7 TRANS_GOTOFIX which ardrone_autonomy also counts as flying).
    case flying
    /// Hovering on its own (4 HOVERING).
    case hovering
    /// Landing (8 TRANS_LANDING).
    case landing
    /// Anything else (0 DEFAULT, 1 INIT, 5 TEST, 9 TRANS_LOOPING, unknown values).
    case unknown

    /// Whether the drone is in the air (or on its way up) according to navdata.
    @inlinable public var isAirborne: Bool {
        switch self {
        case .takingOff, .flying, .hovering: return true
        case .landed, .landing, .unknown: return false
        }
    }
}

/// Horizontal velocity in the drone's body frame, metres per second: navdata demo `vx`
/// (forward) and `vy` (right), converted from mm/s (docs/ardrone-protocol.md §3.4).
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

/// One navdata packet's worth of what the follower uses. The shell fills it from the demo
/// option and the state bits; non-finite optional values must be passed as `nil`.
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
    /// Navdata attitude: pitch (`theta`, positive = nose up) and roll (`phi`, positive = right side
    /// down), degrees, if finite. Used to learn the wind while the firmware flies (take-off).
    public var pitchDegrees: Double?
    public var rollDegrees: Double?
    /// Navdata yaw `psi`, degrees clockwise, with an arbitrary offset from true north
    /// (gyro/magnetometer fused on board). Used only for how the heading *changes* between
    /// heading-receiver reports.
    public var yawDegrees: Double?
    /// The drone says the wind is too strong (AR.Drone state bit 20 `ARDRONE_WIND_MASK`,
    /// docs/ardrone-protocol.md §3.2; links without such a flag leave it false).
    public var windWarning: Bool
    /// The autopilot no longer says how much battery is left (MAVLink SYS_STATUS `battery_remaining`
    /// −1 after a known value): `batteryPercent` is stale. The AR.Drone always reports one.
    public var batteryUnknown: Bool
    /// The autopilot reports a failure it still flies with (MAVLink HEARTBEAT MAV_STATE_CRITICAL).
    public var critical: Bool
    /// The autopilot's arming checks pass (MAVLink SYS_STATUS MAV_SYS_STATUS_PREARM_CHECK); nil when
    /// it does not say (the AR.Drone, an autopilot without the bit).
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
