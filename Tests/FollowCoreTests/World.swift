import ARDrone
@testable import FollowCore

/// A scripted world for state-machine tests, flown by `FlightLoopCore` as `followme run` flies it:
/// both receivers, the heading and navdata arrive at fixed rates and can each be silenced; a fake
/// AR.Drone link hands the flight its events and the firmware the flight's `LinkCommand`s; a
/// stand-in for the drone *firmware* moves the navdata flight state in response to REF bit 9
/// after fixed delays. No dynamics: positions are set by the test.
struct World {
    /// The flight: the rules of `followme run` around the state machine.
    private(set) var flight: FlightLoopCore
    /// The flight's state machine (read it; inputs go through the world, as a receiver or the link).
    var machine: FlightStateMachine { flight.machine }
    /// Tick index; time = tick / 30 s.
    private(set) var tick = 0
    var time: Double { Double(tick) / 30 }
    var now: MonotonicTime { MonotonicTime(seconds: time) }

    let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!)
    var person = PlaneVector(east: 0, north: 10)
    /// The person's receiver altitude (3-D fixes), metres; nil = none reported.
    var personAltitude: Double?
    var drone = PlaneVector.zero
    var receiverHeadingDegrees = 270.0   // nose north with the default 90° mount

    var sendsTarget = true
    var sendsOnboard = true
    var sendsHeading = true
    var sendsNavdata = true
    var battery = 90.0
    /// MAVLink health as `DroneTelemetry` carries it (the AR.Drone's: false, false, nil).
    var batteryUnknown = false
    var critical = false
    var readyToArm: Bool?
    var emergency = false
    /// Navdata's "too much wind" state bit.
    var windWarning = false
    var flightState: DroneFlightState = .landed
    var altitude = 0.0
    /// What the link's configuration writes come to; the link reports it with the next navdata
    /// after it changes (`.done`: `.configurationComplete` with the first navdata, as the bench's link).
    var droneConfiguration: DroneConfigurationStatus = .done
    /// Whether the fake firmware reacts to REF at all.
    var firmwareFollowsIntent = true
    /// The fake firmware: seconds from REF take-off to "takingOff", then to "hovering" at 1 m;
    /// seconds from REF land to "landed".
    var takeoffDelay = 0.3, climbOutSeconds = 2.0, landingSeconds = 2.0
    /// The highest the fake firmware climbs, metres (a low `altitude_max`, a failed config write).
    var altitudeCapMeters = Double.infinity

    private(set) var transitions: [FlightTransition] = []
    private(set) var last: FlightDecision?
    private(set) var lastTargetFixAt: Double?
    private var firmwareTimer = 0.0
    /// The fake link: connected by the first navdata (nothing goes out before it), the flight's
    /// latest command (re-sent every tick; REF bit 9 adopted from the drone on connect, as `ARDroneSession`).
    private var linkConnected = false
    private var linkCommand = LinkCommand.landed
    /// The PCMD of the latest command (its `VehicleSetpoint`; nil = hover; always nil for an autopilot).
    private(set) var pilot: PilotCommand?
    private var navdataSequence = 0
    private var reportedConfiguration: DroneConfigurationStatus?

    init(follow: FollowParameters = .testDefault, failsafe: FailsafeParameters = .testDefault,
         vehicle: VehicleModelBuilder = .tiltLoop) throws {
        flight = FlightLoopCore(machine: try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: vehicle))
        flight.start(now: MonotonicTime(seconds: 0))
    }

    var state: FlightState { machine.state }
    /// The flight's latest command to the link.
    var sentCommand: LinkCommand { linkCommand }
    var command: DroneCommand? { last?.command }

    private static func fixTime(_ t: Double) -> FixTime {
        let nanos = Int64((t * 1e9).rounded())
        return FixTime(seconds: 1_700_000_000 + nanos / 1_000_000_000, nanoseconds: Int32(nanos % 1_000_000_000))
    }

    private func fix(_ role: ReceiverRole, at position: PlaneVector) -> GPSEvent {
        let c = plane.unproject(position)!
        return .fix(GPSFix(role: role, device: "/dev/world-\(role)", mode: .threeD,
                           latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                           fixTime: Self.fixTime(time - 0.3), receivedAt: now,
                           altitudeHAEMeters: role == .target ? personAltitude : nil)!)
    }

    /// Advances one 30 Hz tick: deliver what is due, let the link tick (the firmware reacts to the
    /// command it carries), then the flight's control step, as `DroneLink` ticks.
    mutating func step() {
        if tick % 6 == 0 {   // 5 Hz receivers
            if sendsTarget { deliver(fix(.target, at: person)); lastTargetFixAt = time }
            if sendsOnboard { deliver(fix(.onboard, at: drone)) }
            if sendsHeading {
                deliver(.heading(HeadingReport(role: .onboard, device: "/dev/world-onboard",
                                               headingDegrees: receiverHeadingDegrees, receivedAt: now)!))
            }
        }
        if tick % 2 == 0, sendsNavdata { receiveNavdata() }   // 15 Hz navdata
        if linkConnected { react(to: linkCommand) }
        fly(.tick)
        tick += 1
    }

    /// The link reads one navdata packet: `.connected` with the first, then the telemetry, then the
    /// configuration's progress when it changed.
    private mutating func receiveNavdata() {
        let telemetry = DroneTelemetry(
            flightState: flightState, emergency: emergency, batteryPercent: battery, batteryUnknown: batteryUnknown,
            critical: critical, readyToArm: readyToArm, altitudeMeters: altitude,
            velocityBody: BodyVelocity(forwardMetersPerSecond: 0, rightMetersPerSecond: 0), yawDegrees: 0,
            windWarning: windWarning, receivedAt: now)
        if !linkConnected {
            linkConnected = true
            if flightState.isAirborne && !emergency { linkCommand = LinkCommand(flying: true) }
            linkReports(.connected(droneWasFlying: flightState.isAirborne, desiredFlying: linkCommand.flying, at: now))
        }
        navdataSequence += 1
        linkReports(.telemetry(telemetry, sequence: navdataSequence))
        guard droneConfiguration != reportedConfiguration else { return }
        reportedConfiguration = droneConfiguration
        switch droneConfiguration {
        case .done: linkReports(.configurationComplete(failedKeys: [], at: now))
        case .pending: linkReports(.configurationPending(reason: "writes not acknowledged", at: now))
        case .failed(let key): linkReports(.configurationFailed(key: key, value: "", reason: "no acknowledgement", at: now))
        }
    }

    /// A receiver's event, handed to the flight now as gpsd hands it; returns what the core made of a fix.
    @discardableResult
    mutating func deliver(_ event: GPSEvent) -> InputOutcome? {
        fly(.gps(event)).fixOutcome
    }

    /// An event of the link's (a release, control lost or regained, …), handed to the flight now.
    mutating func linkReports(_ event: LinkEvent) {
        fly(.link(event))
    }

    /// SIGTERM: the flight lands (unless released) and sends that at once.
    mutating func shutdown() {
        fly(.shutdown)
    }

    /// The operator's HOLD, RESUME or LAND, handed to the flight now; what the machine made of it.
    @discardableResult
    mutating func operatorSays(_ command: OperatorCommand) -> OperatorCommand.Outcome? {
        fly(.operatorCommand(command, source: "test")).operatorOutcome
    }

    /// The operator changes the follow mode, as the status socket or the cockpit hands it to the flight.
    @discardableResult
    mutating func operatorChanges(_ change: FollowModeChange) -> OperatorCommand.Outcome? {
        fly(.followModeChange(change, source: "test")).operatorOutcome
    }

    /// One input to the flight; its decision is recorded, its command handed to the link, which
    /// carries it with its next tick (the fake firmware reads REF once a tick, so an immediate send
    /// reaches it no sooner).
    @discardableResult
    private mutating func fly(_ input: FlightLoopCore.Input) -> FlightLoopCore.Step {
        let step = flight.handle(input, now: now)
        if let decision = step.decision {
            if let t = decision.transition { transitions.append(t) }
            last = decision
        }
        if step.sendsCommand, let command = step.command {
            linkCommand = command
            pilot = command.setpoint?.pilot
        }
        return step
    }

    /// The fake firmware, once per link tick: REF bit 9 (`flying`) and the PCMD (or an autopilot's motion).
    private mutating func react(to command: LinkCommand) {
        guard firmwareFollowsIntent else { return }
        let dt = 1.0 / 30
        firmwareTimer += dt
        if command.flying {
            switch flightState {
            case .landed, .landing:
                flightState = .takingOff; firmwareTimer = -takeoffDelay
            case .takingOff where firmwareTimer >= climbOutSeconds:
                flightState = .hovering; altitude = 1
            case .flying, .hovering:
                if let pilot {
                    flightState = .flying
                    altitude = min(altitude + pilot.gaz * 0.7 * dt, altitudeCapMeters)
                } else if let motion = command.motion {
                    // An autopilot flies the motion itself (no PCMD)
                    flightState = .flying
                    altitude = min(altitude + motion.climbMetersPerSecond * dt, altitudeCapMeters)
                } else {
                    flightState = .hovering
                }
            default: break
            }
        } else if flightState.isAirborne {
            flightState = .landing; firmwareTimer = 0
        } else if flightState == .landing, firmwareTimer >= landingSeconds {
            flightState = .landed; altitude = 0
        }
    }

    /// Steps until `time` ≥ `seconds` (absolute).
    mutating func run(until seconds: Double) {
        while time < seconds - 1e-9 { step() }
    }

    mutating func run(for seconds: Double) { run(until: time + seconds) }

    /// Steps until `predicate` holds or `limit` seconds pass; returns the time it first held.
    @discardableResult
    mutating func run(until predicate: (FlightState) -> Bool, within limit: Double = 60) -> Double? {
        let end = time + limit
        while time < end {
            step()
            if predicate(machine.state) { return time - 1.0 / 30 }
        }
        return nil
    }

    /// Takes off from preflight with everything fresh and runs until following.
    mutating func flyToFollowing() {
        run(until: { $0 == .following }, within: 30)
    }

    /// A default world flown to `following`: where most state-machine tests start.
    static func following() throws -> World {
        var world = try World()
        world.flyToFollowing()
        return world
    }
}

extension FollowParameters {
    /// What these tests fly unless they say otherwise: the core's defaults as the tests were written
    /// (standoff 8 m), before issue 13 made the core's declared defaults the config file's (11 m).
    static let testDefault = FollowParameters(standoffMeters: 8)
}

extension FailsafeParameters {
    /// As `FollowParameters.testDefault`: no GPS relative error (the declared default is 4 m), so the
    /// protected radius is `minSeparationMeters` alone, as the tests were written.
    static let testDefault = FailsafeParameters(gpsRelativeErrorMeters: 0)
}
