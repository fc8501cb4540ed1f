@testable import FollowCore
@testable import MAVLink
@testable import Simulation

/// FollowMe's flight in process, closed loop: the flight's rules (`FlightLoopCore`, as `followme run`
/// drives them) and the link's (`MAVLinkSession`) against the simulated Copter (ArduPilot, or PX4 as
/// `MAVLinkCopterParameters.px4` sets one up), every message
/// through the codec both ways, time an argument (1/30 s steps, the link's tick). A pilot's ground
/// station (system 255) can fly the same Copter; everything FollowMe sent the vehicle is recorded.
struct OwnershipRig {
    let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!)
    var copter: MAVLinkCopter
    var session: MAVLinkSession
    var core: FlightLoopCore
    let failsafe: FailsafeParameters
    let pointCamera: Bool
    let autopilot: SimulatedAutopilot
    let altitudeMode: AltitudeMode
    private(set) var tick = 0
    var now: MonotonicTime { MonotonicTime(seconds: Double(tick) / 30) }
    /// Where the person stands (their receiver's fixes, 5 Hz): clear of the take-off point.
    var person = PlaneVector(east: 0, north: 15)
    /// The person's receiver altitude in their 3-D fixes, metres; nil = none reported.
    var personAltitudeMeters: Double?
    /// FollowMe is running (false: killed; nothing of it runs, the Copter flies on alone).
    var followMeRuns = true

    private var followMe = MAVLinkSender(systemID: 245, componentID: 190)
    private var copterIntake = MAVLinkParser()
    private var copterSequence: UInt8 = 0
    /// The flight commands (COMMAND_LONG ids but SET_MESSAGE_INTERVAL's) and set-points FollowMe sent, with when.
    private(set) var commandsSent: [(at: MonotonicTime, id: UInt16)] = []
    private(set) var setpointsSent: [MonotonicTime] = []
    /// The flight's transitions, in order.
    private(set) var transitions: [FlightTransition] = []

    /// `pointCamera`: `[mavlink] point_camera`; `mountType`: the Copter's `MNT1_TYPE` (0: no mount);
    /// `autopilot`: the Copter's firmware, and FollowMe's `[mavlink] autopilot`.
    init(takeOffOnStart: Bool, pointCamera: Bool = false, mountType: Int = 0, autopilot: SimulatedAutopilot = .ardupilot,
         altitudeMode: AltitudeMode = .takeoff) throws {
        var failsafe = FailsafeParameters()
        failsafe.takeOffOnStart = takeOffOnStart
        self.failsafe = failsafe
        self.pointCamera = pointCamera
        self.autopilot = autopilot
        self.altitudeMode = altitudeMode
        var parameters = autopilot == .px4 ? MAVLinkCopterParameters.px4 : MAVLinkCopterParameters()
        parameters.mountType = mountType
        copter = MAVLinkCopter(parameters: parameters, plane: plane)
        (session, core) = try Self.followMe(failsafe: failsafe, pointCamera: pointCamera, autopilot: autopilot, altitudeMode: altitudeMode)
        startSession()
    }

    /// A new FollowMe process: its flight rules and its link, as `followme run` builds them.
    static func followMe(failsafe: FailsafeParameters, pointCamera: Bool = false, autopilot: SimulatedAutopilot = .ardupilot,
                         altitudeMode: AltitudeMode = .takeoff,
                         previousFlight: FlightFrameRecord? = nil) throws -> (MAVLinkSession, FlightLoopCore) {
        var follow = FollowParameters()
        follow.altitudeMode = altitudeMode
        // No onboard receiver is read with `position_source = "autopilot"`: the nose is the autopilot's, as
        // `followme run` configures it (FollowMeConfiguration+Core.swift).
        follow.mountOffsetDegrees = 0
        var configuration = try MAVLinkLinkConfiguration(
            autopilot: autopilot == .px4 ? .px4 : .ardupilot, positionSource: .autopilot, setpoints: VelocitySetpointLimits(follow: follow),
            takeoffAltitudeMeters: follow.altitudeMeters)
        configuration.pointCamera = pointCamera
        let machine = try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: .velocityLoop(autopilot == .px4 ? .px4Defaults : .arduCopterDefaults),
                                             onboardLatencySeconds: 0)
        return (MAVLinkSession(configuration: configuration, previousFlight: previousFlight), FlightLoopCore(machine: machine))
    }

    private mutating func startSession() {
        core.start(now: now)
        var output = MAVLinkSessionOutput()
        session.start(now: now, output: &output)
        perform(output)
    }

    /// FollowMe is killed now and started again `afterSeconds` later (what the unit's `Restart=` does).
    /// `keepingFrame`: the new run gets the flight frame the old one kept (the link's file in the
    /// unit's state directory, `FlightFrameFile`).
    mutating func restart(afterSeconds: Double, keepingFrame: Bool = true) throws {
        let kept = keepingFrame ? session.flightFrameRecord : nil
        followMeRuns = false
        run(for: afterSeconds)
        (session, core) = try Self.followMe(failsafe: failsafe, pointCamera: pointCamera, autopilot: autopilot, altitudeMode: altitudeMode,
                                            previousFlight: kept)
        followMe = MAVLinkSender(systemID: 245, componentID: 190)
        followMeRuns = true
        transitions = []
        startSession()
    }

    var state: FlightState { core.machine.state }

    /// One 1/30 s step: the Copter's telemetry to the link, the person's fix, the flight's tick, the link's tick.
    mutating func step() {
        tick += 1
        let due = copter.advance(to: now)
        guard followMeRuns else { return }
        deliver(due)
        if tick % 6 == 0 { handle(.gps(personFix())) }
        handle(.tick)
        var output = MAVLinkSessionOutput()
        session.tick(now: now, output: &output)
        perform(output)
    }

    mutating func run(for seconds: Double) {
        let end = tick + Int((seconds * 30).rounded())
        while tick < end { step() }
    }

    /// Steps until `condition` holds (true) or `seconds` pass (false).
    mutating func run(within seconds: Double, until condition: (OwnershipRig) -> Bool) -> Bool {
        let end = tick + Int((seconds * 30).rounded())
        while tick < end {
            step()
            if condition(self) { return true }
        }
        return false
    }

    /// The operator's START or LAND, as the cockpit or `followme land` hands it to the flight.
    mutating func operatorSays(_ command: OperatorCommand) {
        handle(.operatorCommand(command, source: "test"))
    }

    // MARK: The pilot

    /// A pilot's ground station (system 255) sends `command` to the Copter; its answers go to the pilot.
    @discardableResult
    mutating func pilot(_ command: MAVCommand, _ params: [Float]) -> MAVResult? {
        let message = CommandLong {
            $0.params = params + Array(repeating: 0, count: max(0, 7 - params.count))
            $0.command = .init(command)
            $0.target = MAVLinkTarget(system: 1, component: 1)
        }
        let replies = copter.receive(message.frame(sequence: 0, systemID: 255, componentID: 190), at: copter.time)
        return replies.compactMap { $0 as? CommandAck }.first { $0.command.known == command }?.result.known
    }

    /// The pilot arms in GUIDED, takes off to 5 m from their own ground station, and switches to LOITER
    /// on the transmitter: a flight FollowMe did not start. PX4: arms in Hold, NAV_TAKEOFF to 5 m above
    /// home (AMSL), then POSCTL.
    mutating func pilotFlies() {
        if autopilot == .px4 {
            pilot(.componentArmDisarm, [1])
            pilot(.navTakeoff, [.nan, .nan, .nan, .nan, .nan, .nan, Float(copter.parameters.homeAltitudeMSLMeters + 5)])
        } else {
            pilot(.doSetMode, [Float(MAVModeFlag.customModeEnabled.rawValue), Float(ArduCopterMode.guided.rawValue)])
            pilot(.componentArmDisarm, [1])
            pilot(.navTakeoff, [0, 0, 0, 0, 0, 0, 5])
        }
        run(for: 12)
        deliver(copter.pilotModeSwitch(to: .loiter, at: now).messages)
        run(for: 15)
    }

    /// The pilot switches the Copter to `mode` on the transmitter.
    mutating func pilotSwitches(to mode: ArduCopterMode) {
        deliver(copter.pilotModeSwitch(to: mode, at: now).messages)
    }

    /// A ground station sets the Copter's parameter `name`; the PARAM_VALUE reporting it reaches FollowMe too.
    mutating func groundStationSets(_ name: String, to value: Float) {
        guard let report = copter.setParameter(name, to: value) else { return }
        deliver([report])
    }

    /// The pilot lands (LAND from their station) and the Copter disarms on the ground.
    mutating func pilotLands() -> Bool {
        pilotSwitches(to: .land)
        return run(within: 60) { !$0.copter.isArmed }
    }

    // MARK: Wiring

    private func personFix() -> GPSEvent {
        let c = plane.unproject(person)!
        return .fix(GPSFix(role: .target, device: "/dev/rig-target", mode: .threeD,
                           latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                           fixTime: nil, receivedAt: now, altitudeHAEMeters: personAltitudeMeters, ephMeters: 2)!)
    }

    /// One flight input; the command it makes goes to the link as `MAVLinkLink.send` hands it on.
    private mutating func handle(_ input: FlightLoopCore.Input) {
        let step = core.handle(input, now: now)
        if let transition = step.decision?.transition { transitions.append(transition) }
        guard step.sendsCommand, let command = step.command else { return }
        session.setDesired(command)
        guard step.immediately else { return }
        var output = MAVLinkSessionOutput()
        session.sendSetpoint(now: now, output: &output)
        perform(output)
    }

    /// The Copter's messages to FollowMe's link, framed with the Copter's ids; the link's events to the flight.
    private mutating func deliver(_ messages: [any MAVLinkMessage]) {
        guard followMeRuns else { return }
        for message in messages {
            let bytes = message.encoded(sequence: copterSequence, systemID: copter.parameters.systemID,
                                        componentID: copter.parameters.componentID)
            copterSequence &+= 1
            var output = MAVLinkSessionOutput()
            session.receive(datagram: bytes, fromExpectedSource: true, now: now, output: &output)
            perform(output)
        }
    }

    /// What the link said and sent: events to the flight, messages through the codec to the Copter,
    /// whose answers come back.
    private mutating func perform(_ output: MAVLinkSessionOutput) {
        for event in output.events { handle(.link(event)) }
        for outgoing in output.messages {
            switch outgoing {
            case .command(let command) where command.command.rawValue != 511: commandsSent.append((now, command.command.rawValue))
            case .setpoint: setpointsSent.append(now)
            default: break
            }
            var answers: [any MAVLinkMessage] = []
            for case .frame(let frame) in copterIntake.parse(followMe.encode(outgoing)) {
                answers += copter.receive(frame, at: now)
            }
            deliver(answers)
        }
    }
}
