import FollowCore
import MAVLink

/// A MAVLink vehicle on the bench (docs/mavlink.md §9): the product's `MAVLinkSession` (the link's
/// pure state machine: heartbeat, message rates, GUIDED → ARM → NAV_TAKEOFF, LOCAL_NED velocity
/// set-points carrying the core's motion as is, LAND) talking to `MAVLinkCopter` (the simulator's
/// ArduPilot-like Copter), in process, on the bench's simulated time.
///
/// Every message goes through the MAVLink codec both ways, as over UDP: the session's messages are
/// framed by `MAVLinkSender` and parsed into the copter's `receive(_:at:)`; the copter's telemetry
/// and answers are framed with its ids and fed to the session as datagrams. That is the only way
/// into the session (its frame intake is not public, and should not be: the link shell uses bytes),
/// and it makes the bench fly the real wire path — ids, sequence numbers, CRC_EXTRA, the type mask and
/// frame of every set-point — not a typed shortcut that could hide a mismatch. It costs time: about
/// 60 messages per simulated second, and the codec round trip is most of a MAVLink run's time
/// (docs/mavlink.md §9: MAVLink runs are about 3× slower than AR.Drone runs).
///
/// Zero latency: the copter's answers reach the session at the instant of the command.
struct MAVLinkBenchDrone: BenchDrone {
    var airframe: MAVLinkCopter
    var session: MAVLinkSession
    let positionSource: MAVLinkLinkConfiguration.PositionSource
    /// Frames the session's messages as FollowMe does (its system and component ids, its sequence).
    private var groundStation: MAVLinkSender
    /// Reads the ground station's bytes for the copter, as the simulator's endpoint does.
    private var copterParser = MAVLinkParser()
    private var copterSequence: UInt8 = 0
    private var output = MAVLinkSessionOutput()
    private var events: [LinkEvent] = []
    /// The flight's latest command, for the track (the session keeps its own copy).
    private var desired: LinkCommand?
    /// The follow limits the naive baseline's PCMD fractions are fractions of.
    private let naiveFollow: FollowParameters

    /// A disarmed Copter in STABILIZE on the ground at `positionPlane` of `plane`, nose at `bearing`,
    /// and a session configured as `followme run` configures it for an ArduPilot vehicle: set-points
    /// scaled by the core's tilt model for the bench's follow parameters, take-off to their altitude.
    init(configuration c: BenchConfiguration, plane: LocalPlane, positionPlane: PlaneVector,
         noseHeadingDegrees bearing: Double) throws(BenchError) {
        airframe = MAVLinkCopter(parameters: c.plant.copterParameters, dynamics: c.plant.dynamics, plane: plane, start: .zero, positionPlane: positionPlane,
                               noseHeadingDegrees: bearing)
        positionSource = c.mavlinkPositionSource
        let follow = c.followParameters(drone: DroneConfiguration())
        naiveFollow = follow
        let configuration: MAVLinkLinkConfiguration
        do {
            configuration = try MAVLinkLinkConfiguration(
                autopilot: .ardupilot, positionSource: c.mavlinkPositionSource,
                setpoints: VelocitySetpointLimits(follow: follow), takeoffAltitudeMeters: follow.altitudeMeters)
        } catch {
            throw .parameters(error)
        }
        session = MAVLinkSession(configuration: configuration)
        groundStation = MAVLinkSender(systemID: configuration.systemID, componentID: configuration.componentID)
        session.start(now: .zero, output: &output)
        exchange(fromCopter: [], now: .zero)
    }

    /// The copter's landed state in the AR.Drone's words.
    var phaseName: String {
        switch airframe.landedState {
        case .onGround: "landed"
        case .takeoff: "taking-off"
        case .inAir: "flying"
        case .landing: "landing"
        default: "unknown"
        }
    }
    /// The AR.Drone's default limits: the bench gives both links the same follow parameters, so the
    /// same command means the same steady speed (docs/mavlink.md §7.4).
    var droneConfiguration: DroneConfiguration { DroneConfiguration() }
    /// The autopilot's heading is the nose's (docs/mavlink.md §7.2); a receiver keeps its mount offset.
    var mountOffsetDegrees: Double { positionSource == .autopilot ? 0 : BenchRunner.mountOffsetDegrees }
    var readsOnboardReceiver: Bool { positionSource == .receiver }
    /// ArduCopter GUIDED closes its own velocity loop (the bench's Copter is ArduPilot-like).
    var vehicleModel: VehicleModelBuilder { .velocityLoop(.arduCopterDefaults) }

    mutating func advance(to now: MonotonicTime) {
        let due = airframe.advance(to: now)
        if !due.isEmpty { exchange(fromCopter: due, now: now) }
    }

    /// The session streams its telemetry as the vehicle sends it: nothing to poll.
    mutating func pollTelemetry(at now: MonotonicTime) {}

    mutating func takeEvents() -> [LinkEvent] {
        guard !events.isEmpty else { return [] }
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// As `MAVLinkLink.send`: the session's desired command; `immediately` sends the set-point now.
    /// An autopilot closes its own velocity loop: nothing of the controller's to take.
    mutating func flies(with controller: FollowController) {}

    mutating func send(_ command: LinkCommand, immediately: Bool, at now: MonotonicTime) -> [Double]? {
        desired = command
        session.setDesired(command)
        guard immediately else { return nil }
        session.sendSetpoint(now: now, output: &output)
        exchange(fromCopter: [], now: now)
        return sentMotion
    }

    /// The link's tick (heartbeat, requests, the set-point), at the bench's control period.
    mutating func tick(at now: MonotonicTime) -> [Double]? {
        session.tick(now: now, output: &output)
        exchange(fromCopter: [], now: now)
        return sentMotion
    }

    /// The latest command's motion (hover: zero), once the flight sent one.
    private var sentMotion: [Double]? {
        guard let desired else { return nil }
        let motion = desired.motion ?? .stop
        return [motion.velocity.east, motion.velocity.north, motion.climbMetersPerSecond, motion.yawRateDegreesPerSecond]
    }

    /// The baseline flies from its first tick (as its REF take-off does); hover = the hold set-point.
    mutating func send(naive command: NaiveBaselineController.Command, at now: MonotonicTime) {
        let motion = command.motion(follow: naiveFollow, noseHeadingDegrees: airframe.noseHeadingDegrees)
        session.setDesired(LinkCommand(flying: true, motion: motion))
        _ = tick(at: now)
    }

    /// Delivers the copter's `messages` to the session and the session's to the copter until neither
    /// has anything more to say at `now`; the session's events are kept for `takeEvents`.
    private mutating func exchange(fromCopter messages: [any MAVLinkMessage], now: MonotonicTime) {
        var inbound = messages
        repeat {
            for message in inbound {
                let bytes = message.encoded(sequence: copterSequence, systemID: airframe.parameters.systemID,
                                            componentID: airframe.parameters.componentID)
                copterSequence &+= 1
                session.receive(datagram: bytes, fromExpectedSource: true, now: now, output: &output)
            }
            inbound = []
            events += output.events
            for outgoing in output.messages {
                for case .frame(let frame) in copterParser.parse(groundStation.encode(outgoing)) {
                    inbound += airframe.receive(frame, at: now)
                }
            }
            output.reset()
        } while !inbound.isEmpty
    }
}
extension MAVLinkCopter: BenchAirframe {}
