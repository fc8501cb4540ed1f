import FollowCore

/// What an autopilot does with a velocity set-point, as the stopping model and latency prediction
/// count on it (docs/stopping-model.md §7).
public struct AutopilotResponse: Sendable, Hashable {
    /// Horizontal acceleration limit of its velocity shaping, m/s² (ArduCopter `WPNAV_ACCEL`, PX4 `MPC_ACC_HOR`).
    public var maxAccelerationMetersPerSecondSquared: Double
    /// Jerk limit of that shaping, m/s³ (ArduCopter `PSC_JERK_XY`, PX4 `MPC_JERK_AUTO`).
    public var maxJerkMetersPerSecondCubed: Double
    /// How far the vehicle's velocity lags the shaped target, seconds (docs/stopping-model.md §7).
    public var trackingTimeConstantSeconds: Double

    /// ArduCopter's defaults (docs/stopping-model.md §7), until the vehicle reports its own.
    public static let arduCopterDefaults = AutopilotResponse(
        maxAccelerationMetersPerSecondSquared: 2.5, maxJerkMetersPerSecondCubed: 5, trackingTimeConstantSeconds: 0.45)
    /// PX4's defaults (docs/stopping-model.md §7).
    public static let px4Defaults = AutopilotResponse(
        maxAccelerationMetersPerSecondSquared: 3, maxJerkMetersPerSecondCubed: 4, trackingTimeConstantSeconds: 0.25)

    /// Velocity step to reached, seconds (the latency prediction's first-order stand-in): half the jerk
    /// ramp plus the tracking lag.
    @inlinable public var responseTimeConstantSeconds: Double {
        0.5 * maxAccelerationMetersPerSecondSquared / maxJerkMetersPerSecondCubed + trackingTimeConstantSeconds
    }
}

/// A PX4 or ArduPilot multicopter as the core's `VehicleModel`: the autopilot closes its own velocity
/// loop, holds against the wind itself and may be taken by a pilot or its failsafe (docs/mavlink.md §7);
/// the core predicts a first-order response to its last velocity, within the autopilot's acceleration
/// limit, and brakes with that limit (docs/stopping-model.md §7). No set-point of its own: the link flies
/// the motion as a velocity set-point.
public struct AutopilotVehicleModel: VehicleModel {
    /// The shaping limits in force: the autopilot's defaults until it reports its own.
    public private(set) var response: AutopilotResponse

    public init(response: AutopilotResponse) {
        self.response = response
    }

    public var isAutopilot: Bool { true }
    public var closesVelocityLoop: Bool { false }

    public func brakingAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double {
        authorityFraction * response.maxAccelerationMetersPerSecondSquared
    }

    public func reactionSeconds(commandLatencySeconds: Double) -> Double {
        commandLatencySeconds + response.responseTimeConstantSeconds
    }

    public var windDragRatePerSecond: Double { 0 }
    public var velocityLagSeconds: Double { response.responseTimeConstantSeconds }
    public var windAuthorityMetersPerSecond: Double { 0 }
    public var windEstimate: PlaneVector { .zero }
    public var failsafeWindEstimate: PlaneVector { .zero }

    public mutating func observe(drone: PlaneState, noseHeadingDegrees: Double, dt: Double, climbing: Bool) {}

    /// (v_cmd − v)/τ within the acceleration limit.
    public func acceleration(of drone: PlaneState, noseHeadingDegrees: Double, lastMotion: MotionCommand) -> PlaneVector {
        ((lastMotion.velocity - drone.velocity) / response.responseTimeConstantSeconds)
            .clamped(toLength: response.maxAccelerationMetersPerSecondSquared)
    }

    public mutating func observeTakeOff(_ telemetry: DroneTelemetry, drone: PlaneState, noseHeadingDegrees: Double, dt: Double) {}
    public mutating func observe(_ telemetry: DroneTelemetry) {}
    public mutating func setpoint(for command: LinkCommand) -> VehicleSetpoint? { nil }

    /// A finite, positive limit replaces the one in force.
    public mutating func useReportedLimits(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?) {
        if let a = accelerationMetersPerSecondSquared, a.isFinite, a > 0 { response.maxAccelerationMetersPerSecondSquared = a }
        if let j = jerkMetersPerSecondCubed, j.isFinite, j > 0 { response.maxJerkMetersPerSecondCubed = j }
    }

    public mutating func resetWind() {}
    public mutating func restart() {}
}

extension VehicleModelBuilder {
    /// An autopilot with `response` as its limits until it reports its own (`AutopilotVehicleModel`).
    public static func velocityLoop(_ response: AutopilotResponse) -> VehicleModelBuilder {
        VehicleModelBuilder { _ in AutopilotVehicleModel(response: response) }
    }
}

/// The MAVLink family: PX4 and ArduPilot multicopters (`[drone] protocol = "mavlink"`).
public enum MAVLinkFamily: DroneFamily {
    public static let name = "mavlink"

    /// `ardupilot` (the default) or `px4`: each autopilot's default limits until the vehicle reports its own.
    public static func vehicleModel(variant: String?) -> VehicleModelBuilder? {
        switch MAVLinkLinkConfiguration.Autopilot(rawValue: variant ?? MAVLinkLinkConfiguration.Autopilot.ardupilot.rawValue) {
        case .ardupilot: .velocityLoop(.arduCopterDefaults)
        case .px4: .velocityLoop(.px4Defaults)
        case nil: nil
        }
    }
}
