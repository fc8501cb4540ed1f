import ARDrone
@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
import Foundation
import Logging
import Synchronization
import TestSupport

/// The AR.Drone link's reading of a command as a recording link's answer (as `DroneLink.send`): the
/// PCMD its set-point carries.
struct TiltLoopAnswer: LinkAnswer {
    func answer(_ command: LinkCommand, reflecting fixReceivedAt: MonotonicTime?) -> PilotCommand? {
        command.setpoint?.pilot
    }
}

/// A drone link that sends nothing anywhere, keeping the PCMD of each command.
typealias FakeDroneLink = RecordingDroneLink<TiltLoopAnswer>

extension RecordingDroneLink where Answer == TiltLoopAnswer {
    convenience init() { self.init(TiltLoopAnswer(), peerDescription: "fake") }
    /// The PCMD of the latest command (nil = hover).
    var latestPilot: PilotCommand? { sent.last?.made }
}

/// The flight loop in-process: a scripted world (both receivers, the heading, telemetry) feeds
/// `FlightLoop.handle` at invented times, and a stand-in for the drone's *firmware* moves the
/// telemetry's flight state in response to the latest command the loop sent the fake link. No
/// sockets, no gpsd, no clock: one step is one 30 Hz link tick.
struct FlightRig {
    var loop: FlightLoop
    let link = FakeDroneLink()
    /// Tick index; time = 100 s + tick / 30 s (MonotonicTime is never 0 in a real run).
    private(set) var tick = 0
    var now: MonotonicTime { MonotonicTime(seconds: 100 + Double(tick) / 30) }

    let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!)
    var person = PlaneVector(east: 0, north: 10)
    var drone = PlaneVector.zero
    /// Receiver heading: nose north with the default 90° mount.
    var receiverHeadingDegrees = 270.0
    var sendsTarget = true
    /// The person's receiver altitude on their fixes (3-D, HAE), metres; nil = none reported (as before).
    var personAltitudeMeters: Double?
    /// Deliver the drone's own fixes and heading as the link's `.onboard` events (an autopilot's
    /// estimate) instead of from gpsd.
    var onboardFromLink = false
    var sendsTelemetry = true
    var flightState: DroneFlightState = .landed
    var altitude = 0.0
    /// The fake firmware: seconds from a flying command to "hovering" at 1 m, and from a landing
    /// command to "landed".
    var climbOutSeconds = 1.0, landingSeconds = 2.0
    /// False once a pilot (or the autopilot's failsafe) flies the vehicle: our commands change nothing.
    var firmwareFollowsCommands = true
    private var firmwareTimer = 0.0

    /// Each transition the loop made, as its state names (`FlightState.name`).
    private(set) var states: [String] = []
    /// The loop's outcome once it returned one.
    private(set) var outcome: FlightOutcome?

    init(follow: FollowParameters = FollowParameters(), failsafe: FailsafeParameters = FailsafeParameters(),
         vehicle: VehicleModelBuilder = .tiltLoop, options: FlightServiceOptions = FlightServiceOptions(),
         recorder: FlightRecorder? = nil) throws {
        var logger = Logger(label: "test.flightloop")
        logger.logLevel = .critical
        let machine = try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: vehicle)
        loop = FlightLoop(machine: machine, link: link, recorder: recorder, options: options, logger: logger)
    }

    var state: FlightState { loop.machine.state }
    /// The states it flew through, leaving out preflight's changing wait lists.
    var flightStates: [String] { states.filter { !$0.hasPrefix("preflight") } }

    /// Starts the loop as the service does: the link connects to a landed drone and writes its
    /// configuration.
    mutating func start() {
        loop.start(now: now)
        send(.link(.connected(droneWasFlying: false, desiredFlying: false, at: now)))
        send(.link(.configurationComplete(failedKeys: [], at: now)))
    }

    mutating func send(_ input: FlightLoop.Input) {
        let before = loop.machine.state
        if let result = loop.handle(input, now: now), outcome == nil { outcome = result }
        if loop.machine.state != before { states.append(loop.machine.state.name) }
    }

    func fix(_ role: ReceiverRole, at position: PlaneVector) -> GPSEvent {
        let c = plane.unproject(position)!
        let t = 1_700_000_000 + Double(tick) / 30 - 0.3
        let fixTime = FixTime(seconds: Int64(t), nanoseconds: Int32((t - t.rounded(.down)) * 1e9))
        return .fix(GPSFix(role: role, device: "/dev/rig-\(role)", mode: .threeD,
                           latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                           fixTime: fixTime, receivedAt: now,
                           altitudeHAEMeters: role == .target ? personAltitudeMeters : nil, ephMeters: 2)!)
    }

    /// One 30 Hz tick: deliver what is due (receivers 5 Hz, telemetry 15 Hz), tick the loop, let
    /// the firmware react to the link's latest command.
    mutating func step() {
        if tick % 6 == 0 {
            if sendsTarget { send(.gps(fix(.target, at: person))) }
            let heading = GPSEvent.heading(HeadingReport(role: .onboard, device: "/dev/rig-onboard",
                                                         headingDegrees: receiverHeadingDegrees, receivedAt: now)!)
            for event in [fix(.onboard, at: drone), heading] { send(onboardFromLink ? .link(.onboard(event)) : .gps(event)) }
        }
        if tick % 2 == 0, sendsTelemetry { sendTelemetry() }
        send(.tick)
        react(to: link.latest)
        tick += 1
    }

    /// The firmware's navdata now (15 Hz in `step()`).
    mutating func sendTelemetry() {
        send(.link(.telemetry(DroneTelemetry(
            flightState: flightState, emergency: false, batteryPercent: 90, altitudeMeters: altitude,
            velocityBody: BodyVelocity(forwardMetersPerSecond: 0, rightMetersPerSecond: 0), yawDegrees: 0,
            receivedAt: now), sequence: tick / 2 + 1)))
    }

    private mutating func react(to command: LinkCommand?) {
        guard let command, firmwareFollowsCommands else { return }
        let dt = 1.0 / 30
        firmwareTimer += dt
        if command.flying {
            switch flightState {
            case .landed, .landing: flightState = .takingOff; firmwareTimer = 0
            case .takingOff where firmwareTimer >= climbOutSeconds: flightState = .hovering; altitude = 1
            case .flying, .hovering:
                let pilot = link.latestPilot
                flightState = pilot == nil ? .hovering : .flying
                altitude += (pilot?.gaz ?? 0) * 0.7 * dt
            default: break
            }
        } else if flightState.isAirborne {
            flightState = .landing; firmwareTimer = 0
        } else if flightState == .landing, firmwareTimer >= landingSeconds {
            flightState = .landed; altitude = 0
        }
    }

    /// Steps until `predicate` holds (true) or `seconds` pass (false).
    @discardableResult
    mutating func run(within seconds: Double, until predicate: (FlightRig) -> Bool) -> Bool {
        let end = tick + Int(seconds * 30)
        while tick < end {
            step()
            if predicate(self) { return true }
        }
        return false
    }

    mutating func run(for seconds: Double) { run(within: seconds) { _ in false } }
}
