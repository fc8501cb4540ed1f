import FollowCore

/// What the vehicle last said about itself, one field per message (docs/mavlink.md §7.2): the
/// latest HEARTBEAT, landed state, battery, attitude and global position. Mapped to the core's
/// `DroneTelemetry` and, when the autopilot is the position source, to onboard fixes and headings.
///
/// Every field from the wire is checked before use (docs/style.md habit 12): a non-finite attitude
/// is dropped, a heading of 65535 (UINT16_MAX) means unknown, a battery of −1 means unknown, a
/// latitude/longitude of 0/0 means no position yet.
public struct VehicleState: Sendable, Equatable {
    public private(set) var heartbeat: Heartbeat?
    /// EXTENDED_SYS_STATE `landed_state`; nil until one arrives or while it says UNDEFINED.
    public private(set) var landedState: MAVLandedState?
    /// The last known SYS_STATUS `battery_remaining`, percent; nil until a known one arrived.
    public private(set) var batteryPercent: Double?
    /// No SYS_STATUS yet, or the last one said −1 (unknown) — also after a known value: a battery
    /// monitor that stopped reporting must not leave a stale percentage standing, and a vehicle
    /// heard first by its position (10 Hz) before its SYS_STATUS (2 Hz) is not empty (docs/mavlink.md §7.2).
    public private(set) var batteryUnknown = true
    /// SYS_STATUS MAV_SYS_STATUS_PREARM_CHECK: nil when the autopilot gives no verdict (the bit not
    /// both present and enabled), else whether its arming checks pass.
    public private(set) var readyToArm: Bool?
    /// ATTITUDE roll, pitch, yaw in degrees, each nil when not finite.
    public private(set) var rollDegrees: Double?
    public private(set) var pitchDegrees: Double?
    public private(set) var yawDegrees: Double?
    public private(set) var position: GlobalPositionInt?

    /// Below this height above home an armed vehicle without a landed state counts as still on the
    /// ground. Our choice: 0.5 m, above a multicopter's barometer noise on the ground (±0.2 m typical).
    public static let groundHeightMeters = 0.5
    /// `GLOBAL_POSITION_INT.hdg` when the autopilot does not know its heading (common.xml: UINT16_MAX).
    public static let unknownHeading: UInt16 = .max
    /// `SYS_STATUS.battery_remaining` when the autopilot does not measure it (common.xml: −1).
    public static let unknownBattery: Int8 = -1
    /// The onboard device name every autopilot fix and heading carries.
    public static let device = "autopilot"

    public init() {}

    /// Takes in one message from the vehicle; messages that carry no state are ignored.
    public mutating func apply(_ message: any MAVLinkMessage) {
        switch message {
        case let heartbeat as Heartbeat:
            self.heartbeat = heartbeat
        case let state as ExtendedSysState:
            landedState = state.landedState.known.flatMap { $0 == .undefined ? nil : $0 }
        case let status as SysStatus:
            // −1 (or anything outside 0…100) is "unknown": the last known value stays for the log, and
            // `batteryUnknown` tells the core (see `telemetry`).
            if (0...100).contains(status.batteryRemainingPercent) {
                batteryPercent = Double(status.batteryRemainingPercent)
                batteryUnknown = false
            } else {
                batteryUnknown = true
            }
            // ArduPilot sets the bit present always, enabled when any arming check is enabled
            // (ARMING_CHECK ≠ 0), healthy when armed or the pre-arm checks pass
            // (libraries/GCS_MAVLink/GCS.cpp, "give GCS status of prearm checks"): present and enabled
            // is a verdict; otherwise (ARMING_CHECK 0, or PX4, whose SYS_STATUS stream sets only the
            // health bit: src/modules/mavlink/streams/SYS_STATUS.hpp) there is none.
            let bit = MAVSysStatusSensor.prearmCheck
            readyToArm = status.sensors.present & status.sensors.enabled & bit != 0 ? status.sensors.health & bit != 0 : nil
        case let attitude as Attitude:
            let angles = attitude.rollPitchYawRadians.map { Double($0) * 180 / .pi }
            rollDegrees = angles.count == 3 && angles[0].isFinite ? angles[0] : nil
            pitchDegrees = angles.count == 3 && angles[1].isFinite ? angles[1] : nil
            yawDegrees = angles.count == 3 && angles[2].isFinite ? normalizedDegrees360(angles[2]) : nil
        case let position as GlobalPositionInt:
            self.position = position
        default:
            break
        }
    }

    // MARK: - Derived state

    /// HEARTBEAT `base_mode` bit 7 (MAV_MODE_FLAG_SAFETY_ARMED).
    public var isArmed: Bool { heartbeat?.baseMode.contains(.safetyArmed) ?? false }
    /// HEARTBEAT `custom_mode`: the autopilot's own mode number; nil before a HEARTBEAT.
    public var customMode: UInt32? { heartbeat?.customMode }
    /// HEARTBEAT `system_status` EMERGENCY (6) or FLIGHT_TERMINATION (8): the autopilot is in its
    /// own failsafe or has cut the motors (docs/mavlink.md §5.2).
    public var isEmergency: Bool {
        guard let status = heartbeat?.systemStatus.known else { return false }
        return status == .emergency || status == .flightTermination
    }
    /// HEARTBEAT `system_status` CRITICAL (5): ArduCopter sends it while any of its failsafes is
    /// triggered — radio, battery, GCS, EKF, terrain, ADS-B (ArduCopter/GCS_Mavlink.cpp, "set system as
    /// critical if any failsafe have triggered"); still flying, but no take-off and, airborne, hold
    /// then land (docs/mavlink.md §7.2).
    public var isCritical: Bool { heartbeat?.systemStatus.known == .critical }
    /// Height above home, metres (GLOBAL_POSITION_INT `relative_alt`); 0 before a position.
    public var relativeAltitudeMeters: Double { Double(position?.relativeAltitudeMillimeters ?? 0) / 1000 }

