/// A drone family's model of how its vehicle answers the core's motion — prediction, braking, wind —
/// and its set-point for each command (docs/architecture.md §4, docs/stopping-model.md §1, §5–7).
/// Held and stepped by `FollowController`; pure: every time step is an argument.
public protocol VehicleModel: Sendable {
    /// An autopilot with its own modes and failsafes, which a pilot may take (docs/mavlink.md §7).
    var isAutopilot: Bool { get }
    /// The model closes the velocity loop: it gets each motion's `MotionContext` and `observeTakeOff`.
    var closesVelocityLoop: Bool { get }

    /// Braking at `authorityFraction` (0…1) of the vehicle's full authority, no wind, m/s².
    func brakingAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double
    /// Acceleration from rest away from a point at `authorityFraction` of full authority, no wind, m/s²:
    /// what backing off from an approaching person counts on (`brakingAcceleration…` unless the vehicle
    /// may brake harder than it cruises).
    func escapeAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double
    /// From a command leaving the core to full authority from level flight, seconds, the latency included.
    func reactionSeconds(commandLatencySeconds: Double) -> Double
    /// From a command leaving the core to full braking while cruising the other way, seconds, the latency
    /// included (`reactionSeconds` unless the vehicle's attitude must swing further to brake).
    func brakingReactionSeconds(commandLatencySeconds: Double) -> Double
    /// Braking lost per m/s of wind towards the person, 1/s (0: the vehicle holds against it itself).
    var windDragRatePerSecond: Double { get }
    /// How far the vehicle's velocity lags a commanded change, seconds (the lead of a turning aim point).
    var velocityLagSeconds: Double { get }
    /// The strongest wind the vehicle holds against, m/s (`WindMonitor`); 0: no wind estimated.
    var windAuthorityMetersPerSecond: Double { get }
    /// The wind the velocity loop cancels, plane m/s (zero for a vehicle that cancels it itself).
    var windEstimate: PlaneVector { get }
    /// The wind failsafe's (faster) estimate, plane m/s.
    var failsafeWindEstimate: PlaneVector { get }

    /// One control tick's drone estimate, `dt` s after the last (`climbing`: no wind learnt yet).
    mutating func observe(drone: PlaneState, noseHeadingDegrees: Double, dt: Double, climbing: Bool)
    /// The drone's acceleration under the command in force, plane m/s² (the latency prediction's).
    func acceleration(of drone: PlaneState, noseHeadingDegrees: Double, lastMotion: MotionCommand) -> PlaneVector
    /// The firmware's take-off, airborne: one tick's telemetry (attitude known) and finite estimate.
    mutating func observeTakeOff(_ telemetry: DroneTelemetry, drone: PlaneState, noseHeadingDegrees: Double, dt: Double)
    /// Each accepted telemetry packet, as it arrives.
    mutating func observe(_ telemetry: DroneTelemetry)
    /// The set-point the family's link flies, once per command sent; nil: it flies the motion as it is.
    mutating func setpoint(for command: LinkCommand) -> VehicleSetpoint?
    /// The vehicle's shaping limits as it reports them (nil: the default stands).
    mutating func useReportedLimits(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?)
    /// Forgets the wind: the vehicle is on the ground.
    mutating func resetWind()
    /// The vehicle hovered on its own: forget the velocity history, keep the wind.
    mutating func restart()
}

/// A family's set-point for one command, made by its `VehicleModel`, read only by its link: four
/// numbers the family defines, never read by the core. A value, so a control tick allocates nothing.
public struct VehicleSetpoint: Sendable, Hashable {
    public var values: SIMD4<Double>

    @inlinable public init(_ values: SIMD4<Double>) {
        self.values = values
    }
}

/// How a family builds its `VehicleModel` for the follow parameters the core validated.
public struct VehicleModelBuilder: Sendable {
    private let make: @Sendable (FollowParameters) -> any VehicleModel

    public init(_ make: @escaping @Sendable (FollowParameters) -> any VehicleModel) {
        self.make = make
    }

    /// The model for `follow`.
    public func build(_ follow: FollowParameters) -> any VehicleModel { make(follow) }
}

extension VehicleModel {
    public func escapeAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double {
        brakingAccelerationMetersPerSecondSquared(authorityFraction: authorityFraction)
    }

    public func brakingReactionSeconds(commandLatencySeconds: Double) -> Double {
        reactionSeconds(commandLatencySeconds: commandLatencySeconds)
    }
}
