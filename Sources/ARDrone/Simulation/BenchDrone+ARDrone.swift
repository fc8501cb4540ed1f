import ARDrone
import FollowCore

extension DroneSimulator: BenchAirframe {}

/// The AR.Drone behind the AT/navdata mapping of `DroneLink` (ARDroneAdapter): what `ARDroneSession`
/// does with a `LinkCommand`, on the bench's grid.
///
/// As the real link: nothing goes out before the first navdata; then every tick (and every immediate
/// send) carries REF bit 9 = `flying` and PCMD = `ProgressiveCommand(pilot:)` of the command's
/// set-point (as `DroneLink.send`), hover until a command arrives. Navdata becomes `.telemetry`
/// through `DroneTelemetry(navdata:receivedAt:)`, preceded once by `.connected`. The bench's two
/// configuration writes reach the simulator at t = 0, so this link has nothing left to write: it
/// reports `.configurationComplete` with the first telemetry (docs/architecture.md §3.1 item 6),
/// where the real link waits for each write's acknowledgement.
struct ARDroneBenchDrone: BenchDrone {
    var airframe: DroneSimulator
    private var events: [LinkEvent] = []
    /// The first navdata arrived: AT traffic starts (`ARDroneSession.isConnected`).
    private var connected = false
    /// Navdata packets read (the simulator leaves numbering to the protocol layer).
    private var navdataSequence = 0
    /// The flight's latest command (`ARDroneSession.setDesired`): landed and hover until one arrives.
    private var desired = LinkCommand.landed
    /// The baseline's roll and pitch mean fractions of the cruise tilt; the airframe's ±1 is the braking tilt.
    private let naiveTiltScale: Float

    /// The simulated AR.Drone at `positionPlane`, nose at `bearing`, with the bench's two configuration
    /// writes (`control:euler_angle_max` = FollowMe's braking tilt, `control:altitude_max`) arriving at t = 0.
    init(configuration c: BenchConfiguration, positionPlane: PlaneVector, noseHeadingDegrees bearing: Double) {
        var dynamics = c.plant.dynamics
        dynamics.reportsWindWarning = c.firmwareReportsWind
        airframe = DroneSimulator(dynamics: dynamics, start: .zero, positionPlane: positionPlane,
                             noseHeadingDegrees: bearing)
        airframe.apply(.config(key: "control:euler_angle_max", value: "\(radians(fromDegrees: c.effectiveBrakingTiltDegrees))"),
                  at: .zero)
        naiveTiltScale = Float(c.eulerAngleMaxDegrees / c.effectiveBrakingTiltDegrees)
        airframe.apply(.config(key: "control:altitude_max", value: "\((c.altitudeMaxMeters * 1000).rounded())"), at: .zero)
    }

    var phaseName: String { airframe.flightPhase.name }
    var droneConfiguration: DroneConfiguration { airframe.configuration }
    var mountOffsetDegrees: Double { BenchRunner.mountOffsetDegrees }
    var readsOnboardReceiver: Bool { true }
    var vehicleModel: VehicleModelBuilder { .tiltLoop }

    mutating func advance(to now: MonotonicTime) { airframe.advance(to: now) }

    mutating func pollTelemetry(at now: MonotonicTime) {
        guard let telemetry = DroneTelemetry(navdata: airframe.navdata, receivedAt: now) else { return }
        navdataSequence += 1
        let first = !connected
        if first {
            connected = true
            events.append(.connected(droneWasFlying: telemetry.flightState.isAirborne, desiredFlying: desired.flying, at: now))
        }
        events.append(.telemetry(telemetry, sequence: navdataSequence))
        if first { events.append(.configurationComplete(failedKeys: [], at: now)) }
    }

    mutating func takeEvents() -> [LinkEvent] {
        guard !events.isEmpty else { return [] }
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    mutating func send(_ command: LinkCommand, immediately: Bool, at now: MonotonicTime) -> [Double]? {
        desired = command
        return immediately ? tick(at: now) : nil
    }

    mutating func tick(at now: MonotonicTime) -> [Double]? {
        guard connected else { return nil }
        airframe.apply(.ref(REFInput(flying: desired.flying)), at: now)
        let pcmd = ProgressiveCommand(pilot: desired.setpoint?.pilot)
        airframe.apply(.pcmd(pcmd), at: now)
        return [pcmd.rollFraction, pcmd.pitchFraction, pcmd.gazFraction, pcmd.yawFraction].map(Double.init)
    }

    mutating func send(naive command: NaiveBaselineController.Command, at now: MonotonicTime) {
        airframe.apply(.ref(.takeoff), at: now)
        guard case let .move(roll, pitch, gaz, yaw) = command else { return airframe.apply(command.atCommand, at: now) }
        airframe.apply(NaiveBaselineController.Command.move(
            roll: roll * naiveTiltScale, pitch: pitch * naiveTiltScale, gaz: gaz, yaw: yaw).atCommand, at: now)
    }
}