    /// Safe to send take-off commands: disarmed, or the autopilot says it is on the ground, or (no
    /// landed state) it is armed but below `groundHeightMeters`.
    public var isOnGround: Bool {
        guard isArmed else { return true }
        if let landedState { return landedState == .onGround }
        return relativeAltitudeMeters < Self.groundHeightMeters
    }

    /// Worth a LAND: armed and not confirmed on the ground (an armed vehicle whose landed state is
    /// unknown might be flying).
    public var mightBeAirborne: Bool { isArmed && landedState != .onGround }

    /// The core's flight state. ON_GROUND → landed, TAKEOFF → taking off, IN_AIR → flying,
    /// LANDING → landing; without a landed state: disarmed → landed, armed above
    /// `groundHeightMeters` → flying, armed below → taking off (spinning motors are never "landed").
    public var flightState: DroneFlightState {
        switch landedState {
        case .onGround?: return .landed
        case .takeoff?: return .takingOff
        case .inAir?: return .flying
        case .landing?: return .landing
        case .undefined?, nil:
            guard isArmed else { return .landed }
            return relativeAltitudeMeters >= Self.groundHeightMeters ? .flying : .takingOff
        }
    }

    /// The nose heading, degrees clockwise from north: GLOBAL_POSITION_INT `hdg` unless unknown,
    /// else ATTITUDE yaw.
    public var headingDegrees: Double? {
        if let hdg = position?.headingCentidegrees, hdg != Self.unknownHeading { return normalizedDegrees360(Double(hdg) / 100) }
        return yawDegrees
    }

    /// North, east, down ground speed, m/s (GLOBAL_POSITION_INT `vx`, `vy`, `vz`).
    var velocityNEDMetersPerSecond: (north: Double, east: Double, down: Double)? {
        guard let v = position?.velocityNEDCentimetersPerSecond, v.count == 3 else { return nil }
        return (Double(v[0]) / 100, Double(v[1]) / 100, Double(v[2]) / 100)
    }

    // MARK: - To the core

    /// The core's telemetry from the latest state; nil before the first GLOBAL_POSITION_INT.
    ///
    /// Battery: the last known percentage (0 before any, with `batteryUnknown`); unknown — none yet,
    /// or −1 — is `batteryUnknown`: the core does not take off, and airborne it holds, then lands after
    /// `land_after_s` (docs/mavlink.md §7.2). MAV_STATE_CRITICAL: `critical`; the pre-arm bit: `readyToArm`.
    /// `heightMeters` is the height the flight flies by when it has its own frame (`AltitudeReference`);
    /// nil: `relative_alt`.
    public func telemetry(receivedAt: MonotonicTime, heightMeters: Double? = nil) -> DroneTelemetry? {
        guard position != nil else { return nil }
        var velocity: BodyVelocity?
        if let ned = velocityNEDMetersPerSecond, let heading = headingDegrees {
            // NED ground velocity rotated into the body axes by the nose heading ψ.
            let psi = heading * .pi / 180
            velocity = BodyVelocity(forwardMetersPerSecond: ned.north * _cos(psi) + ned.east * _sin(psi),
                                    rightMetersPerSecond: -ned.north * _sin(psi) + ned.east * _cos(psi))
        }
        return DroneTelemetry(
            flightState: flightState, emergency: isEmergency, batteryPercent: batteryPercent ?? 0,
            batteryUnknown: batteryUnknown, critical: isCritical, readyToArm: readyToArm,
            altitudeMeters: heightMeters ?? relativeAltitudeMeters, velocityBody: velocity, yawDegrees: yawDegrees ?? headingDegrees,
            pitchDegrees: pitchDegrees, rollDegrees: rollDegrees, receivedAt: receivedAt)
    }

    /// The autopilot's own position and nose heading as onboard receiver events (role `.onboard`,
    /// device "autopilot"): none before a position, and no fix while latitude and longitude are 0/0
    /// (what ArduPilot and PX4 send before their estimator has a global position).
    public func onboardEvents(receivedAt: MonotonicTime) -> [GPSEvent] {
        guard let position else { return [] }
        var events: [GPSEvent] = []
        let latLon = position.latitudeLongitude
        if latLon.latitudeE7 != 0 || latLon.longitudeE7 != 0 {
            let ned = velocityNEDMetersPerSecond
            let speed = ned.map { ($0.north * $0.north + $0.east * $0.east).squareRoot() }
            let fix = GPSFix(
                role: .onboard, device: Self.device, mode: .threeD,
                latitudeDegrees: latLon.latitudeDegrees, longitudeDegrees: latLon.longitudeDegrees,
                fixTime: nil, receivedAt: receivedAt,
                // MSL, not ellipsoid height: leave the HAE field empty rather than mislabel it.
                altitudeHAEMeters: nil,
                trackDegrees: ned.map { normalizedDegrees360(_atan2($0.east, $0.north) * 180 / .pi) },
                speedMetersPerSecond: speed, climbMetersPerSecond: ned.map { -$0.down })
            if let fix { events.append(.fix(fix)) }
        }
        let hdg = position.headingCentidegrees
        if hdg != Self.unknownHeading,
           let report = HeadingReport(role: .onboard, device: Self.device, headingDegrees: Double(hdg) / 100,
                                      receivedAt: receivedAt) {
            events.append(.heading(report))
        }
        return events
    }
}
