import FollowCore

/// How to reach one MAVLink vehicle and how the link flies it (docs/mavlink.md §7).
///
/// The only way to get one is the throwing initializer, which checks every field against the
/// range written beside it (`ParameterSpec`), so a link never runs on a value that skipped validation.
public struct MAVLinkLinkConfiguration: Sendable, Equatable {
    /// The flight stack on the vehicle: its mode numbers and take-off sequence differ (docs/mavlink.md §7.3).
    public enum Autopilot: String, Sendable, CaseIterable {
        case ardupilot, px4
    }

    /// Where the drone's own position and nose heading come from.
    public enum PositionSource: String, Sendable, CaseIterable {
        /// The autopilot's estimate: every GLOBAL_POSITION_INT becomes an onboard fix and heading (`LinkEvent.onboard`).
        case autopilot
        /// An onboard gpsd receiver: the link sends no onboard events.
        case receiver
    }

    /// The autopilot's (or its router's) address; never a broadcast address.
    public let address: String
    /// UDP port the autopilot listens on, 1–65535 (14550: ground stations, `followme sim --protocol mavlink`).
    public let port: Int
    /// Local UDP port to bind, 0–65535; 0 = any free port.
    public let localPort: Int
    /// FollowMe's own system and component ids (245 / 190: not QGroundControl's and Mission Planner's 255,
    /// docs/mavlink.md §3).
    public let systemID: UInt8
    public let componentID: UInt8
    /// The vehicle's system id; 0 = the first vehicle whose HEARTBEAT arrives.
    public let targetSystem: UInt8
    public let autopilot: Autopilot
    public let positionSource: PositionSource
    /// The most a set-point may ask for (the flight's own limits; docs/mavlink.md §7.4).
    public let setpoints: VelocitySetpointLimits
    /// Height NAV_TAKEOFF climbs to, metres above the take-off point (`[follow] altitude_m`).
    public let takeoffAltitudeMeters: Double
    public let timing: Timing
    /// A dry run (`followme run --no-takeoff`): the session sends no flight command and no set-point
    /// whatever the owner says — it only reads (message rates, parameters). The flight loop echoes
    /// an adopted "flying" in a dry run, which must not make a vehicle someone else flies ours
    /// (docs/mavlink.md §7.3). Set by the flight service, not the config file.
    public var dryRun = false
    /// `[mavlink] point_camera`: point the camera at the person (MAV_CMD_DO_SET_ROI_LOCATION while our
    /// flight flies — PX4, or ArduPilot with a mount — DO_SET_ROI_NONE on landing, release or the end of
    /// ownership; MAVLinkSession+Camera.swift, docs/mavlink.md §7.13). Default false.
    public var pointCamera = false
    /// Where the link keeps the flight's frame (`FlightFrameRecord`) while a flight of ours is in the
    /// air, so a restarted FollowMe adopts it in the same frame (the unit's state directory); nil: nowhere.
    public var flightRecordPath: String?

    public init(
        address: String = "127.0.0.1", port: Int = 14550, localPort: Int = 0,
        systemID: Int = 245, componentID: Int = 190, targetSystem: Int = 0,
        autopilot: Autopilot = .ardupilot, positionSource: PositionSource = .autopilot,
        setpoints: VelocitySetpointLimits, takeoffAltitudeMeters: Double, timing: Timing = Timing()
    ) throws(ParameterError) {
        guard !address.isEmpty else { throw .inconsistent(parameter: "address", value: 0, requirement: "must not be empty") }
        self.address = address
        self.port = try Self.integer(Self.portSpec, port)
        self.localPort = try Self.integer(Self.localPortSpec, localPort)
        self.systemID = UInt8(try Self.integer(Self.systemIDSpec, systemID))
        self.componentID = UInt8(try Self.integer(Self.componentIDSpec, componentID))
        self.targetSystem = UInt8(try Self.integer(Self.targetSystemSpec, targetSystem))
        self.autopilot = autopilot
        self.positionSource = positionSource
        self.setpoints = setpoints
        try Self.takeoffAltitudeSpec.check(takeoffAltitudeMeters)
        self.takeoffAltitudeMeters = takeoffAltitudeMeters
        try timing.validate()
        self.timing = timing
    }

    public static let portSpec = ParameterSpec("port", unit: "UDP port", range: 1...65535, default: 14550)
    public static let localPortSpec = ParameterSpec("localPort", unit: "UDP port", range: 0...65535, default: 0)
    /// 0 is broadcast, never an id of our own; 245, not the 255 of QGroundControl and Mission Planner.
    public static let systemIDSpec = ParameterSpec("systemID", unit: "MAVLink id", range: 1...255, default: 245)
    /// 190 = MAV_COMP_ID_MISSIONPLANNER.
    public static let componentIDSpec = ParameterSpec("componentID", unit: "MAVLink id", range: 1...255, default: 190)
    public static let targetSystemSpec = ParameterSpec("targetSystem", unit: "MAVLink id", range: 0...255, default: 0)
    /// `FollowParameters.Spec.altitudeMeters`: the same height the follow holds.
    public static let takeoffAltitudeSpec = FollowParameters.Spec.altitudeMeters

