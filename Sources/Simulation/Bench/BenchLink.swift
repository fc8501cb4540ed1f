import FollowCore

/// Which drone link, and so which simulated drone, a bench run flies (`--link`; both side by side:
/// docs/mavlink.md §9).
public enum BenchLink: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The AR.Drone 2.0: the flight's `LinkCommand`s as AT commands (REF + PCMD, mapped as `DroneLink`
    /// maps them) into `DroneSimulator`, navdata back through `DroneTelemetry(navdata:receivedAt:)`.
    case ardrone
    /// A MAVLink autopilot: the flight's `LinkCommand`s to `MAVLinkSession`, whose velocity set-points
    /// go through the MAVLink codec into `MAVLinkCopter` (an ArduPilot-like Copter), its telemetry and
    /// events back through the session (docs/mavlink.md §9).
    case mavlink

    public var description: String { rawValue }
}

/// One simulated drone behind one link, as the bench loop sees it: ground truth for the metrics, the
/// link's events for the flight, the link's side of `DroneControlLink` (`send`, and its own `tick`) on
/// the bench's time, and the naive baseline's own way in.
///
/// The loop is generic over it: one loop flies every link.
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
    /// The family's model of this drone, as `followme run` configures the core for it
    /// (`FollowMeConfiguration.vehicleModel`).
    var vehicleModel: VehicleModelBuilder { get }

    /// Moves the physics to the last step boundary ≤ `now`.
    mutating func advance(to now: MonotonicTime)
    /// The bench's navdata grid: a link that polls its drone (the AR.Drone) reads its telemetry now;
    /// what it makes of it comes out of `takeEvents`. A link whose drone streams does nothing here.
    mutating func pollTelemetry(at now: MonotonicTime)
    /// The link's events since the last call, in order (`LinkEvent`s, as the real link delivers them).
    mutating func takeEvents() -> [LinkEvent]
    /// `DroneControlLink.send`: the flight's command, which every following link tick carries;
    /// `immediately` sends it now. Returns what went to the drone now for the track (the AR.Drone: PCMD
    /// roll, pitch, gaz, yaw fractions; an autopilot: velocity east, north, climb m/s and yaw rate °/s), or nil.
    mutating func send(_ command: LinkCommand, immediately: Bool, at now: MonotonicTime) -> [Double]?
    /// The link's own tick at its cadence (the bench's control period), before the flight's control
    /// step, as `DroneLink` and `MAVLinkLink` tick: re-sends the latest command. Returns what it sent, or nil.
    mutating func tick(at now: MonotonicTime) -> [Double]?
    /// Sends the naive baseline's command for this control tick (the baseline's own path).
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

extension GPSSimulatorOutput {
    /// The receiver it came from.
    var role: ReceiverRole {
        switch self {
        case .fix(let fix): fix.role
        case .heading(let report): report.role
        }
    }
}
