import ARDrone
import FollowCore

/// Which drone link, and so which simulated drone, a bench run flies (issue 16: "the bench reports
/// both links side by side").
public enum BenchLink: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The AR.Drone 2.0: AT commands (REF + PCMD, mapped as `DroneLink` maps them) into
    /// `DroneSimulator`, navdata back through `DroneTelemetry(navdata:receivedAt:)`.
    case ardrone
    /// A MAVLink autopilot: the same core's `PilotCommand` as the velocity set-point `MAVLinkSession`
    /// sends, through the MAVLink codec into `MAVLinkCopter` (an ArduPilot-like Copter), its telemetry
    /// back through the session (docs/mavlink.md §9).
    case mavlink

    public var description: String { rawValue }
}

/// One simulated drone behind one link, as the bench loop sees it: ground truth for the metrics, the
/// link's events for the controller, and the two ways a controller commands it.
///
/// The loop is generic over it, so the AR.Drone path is the code it was before the MAVLink one came.
protocol BenchDrone {
    associatedtype Airframe: BenchAirframe
    /// The simulated drone itself: the truth the metrics read, the wind it flies in.
    var airframe: Airframe { get set }
    /// The drone's own state at the end of a run: `landed`, `taking-off`, `flying`, `landing`, `emergency`.
    var phaseName: String { get }
    /// The drone's limits FollowMe's parameters are derived from (`BenchConfiguration.followParameters(drone:)`).
    var droneConfiguration: DroneConfiguration { get }
    /// Nose − onboard heading, degrees, of the onboard heading source the controller reads: the
    /// simulated receiver's mount offset, or 0 for an autopilot's own heading.
    var mountOffsetDegrees: Double { get }
    /// Whether the simulated onboard receiver's fixes and headings reach the controller (false when
    /// the link brings the autopilot's own position instead, `LinkEvent.onboard`).
    var readsOnboardReceiver: Bool { get }
    /// The link configures the drone after it connects (`LinkEvent.configurationComplete`), so the core
    /// starts with its configuration pending, as in `FlightLoop.start`.
    var configuresOnConnect: Bool { get }
    /// Who closes the velocity loop: FollowMe's tilt loop (AR.Drone) or the autopilot, as `followme run`
    /// configures the core for this drone (`FollowMeConfiguration.vehicleDynamics`).
    var vehicleDynamics: VehicleDynamics { get }

    /// Moves the physics to the last step boundary ≤ `now`.
    mutating func advance(to now: MonotonicTime)
    /// The navdata-style telemetry a link that is polled on the bench's navdata grid reports now (nil: none).
    func polledTelemetry(at now: MonotonicTime) -> DroneTelemetry?
    /// The link's events since the last call, in order.
    mutating func takeEvents() -> [LinkEvent]
    /// Sends FollowMe's command for this control tick; returns what was sent for the track (the
    /// AR.Drone: PCMD roll, pitch, gaz, yaw fractions; an autopilot: velocity east, north, climb m/s
    /// and yaw rate °/s), or nil when the link is not yet commanding the drone.
    mutating func send(_ command: DroneCommand, at now: MonotonicTime) -> [Double]?
    /// Sends the naive baseline's command for this control tick.
    mutating func send(naive command: NaiveBaselineController.Command, at now: MonotonicTime)
}

/// What both simulators share: the ground truth the bench measures and the wind they fly in.
protocol BenchAirframe {
    /// Simulated time of the state (a step boundary).
    var time: MonotonicTime { get }
    var positionPlane: PlaneVector { get }
    var velocityENU: PlaneVector { get }
    var altitudeMeters: Double { get }
    var noseHeadingDegrees: Double { get }
    var batteryPercent: Double { get }
    /// What a receiver on the drone measures from.
    var gpsTruth: GPSTruthSample { get }
    var windENU: PlaneVector { get set }
}

extension DroneSimulator: BenchAirframe {}
extension MAVLinkCopter: BenchAirframe {}

/// The AR.Drone behind the AT/navdata mapping of `DroneLink` (ARDroneAdapter).
struct ARDroneBenchDrone: BenchDrone {
    var airframe: DroneSimulator

    /// The simulated AR.Drone at `positionPlane`, nose at `bearing`, with the bench's two configuration
    /// writes (`control:euler_angle_max`, `control:altitude_max`) arriving at t = 0.
    init(configuration c: BenchConfiguration, positionPlane: PlaneVector, noseHeadingDegrees bearing: Double) {
        var dynamics = c.plant.dynamics
        dynamics.reportsWindWarning = c.firmwareReportsWind
        airframe = DroneSimulator(dynamics: dynamics, start: .zero, positionPlane: positionPlane,
                             noseHeadingDegrees: bearing)
        airframe.apply(.config(key: "control:euler_angle_max", value: "\(radians(fromDegrees: c.eulerAngleMaxDegrees))"),
                  at: .zero)
        airframe.apply(.config(key: "control:altitude_max", value: "\((c.altitudeMaxMeters * 1000).rounded())"), at: .zero)
    }

    var phaseName: String { airframe.flightPhase.name }
    var droneConfiguration: DroneConfiguration { airframe.configuration }
    var mountOffsetDegrees: Double { BenchRunner.mountOffsetDegrees }
    var readsOnboardReceiver: Bool { true }
    /// The bench's two writes take effect at t = 0 (the simulator applies them at once).
    var configuresOnConnect: Bool { false }
    var vehicleDynamics: VehicleDynamics { .tiltLoop }

    mutating func advance(to now: MonotonicTime) { airframe.advance(to: now) }

    func polledTelemetry(at now: MonotonicTime) -> DroneTelemetry? { DroneTelemetry(navdata: airframe.navdata, receivedAt: now) }

    mutating func takeEvents() -> [LinkEvent] { [] }

    mutating func send(_ command: DroneCommand, at now: MonotonicTime) -> [Double]? {
        airframe.apply(.ref(command.refInput), at: now)
        let pcmd = command.progressiveCommand
        airframe.apply(.pcmd(pcmd), at: now)
        return [pcmd.rollFraction, pcmd.pitchFraction, pcmd.gazFraction, pcmd.yawFraction].map(Double.init)
    }

    mutating func send(naive command: NaiveBaselineController.Command, at now: MonotonicTime) {
        airframe.apply(.ref(.takeoff), at: now)
        airframe.apply(command.atCommand, at: now)
    }
}

extension GPSSimulatorOutput {
    /// The receiver it came from.
    var role: ReceiverRole {
        switch self {
        case .fix(let fix): fix.role
        case .heading(let report): report.role
        }
    }
}
