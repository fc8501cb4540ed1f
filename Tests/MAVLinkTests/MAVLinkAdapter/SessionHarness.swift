@testable import FollowCore
@testable import MAVLink


/// A `MAVLinkSession` driven by scripted vehicle messages and invented times: what it sent and
/// reported, in order. The vehicle is system 1, component 1 unless told.
struct SessionHarness {
    var session: MAVLinkSession
    var now = MonotonicTime(seconds: 100)
    var sent: [MAVLinkOutgoing] = []
    var events: [LinkEvent] = []
    var vehicleSequence: UInt8 = 0
    /// What the scripted vehicle says every 0.1 s while `run` ticks (nil: silent).
    var vehicle: (heartbeat: Heartbeat, landed: ExtendedSysState, position: GlobalPositionInt)?
    var lastTalkAt = MonotonicTime.zero

    static let tick = 1.0 / 30

    /// Set-point limits of 6 m/s, 0.7 m/s climb and 120 °/s (the flight's own, as `followme run` builds them).
    static let testLimits: VelocitySetpointLimits = {
        var follow = FollowParameters()
        follow.maxHorizontalSpeedMetersPerSecond = 6
        follow.maxClimbMetersPerSecond = 0.7
        follow.maxYawRateDegreesPerSecond = 120
        return VelocitySetpointLimits(follow: follow)
    }()

    static func configuration(_ autopilot: MAVLinkLinkConfiguration.Autopilot = .ardupilot,
                              positionSource: MAVLinkLinkConfiguration.PositionSource = .autopilot,
                              targetSystem: Int = 0) -> MAVLinkLinkConfiguration {
        // swiftlint:disable:next force_try
        try! MAVLinkLinkConfiguration(
            targetSystem: targetSystem, autopilot: autopilot, positionSource: positionSource,
            setpoints: testLimits,
            takeoffAltitudeMeters: 3)
    }

    init(_ configuration: MAVLinkLinkConfiguration = Self.configuration()) {
        session = MAVLinkSession(configuration: configuration)
        var output = MAVLinkSessionOutput()
        session.start(now: now, output: &output)
        collect(output)
    }

    mutating func collect(_ output: MAVLinkSessionOutput) {
        sent += output.messages
        events += output.events
    }

    /// One message from the vehicle (or another system), as one datagram.
    mutating func receive(_ message: some MAVLinkMessage, system: UInt8 = 1, component: UInt8 = 1) {
        let bytes = message.encoded(sequence: vehicleSequence, systemID: system, componentID: component)
        vehicleSequence &+= 1
        receive(bytes: bytes)
    }

    mutating func receive(bytes: [UInt8], fromExpectedSource: Bool = true) {
        var output = MAVLinkSessionOutput()
        session.receive(datagram: bytes, fromExpectedSource: fromExpectedSource, now: now, output: &output)
        collect(output)
    }

    /// Moves time on by `seconds`, ticking every 1/30 s on the way.
    mutating func run(_ seconds: Double) {
        let end = now.adding(seconds: seconds)
        while now < end {
            now = min(end, now.adding(seconds: Self.tick))
            if let vehicle, now.seconds(since: lastTalkAt) >= 0.099 {
                lastTalkAt = now
                receive(vehicle.heartbeat)
                receive(vehicle.landed)
                receive(vehicle.position)
            }
            var output = MAVLinkSessionOutput()
            session.tick(now: now, output: &output)
            collect(output)
        }
    }

    mutating func fly(_ flying: Bool, motion: MotionCommand? = nil) {
        session.setDesired(LinkCommand(flying: flying, motion: motion))
    }

    /// A vehicle someone else flies: armed, IN_AIR at 5 m in `mode`, heard for the first time now.
    mutating func someoneElseFlies(mode: ArduCopterMode) {
        vehicle = (Self.heartbeat(mode: mode.rawValue, armed: true), Self.landed(.inAir), Self.position(relativeAltitudeMeters: 5))
        vehicleSays()
    }

    /// Forgets what was sent and reported so far.
    mutating func clear() {
        sent.removeAll()
        events.removeAll()
    }

    /// The flight's COMMAND_LONGs sent: every one but the camera's (`cameraCommands`, their own machine:
    /// MAVLinkSession+Recording.swift), which `allCommands` includes.
    var commands: [CommandLong] { allCommands.filter { !Self.cameraCommands.contains($0.command.rawValue) } }
    /// Every COMMAND_LONG sent, the camera's included.
    var allCommands: [CommandLong] { sent.compactMap { if case .command(let c) = $0 { c } else { nil } } }
    /// The COMMAND_INTs sent (DO_SET_ROI_LOCATION).
    var positionCommands: [CommandInt] { sent.compactMap { if case .positionCommand(let c) = $0 { c } else { nil } } }
    var setpoints: [SetPositionTargetLocalNED] { sent.compactMap { if case .setpoint(let s) = $0 { s } else { nil } } }
    var heartbeats: [Heartbeat] { sent.compactMap { if case .heartbeat(let h) = $0 { h } else { nil } } }

