@testable import FollowCore

/// A scripted world for state-machine tests: both receivers, the heading and navdata arrive at
/// fixed rates and can each be silenced; a stand-in for the drone *firmware* moves the navdata
/// flight state in response to the REF intent after fixed delays. No dynamics: positions are
/// set by the test.
struct World {
    var machine: FlightStateMachine
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

    init(follow: FollowParameters = .testDefault, failsafe: FailsafeParameters = .testDefault,
         vehicle: VehicleDynamics = .tiltLoop) throws {
        machine = try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: vehicle)
    }

    var state: FlightState { machine.state }
    var command: DroneCommand? { last?.command }

    private static func fixTime(_ t: Double) -> FixTime {
        let nanos = Int64((t * 1e9).rounded())
        return FixTime(seconds: 1_700_000_000 + nanos / 1_000_000_000, nanoseconds: Int32(nanos % 1_000_000_000))
    }

    private func fix(_ role: ReceiverRole, at position: PlaneVector) -> FollowInput {
        let c = plane.unproject(position)!
        return .fix(GPSFix(role: role, device: "/dev/world-\(role)", mode: .threeD,
                           latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                           fixTime: Self.fixTime(time - 0.3), receivedAt: now,
                           altitudeHAEMeters: role == .target ? personAltitude : nil)!)
    }

    /// Advances one 30 Hz tick: deliver what is due, tick the machine, let the firmware react.
    mutating func step() {
        if tick % 6 == 0 {   // 5 Hz receivers
            if sendsTarget { machine.handle(fix(.target, at: person), now: now); lastTargetFixAt = time }
            if sendsOnboard { machine.handle(fix(.onboard, at: drone), now: now) }
            if sendsHeading {
                machine.handle(.heading(HeadingReport(role: .onboard, device: "/dev/world-onboard",
                                                      headingDegrees: receiverHeadingDegrees, receivedAt: now)!), now: now)
            }
        }
        if tick % 2 == 0, sendsNavdata {   // 15 Hz navdata
            machine.handle(.telemetry(DroneTelemetry(
                flightState: flightState, emergency: emergency, batteryPercent: battery, batteryUnknown: batteryUnknown,
                critical: critical, readyToArm: readyToArm, altitudeMeters: altitude,
                velocityBody: BodyVelocity(forwardMetersPerSecond: 0, rightMetersPerSecond: 0), yawDegrees: 0,
                windWarning: windWarning, receivedAt: now)), now: now)
        }
        let decision = machine.tick(now: now)
        if let t = decision.transition { transitions.append(t) }
        last = decision
        react(to: decision.command)
        tick += 1
    }

    private mutating func react(to command: DroneCommand) {
        guard firmwareFollowsIntent else { return }
        let dt = 1.0 / 30
        firmwareTimer += dt
        if command.intent.wantsAirborne {
            switch flightState {
            case .landed, .landing:
                flightState = .takingOff; firmwareTimer = -takeoffDelay
            case .takingOff where firmwareTimer >= climbOutSeconds:
                flightState = .hovering; altitude = 1
            case .flying, .hovering:
                if let pilot = command.pilot {
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
