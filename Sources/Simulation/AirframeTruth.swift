import FollowCore

/// A simulated airframe's ground truth: where it is, how it moves, where its nose points and how it
/// leans. The same for both simulators (`DroneSimulator`, the AR.Drone; `MAVLinkCopter`, the
/// MAVLink Copter), which step it with their own physics.
public struct AirframeTruth: Sendable, Hashable {
    /// Position on the local plane, metres east/north of home.
    public internal(set) var positionPlane: PlaneVector
    /// Ground velocity, m/s east/north.
    public internal(set) var velocityENU: PlaneVector = .zero
    /// Height above ground (home), metres.
    public internal(set) var altitudeMeters: Double = 0
    /// Vertical speed, m/s, positive up.
    public internal(set) var climbRateMetersPerSecond: Double = 0
    /// Nose heading, compass degrees [0, 360).
    public internal(set) var noseHeadingDegrees: Double
    /// Yaw rate, degrees per second, positive clockwise.
    public internal(set) var yawRateDegreesPerSecond: Double = 0
    /// Tilt as a world-frame vector, radians east/north: the direction and angle the thrust leans
    /// (the airframe accelerates toward it).
    public internal(set) var tiltWorldRadians: PlaneVector = .zero

    /// At rest on the ground at `positionPlane`, nose at `noseHeadingDegrees` (normalised to [0, 360)).
    init(positionPlane: PlaneVector, noseHeadingDegrees: Double) {
        self.positionPlane = positionPlane
        self.noseHeadingDegrees = normalizedDegrees360(noseHeadingDegrees)
    }

    /// Touch-down: on the ground and still (height, climb and ground speed, tilt and yaw rate zero);
    /// position and nose stay where they are.
    mutating func settleOnGround() {
        altitudeMeters = 0
        climbRateMetersPerSecond = 0
        velocityENU = .zero
        tiltWorldRadians = .zero
        yawRateDegreesPerSecond = 0
    }
}

/// A simulator whose state includes an `AirframeTruth`: its fields read as the simulator's own
/// (`simulator.positionPlane`); the simulator's stepping writes `truth`.
public protocol SimulatedAirframe {
    var truth: AirframeTruth { get }
}

extension SimulatedAirframe {
    public var positionPlane: PlaneVector { truth.positionPlane }
    public var velocityENU: PlaneVector { truth.velocityENU }
    public var altitudeMeters: Double { truth.altitudeMeters }
    public var climbRateMetersPerSecond: Double { truth.climbRateMetersPerSecond }
    public var noseHeadingDegrees: Double { truth.noseHeadingDegrees }
    public var yawRateDegreesPerSecond: Double { truth.yawRateDegreesPerSecond }
    public var tiltWorldRadians: PlaneVector { truth.tiltWorldRadians }
}