    /// The commands sent, as `MAV_CMD` numbers.
    var commandIDs: [UInt16] { commands.map(\.command.rawValue) }

    var notices: [String] { events.compactMap { if case .notice(let text, _, _) = $0 { text } else { nil } } }
    /// The names of the parameters asked with PARAM_REQUEST_READ, in order.
    var parameterReads: [String] { sent.compactMap { if case .parameterRead(let r) = $0 { r.parameterID.string } else { nil } } }
    /// The keys of `.configurationFailed` events, in order.
    var failedKeys: [String] { events.compactMap { if case .configurationFailed(let key, _, _, _) = $0 { key } else { nil } } }
    /// The failed keys of the last `.configurationComplete`; nil when none was reported.
    var lastComplete: [String]? {
        events.compactMap { if case .configurationComplete(let keys, _) = $0 { keys } else { nil } }.last
    }

    /// GCS-failsafe parameters set so that losing FollowMe lands the vehicle (FS_GCS_ENABLE 5 = LAND,
    /// SYSID_MYGCS = FollowMe's 245; PX4 COM_OBL_RC_ACT 4 = Land, COM_OF_LOSS_T 1 s).
    static let safeParameters: [String: Float] = ["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245, "COM_OBL_RC_ACT": 4, "COM_OF_LOSS_T": 1]
    /// ArduCopter's WPNAV_ACCEL (cm/s²) and PSC_JERK_XY, PX4's MPC_ACC_HOR and MPC_JERK_AUTO, at their defaults.
    static let brakingDefaults: [String: Float] = ["WPNAV_ACCEL": 250, "PSC_JERK_XY": 5, "MPC_ACC_HOR": 3, "MPC_JERK_AUTO": 4]
    /// ArduCopter's FS_GCS_TIMEOUT (5 s) and FS_OPTIONS (16) and an older PX4's COM_OBL_ACT (0 = Land),
    /// at their defaults: what a released pilot keeps once FollowMe stops (docs/mavlink.md §7.8).
    static let leavingDefaults: [String: Float] = ["FS_GCS_TIMEOUT": 5, "FS_OPTIONS": 16, "COM_OBL_ACT": 0]

    /// Answers every PARAM_REQUEST_READ sent so far whose name `values` has, with a PARAM_VALUE as
    /// the autopilot sends it (PX4: integers bytewise in the float); a NaN value is not answered (a
    /// firmware without that name).
    mutating func answerParameters(_ values: [String: Float] = Self.safeParameters, px4: Bool = false) {
        // The braking limits (docs/stopping-model.md §7) and the leaving parameters at the autopilots'
        // defaults unless given.
        let values = values.merging(Self.brakingDefaults) { given, _ in given }.merging(Self.leavingDefaults) { given, _ in given }
        for name in Set(parameterReads) {
            guard let value = values[name], !value.isNaN else { continue }
            let real = ["COM_OF_LOSS_T", "MPC_ACC_HOR", "MPC_JERK_AUTO"].contains(name)
            let wire = px4 && !real ? Float(bitPattern: UInt32(bitPattern: Int32(value))) : value
            var answer = ParamValue()
            answer.value = wire
            answer.count = 900
            answer.parameterID = MAVLinkText(name)
            answer.type = real ? 9 : 6
            receive(answer)
        }
    }

    /// Answers the last command sent with `result`, leaving out the camera's (REQUEST_MESSAGE, VIDEO_START/STOP_CAPTURE:
    /// their own machine, answered with `ackCamera`).
    mutating func ack(_ result: MAVResult = .accepted) {
        guard let last = commands.last else { return }
        receive(CommandAck { $0.command = last.command; $0.result = .init(result) })
    }

    /// The camera's commands (docs/mavlink.md §7.15): MAV_CMD_REQUEST_MESSAGE, VIDEO_START_CAPTURE, VIDEO_STOP_CAPTURE.
    static let cameraCommands: Set<UInt16> = [512, 2500, 2501]

    /// The camera commands sent, as `MAV_CMD` numbers.
    var cameraCommandIDs: [UInt16] { allCommands.map(\.command.rawValue).filter { Self.cameraCommands.contains($0) } }

    /// Answers the last camera command sent with `result`, from `component`.
    mutating func ackCamera(_ result: MAVResult = .accepted, component: UInt8 = 1) {
        guard let last = allCommands.last(where: { Self.cameraCommands.contains($0.command.rawValue) }) else { return }
        receive(CommandAck { $0.command = last.command; $0.result = .init(result) }, component: component)
    }

    // MARK: Vehicle messages

    static func heartbeat(_ autopilot: MAVAutopilot = .ardupilotmega, mode: UInt32 = ArduCopterMode.stabilize.rawValue,
                          armed: Bool = false, status: MAVState = .standby) -> Heartbeat {
        var flags: MAVLinkBitmask<MAVModeFlag> = [.customModeEnabled]
        if armed { flags.insert(.safetyArmed) }
        return Heartbeat {
            $0.customMode = mode
            $0.type = .init(.quadrotor)
            $0.autopilot = .init(autopilot)
            $0.baseMode = flags
            $0.systemStatus = .init(status)
            $0.mavlinkVersion = 3
        }
    }

    static func landed(_ state: MAVLandedState) -> ExtendedSysState {
        ExtendedSysState { $0.vtolState = .init(.undefined); $0.landedState = .init(state) }
    }

    static func position(relativeAltitudeMeters: Double = 0, mslMeters: Double = 480, velocityNED: [Int16] = [0, 0, 0],
                         headingCentidegrees: UInt16 = 9000, latitudeE7: Int32 = 473_977_420,
                         longitudeE7: Int32 = 85_455_940) -> GlobalPositionInt {
        var position = GlobalPositionInt()
        position.timeBootMilliseconds = 1000
        position.latitudeLongitude = LatitudeLongitudeE7(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
        position.altitudeMSLMillimeters = Int32(mslMeters * 1000)
        position.relativeAltitudeMillimeters = Int32(relativeAltitudeMeters * 1000)
        position.velocityNEDCentimetersPerSecond = velocityNED
        position.headingCentidegrees = headingCentidegrees
        return position
    }

    static func battery(_ percent: Int8) -> SysStatus {
        var status = SysStatus()
        status.batteryRemainingPercent = percent
        return status
    }

    /// Connected, configured, disarmed in GUIDED (ArduPilot); then the owner wants to fly: the
    /// next tick asks for ARM. What was sent before is forgotten.
    mutating func readyToArm() {
        connectAndConfigure(mode: ArduCopterMode.guided.rawValue)
        clear()
        fly(true)
        run(Self.tick)
    }

    /// The vehicle's HEARTBEAT `autopilot` and our control mode (GUIDED / OFFBOARD) for `autopilot`.
    static func control(_ autopilot: MAVLinkLinkConfiguration.Autopilot) -> (heartbeat: MAVAutopilot, mode: UInt32) {
        autopilot == .px4 ? (.px4, PX4Mode.offboard.customMode) : (.ardupilotmega, ArduCopterMode.guided.rawValue)
    }

    /// Flying IN_AIR at 3 m in our mode (GUIDED / OFFBOARD) with `pilot`, for half a second.
    mutating func flyingInControl(_ autopilot: MAVLinkLinkConfiguration.Autopilot = .ardupilot, motion: MotionCommand?,
                                  status: MAVState = .active) {
        let control = Self.control(autopilot)
        connectAndConfigure(control.heartbeat, mode: control.mode)
        fly(true, motion: motion)
        armByUs()
        vehicleSays(armed: true, landed: .inAir, relativeAltitudeMeters: 3, status: status)
        run(0.5)
    }

    /// Ticks until our ARM (400) goes out (at most 3 s: PX4 streams set-points first) and accepts it:
    /// the flight that follows is FollowMe's own (`FlightOwner.followMe`).
    mutating func armByUs() {
        for _ in 0..<90 where !commandIDs.contains(400) { run(Self.tick) }
        ack()
    }

    /// The scripted vehicle now says this (and at once).
    mutating func vehicleSays(mode: UInt32? = nil, armed: Bool? = nil, landed: MAVLandedState? = nil,
                              relativeAltitudeMeters: Double? = nil, status: MAVState? = nil) {
        guard var vehicle else { return }
        let old = vehicle.heartbeat
        let autopilot = old.autopilot.known ?? .ardupilotmega
        vehicle.heartbeat = Self.heartbeat(autopilot, mode: mode ?? old.customMode, armed: armed ?? old.baseMode.contains(.safetyArmed),
                                           status: status ?? old.systemStatus.known ?? .standby)
        if let landed { vehicle.landed = Self.landed(landed) }
        if let relativeAltitudeMeters {
            vehicle.position = Self.position(relativeAltitudeMeters: relativeAltitudeMeters)
        }
        self.vehicle = vehicle
        receive(vehicle.heartbeat)
        receive(vehicle.landed)
        receive(vehicle.position)
    }

    /// The vehicle's first HEARTBEAT, then every SET_MESSAGE_INTERVAL answered ACCEPTED, a
    /// position and a full battery: connected and configured, on the ground; it keeps talking.
    mutating func connectAndConfigure(_ autopilot: MAVAutopilot = .ardupilotmega, mode: UInt32? = nil) {
        let mode = mode ?? (autopilot == .px4 ? PX4Mode(mainMode: 3).customMode : ArduCopterMode.stabilize.rawValue)
        vehicle = (Self.heartbeat(autopilot, mode: mode), Self.landed(.onGround), Self.position())
        vehicleSays()
        receive(Self.battery(90))
        for _ in 0..<4 {
            run(Self.tick)
            ack()
        }
        answerParameters(px4: autopilot == .px4)
    }
}

extension SessionHarness {
    /// A vehicle flying in GUIDED, then the owner wants it down: LAND has gone out.
    static func landSent() -> SessionHarness {
        var h = SessionHarness()
        h.flyingInControl(motion: nil)
        h.fly(false)
        h.run(SessionHarness.tick)
        return h
    }
}
