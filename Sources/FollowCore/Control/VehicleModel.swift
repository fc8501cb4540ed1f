/// A drone family's model of how its vehicle answers the core's motion: what the follower predicts
/// across the command latency, brakes with, and estimates the wind with, and the family's own
/// set-point for each command (docs/architecture.md §4, docs/stopping-model.md §1, §5–7). Made by
/// the family (`DroneFamily.vehicleModel`), held and stepped by `FollowController`; pure: every time
/// step is an argument. The core never reads what a model keeps, only what these requirements return.
public protocol VehicleModel: Sendable {
    /// An autopilot with its own modes and failsafes: a pilot or its failsafe may take it, it may refuse
    /// to arm, and it reports its height above home (docs/mavlink.md §7). False: FollowMe alone flies it.
    var isAutopilot: Bool { get }
    /// The model closes the velocity loop itself: the core hands it each motion's `MotionContext` and,
    /// during the take-off, the attitude the firmware flies (`observeTakeOff`).
    var closesVelocityLoop: Bool { get }

    /// Braking the separation rules count on, m/s², with `authorityFraction` (0…1) of the vehicle's full
    /// braking authority and no wind.
    func brakingAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double
    /// From a command leaving the core to braking at full rate, seconds, `commandLatencySeconds` included.
    func reactionSeconds(commandLatencySeconds: Double) -> Double
    /// Braking a wind towards the person takes away, per m/s of that wind, 1/s (0: the vehicle holds
    /// against the wind itself).
    var windDragRatePerSecond: Double { get }
    /// How far the vehicle's velocity lags a commanded change, seconds (the lead of a turning aim point).
    var velocityLagSeconds: Double { get }
    /// The strongest wind the vehicle holds its position against, m/s: the wind failsafe's authority
    /// (`WindMonitor`); 0 when the model estimates no wind.
    var windAuthorityMetersPerSecond: Double { get }
    /// The wind the velocity loop cancels, plane m/s (zero for a vehicle that cancels it itself).
    var windEstimate: PlaneVector { get }
    /// The wind failsafe's (faster) estimate, plane m/s.
    var failsafeWindEstimate: PlaneVector { get }

    /// One control tick's look at the drone, `dt` seconds after the previous one (`climbing`: the
    /// take-off climb, with no wind learnt yet).
    mutating func observe(drone: PlaneState, noseHeadingDegrees: Double, dt: Double, climbing: Bool)
    /// The drone's horizontal acceleration under the command in force, plane m/s² (`lastMotion`: the
    /// core's last motion); the core predicts across its command latency with it.
    func acceleration(of drone: PlaneState, noseHeadingDegrees: Double, lastMotion: MotionCommand) -> PlaneVector
    /// While the vehicle's own firmware flies the take-off, above the ground, for a model that closes
    /// the velocity loop: one tick's telemetry (attitude known) and finite estimate, `dt` seconds after
    /// the previous tick.
    mutating func observeTakeOff(_ telemetry: DroneTelemetry, drone: PlaneState, noseHeadingDegrees: Double, dt: Double)
    /// Each accepted telemetry packet, as it arrives.
    mutating func observe(_ telemetry: DroneTelemetry)
    /// The set-point the family's link flies for `command`, once per command sent; nil: the link flies
    /// `command.motion` as it is.
    mutating func setpoint(for command: LinkCommand) -> VehicleSetpoint?
    /// The vehicle's own shaping limits as it reports them (nil: its default stands); a model without
    /// such limits ignores them.
    mutating func useReportedLimits(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?)
    /// Forgets the wind: the vehicle is on the ground.
    mutating func resetWind()
    /// The vehicle flew without the core's commands (a hover): forget the velocity history, keep the wind.
    mutating func restart()
}

/// A family's own set-point for one command, made by its `VehicleModel` and read only by that
/// family's link. Four numbers whose meaning the family defines; the core carries them and never reads
/// them. A value, not an existential, so that a control tick allocates nothing.
public struct VehicleSetpoint: Sendable, Hashable {
    public var values: SIMD4<Double>

    @inlinable public init(_ values: SIMD4<Double>) {
        self.values = values
    }
}

/// How a family builds its `VehicleModel` for a flight's follow parameters (`FlightStateMachine` and
/// `FollowController` build it from the parameters they validated, so the two always agree).
public struct VehicleModelBuilder: Sendable {
    /// The family's name for this kind of vehicle (e.g. for a log line).
    public let name: String
    private let make: @Sendable (FollowParameters) -> any VehicleModel

    public init(name: String, _ make: @escaping @Sendable (FollowParameters) -> any VehicleModel) {
        self.name = name
        self.make = make
    }

    /// The model for `follow`.
    public func build(_ follow: FollowParameters) -> any VehicleModel { make(follow) }
}