    static func integer(_ spec: ParameterSpec, _ value: Int) throws(ParameterError) -> Int {
        try spec.check(Double(value))
        return value
    }

    /// The link's own cadences and patience. Not in the config file: link internals, like
    /// `DroneLinkConfiguration`'s.
    public struct Timing: Sendable, Equatable {
        /// Seconds between two ticks (set-points go out every tick), 0.01–0.1; default 1/30: the AR.Drone
        /// link's cadence, above the ≥ 10 Hz a link re-sends at (docs/architecture.md §3.1), far above ArduPilot's "re-send every second, stop
        /// after 3 s" and PX4's 2 Hz OFFBOARD floor (docs/mavlink.md §7.4).
        public var tickIntervalSeconds = Spec.tickIntervalSeconds.defaultValue
        /// Seconds between two of our HEARTBEATs, 0.2–1; default 1 (the MAVLink heartbeat rate, docs/mavlink.md §4.4).
        public var heartbeatIntervalSeconds = Spec.heartbeatIntervalSeconds.defaultValue
        /// Silence from the vehicle after which telemetry is reported lost, seconds, 0.2–2; default 1 (the
        /// AR.Drone link's navdata bound; we ask for 10 Hz position, so 10 messages were missed).
        public var telemetrySilenceSeconds = Spec.telemetrySilenceSeconds.defaultValue
        /// Wait for a COMMAND_ACK before sending the command again, seconds, 0.1–5; default 1
        /// (our choice: an autopilot answers within a few ms; 1 s also covers a lost datagram).
        public var commandAckTimeoutSeconds = Spec.commandAckTimeoutSeconds.defaultValue
        /// Sends of one command before it is given up, 1–10; default 5 (mavlink.io's command protocol, docs/mavlink.md §7.5).
        public var commandMaxAttempts = Spec.commandMaxAttempts.integerDefault
        /// After a command was refused (DENIED, FAILED, …) or never answered, seconds before the link
        /// asks again, 0.5–30; default 2 (our choice: arming checks fail for reasons — GPS, EKF — that
        /// take seconds to clear, and a STATUSTEXT per second of refusals would flood the log).
        public var refusedRetrySeconds = Spec.refusedRetrySeconds.defaultValue
        /// After a command was accepted, seconds before the same command may be sent again, 0.5–5;
        /// default 1.5 (our choice: one heartbeat period plus margin, the time its effect — armed,
        /// mode — takes to show).
        public var acceptedSettleSeconds = Spec.acceptedSettleSeconds.defaultValue
        /// Seconds between two `.statistics` events, 0.1–60; default 1.
        public var statisticsIntervalSeconds = Spec.statisticsIntervalSeconds.defaultValue

        public init() {}

        /// Unit, range and default of each field, declared once (`ParameterSpec`): the defaults above
        /// and `validate()` read them; the field docs say why each value.
        public enum Spec {
            public static let tickIntervalSeconds = ParameterSpec("tickIntervalSeconds", unit: "s", range: 0.01...0.1, default: 1.0 / 30)
            public static let heartbeatIntervalSeconds = ParameterSpec("heartbeatIntervalSeconds", unit: "s", range: 0.2...1, default: 1)
            public static let telemetrySilenceSeconds = ParameterSpec("telemetrySilenceSeconds", unit: "s", range: 0.2...2, default: 1)
            public static let commandAckTimeoutSeconds = ParameterSpec("commandAckTimeoutSeconds", unit: "s", range: 0.1...5, default: 1)
            public static let commandMaxAttempts = ParameterSpec("commandMaxAttempts", unit: "sends", range: 1...10, default: 5)
            public static let refusedRetrySeconds = ParameterSpec("refusedRetrySeconds", unit: "s", range: 0.5...30, default: 2)
            public static let acceptedSettleSeconds = ParameterSpec("acceptedSettleSeconds", unit: "s", range: 0.5...5, default: 1.5)
            public static let statisticsIntervalSeconds = ParameterSpec("statisticsIntervalSeconds", unit: "s", range: 0.1...60, default: 1)
        }

        /// Checks every field against its `Spec` range, in field order: the first field out of range is the error.
        func validate() throws(ParameterError) {
            let checks: [(ParameterSpec, Double)] = [
                (Spec.tickIntervalSeconds, tickIntervalSeconds),
                (Spec.heartbeatIntervalSeconds, heartbeatIntervalSeconds),
                (Spec.telemetrySilenceSeconds, telemetrySilenceSeconds),
                (Spec.commandAckTimeoutSeconds, commandAckTimeoutSeconds),
                (Spec.commandMaxAttempts, Double(commandMaxAttempts)),
                (Spec.refusedRetrySeconds, refusedRetrySeconds),
                (Spec.acceptedSettleSeconds, acceptedSettleSeconds),
                (Spec.statisticsIntervalSeconds, statisticsIntervalSeconds),
            ]
            for (spec, value) in checks { try spec.check(value) }
        }
    }
}
